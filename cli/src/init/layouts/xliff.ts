/**
 * XLIFF: Angular's `messages.xlf` (what `ng extract-i18n` writes, the source) with
 * `messages.de.xlf` beside it (also alone, before any translation), Symfony's
 * `translations/messages.de.xlf`, and a file per locale (`locale/de.xlf`). The source file's
 * `source-language` (XLIFF 1.2) or `srcLang` (2.0) is the source locale.
 */
import { posix } from 'node:path';
import { formatNamed } from '../../formats/index.js';
import { readForDetection } from '../locale-file-reading.js';
import {
  pathsEndingIn,
  type FoundFileSet,
  type LayoutDetector,
  type LayoutSearch,
  type SourceClue,
} from '../layout-search.js';
import { nameCandidates, patternFileSet, readCandidate } from '../name-patterns.js';
import { firstAttribute } from '../xml-attributes.js';

const xliff = formatNamed('xliff')!;
const EXTENSIONS = ['.xlf', '.xliff'];
/** Angular's source file, a file set alone before any translation exists. */
const LONE_SOURCES = new Set(['messages.xlf']);

export const detectXliffLayouts: LayoutDetector = async (search) => {
  const paths = pathsEndingIn(search, EXTENSIONS);
  const sets: FoundFileSet[] = [];
  const candidates = nameCandidates(paths, {
    format: xliff,
    extensions: EXTENSIONS,
    separators: ['.'],
    folders: false,
    oneLocaleNeedsLocaleFolder: false,
  });
  for (const candidate of candidates) {
    const base =
      candidate.kind === 'suffix'
        ? posix.join(candidate.dir, `${candidate.name}${candidate.extension}`)
        : undefined;
    const template = base !== undefined && paths.includes(base) ? base : undefined;
    const files = await readCandidate(search, candidate, (file, bytes) =>
      readForDetection({ format: xliff, bytes, locale: file.locale, path: file.path }),
    );
    if (files.length === 0 && !template) continue;
    const set = patternFileSet(search, {
      candidate,
      files,
      settings: { format: 'xliff' },
      ...(template ? { template } : {}),
    });
    if (template) set.source = await sourceClue(search, template);
    sets.push(set);
  }
  const taken = new Set(sets.flatMap((set) => set.files));
  for (const base of paths.filter((path) => LONE_SOURCES.has(posix.basename(path)) && !taken.has(path))) {
    sets.push({
      fileSet: {
        path: posix.join(posix.dirname(base), 'messages.{locale}.xlf'),
        format: 'xliff',
        source: base,
      },
      locales: [],
      files: [base],
      found: [],
      namespaceHint: 'messages',
      source: await sourceClue(search, base),
    });
  }
  return sets;
};

/** The source file's declared language, or the file as a template that names none. */
async function sourceClue(search: LayoutSearch, template: string): Promise<SourceClue> {
  const declared = firstAttribute(await search.read(template), [
    ['file', 'source-language'],
    ['xliff', 'srcLang'],
  ]);
  const locale = declared === undefined ? undefined : xliff.readLocale(declared);
  return locale === undefined ? { kind: 'template', file: template } : { kind: 'declared', locale };
}
