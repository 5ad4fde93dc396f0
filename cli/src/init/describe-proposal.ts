import type { FileSet, LayoutProposal } from './detect-layout.js';

/** The proposal as `tolk init` shows it before asking, or in the error that asks for --yes. */
export function describeProposal(proposal: LayoutProposal): string {
  const lines = ['Found the locale files of this app:'];
  const several = proposal.fileSets.length > 1;
  proposal.fileSets.forEach(({ fileSet, locales, files }, index) => {
    const seen = locales.length > 0 ? locales.join(', ') : 'no locale yet';
    const number = several ? `${index + 1}. ` : '';
    lines.push(
      `  ${number}${fileSet.path}  ${describeFileSet(fileSet)}: ${seen} (${plural(files.length, 'file')})`,
    );
  });
  const source =
    proposal.sourceLocale ??
    (proposal.sourceLocaleGuess === undefined
      ? 'not seen'
      : `not said by the files (${proposal.sourceLocaleGuess} has the most messages)`);
  const targets = proposal.targetLocales.length > 0 ? proposal.targetLocales.join(', ') : 'none seen';
  lines.push(`Source locale: ${source}; target locales: ${targets}.`);
  for (const note of proposal.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}

function describeFileSet(fileSet: FileSet): string {
  const parts = [fileSet.rails ? `${fileSet.format} (Rails)` : fileSet.format];
  if (fileSet.encoding) parts.push(fileSet.encoding);
  if (fileSet.source) parts.push(`source file ${fileSet.source}`);
  if (fileSet.namespace) parts.push(`namespace ${fileSet.namespace}`);
  for (const [locale, spelled] of Object.entries(fileSet.locales ?? {}))
    parts.push(`${locale} spelled ${spelled}`);
  return parts.join(', ');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
