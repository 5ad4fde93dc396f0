/**
 * What push, translate and pull say about the locale files they read (DESIGN §15): each file that
 * could not be read as an error naming its line and column and what was left undone for it, and
 * each entry its format allows but Tolk does not expect as a warning at its line, once per run
 * however often the file was read. The command goes on; its exit says it partly failed
 * (`withUnreadFiles`).
 */
import { ExitCode, withUnreadFiles } from '../errors.js';
import type { FileFailure, LocalFiles, PlacedFinding, SourceFiles } from './file-sets.js';

/** Up to this many findings of one file are printed; `tolk check` lists them all. */
const PRINTED_PER_FILE = 20;

export type FileProblems = ReturnType<typeof fileProblems>;

/**
 * `undone`: what the command leaves undone for a source file and for a target file it could not
 * read (`its edits were not uploaded`).
 */
export function fileProblems(undone: { source: string; target: string }) {
  const failures = new Map<string, { failure: FileFailure; undone: string }>();
  const findings = new Map<string, PlacedFinding[]>();
  const seen = new Set<string>();

  const addFindings = (list: readonly PlacedFinding[]) => {
    for (const finding of list) {
      const id = JSON.stringify([finding.file, finding.line, finding.column, finding.key, finding.message]);
      if (seen.has(id)) continue;
      seen.add(id);
      const ofFile = findings.get(finding.file) ?? [];
      ofFile.push(finding);
      findings.set(finding.file, ofFile);
    }
  };
  const addFailure = (failure: FileFailure, what: string) => {
    if (!failures.has(failure.file)) failures.set(failure.file, { failure, undone: what });
  };

  return {
    /** A locale's target files as read: their findings and failures. */
    addLocal(local: Pick<LocalFiles, 'findings' | 'failed'> | undefined) {
      if (!local) return;
      addFindings(local.findings);
      for (const failure of local.failed.values()) addFailure(failure, undone.target);
    },
    /** The source files as read. */
    addSource(source: Pick<SourceFiles, 'findings' | 'failed'>) {
      addFindings(source.findings);
      for (const { failure } of source.failed) addFailure(failure, undone.source);
    },
    get failed(): FileFailure[] {
      return [...failures.values()].map((entry) => entry.failure);
    },
    /** The findings, as printed for people with their severity; each failure as an error, after them. */
    print(note: (text: string) => void) {
      for (const [file, list] of findings) {
        for (const finding of list.slice(0, PRINTED_PER_FILE)) {
          const subject = finding.key === null ? '' : `${finding.key}: `;
          note(
            `${finding.severity}: ${file}:${finding.line}:${finding.column}: ${subject}${finding.message}`,
          );
        }
        if (list.length > PRINTED_PER_FILE) {
          note(
            `note: ${file}: ${list.length - PRINTED_PER_FILE} more findings (\`tolk check\` lists them all)`,
          );
        }
      }
      for (const { failure, undone: what } of failures.values()) {
        note(`error: ${failure.code}: ${failure.message} — ${what}`);
      }
    },
    /** For `--json`: the files not read and the findings; nothing when there are none. */
    document(): { unreadFiles?: FileFailure[]; fileFindings?: PlacedFinding[] } {
      if (failures.size === 0 && findings.size === 0) return {};
      return {
        unreadFiles: [...failures.values()].map((entry) => entry.failure),
        fileFindings: [...findings.values()].flat(),
      };
    },
    exitCode(code: ExitCode = ExitCode.ok): ExitCode {
      return withUnreadFiles(code, failures.size);
    },
  };
}
