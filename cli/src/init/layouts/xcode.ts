/**
 * Xcode: the strings files (`.strings`) and plural rules (`.stringsdict`) of the `*.lproj`
 * folders beside each other (`MyApp/en.lproj`, `MyApp/pt-BR.lproj`, `zh-Hant.lproj`). Each file
 * name of the source locale's folder is a file set of its own,
 * `MyApp/{locale}.lproj/Localizable.strings`, with a fixed namespace: the file name with its dot
 * as a dash for a stringsdict (`Localizable-stringsdict`), so that `Localizable.strings` and
 * `Localizable.stringsdict` of one app are two namespaces whose keys never meet.
 *
 * The source locale is the project's `developmentRegion` (its `project.pbxproj`) when it has
 * that folder, else English when it has that folder, else the folder with the most files, then
 * keys. `Base.lproj` is Interface Builder's (storyboards and xibs; their `.strings` in the
 * language folders are left to Xcode's export): its strings files are the source only when no
 * language folder holds any, and then the source locale is `developmentRegion` or `--source`. A
 * `.strings` named after a storyboard or xib of `Base.lproj` is Interface Builder's too and left
 * out.
 */
import { posix } from 'node:path';
import { formatNamed } from '../../formats/index.js';
import { readForDetection } from '../locale-file-reading.js';
import {
  distinct,
  type FoundFile,
  type FoundFileSet,
  type LayoutDetector,
  type LayoutSearch,
} from '../layout-search.js';
import { foundFile, localeSpelledBy, spellings, type SpelledLocale } from '../locale-names.js';

const LPROJ = '.lproj';
const strings = formatNamed('strings')!;

/** A language folder of an app, with its files that read in their formats. */
type Language = {
  locale: string;
  spelled: SpelledLocale;
  lproj: string;
  files: { name: string; keys: number }[];
};

/** What an app's source is: the folder, its text files, and how its locale is known. */
type Source = { lproj: string; files: string[]; locale?: string; declared: boolean };

export const detectXcodeLayouts: LayoutDetector = async (search) => {
  const regions = await developmentRegions(search);
  // The lproj folders of each app folder: folder → lproj name → its file names.
  const apps = new Map<string, Map<string, string[]>>();
  for (const path of search.paths) {
    const lproj = posix.dirname(path);
    if (!lproj.endsWith(LPROJ) || !/\.(strings|stringsdict|storyboard|xib)$/.test(path)) continue;
    const app = posix.dirname(lproj);
    if (!apps.has(app)) apps.set(app, new Map());
    const folders = apps.get(app)!;
    const name = posix.basename(lproj, LPROJ);
    folders.set(name, [...(folders.get(name) ?? []), posix.basename(path)]);
  }
  const sets: FoundFileSet[] = [];
  for (const [app, folders] of apps) {
    const inScope = [...regions].filter(([dir]) => dir === '.' || app === dir || app.startsWith(`${dir}/`));
    const development = inScope.sort(([a], [b]) => b.length - a.length)[0]?.[1];
    sets.push(...(await appFileSets(search, app, folders, development)));
  }
  return sets;
};

/** Each Xcode project's `developmentRegion`, by the folder that holds the project. */
async function developmentRegions(search: LayoutSearch): Promise<Map<string, string>> {
  const regions = new Map<string, string>();
  for (const pbxproj of search.paths.filter((path) => path.endsWith('.xcodeproj/project.pbxproj'))) {
    const text = (await search.read(pbxproj)).toString('utf8');
    // One scalar of the old-style property list: `developmentRegion = en;` (quoted or not).
    const region = /\bdevelopmentRegion\s*=\s*"?([^";\s]+)"?\s*;/.exec(text)?.[1];
    const locale = region === undefined ? undefined : strings.readLocale(region);
    if (locale !== undefined) regions.set(posix.dirname(posix.dirname(pbxproj)), locale);
  }
  return regions;
}

async function appFileSets(
  search: LayoutSearch,
  app: string,
  folders: Map<string, string[]>,
  development: string | undefined,
): Promise<FoundFileSet[]> {
  const base = folders.get('Base') ?? [];
  const builder = new Set(
    base.filter((file) => /\.(storyboard|xib)$/.test(file)).map((file) => file.replace(/\.\w+$/, '.strings')),
  );
  const isText = (file: string) => /\.(strings|stringsdict)$/.test(file) && !builder.has(file);
  const languages = await languagesOf(search, app, folders, isText);
  const source = sourceOf(search, app, languages, base.filter(isText), development);
  if (source === undefined) return [];
  return source.files.map((file) => {
    const sourcePath = posix.join(app, `${source.lproj}${LPROJ}`, file);
    const found: FoundFile[] = languages.flatMap((language) => {
      const own = language.files.find((other) => other.name === file);
      if (own === undefined) return [];
      const path = posix.join(app, `${language.lproj}${LPROJ}`, file);
      return [{ ...foundFile(path, language.spelled), messages: own.keys }];
    });
    const stringsdict = file.endsWith('.stringsdict');
    const isBase = source.lproj === 'Base';
    return {
      fileSet: {
        path: posix.join(app, `{locale}${LPROJ}`, file),
        format: stringsdict ? 'stringsdict' : 'strings',
        ...(isBase ? { source: sourcePath } : {}),
        ...spellings(found),
      },
      locales: distinct(found.map((one) => one.locale)).sort(),
      files: distinct([sourcePath, ...found.map((one) => one.path)]).sort(),
      found,
      namespaceHint: stringsdict ? file : file.replace(/\.strings$/, ''),
      source:
        source.locale !== undefined && source.declared
          ? { kind: 'declared', locale: source.locale }
          : isBase
            ? { kind: 'template', file: sourcePath }
            : { kind: 'files' },
    } satisfies FoundFileSet;
  });
}

/** The language folders of an app whose text files read in their formats, with their key counts. */
async function languagesOf(
  search: LayoutSearch,
  app: string,
  folders: Map<string, string[]>,
  isText: (file: string) => boolean,
): Promise<Language[]> {
  const languages: Language[] = [];
  for (const [name, files] of folders) {
    const spelled = localeSpelledBy(strings, name);
    if (spelled === undefined) continue;
    const lproj = posix.join(app, `${name}${LPROJ}`);
    const readable: { name: string; keys: number }[] = [];
    for (const file of files.filter(isText)) {
      const path = posix.join(lproj, file);
      const format = formatNamed(file.endsWith('.stringsdict') ? 'stringsdict' : 'strings')!;
      const read = readForDetection({ format, bytes: await search.read(path), locale: spelled.locale, path });
      if ('error' in read) search.notes.push(`${path} was left out: ${read.error.message}`);
      else readable.push({ name: file, keys: read.messages });
    }
    if (readable.length > 0)
      languages.push({ locale: spelled.locale, spelled, lproj: name, files: readable });
  }
  return languages;
}

/** The app's source folder and files (see the module's comment), or undefined when it has none. */
function sourceOf(
  search: LayoutSearch,
  app: string,
  languages: readonly Language[],
  baseText: readonly string[],
  development: string | undefined,
): Source | undefined {
  const keysOf = (language: Language) => language.files.reduce((sum, file) => sum + file.keys, 0);
  const shownBase = (file: string) => posix.join(app, `Base${LPROJ}`, file);
  if (languages.length > 0) {
    const [first] = [...languages].sort(
      (a, b) =>
        Number(b.locale === development) - Number(a.locale === development) ||
        Number(b.locale === 'en') - Number(a.locale === 'en') ||
        b.files.length - a.files.length ||
        keysOf(b) - keysOf(a) ||
        (a.locale < b.locale ? -1 : 1),
    );
    const source = first!;
    if (baseText.length > 0) {
      search.notes.push(
        `${baseText.map(shownBase).join(', ')} left out: ` +
          `Base${LPROJ} is Interface Builder's; the strings of ${source.locale} are in ${source.lproj}${LPROJ}`,
      );
    }
    return {
      lproj: source.lproj,
      files: source.files.map((file) => file.name),
      locale: source.locale,
      declared: source.locale === development,
    };
  }
  if (baseText.length === 0) return undefined;
  search.notes.push(
    `${posix.join(app, `Base${LPROJ}`)} holds the only strings files of ${app === '.' ? 'the app' : app}: ` +
      `they are the source, written in ${development ?? 'the locale --source names (en when not given)'}`,
  );
  return {
    lproj: 'Base',
    files: [...baseText],
    ...(development === undefined ? {} : { locale: development }),
    declared: development !== undefined,
  };
}
