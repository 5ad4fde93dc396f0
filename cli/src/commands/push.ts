import type { DiffResponse } from '@tolk/contracts';
import { tolkApi } from '../api/tolk-api.js';
import { projectContext } from '../context.js';
import { ExitCode } from '../errors.js';
import { describeSource, namespaceFiles, readSourceParts, serverDocument } from '../files/file-sets.js';
import { parseLocaleDocument } from '../files/locale-files.js';
import type { Io } from '../io.js';

/** Up to this many changed keys are listed one by one; more are counted. */
const LISTED_KEYS = 20;

/**
 * Uploads the source locale's files as one source version (each read through its format and
 * checked locally first, by the server's rules; nothing is uploaded when one fails) and shows
 * the diff.
 */
export async function push(io: Io, options: { dryRun: boolean; json: boolean }) {
  const { out, project, client } = await projectContext(io, options);
  const { projectId, sourceLocale } = project.config;
  const parts = await readSourceParts(project, await namespaceFiles(project, io.cwd), io.cwd);
  const file = describeSource(parts, sourceLocale, io.cwd);
  const document = serverDocument(parts);
  parseLocaleDocument(document, parts.length === 1 ? parts[0]!.file.sourcePath : project.file, io.cwd);
  const answer = await tolkApi(client).putSource(projectId, document, options.dryRun);

  const changed = answer.diff.added.length + answer.diff.modified.length + answer.diff.deleted.length;
  const prefix = options.dryRun ? 'Dry run, nothing stored: ' : '';
  if (changed === 0) {
    out.line(
      `${prefix}${file} has no key changes; source version ${answer.version}, ${answer.keyCount} keys.`,
    );
  } else {
    const verb = options.dryRun ? 'would be' : 'is now';
    out.line(`${prefix}${file}: source version ${verb} ${answer.version}, ${answer.keyCount} keys.`);
    for (const line of describeDiff(answer.diff)) out.line(line);
  }
  if (answer.needsTranslation && !options.dryRun)
    out.line('Target locales are behind: run `tolk translate`.');
  out.document({ file, dryRun: options.dryRun, ...answer });
  return ExitCode.ok;
}

/** The keys when few, the counts when many. */
export function describeDiff(diff: DiffResponse): string[] {
  const groups = [
    ['+', 'added', diff.added],
    ['~', 'modified', diff.modified],
    ['-', 'deleted', diff.deleted],
  ] as const;
  const total = diff.added.length + diff.modified.length + diff.deleted.length;
  if (total <= LISTED_KEYS) {
    return groups.flatMap(([sign, , keys]) => keys.map((key) => `  ${sign} ${key}`));
  }
  return groups
    .filter(([, , keys]) => keys.length > 0)
    .map(([sign, label, keys]) => `  ${sign} ${keys.length} ${label}`);
}
