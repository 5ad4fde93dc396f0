/**
 * Java resource bundles of any base name: `Messages.properties` (the bundle's base, the source)
 * with `Messages_de.properties`, `Messages_pt_BR.properties` beside it; bundles with no base
 * file (`Labels_en.properties`, `Labels_de.properties`) take the source locale's file as the
 * source. A lone `messages.properties` (Spring's, before any translation) is a bundle too. The
 * encoding is ISO-8859-1 when a file is not UTF-8 (Java's before Java 9).
 */
import { posix } from 'node:path';
import { formatNamed } from '../../formats/index.js';
import { readForDetection } from '../locale-file-reading.js';
import {
  pathsEndingIn,
  type FoundFileSet,
  type LayoutDetector,
  type LayoutSearch,
} from '../layout-search.js';
import { nameCandidates, patternFileSet, readCandidate } from '../name-patterns.js';

const properties = formatNamed('properties')!;
/** Base files that are bundles alone, before any locale exists. */
const LONE_BUNDLES = new Set(['messages.properties', 'Messages.properties']);

export const detectJavaLayouts: LayoutDetector = async (search) => {
  const paths = pathsEndingIn(search, ['.properties']);
  const sets: FoundFileSet[] = [];
  const candidates = nameCandidates(paths, {
    format: properties,
    extensions: ['.properties'],
    separators: ['_'],
    folders: false,
    oneLocaleNeedsLocaleFolder: false,
  });
  for (const candidate of candidates) {
    const base =
      candidate.kind === 'suffix' ? posix.join(candidate.dir, `${candidate.name}.properties`) : undefined;
    const template = base !== undefined && paths.includes(base) ? base : undefined;
    const encoding = await encodingOf(search, [
      ...candidate.files.map((file) => file.path),
      ...(template ? [template] : []),
    ]);
    const files = await readCandidate(search, candidate, (file, bytes) =>
      readForDetection({
        format: properties,
        bytes,
        locale: file.locale,
        path: file.path,
        options: encoding ? { encoding } : {},
      }),
    );
    if (files.length === 0 && !template) continue;
    sets.push(
      patternFileSet(search, {
        candidate,
        files,
        settings: { format: 'properties', ...(encoding ? { encoding } : {}) },
        ...(template ? { template } : {}),
      }),
    );
  }
  const taken = new Set(sets.flatMap((set) => set.files));
  for (const base of paths.filter((path) => LONE_BUNDLES.has(posix.basename(path)) && !taken.has(path))) {
    const encoding = await encodingOf(search, [base]);
    const name = posix.basename(base, '.properties');
    sets.push({
      fileSet: {
        path: posix.join(posix.dirname(base), `${name}_{locale}.properties`),
        format: 'properties',
        ...(encoding ? { encoding } : {}),
        source: base,
      },
      locales: [],
      files: [base],
      found: [],
      namespaceHint: name,
      source: { kind: 'template', file: base },
    });
  }
  return sets;
};

/** ISO-8859-1 when any of the files is not UTF-8; else the default. */
async function encodingOf(search: LayoutSearch, files: readonly string[]) {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const file of files) {
    try {
      utf8.decode(await search.read(file));
    } catch {
      return 'iso-8859-1' as const;
    }
  }
  return undefined;
}
