/**
 * The outputs of `tolk check` (DESIGN §14): for people, one JSON document, GitHub workflow
 * commands and a GitLab Code Quality report. Each is written whole to stdout by the command.
 */
import { createHash } from 'node:crypto';
import { FINDING_KINDS, type FindingKind, type Severity } from './find-problems.js';

export const CHECK_FORMATS = ['human', 'json', 'github', 'gitlab'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** One problem, placed in a file: the shape of `findings[]` in `--json`. */
export type Finding = {
  /** The file, relative to the current directory. */
  file: string;
  /** 1-based line of the key's value in the file (1 when the key is not in it). */
  line: number;
  /** 1-based column, for what the file's format places exactly (a file's own findings). */
  column?: number;
  locale: string;
  /** The key (of the server document: `namespace.key` with several files); null for a whole file. */
  key: string | null;
  kind: FindingKind;
  severity: Severity;
  message: string;
};

export type CheckSummary = {
  sourceVersion: number;
  locales: string[];
  findings: Finding[];
  /** `--strict`: warnings fail the check too. */
  strict?: boolean;
};

/**
 * Whether the check fails: an error, or with `--strict` any warning too (DESIGN §15); a notice
 * (a key pending, DESIGN §17) never does.
 */
export function failed(summary: CheckSummary): boolean {
  return summary.findings.some(
    (finding) => finding.severity === 'error' || (summary.strict === true && finding.severity === 'warning'),
  );
}

/** The findings that are problems (errors and warnings), and the notices. */
function problemsAndNotices(findings: readonly Finding[]) {
  const problems = findings.filter((finding) => finding.severity !== 'notice');
  const errors = problems.filter((finding) => finding.severity === 'error').length;
  return { problems, errors, warnings: problems.length - errors, notices: findings.length - problems.length };
}

/** Findings in the order every output lists them: by file, line, key, kind. */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      compare(a.file, b.file) ||
      a.line - b.line ||
      compare(a.key ?? '', b.key ?? '') ||
      FINDING_KINDS.indexOf(a.kind) - FINDING_KINDS.indexOf(b.kind),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function countsByKind(findings: readonly Finding[]): Partial<Record<FindingKind, number>> {
  const counts: Partial<Record<FindingKind, number>> = {};
  for (const kind of FINDING_KINDS) {
    const count = findings.filter((finding) => finding.kind === kind).length;
    if (count > 0) counts[kind] = count;
  }
  return counts;
}

/**
 * The closing line: how many problems of each kind, or that there are none; with only warnings
 * (and no `--strict`), that they do not fail the check; then how many keys are pending.
 */
export function summaryLine(summary: CheckSummary): string {
  const { locales, sourceVersion } = summary;
  const { problems, errors, warnings, notices } = problemsAndNotices(summary.findings);
  const checked = `${plural(locales.length, 'locale')} checked against source version ${sourceVersion}`;
  const pending =
    notices === 0
      ? ''
      : ` ${notices} pending: new or changed against the server's main source, translated once pushed there ` +
        '(`--require-translations` fails on them).';
  if (problems.length === 0) return `No problems: ${checked}.${pending}`;
  const files = new Set(problems.map((finding) => finding.file)).size;
  const kinds = Object.entries(countsByKind(problems))
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
  const outcome =
    errors > 0 || summary.strict ? '' : ' Only warnings: the check passes (`--strict` fails on them).';
  return (
    `${plural(problems.length, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}) ` +
    `in ${plural(files, 'file')}: ${kinds}; ${checked}.${outcome}${pending}`
  );
}

/**
 * For people: the findings grouped by file, one line each (`  12  error    placeholder  key:
 * message`), then the summary line.
 */
export function humanReport(summary: CheckSummary): string {
  const lines: string[] = [];
  const findings = sortFindings(summary.findings);
  const width = Math.max(0, ...findings.map((finding) => String(finding.line).length));
  const kindWidth = Math.max(0, ...findings.map((finding) => finding.kind.length));
  let file: string | undefined;
  for (const finding of findings) {
    if (finding.file !== file) {
      if (file !== undefined) lines.push('');
      file = finding.file;
      lines.push(`${finding.file} (${finding.locale})`);
    }
    // A key with a line break would break the line: it is shown quoted, as JSON.
    const key =
      finding.key !== null && /[\r\n]/.test(finding.key) ? JSON.stringify(finding.key) : finding.key;
    const subject = key === null ? '' : `${key}: `;
    lines.push(
      `  ${String(finding.line).padStart(width)}  ${finding.severity.padEnd(7)}  ${finding.kind.padEnd(kindWidth)}  ${subject}${finding.message}`,
    );
  }
  if (lines.length > 0) lines.push('');
  lines.push(summaryLine(summary));
  return lines.join('\n') + '\n';
}

/** `--json`: one document (its shape is documented in the README). */
export function jsonReport(summary: CheckSummary): string {
  const findings = sortFindings(summary.findings);
  // A notice is neither: `byKind.pending` counts the keys pending.
  const { errors, warnings } = problemsAndNotices(findings);
  return (
    JSON.stringify(
      {
        ok: !failed(summary),
        sourceVersion: summary.sourceVersion,
        locales: summary.locales,
        counts: { errors, warnings, byKind: countsByKind(findings) },
        findings,
      },
      null,
      2,
    ) + '\n'
  );
}

/** GitHub's escaping of a workflow command's message (actions/toolkit `escapeData`). */
export function escapeGithubData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** GitHub's escaping of a workflow command's property value (`escapeProperty`): also `:` and `,`. */
export function escapeGithubProperty(text: string): string {
  return escapeGithubData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/**
 * `--format github`: one workflow command per finding (`::error file=…,line=…,title=…::message`,
 * `::warning` for warnings, `::notice` for notices), which GitHub Actions shows as annotations on
 * the files.
 */
export function githubReport(summary: CheckSummary): string {
  return sortFindings(summary.findings)
    .map((finding) => {
      const title = `tolk check: ${finding.kind} (${finding.locale})`;
      const message = finding.key === null ? finding.message : `${finding.key}: ${finding.message}`;
      const properties = [
        `file=${finding.file}`,
        `line=${finding.line}`,
        ...(finding.column === undefined ? [] : [`col=${finding.column}`]),
        `title=${title}`,
      ]
        .map((property) => {
          const equals = property.indexOf('=');
          return property.slice(0, equals + 1) + escapeGithubProperty(property.slice(equals + 1));
        })
        .join(',');
      return `::${finding.severity} ${properties}::${escapeGithubData(message)}\n`;
    })
    .join('');
}

/**
 * GitLab's Code Quality severity of a finding: a file not read is a blocker; a broken message (ICU,
 * placeholders, markup) can fail at runtime; the other errors show wrong or no text; the warnings
 * are for a person to review; a notice is information.
 */
function gitlabSeverity(finding: Finding): 'info' | 'minor' | 'major' | 'critical' | 'blocker' {
  if (finding.kind === 'unreadable') return 'blocker';
  if (finding.severity === 'notice') return 'info';
  if (finding.severity === 'warning') return 'minor';
  return BREAKS_AT_RUNTIME.has(finding.kind) ? 'critical' : 'major';
}

const BREAKS_AT_RUNTIME = new Set<FindingKind>(['icu', 'placeholder', 'markup']);

/**
 * `--format gitlab`: a Code Quality report (a JSON array), for `artifacts: reports:
 * codequality`. The fingerprint hashes what the finding is about (kind, file, locale, key), not
 * its line or wording, so GitLab sees the same problem in two pipelines as one.
 */
export function gitlabReport(summary: CheckSummary): string {
  const issues = sortFindings(summary.findings).map((finding) => ({
    description: `${finding.locale}${finding.key === null ? '' : ` ${finding.key}`}: ${finding.message}`,
    check_name: `tolk-${finding.kind}`,
    fingerprint: createHash('sha256')
      .update(JSON.stringify([finding.kind, finding.file, finding.locale, finding.key]))
      .digest('hex'),
    severity: gitlabSeverity(finding),
    location: { path: finding.file, lines: { begin: finding.line } },
  }));
  return JSON.stringify(issues, null, 2) + '\n';
}

export function report(format: CheckFormat, summary: CheckSummary): string {
  switch (format) {
    case 'human':
      return humanReport(summary);
    case 'json':
      return jsonReport(summary);
    case 'github':
      return githubReport(summary);
    case 'gitlab':
      return gitlabReport(summary);
  }
}
