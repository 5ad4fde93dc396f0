/**
 * Layouts told by file and folder names alone, which several ecosystems share: a file per locale
 * (`locales/de.json`, `config/locales/de.yml`), a locale at the end of a file name
 * (`devise.de.yml`, `app_de.arb`, `Messages_de.properties`, `messages.de.xlf`), and a folder per
 * locale (`public/locales/de/common.json`). Files whose names put `{locale}` in the same place
 * are one candidate file set; an ecosystem's detector reads them and makes the file set.
 */
import { posix } from 'node:path';
import type { LocaleFormat } from '../formats/index.js';
import type { DetectionRead } from './locale-file-reading.js';
import {
  distinct,
  type FileSet,
  type FoundFile,
  type FoundFileSet,
  type LayoutSearch,
} from './layout-search.js';
import { foundFile, localeSpelledBy, spellings, splitNameAndLocale } from './locale-names.js';

export type NameRules = {
  /** The format whose spelling of locales the names are read in first. */
  format: LocaleFormat;
  extensions: readonly string[];
  /** Separators between a name and the locale at the end of a file name. */
  separators: readonly string[];
  /** Whether a folder per locale holds the files. */
  folders: boolean;
  /**
   * Whether a candidate of one locale needs a folder that says "locale files here" (`locales`,
   * `i18n`): a `de.json` or `it/settings.json` elsewhere is no app's strings until a second
   * locale says so.
   */
  oneLocaleNeedsLocaleFolder: boolean;
};

/** Files that may form one file set: the same pattern, with `{locale}` in the same place. */
export type Candidate = {
  /** The pattern with `{locale}`; for a folder per locale, up to and including `{locale}`. */
  pattern: string;
  kind: 'folder' | 'file' | 'suffix';
  /** `suffix`: the name before the locale (`devise`, `app`, `messages`). */
  name?: string;
  dir: string;
  extension: string;
  files: FoundFile[];
};

/** Folder names that say "locale files here" and so do not tell one file set from another. */
const LOCALE_FOLDERS = new Set([
  'locales',
  'locale',
  'i18n',
  'l10n',
  'lang',
  'langs',
  'languages',
  'translations',
  'messages',
  'intl',
]);
const GENERIC_FOLDERS = new Set([
  ...LOCALE_FOLDERS,
  'src',
  'public',
  'config',
  'resources',
  'main',
  'lib',
  'assets',
  'app',
  'static',
]);

/**
 * The candidates among `paths`, the one that explains the most locales first (a file two could
 * explain is given to one only, its nearest reading: a locale as the whole name, then at the end
 * of the name, then the nearest locale folder).
 */
export function nameCandidates(paths: readonly string[], rules: NameRules): Candidate[] {
  const candidates = new Map<string, Candidate>();
  const add = (candidate: Omit<Candidate, 'files'>, file: FoundFile) => {
    const key = `${candidate.kind} ${candidate.pattern} ${candidate.extension}`;
    if (!candidates.has(key)) candidates.set(key, { ...candidate, files: [] });
    candidates.get(key)!.files.push(file);
  };
  for (const path of paths) {
    const extension = posix.extname(path);
    if (!rules.extensions.includes(extension)) continue;
    const dir = posix.dirname(path);
    const stem = posix.basename(path, extension);
    const whole = localeSpelledBy(rules.format, stem);
    if (whole !== undefined) {
      add(
        { pattern: posix.join(dir, `{locale}${extension}`), kind: 'file', dir, extension },
        foundFile(path, whole),
      );
      continue;
    }
    const split = splitNameAndLocale(rules.format, stem, rules.separators);
    if (split) {
      const pattern = posix.join(dir, `${split.name}${split.separator}{locale}${extension}`);
      add({ pattern, kind: 'suffix', name: split.name, dir, extension }, foundFile(path, split.locale));
      continue;
    }
    if (!rules.folders) continue;
    const segments = dir === '.' ? [] : dir.split('/');
    for (let at = segments.length - 1; at >= 0; at--) {
      const found = localeSpelledBy(rules.format, segments[at]!);
      if (found === undefined) continue;
      const above = segments.slice(0, at).join('/');
      const namespace = [...segments.slice(at + 1), stem].join('/');
      add(
        { pattern: posix.join(above, '{locale}'), kind: 'folder', dir: above, extension },
        { ...foundFile(path, found), namespace },
      );
      break;
    }
  }
  const localesOf = (candidate: Candidate) => distinct(candidate.files.map((file) => file.locale)).length;
  return [...candidates.values()]
    .filter(
      (candidate) =>
        !rules.oneLocaleNeedsLocaleFolder ||
        localesOf(candidate) > 1 ||
        candidate.pattern.split('/').some((segment) => LOCALE_FOLDERS.has(segment.toLowerCase())),
    )
    .sort(
      (a, b) =>
        localesOf(b) - localesOf(a) || b.files.length - a.files.length || (a.pattern < b.pattern ? -1 : 1),
    );
}

/** A candidate's file read, with the document its format made of it. */
export type ReadFile = FoundFile & { document: Record<string, unknown> };

/**
 * The candidate's files that read in the format (`readOne`), one spelling per locale (the
 * format's own wins over another: `pt-BR/` over `pt_BR/`); the others left out with a note.
 */
export async function readCandidate(
  search: LayoutSearch,
  candidate: Candidate,
  readOne: (file: FoundFile, bytes: Buffer) => DetectionRead,
): Promise<ReadFile[]> {
  const spellingOf = new Map<string, string | undefined>();
  for (const file of [...candidate.files].sort(
    (a, b) => Number(a.spelled !== undefined) - Number(b.spelled !== undefined),
  )) {
    if (!spellingOf.has(file.locale)) spellingOf.set(file.locale, file.spelled);
  }
  const files: ReadFile[] = [];
  const leftOut: string[] = [];
  for (const file of candidate.files) {
    if (spellingOf.get(file.locale) !== file.spelled) {
      leftOut.push(
        `${file.path} was left out: another file of ${candidate.pattern} spells ${file.locale} otherwise`,
      );
      continue;
    }
    const read = readOne(file, await search.read(file.path));
    if ('error' in read) leftOut.push(`${file.path} was left out: ${read.error.message}`);
    else files.push({ ...file, messages: read.messages, document: read.document });
  }
  // Many files of one pattern that are no locale files are one note, not a page of them.
  if (leftOut.length > 3 && files.length === 0) {
    search.notes.push(`${leftOut[0]} (and ${leftOut.length - 1} other files of ${candidate.pattern})`);
  } else search.notes.push(...leftOut);
  return files;
}

export type PatternFileSetInput = {
  candidate: Candidate;
  files: readonly FoundFile[];
  /** The file set's format and settings, beyond its path and locale spellings. */
  settings: Omit<FileSet, 'path'>;
  /** The file that names no locale and is the source (Java's `Messages.properties`). */
  template?: string;
  /** Used for the namespace when the folders do not tell one. */
  fallbackHint?: string;
};

/** The file set of a candidate whose files were read, and the note on namespaces its files cannot be. */
export function patternFileSet(search: LayoutSearch, input: PatternFileSetInput): FoundFileSet {
  const { candidate, files, settings, template } = input;
  let path: string;
  if (candidate.kind !== 'folder') path = candidate.pattern;
  else {
    const nested = files.some((file) => file.namespace!.includes('/'));
    path = `${candidate.pattern}/${nested ? '**/*' : '{namespace}'}${candidate.extension}`;
    const cannot = distinct(files.flatMap((file) => file.namespace!.split('/'))).filter(
      (name) => name.includes('.') || name.startsWith('@') || name.length > 100,
    );
    if (cannot.length > 0) {
      search.notes.push(
        `${candidate.pattern}: ${cannot.map((name) => `"${name}"`).join(', ')} cannot be a namespace ` +
          '(a key segment has no ".", does not start with "@" and has at most 100 characters): rename the files',
      );
    }
  }
  const found = files.map(({ path: file, locale, spelled, namespace, messages }) => ({
    path: file,
    locale,
    ...(spelled === undefined ? {} : { spelled }),
    ...(namespace === undefined ? {} : { namespace }),
    ...(messages === undefined ? {} : { messages }),
  }));
  return {
    fileSet: { path, ...settings, ...(template ? { source: template } : {}), ...spellings(found) },
    locales: distinct(found.map((file) => file.locale)).sort(),
    files: [...found.map((file) => file.path), ...(template ? [template] : [])].sort(),
    found,
    namespaceHint:
      candidate.kind === 'suffix' ? candidate.name! : folderNamespace(candidate.dir, input.fallbackHint),
    source: template ? { kind: 'template', file: template } : { kind: 'files' },
  };
}

/** The last folder of `dir` that tells this file set from another (not `src`, not `locales`). */
export function folderNamespace(dir: string, fallback?: string): string {
  const segments = dir === '' || dir === '.' ? [] : dir.split('/');
  const telling = segments.filter((segment) => !GENERIC_FOLDERS.has(segment)).at(-1);
  if (telling !== undefined) return telling;
  if (fallback !== undefined) return fallback;
  return segments.length > 0 ? segments.join('-') : 'app';
}
