/**
 * `tolk init` finds where an app keeps its strings (issue 15, DESIGN §12): it looks at the file
 * and folder names under a directory, reads the locale each name spells through its format's
 * `readLocale`, and proposes the file sets of tolk.json (the schema of notes/layer-schema.md)
 * with the source and target locales it saw. It reads the candidate files with their formats, so
 * it proposes only files that are locale files of that format, and only reads, never writes.
 *
 * Layouts recognised, searched for anywhere below the directory (not at fixed paths):
 * - a folder per locale: `public/locales/{locale}/{namespace}.json` (i18next namespaces; nested
 *   namespace folders become `locales/{locale}/**` globs), also YAML (`config/locales/en/*.yml`);
 * - a file per locale: `locales/{locale}.json`, `config/locales/{locale}.yml`;
 * - a locale at the end of a file name: `config/locales/devise.{locale}.yml` (Rails),
 *   `lib/l10n/app_{locale}.arb` (Flutter), `messages_{locale}.properties` (Java) with the base
 *   file `messages.properties` as the source when it exists; Angular's `messages.{locale}.xlf`
 *   with `messages.xlf` as the source, the same way;
 * - Flutter's `l10n.yaml`: its `arb-dir` and `template-arb-file` name the files and the source.
 * - Android's `res/values/strings.xml` (the source) and `res/values-{locale}/strings.xml`.
 * - Xcode String Catalogs (`Localizable.xcstrings`): one file of every locale, its
 *   `sourceLanguage` the source locale.
 * - Xcode's `{locale}.lproj/<name>.strings` and `.stringsdict`, one file set per file name (see
 *   `xcodeFileSets` for the source locale and `Base.lproj`).
 * - gettext's `<domain>.pot` with `{locale}.po` beside it (`po/messages.pot`, `po/pt_BR.po`) or
 *   `{locale}/LC_MESSAGES/<domain>.po` below it; without a POT, `locale/{locale}/LC_MESSAGES/<domain>.po`
 *   (Django) with the source locale's catalog as the source.
 * Several layouts found are all proposed, each its own namespace of the project's keys; the
 * notes say so, and the user confirms or passes `--files`.
 */
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { glob } from 'tinyglobby';
import { parse as parseYaml } from 'yaml';
import { findPluralGroups } from '@tolk/locale-file';
import { formatNamed, type FormatName, type LocaleFormat } from '../formats/index.js';
import { readTargetLocale } from '../locales.js';
import type { FileSetConfig } from '../config/project-config.js';

/** One file set of tolk.json's `files` array, as the config module reads it; `format` one of ours. */
export type FileSet = FileSetConfig & { format: FormatName };

export type DetectedFileSet = {
  fileSet: FileSet;
  /** The locales whose files are on disk (canonical BCP 47), sorted. */
  locales: string[];
  /** The files found, relative to the directory, sorted. */
  files: string[];
};

export type LayoutProposal = {
  fileSets: DetectedFileSet[];
  /** The locale the app's strings are written in, when the files tell. */
  sourceLocale?: string;
  /** Every other locale seen on disk, sorted. */
  targetLocales: string[];
  /** What was decided and why (several layouts, files left out, a source locale not known). */
  notes: string[];
};

/** Folders that hold copies, dependencies or build output, never an app's own locale files. */
const IGNORED = [
  '**/node_modules/**',
  '**/.git/**',
  '**/dist/**',
  '**/build/**',
  '**/vendor/**',
  '**/coverage/**',
  '**/.dart_tool/**',
  '**/Pods/**',
  '**/target/**',
  '**/tmp/**',
  '**/.next/**',
];
const SEARCH_DEPTH = 10;
/**
 * Source files that name no locale, alone before any target exists: Java's `messages.properties`,
 * Angular's `messages.xlf` (`ng extract-i18n`; its targets are `messages.{locale}.xlf`).
 */
const BASE_FILES = new Set(['messages.properties', 'messages.xlf']);

type Family = 'json' | 'arb' | 'yaml' | 'properties' | 'xliff';
const FAMILY_OF_EXTENSION: Record<string, Family> = {
  '.json': 'json',
  '.arb': 'arb',
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.properties': 'properties',
  '.xlf': 'xliff',
};
/** Separators between a name and the locale at the end of a file name, per family. */
const NAME_LOCALE_SEPARATORS: Record<Family, readonly string[]> = {
  json: ['.', '_'],
  arb: ['_'],
  yaml: ['.', '_'],
  properties: ['_'],
  xliff: ['.'],
};

const LANGUAGE_NAMES = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });

/** Language, script and region as apps write them in paths: `zh_CN`, `en-us`, `zh_Hant_TW`. */
const LOCALE_LIKE = /^[a-z]{2,3}(?:[-_][a-z]{4})?(?:[-_](?:[a-z]{2}|\d{3}))?$/i;

type SpelledLocale = { locale: string; spelled: string; foreign: boolean };

/**
 * The locale a name in a path spells, or undefined: in the format's own spelling (`readLocale`),
 * or else in another common one (`zh_CN` in an i18next folder, `en-US` in an ARB file name),
 * which the file set's `locales` map then names. The language must be one CLDR names: BCP 47's
 * syntax alone takes `admin` or `common` (five to eight letters) for languages, and namespaces
 * are named like that.
 */
function localeSpelledBy(format: LocaleFormat, spelled: string): SpelledLocale | undefined {
  const native = format.readLocale(spelled);
  let locale = native;
  if (locale === undefined && LOCALE_LIKE.test(spelled)) {
    const parsed = readTargetLocale(spelled);
    if (parsed.ok) locale = parsed.locale;
  }
  if (locale === undefined) return undefined;
  const language = locale.split('-')[0]!;
  if (LANGUAGE_NAMES.of(language) === undefined) return undefined;
  return { locale, spelled, foreign: native === undefined };
}

function formatOf(family: Family): LocaleFormat {
  return formatNamed(family)!;
}

type FoundFile = {
  path: string;
  locale: string;
  /** How the path spells the locale, when the format spells it otherwise (`zh_CN`). */
  spelled?: string;
  namespace?: string;
  /** Its messages once read (an i18next plural group counts once). */
  messages?: number;
};

/** A file set found, with what choosing the source locale and naming namespaces needs. */
type Found = DetectedFileSet & {
  found: FoundFile[];
  namespaceHint: string;
  /** Whether its files' locales tell the source locale (not so with a base file as source). */
  voting: boolean;
};

/** Files that may form one file set: the same pattern, with `{locale}` in the same place. */
type Candidate = {
  family: Family;
  /** The pattern with `{locale}`; for a folder per locale, up to and including `{locale}/`. */
  pattern: string;
  kind: 'folder' | 'file' | 'suffix';
  /** `suffix`: the name before the locale (`devise`, `app`, `messages`). */
  name?: string;
  dir: string;
  extension: string;
  files: FoundFile[];
};

export async function detectLayout(root: string): Promise<LayoutProposal> {
  const paths = await glob(['**/*.{json,arb,yml,yaml,properties,xlf}'], {
    cwd: root,
    ignore: IGNORED,
    deep: SEARCH_DEPTH,
    followSymbolicLinks: false,
  });
  paths.sort();
  const notes: string[] = [];
  const read = (path: string) => readFile(posix.join(root, path));
  const claimed = new Set<string>();
  const chosen: Found[] = [];
  let templateLocale: string | undefined;

  for (const config of paths.filter((path) => posix.basename(path) === 'l10n.yaml')) {
    const flutter = await flutterFileSet(config, paths, read, notes);
    if (!flutter) continue;
    flutter.files.forEach((file) => claimed.add(file));
    templateLocale ??= flutter.templateLocale;
    chosen.push(flutter.set);
  }

  const candidates = candidatesOf(paths.filter((path) => !claimed.has(path)));
  // The layout that explains the most locales wins a file that two layouts could explain.
  candidates.sort(
    (a, b) =>
      distinct(b.files.map((file) => file.locale)).length -
        distinct(a.files.map((file) => file.locale)).length ||
      b.files.length - a.files.length ||
      (a.pattern < b.pattern ? -1 : 1),
  );
  for (const candidate of candidates) {
    candidate.files = candidate.files.filter((file) => !claimed.has(file.path));
    if (candidate.files.length === 0) continue;
    const detected = await fileSetOf(candidate, paths, read, notes);
    if (!detected) continue;
    detected.files.forEach((file) => claimed.add(file));
    chosen.push(detected);
  }

  for (const base of paths.filter((path) => BASE_FILES.has(posix.basename(path)))) {
    if (claimed.has(base)) continue;
    const xliff = base.endsWith('.xlf');
    const encoding = xliff ? undefined : await encodingOf([base], read);
    chosen.push({
      fileSet: {
        path: posix.join(
          posix.dirname(base),
          xliff ? 'messages.{locale}.xlf' : 'messages_{locale}.properties',
        ),
        format: xliff ? 'xliff' : 'properties',
        ...(encoding ? { encoding } : {}),
        source: base,
      },
      locales: [],
      files: [base],
      found: [],
      namespaceHint: 'messages',
      voting: false,
    });
  }

  chosen.push(...(await androidFileSets(root)));

  const catalogs = await xcstringsFileSets(root, notes);
  chosen.push(...catalogs.sets);
  templateLocale ??= catalogs.sourceLocale;
  const xcode = await xcodeFileSets(root, read, notes);
  templateLocale ??= xcode.sourceLocale;
  chosen.push(...xcode.sets);
  chosen.push(...(await gettextFileSets(root, read, notes)));

  chosen.sort((a, b) => (a.fileSet.path < b.fileSet.path ? -1 : 1));
  nameNamespaces(chosen, notes);

  const sourceLocale = templateLocale ?? mostCompleteLocale(chosen.filter((set) => set.voting));
  if (sourceLocale === undefined && chosen.some((set) => set.fileSet.source !== undefined)) {
    const bases = chosen.flatMap((set) => (set.fileSet.source ? [set.fileSet.source] : []));
    notes.push(
      `${bases.join(', ')} name${bases.length === 1 ? 's' : ''} no locale: the source locale is the one --source names (en when not given)`,
    );
  }
  const targetLocales = distinct(chosen.flatMap((set) => set.locales))
    .filter((locale) => locale !== sourceLocale)
    .sort();
  return {
    fileSets: chosen.map(({ fileSet, locales, files }) => ({ fileSet, locales, files })),
    ...(sourceLocale === undefined ? {} : { sourceLocale }),
    targetLocales,
    notes,
  };
}

/**
 * Android: each `res/values/strings.xml` is the source of `res/values-{locale}/strings.xml`, its
 * targets the sibling `values-*` folders that spell a locale (`values-pl`, `values-pt-rBR`,
 * `values-b+zh+Hant`; `values-night` or `values-v21` spell none).
 */
async function androidFileSets(root: string): Promise<Found[]> {
  const paths = await glob(['**/res/values*/strings.xml'], {
    cwd: root,
    ignore: IGNORED,
    deep: SEARCH_DEPTH,
    followSymbolicLinks: false,
  });
  paths.sort();
  const android = formatNamed('android')!;
  return paths
    .filter((path) => posix.basename(posix.dirname(path)) === 'values')
    .map((base) => {
      const res = posix.dirname(posix.dirname(base));
      const found = paths.flatMap((path) => {
        const folder = posix.dirname(path);
        if (posix.dirname(folder) !== res || !posix.basename(folder).startsWith('values-')) return [];
        const locale = android.readLocale(posix.basename(folder).slice('values-'.length));
        return locale ? [{ path, locale }] : [];
      });
      return {
        fileSet: { path: posix.join(res, 'values-{locale}', 'strings.xml'), format: 'android', source: base },
        locales: distinct(found.map((file) => file.locale)).sort(),
        files: [base, ...found.map((file) => file.path)].sort(),
        found,
        namespaceHint: 'strings',
        voting: false,
      } satisfies Found;
    });
}

/**
 * Xcode String Catalogs: each `*.xcstrings` is a file set of its own (one file holds every
 * locale), its locales the catalog's localizations; the source locale is its `sourceLanguage`
 * (the first catalog's, when several say otherwise: a note tells).
 */
async function xcstringsFileSets(
  root: string,
  notes: string[],
): Promise<{ sets: Found[]; sourceLocale?: string }> {
  const paths = await glob(['**/*.xcstrings'], {
    cwd: root,
    ignore: XCODE_IGNORED,
    deep: SEARCH_DEPTH,
    followSymbolicLinks: false,
  });
  paths.sort();
  const format = formatNamed('xcstrings')!;
  const sets: Found[] = [];
  let sourceLocale: string | undefined;
  for (const path of paths) {
    const bytes = await readFile(posix.join(root, path));
    let catalog: { sourceLanguage?: unknown; strings?: Record<string, { localizations?: object }> };
    let source: string | undefined;
    try {
      catalog = JSON.parse(bytes.toString('utf8')) as typeof catalog;
      source =
        typeof catalog.sourceLanguage === 'string' ? format.readLocale(catalog.sourceLanguage) : undefined;
      if (source === undefined)
        throw new Error(`its sourceLanguage ${JSON.stringify(catalog.sourceLanguage)} is no locale`);
      // Read through the format: a catalog of a version it does not know is left out.
      format.read({ bytes, locale: source, path, options: {} });
    } catch (error) {
      notes.push(`${path} was left out: ${(error as Error).message}`);
      continue;
    }
    const spelled = new Set(
      Object.values(catalog.strings ?? {}).flatMap((string) => Object.keys(string?.localizations ?? {})),
    );
    const locales = [...spelled].flatMap((name) => {
      const locale = format.readLocale(name);
      return locale === undefined ? [] : [locale];
    });
    if (sourceLocale !== undefined && source !== sourceLocale) {
      notes.push(
        `${path} is written in ${source}, another catalog in ${sourceLocale}: the project has one source locale`,
      );
    }
    sourceLocale ??= source;
    sets.push({
      fileSet: { path, format: 'xcstrings' },
      locales: distinct([source, ...locales]).sort(),
      files: [path],
      found: [],
      namespaceHint: posix.basename(path, '.xcstrings'),
      voting: false,
    });
  }
  return sourceLocale === undefined ? { sets } : { sets, sourceLocale };
}

/** Flutter's `l10n.yaml`: `arb-dir` (default `lib/l10n`) and `template-arb-file` (`app_en.arb`). */
async function flutterFileSet(
  config: string,
  paths: readonly string[],
  read: (path: string) => Promise<Buffer>,
  notes: string[],
) {
  let settings: unknown;
  try {
    settings = parseYaml((await read(config)).toString('utf8'));
  } catch (error) {
    notes.push(`${config} is not YAML (${(error as Error).message.split('\n')[0]}); left out`);
    return undefined;
  }
  const values =
    typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>) : {};
  const arbDir = typeof values['arb-dir'] === 'string' ? values['arb-dir'] : 'lib/l10n';
  const template =
    typeof values['template-arb-file'] === 'string' ? values['template-arb-file'] : 'app_en.arb';
  const dir = posix.normalize(posix.join(posix.dirname(config), arbDir)).replace(/\/$/, '');
  const split = splitNameAndLocale(formatOf('arb'), posix.basename(template, '.arb'), ['_']);
  if (!split) {
    notes.push(
      `${config}: the template-arb-file ${template} names no locale at its end (app_en.arb); left out`,
    );
    return undefined;
  }
  const prefix = `${split.name}_`;
  const files: FoundFile[] = [];
  for (const path of paths) {
    if (posix.dirname(path) !== dir || !path.endsWith('.arb')) continue;
    const stem = posix.basename(path, '.arb');
    if (!stem.startsWith(prefix)) continue;
    const found = localeSpelledBy(formatOf('arb'), stem.slice(prefix.length));
    if (found !== undefined) files.push(foundFile(path, found));
  }
  const set: Found = {
    fileSet: { path: posix.join(dir, `${prefix}{locale}.arb`), format: 'arb', ...spellings(files) },
    locales: distinct(files.map((file) => file.locale)).sort(),
    files: files.map((file) => file.path),
    found: files,
    namespaceHint: split.name,
    voting: true,
  };
  return { set, files: set.files, templateLocale: split.locale.locale };
}

/** `app_pt_BR` → `app` and `pt-BR`: the first split whose end is a locale. */
function splitNameAndLocale(format: LocaleFormat, stem: string, separators: readonly string[]) {
  for (let at = 0; at < stem.length; at++) {
    const separator = stem[at]!;
    if (!separators.includes(separator) || at === 0) continue;
    const locale = localeSpelledBy(format, stem.slice(at + 1));
    if (locale !== undefined) return { name: stem.slice(0, at), separator, locale };
  }
  return undefined;
}

function foundFile(path: string, { locale, spelled, foreign }: SpelledLocale): FoundFile {
  return foreign ? { path, locale, spelled } : { path, locale };
}

/** The `locales` map of a file set whose paths spell some locale their own way. */
function spellings(files: readonly FoundFile[]): { locales?: Record<string, string> } {
  const foreign = files.filter((file) => file.spelled !== undefined);
  if (foreign.length === 0) return {};
  return { locales: Object.fromEntries(foreign.map((file) => [file.locale, file.spelled!])) };
}

function candidatesOf(paths: readonly string[]): Candidate[] {
  const candidates = new Map<string, Candidate>();
  const add = (key: string, make: () => Candidate, file: FoundFile) => {
    let candidate = candidates.get(key);
    if (!candidate) candidates.set(key, (candidate = make()));
    candidate.files.push(file);
  };
  for (const path of paths) {
    const extension = posix.extname(path);
    const family = FAMILY_OF_EXTENSION[extension];
    if (!family || posix.basename(path) === 'l10n.yaml') continue;
    const format = formatOf(family);
    const dir = posix.dirname(path);
    const stem = posix.basename(path, extension);

    const stemLocale = localeSpelledBy(format, stem);
    if (stemLocale !== undefined) {
      const pattern = posix.join(dir, `{locale}${extension}`);
      add(
        `${family} ${pattern}`,
        () => ({ family, pattern, kind: 'file', dir, extension, files: [] }),
        foundFile(path, stemLocale),
      );
      continue;
    }
    const split = splitNameAndLocale(format, stem, NAME_LOCALE_SEPARATORS[family]);
    if (split) {
      const pattern = posix.join(dir, `${split.name}${split.separator}{locale}${extension}`);
      add(
        `${family} ${pattern}`,
        () => ({ family, pattern, kind: 'suffix', name: split.name, dir, extension, files: [] }),
        foundFile(path, split.locale),
      );
      continue;
    }
    if (family !== 'json' && family !== 'yaml') continue;
    // A folder per locale: the locale folder nearest the file.
    const segments = dir === '.' ? [] : dir.split('/');
    for (let at = segments.length - 1; at >= 0; at--) {
      const found = localeSpelledBy(format, segments[at]!);
      if (found === undefined) continue;
      const above = segments.slice(0, at).join('/');
      const namespace = [...segments.slice(at + 1), stem].join('/');
      const pattern = posix.join(above, '{locale}');
      add(
        `${family} ${pattern} ${extension}`,
        () => ({ family, pattern, kind: 'folder', dir: above, extension, files: [] }),
        { ...foundFile(path, found), namespace },
      );
      break;
    }
  }
  return [...candidates.values()];
}

/**
 * The candidate as a file set, its format decided by reading its files: `i18next` when a JSON
 * file holds plural keys, Rails YAML when every file's one root key is its locale. Files that do
 * not read in the format are left out with a note.
 */
async function fileSetOf(
  candidate: Candidate,
  paths: readonly string[],
  read: (path: string) => Promise<Buffer>,
  notes: string[],
): Promise<Found | undefined> {
  const { family, extension } = candidate;
  let rails = false;
  if (family === 'yaml') {
    const roots = await Promise.all(
      candidate.files.map(async (file) => yamlRootLocale(await read(file.path))),
    );
    rails = roots.every((root, index) => root !== undefined && root === candidate.files[index]!.locale);
  }
  let source: string | undefined;
  if ((family === 'properties' || family === 'xliff') && candidate.kind === 'suffix') {
    const base = posix.join(candidate.dir, `${candidate.name}${extension}`);
    if (paths.includes(base)) source = base;
  }
  const encoding =
    family === 'properties'
      ? await encodingOf([...candidate.files.map((file) => file.path), ...(source ? [source] : [])], read)
      : undefined;

  // One spelling per locale: the format's own wins over another (`pt-BR/` over `pt_BR/`).
  const spellingOf = new Map<string, string | undefined>();
  for (const file of [...candidate.files].sort(
    (a, b) => Number(a.spelled !== undefined) - Number(b.spelled !== undefined),
  )) {
    if (!spellingOf.has(file.locale)) spellingOf.set(file.locale, file.spelled);
  }
  const files: FoundFile[] = [];
  let plurals = false;
  for (const file of candidate.files) {
    if (spellingOf.get(file.locale) !== file.spelled) {
      notes.push(
        `${file.path} was left out: another file of ${candidate.pattern} spells ${file.locale} otherwise`,
      );
      continue;
    }
    const bytes = await read(file.path);
    let document: Record<string, unknown>;
    try {
      document = formatOf(family).read({
        bytes,
        locale: file.locale,
        path: file.path,
        options: { ...(rails ? { rails } : {}), ...(encoding ? { encoding } : {}) },
      });
    } catch (error) {
      notes.push(`${file.path} was left out: ${(error as Error).message}`);
      continue;
    }
    const keys = flatKeys(document);
    const groups = family === 'json' ? findPluralGroups(keys) : [];
    if (groups.length > 0) plurals = true;
    const forms = groups.reduce((sum, group) => sum + group.forms.length, 0);
    files.push({ ...file, messages: keys.length - forms + groups.length });
  }
  if (files.length === 0) return undefined;
  const badNamespaces = distinct(files.flatMap((file) => (file.namespace ?? '').split('/'))).filter(
    (name) => name.includes('.') || name.startsWith('@') || name.length > 100,
  );
  if (candidate.kind === 'folder' && badNamespaces.length > 0) {
    notes.push(
      `${candidate.pattern}: ${badNamespaces.map((name) => `"${name}"`).join(', ')} cannot be a namespace ` +
        '(a key segment has no ".", does not start with "@" and has at most 100 characters): rename the files',
    );
  }

  const format: FormatName = family === 'json' ? (plurals ? 'i18next' : 'json') : family;
  let path: string;
  if (candidate.kind !== 'folder') path = candidate.pattern;
  else if (files.every((file) => !file.namespace!.includes('/'))) {
    path = `${candidate.pattern}/{namespace}${extension}`;
  } else {
    path = `${candidate.pattern}/**/*${extension}`;
  }
  const fileSet: FileSet = {
    path,
    format,
    ...(rails ? { rails } : {}),
    ...(encoding ? { encoding } : {}),
    ...(source ? { source } : {}),
    ...spellings(files),
  };
  return {
    fileSet,
    locales: distinct(files.map((file) => file.locale)).sort(),
    files: [...files.map((file) => file.path), ...(source ? [source] : [])].sort(),
    found: files,
    namespaceHint: candidate.kind === 'suffix' ? candidate.name! : folderNamespace(candidate.dir, rails),
    voting: source === undefined,
  };
}

/** The locale a Rails file's one root key spells (`en:`), or undefined. */
function yamlRootLocale(bytes: Buffer): string | undefined {
  let document: unknown;
  try {
    document = parseYaml(bytes.toString('utf8'), { version: '1.1' });
  } catch {
    return undefined;
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
  const keys = Object.keys(document);
  return keys.length === 1 ? formatOf('yaml').readLocale(keys[0]!) : undefined;
}

/** ISO-8859-1 when any of the files is not UTF-8 (Java's encoding before Java 9); else the default. */
async function encodingOf(files: readonly string[], read: (path: string) => Promise<Buffer>) {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const file of files) {
    try {
      utf8.decode(await read(file));
    } catch {
      return 'iso-8859-1' as const;
    }
  }
  return undefined;
}

function flatKeys(document: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(document).flatMap(([name, value]) => {
    if (name.startsWith('@')) return [];
    const key = prefix + name;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? flatKeys(value as Record<string, unknown>, `${key}.`)
      : [key];
  });
}

/** Folder names that say "locale files here" and so do not tell one file set from another. */
const GENERIC_FOLDERS = new Set([
  'locales',
  'locale',
  'i18n',
  'l10n',
  'lang',
  'langs',
  'translations',
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

function folderNamespace(dir: string, rails: boolean): string {
  const segments = dir === '' || dir === '.' ? [] : dir.split('/');
  const telling = segments.filter((segment) => !GENERIC_FOLDERS.has(segment)).at(-1);
  if (telling !== undefined) return telling;
  if (rails) return 'rails';
  return segments.length > 0 ? segments.join('-') : 'app';
}

/**
 * With several file sets, each is a namespace of the project's keys (layer-schema.md): a set
 * without `{namespace}` gets a fixed one, a valid key segment that no other set uses.
 */
function nameNamespaces(sets: Found[], notes: string[]) {
  if (sets.length < 2) return;
  const taken = new Set<string>();
  for (const set of sets) {
    if (!set.fileSet.path.includes('{namespace}') && !set.fileSet.path.includes('**')) continue;
    for (const file of set.files) {
      const namespace = namespaceOfFile(set.fileSet.path, file);
      if (namespace !== undefined) taken.add(namespace);
    }
  }
  for (const set of sets) {
    if (set.fileSet.path.includes('{namespace}') || set.fileSet.path.includes('**')) continue;
    const base = validNamespace(set.namespaceHint);
    let namespace = base;
    for (let n = 2; taken.has(namespace); n++) namespace = `${base}-${n}`;
    taken.add(namespace);
    set.fileSet.namespace = namespace;
  }
  notes.push(
    `Found ${sets.length} file sets: each is a namespace of the project's keys ` +
      `(${sets.map((set) => set.fileSet.namespace ?? `${set.fileSet.path}'s file names`).join(', ')}). ` +
      'Keep the ones you want, or name the files with --files.',
  );
}

/** The namespace a folder-per-locale file stands for: its path below the locale folder. */
function namespaceOfFile(pattern: string, file: string): string | undefined {
  const above = pattern.slice(0, pattern.indexOf('{locale}'));
  if (!file.startsWith(above)) return undefined;
  const below = file.slice(above.length).split('/').slice(1).join('/');
  return below.slice(0, below.length - posix.extname(below).length);
}

function validNamespace(hint: string): string {
  const cleaned = hint.replaceAll('.', '-').replace(/^@+/, '').slice(0, 100);
  return cleaned === '' ? 'app' : cleaned;
}

/**
 * The locale with the most files, then the most messages: a source has every key, its targets
 * catch up (an i18next plural group counts once, as Polish has more forms than English). Ties go
 * to English, then the first code.
 */
function mostCompleteLocale(sets: readonly Found[]): string | undefined {
  const score = new Map<string, { files: number; messages: number }>();
  for (const file of sets.flatMap((set) => set.found)) {
    const entry = score.get(file.locale) ?? { files: 0, messages: 0 };
    entry.files += 1;
    entry.messages += file.messages ?? 0;
    score.set(file.locale, entry);
  }
  const ranked = [...score.entries()].sort(
    ([a, x], [b, y]) =>
      y.files - x.files ||
      y.messages - x.messages ||
      Number(b === 'en') - Number(a === 'en') ||
      (a < b ? -1 : 1),
  );
  return ranked[0]?.[0];
}

function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Where Xcode and Swift keep copies of strings: build output, archives, dependency checkouts. */
const XCODE_IGNORED = [
  '**/*.xcarchive/**',
  ...IGNORED,
  '**/DerivedData/**',
  '**/Carthage/**',
  '**/.build/**',
  '**/SourcePackages/**',
];
const LPROJ = '.lproj';

/** The number of keys of a file read through its format (annotations not counted), or its error. */
function keyCount(format: LocaleFormat, bytes: Buffer, locale: string, path: string): number | Error {
  try {
    return flatKeys(format.read({ bytes, locale, path, options: {} })).length;
  } catch (error) {
    return error as Error;
  }
}

/**
 * Xcode: the strings files (`.strings`) and plural rules (`.stringsdict`) of the `*.lproj` folders
 * beside each other (`MyApp/en.lproj`, `MyApp/pt-BR.lproj`). Each file name of the source
 * locale's folder is a file set of its own, `MyApp/{locale}.lproj/Localizable.strings`, with a
 * fixed namespace: the file name with its dot as a dash for a stringsdict
 * (`Localizable-stringsdict`), so that `Localizable.strings` and `Localizable.stringsdict` of
 * one app are two namespaces whose keys never meet.
 *
 * The source locale is the project's `developmentRegion` (its `project.pbxproj`) when it has
 * that folder, else the folder with the most files, then keys (English first on a tie).
 * `Base.lproj` is Interface Builder's (storyboards and xibs; their `.strings` in the language
 * folders are left to Xcode's export): its strings files are the source only when no language
 * folder holds any, and then the source locale is `developmentRegion` or `--source`. A `.strings`
 * named after a storyboard or xib of `Base.lproj` is Interface Builder's too and left out.
 */
async function xcodeFileSets(
  root: string,
  read: (path: string) => Promise<Buffer>,
  notes: string[],
): Promise<{ sets: Found[]; sourceLocale?: string }> {
  const paths = await glob(
    [`**/*${LPROJ}/*.{strings,stringsdict,storyboard,xib}`, '**/*.xcodeproj/project.pbxproj'],
    {
      cwd: root,
      ignore: XCODE_IGNORED,
      deep: SEARCH_DEPTH,
      followSymbolicLinks: false,
    },
  );
  paths.sort();
  const regions = new Map<string, string>();
  for (const pbxproj of paths.filter((path) => path.endsWith('/project.pbxproj'))) {
    const text = (await read(pbxproj)).toString('utf8');
    // One scalar of the old-style property list: `developmentRegion = en;` (quoted or not).
    const region = /\bdevelopmentRegion\s*=\s*"?([^";\s]+)"?\s*;/.exec(text)?.[1];
    const locale = region === undefined ? undefined : formatNamed('strings')!.readLocale(region);
    if (locale !== undefined) regions.set(posix.dirname(posix.dirname(pbxproj)), locale);
  }
  // The lproj folders of each app folder: folder → lproj name → its file names.
  const apps = new Map<string, Map<string, string[]>>();
  for (const path of paths.filter((path) => posix.dirname(path).endsWith(LPROJ))) {
    const lproj = posix.dirname(path);
    const app = posix.dirname(lproj);
    if (!apps.has(app)) apps.set(app, new Map());
    const folders = apps.get(app)!;
    const name = posix.basename(lproj, LPROJ);
    folders.set(name, [...(folders.get(name) ?? []), posix.basename(path)]);
  }

  const sets: Found[] = [];
  let declared: string | undefined;
  for (const [app, folders] of apps) {
    const base = folders.get('Base') ?? [];
    const builder = new Set(
      base
        .filter((file) => /\.(storyboard|xib)$/.test(file))
        .map((file) => file.replace(/\.\w+$/, '.strings')),
    );
    const isText = (file: string) => /\.(strings|stringsdict)$/.test(file) && !builder.has(file);
    // Each language folder's files that read in their formats, with their key counts.
    const languages: {
      locale: string;
      spelled: SpelledLocale;
      lproj: string;
      files: { name: string; keys: number }[];
    }[] = [];
    for (const [name, files] of folders) {
      const spelled = localeSpelledBy(formatNamed('strings')!, name);
      if (spelled === undefined) continue;
      const { locale } = spelled;
      const lproj = posix.join(app, `${name}${LPROJ}`);
      const readable: { name: string; keys: number }[] = [];
      for (const file of files.filter(isText)) {
        const path = posix.join(lproj, file);
        const format = formatNamed(file.endsWith('.stringsdict') ? 'stringsdict' : 'strings')!;
        const keys = keyCount(format, await read(path), locale, path);
        if (keys instanceof Error) notes.push(`${path} was left out: ${keys.message}`);
        else readable.push({ name: file, keys });
      }
      if (readable.length > 0) languages.push({ locale, spelled, lproj: name, files: readable });
    }
    const region = [...regions].filter(([dir]) => dir === '.' || app === dir || app.startsWith(`${dir}/`));
    const development = region.sort(([a], [b]) => b.length - a.length)[0]?.[1];
    const baseText = base.filter(isText);

    let sourceFiles: string[];
    let sourceLproj: string;
    let locale: string | undefined;
    if (languages.length > 0) {
      const ranked = [...languages].sort(
        (a, b) =>
          Number(b.locale === development) - Number(a.locale === development) ||
          b.files.length - a.files.length ||
          b.files.reduce((sum, file) => sum + file.keys, 0) -
            a.files.reduce((sum, file) => sum + file.keys, 0) ||
          Number(b.locale === 'en') - Number(a.locale === 'en') ||
          (a.locale < b.locale ? -1 : 1),
      );
      const source = ranked[0]!;
      [sourceFiles, sourceLproj, locale] = [
        source.files.map((file) => file.name),
        source.lproj,
        source.locale,
      ];
      if (baseText.length > 0) {
        notes.push(
          `${baseText.map((file) => posix.join(app, `Base${LPROJ}`, file)).join(', ')} left out: ` +
            `Base${LPROJ} is Interface Builder's; the strings of ${locale} are in ${sourceLproj}${LPROJ}`,
        );
      }
    } else if (baseText.length > 0) {
      [sourceFiles, sourceLproj, locale] = [baseText, 'Base', development];
      notes.push(
        `${posix.join(app, `Base${LPROJ}`)} holds the only strings files of ${app === '.' ? 'the app' : app}: ` +
          `they are the source, written in ${development ?? 'the locale --source names (en when not given)'}`,
      );
    } else continue;
    if (locale !== undefined) declared ??= locale;

    for (const file of sourceFiles) {
      const stringsdict = file.endsWith('.stringsdict');
      const format = stringsdict ? 'stringsdict' : 'strings';
      const found: FoundFile[] = languages.flatMap((language) =>
        language.lproj !== sourceLproj && language.files.some((other) => other.name === file)
          ? [foundFile(posix.join(app, `${language.lproj}${LPROJ}`, file), language.spelled)]
          : [],
      );
      const sourcePath = posix.join(app, `${sourceLproj}${LPROJ}`, file);
      sets.push({
        fileSet: {
          path: posix.join(app, `{locale}${LPROJ}`, file),
          format,
          ...(sourceLproj === 'Base' ? { source: sourcePath } : {}),
          ...spellings([
            ...found,
            ...languages
              .filter((one) => one.lproj === sourceLproj)
              .map((one) => foundFile(sourcePath, one.spelled)),
          ]),
        },
        locales: distinct([
          ...(sourceLproj === 'Base' ? [] : [locale!]),
          ...found.map((one) => one.locale),
        ]).sort(),
        files: [sourcePath, ...found.map((one) => one.path)].sort(),
        found,
        namespaceHint: stringsdict ? file : file.replace(/\.strings$/, ''),
        voting: false,
      });
    }
  }
  return { sets, ...(declared === undefined ? {} : { sourceLocale: declared }) };
}

/**
 * gettext: each template `<dir>/<domain>.pot` is the source of `<dir>/{locale}.po` (`po/pt_BR.po`,
 * gettext's spelling), or of `<dir>/{locale}/LC_MESSAGES/<domain>.po` when the catalogs are
 * there (Django), or of the one other `{locale}/LC_MESSAGES/<domain>.po` folder of its domain
 * when it has no catalog near it (Sphinx's `_build/gettext/index.pot` and
 * `locales/{locale}/LC_MESSAGES/index.po`). A POT names no language: the source locale is `--source` (en when not
 * given). Catalogs in `<dir>/{locale}/LC_MESSAGES/<domain>.po` with no POT are a file set whose
 * source is the source locale's catalog (Django's `locale/en/LC_MESSAGES/django.po`).
 */
async function gettextFileSets(
  root: string,
  read: (path: string) => Promise<Buffer>,
  notes: string[],
): Promise<Found[]> {
  const paths = await glob(['**/*.{po,pot}'], {
    cwd: root,
    ignore: IGNORED,
    deep: SEARCH_DEPTH,
    followSymbolicLinks: false,
  });
  paths.sort();
  const po = formatNamed('po')!;
  const claimed = new Set<string>();
  const sets: Found[] = [];
  /** `<dir>/{locale}/LC_MESSAGES/<domain>.po` of a path, or undefined. */
  const inMessagesFolder = (path: string) => {
    const [dir, messages] = [posix.dirname(path), posix.basename(posix.dirname(path))];
    if (messages !== 'LC_MESSAGES') return undefined;
    const locale = localeSpelledBy(po, posix.basename(posix.dirname(dir)));
    if (locale === undefined) return undefined;
    return { above: posix.dirname(posix.dirname(dir)), domain: posix.basename(path, '.po'), locale };
  };
  /** The catalogs that read as PO, the others left out with a note. */
  const readable = async (files: FoundFile[]) => {
    const kept: FoundFile[] = [];
    for (const file of files) {
      const keys = keyCount(po, await read(file.path), file.locale, file.path);
      if (keys instanceof Error) notes.push(`${file.path} was left out: ${keys.message}`);
      else kept.push({ ...file, messages: keys });
    }
    return kept;
  };

  for (const pot of paths.filter((path) => path.endsWith('.pot'))) {
    const dir = posix.dirname(pot);
    const domain = posix.basename(pot, '.pot');
    const beside: FoundFile[] = [];
    const below: FoundFile[] = [];
    // The domain's catalogs in LC_MESSAGES folders elsewhere, by the folder above the locales.
    const elsewhere = new Map<string, FoundFile[]>();
    for (const path of paths) {
      if (!path.endsWith('.po') || claimed.has(path)) continue;
      const folder = inMessagesFolder(path);
      if (folder && folder.domain === domain) {
        const found = foundFile(path, folder.locale);
        if (folder.above === dir) below.push(found);
        else elsewhere.set(folder.above, [...(elsewhere.get(folder.above) ?? []), found]);
      } else if (posix.dirname(path) === dir) {
        const locale = localeSpelledBy(po, posix.basename(path, '.po'));
        if (locale) beside.push(foundFile(path, locale));
      }
    }
    // Sphinx: `_build/gettext/index.pot`, its catalogs in `locales/{locale}/LC_MESSAGES/index.po`.
    let messagesAbove = below.length > beside.length ? dir : undefined;
    if (beside.length === 0 && below.length === 0 && elsewhere.size === 1) {
      const [above, files] = [...elsewhere][0]!;
      messagesAbove = above;
      below.push(...files);
    }
    const files = await readable(messagesAbove === undefined ? beside : below);
    files.forEach((file) => claimed.add(file.path));
    claimed.add(pot);
    sets.push({
      fileSet: {
        path:
          messagesAbove === undefined
            ? posix.join(dir, '{locale}.po')
            : posix.join(messagesAbove, '{locale}', 'LC_MESSAGES', `${domain}.po`),
        format: 'po',
        source: pot,
        ...spellings(files),
      },
      locales: distinct(files.map((file) => file.locale)).sort(),
      files: [pot, ...files.map((file) => file.path)].sort(),
      found: files,
      namespaceHint: domain,
      voting: false,
    });
  }

  // Catalogs below LC_MESSAGES folders with no template: each domain a file set of its own.
  const groups = new Map<string, { above: string; domain: string; files: FoundFile[] }>();
  for (const path of paths) {
    if (!path.endsWith('.po') || claimed.has(path)) continue;
    const folder = inMessagesFolder(path);
    if (!folder) continue;
    const key = `${folder.above}\u0000${folder.domain}`;
    if (!groups.has(key)) groups.set(key, { above: folder.above, domain: folder.domain, files: [] });
    // Every catalog holds every msgid: the vote is by files, then English, then the first code.
    groups.get(key)!.files.push(foundFile(path, folder.locale));
  }
  for (const { above, domain, files: candidates } of groups.values()) {
    const files = (await readable(candidates)).map(({ messages: _, ...file }) => file);
    if (files.length === 0) continue;
    sets.push({
      fileSet: {
        path: posix.join(above, '{locale}', 'LC_MESSAGES', `${domain}.po`),
        format: 'po',
        ...spellings(files),
      },
      locales: distinct(files.map((file) => file.locale)).sort(),
      files: files.map((file) => file.path).sort(),
      found: files,
      namespaceHint: domain,
      voting: true,
    });
  }
  return sets;
}
