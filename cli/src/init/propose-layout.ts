/**
 * From the file sets found to what `tolk init` proposes: the source locale, the target locales
 * (every other locale seen on disk), and with several file sets a namespace for each. Also used
 * when the user keeps only some of the file sets.
 */
import { NAMESPACE_PLACEHOLDER } from '../config/project-config.js';
import { distinct, type DetectedFileSet, type FoundFileSet } from './layout-search.js';

export type LayoutProposal = {
  fileSets: DetectedFileSet[];
  /**
   * The locale the app's strings are written in: the one the layout names, else English when
   * its files are there. Undefined when the files do not tell.
   */
  sourceLocale?: string;
  /**
   * When no file tells the source locale and none is a template: the locale with the most files
   * and messages, offered when asking; `tolk init --yes` then needs `--source`.
   */
  sourceLocaleGuess?: string;
  /** Every other locale seen on disk, sorted. */
  targetLocales: string[];
  /** What was decided and why (several layouts, files left out, a source locale not known). */
  notes: string[];
};

/** The proposal for `found` (in any order); `notes` are the detection's, shown first. */
export function proposeLayout(found: readonly FoundFileSet[], notes: readonly string[]): LayoutProposal {
  const all = [...found]
    .map((set) => ({ ...set, fileSet: { ...set.fileSet } }))
    .sort((a, b) => (a.fileSet.path < b.fileSet.path ? -1 : 1));
  const said = [...notes];
  const { sourceLocale, guess } = sourceOf(all, said);
  const sets = sourceLocale === undefined ? all : withSourceFiles(all, sourceLocale, said);
  nameNamespaces(sets, said);
  const source = sourceLocale ?? guess;
  return {
    fileSets: sets.map(({ fileSet, locales, files }) => ({ fileSet, locales, files })),
    ...(sourceLocale === undefined ? {} : { sourceLocale }),
    ...(guess === undefined ? {} : { sourceLocaleGuess: guess }),
    targetLocales: distinct(sets.flatMap((set) => set.locales))
      .filter((locale) => locale !== source)
      .sort(),
    notes: said,
  };
}

/**
 * The source locale: the one the layouts name (the first, when they differ: a note says so),
 * else `en` when a file of it is there, else the English locale with the most messages among
 * files that tell the source by themselves. A template that names no locale leaves it to
 * `--source` (English when not given); otherwise the locale with the most files, then messages
 * is only a guess.
 */
function sourceOf(sets: readonly FoundFileSet[], notes: string[]): { sourceLocale?: string; guess?: string } {
  const declared = sets.flatMap((set) =>
    set.source.kind === 'declared' ? [{ set, locale: set.source.locale }] : [],
  );
  const [first] = declared;
  if (first) {
    for (const other of declared.filter((one) => one.locale !== first.locale)) {
      notes.push(
        `${other.set.fileSet.path} is written in ${other.locale}, ${first.set.fileSet.path} in ${first.locale}: the project has one source locale`,
      );
    }
    return { sourceLocale: first.locale };
  }
  if (sets.some((set) => set.locales.includes('en'))) return { sourceLocale: 'en' };
  const templates = sets.flatMap((set) => (set.source.kind === 'template' ? [set.source.file] : []));
  if (templates.length > 0) {
    notes.push(
      `${templates.join(', ')} name${templates.length === 1 ? 's' : ''} no locale: the source locale is the one --source names (en when not given)`,
    );
    return {};
  }
  const ranked = rankedLocales(sets);
  const english = ranked.find((locale) => locale.split('-')[0] === 'en');
  if (english !== undefined) return { sourceLocale: english };
  return ranked[0] === undefined ? {} : { guess: ranked[0] };
}

/**
 * The locales of the files that tell the source by themselves, the most complete first: the
 * most files, then the most messages (a source has every key, its targets catch up; an i18next
 * plural group counts once, as Polish has more forms than English), then the first code.
 */
function rankedLocales(sets: readonly FoundFileSet[]): string[] {
  const score = new Map<string, { files: number; messages: number }>();
  for (const file of sets.flatMap((set) => (set.source.kind === 'files' ? set.found : []))) {
    const entry = score.get(file.locale) ?? { files: 0, messages: 0 };
    entry.files += 1;
    entry.messages += file.messages ?? 0;
    score.set(file.locale, entry);
  }
  return [...score.entries()]
    .sort(([a, x], [b, y]) => y.files - x.files || y.messages - x.messages || (a < b ? -1 : 1))
    .map(([locale]) => locale);
}

/**
 * The file sets that have a source file for `sourceLocale`: a set whose source is one of its
 * locales' files but has none of that locale is left out (its files could not be pushed), and a
 * template's set says so of a file of the source locale beside the template, which Tolk leaves as
 * it is.
 */
function withSourceFiles(sets: FoundFileSet[], sourceLocale: string, notes: string[]): FoundFileSet[] {
  return sets.filter((set) => {
    if (set.source.kind === 'template') {
      const own = set.found.find((file) => file.locale === sourceLocale);
      if (own)
        notes.push(`${own.path} is left as it is: ${set.source.file} is the source of ${sourceLocale}`);
      return true;
    }
    if (set.source.kind === 'declared' || set.locales.includes(sourceLocale)) return true;
    notes.push(`${set.fileSet.path} was left out: it has no file of ${sourceLocale}, the source locale`);
    return false;
  });
}

/**
 * With several file sets, each is a namespace of the project's keys: a set without
 * `{namespace}` gets a fixed one, a valid key segment no other set uses. Two sets whose files
 * name the same namespaces cannot be one project: the second is left out.
 */
function nameNamespaces(sets: FoundFileSet[], notes: string[]) {
  const named = (set: FoundFileSet) =>
    set.fileSet.path.includes(NAMESPACE_PLACEHOLDER) || set.fileSet.path.includes('**');
  const taken = new Map<string, string>();
  for (const set of [...sets].filter(named)) {
    const own = distinct(set.found.flatMap((file) => (file.namespace === undefined ? [] : [file.namespace])));
    const clash = own.find((namespace) => taken.has(namespace));
    if (clash !== undefined) {
      notes.push(
        `${set.fileSet.path} was left out: its namespace ${clash} is also one of ${taken.get(clash)}; ` +
          'one project holds a namespace once (run tolk init in each app folder, or name the files with --files)',
      );
      sets.splice(sets.indexOf(set), 1);
      continue;
    }
    own.forEach((namespace) => taken.set(namespace, set.fileSet.path));
  }
  if (sets.length < 2) return;
  for (const set of sets.filter((one) => !named(one))) {
    const base = validNamespace(set.namespaceHint);
    let namespace = base;
    for (let n = 2; taken.has(namespace); n++) namespace = `${base}-${n}`;
    taken.set(namespace, set.fileSet.path);
    set.fileSet.namespace = namespace;
  }
  notes.push(
    `Found ${sets.length} file sets: each is a namespace of the project's keys ` +
      `(${sets.map((set) => set.fileSet.namespace ?? `${set.fileSet.path}'s file names`).join(', ')}). ` +
      'Keep the ones you want, or name the files with --files.',
  );
}

function validNamespace(hint: string): string {
  const cleaned = hint.replaceAll('.', '-').replace(/^@+/, '').slice(0, 100);
  return cleaned === '' ? 'app' : cleaned;
}
