/**
 * Xcode String Catalogs: each `*.xcstrings` is a file set of its own (one file holds every
 * locale), its locales the catalog's localizations, its `sourceLanguage` the source locale.
 */
import { posix } from 'node:path';
import { formatNamed } from '../../formats/index.js';
import {
  distinct,
  pathsEndingIn,
  type FoundFileSet,
  type LayoutDetector,
  type LayoutSearch,
} from '../layout-search.js';

const xcstrings = formatNamed('xcstrings')!;

type Catalog = { sourceLanguage?: unknown; strings?: Record<string, { localizations?: object } | null> };

export const detectXcstringsLayouts: LayoutDetector = async (search) => {
  const sets: FoundFileSet[] = [];
  for (const path of pathsEndingIn(search, ['.xcstrings'])) {
    const read = await readCatalog(search, path);
    if ('error' in read) {
      search.notes.push(`${path} was left out: ${read.error.message}`);
      continue;
    }
    const spelled = new Set(
      Object.values(read.catalog.strings ?? {}).flatMap((string) => Object.keys(string?.localizations ?? {})),
    );
    const locales = [...spelled].flatMap((name) => {
      const locale = xcstrings.readLocale(name);
      return locale === undefined ? [] : [locale];
    });
    sets.push({
      fileSet: { path, format: 'xcstrings' },
      locales: distinct([read.source, ...locales]).sort(),
      files: [path],
      found: [],
      namespaceHint: posix.basename(path, '.xcstrings'),
      source: { kind: 'declared', locale: read.source },
    });
  }
  return sets;
};

/** The catalog and its source locale, read through the format (a version it does not know is an error). */
async function readCatalog(
  search: LayoutSearch,
  path: string,
): Promise<{ catalog: Catalog; source: string } | { error: Error }> {
  const bytes = await search.read(path);
  try {
    const catalog = JSON.parse(bytes.toString('utf8')) as Catalog;
    const source =
      typeof catalog?.sourceLanguage === 'string' ? xcstrings.readLocale(catalog.sourceLanguage) : undefined;
    if (source === undefined)
      throw new Error(`its sourceLanguage ${JSON.stringify(catalog?.sourceLanguage)} is no locale`);
    xcstrings.read({ bytes, locale: source, path, options: {} });
    return { catalog, source };
  } catch (error) {
    return { error: error as Error };
  }
}
