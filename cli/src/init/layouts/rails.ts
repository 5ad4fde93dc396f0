/**
 * YAML locale files: Rails (`config/locales/de.yml`, `config/locales/devise.de.yml`,
 * `config/locales/de/models.yml`), where each file's one root key is its locale, read as Rails
 * does (`rails: true`); plain nested YAML per locale (`i18n/de.yaml`) otherwise.
 */
import { parse as parseYaml } from 'yaml';
import { formatNamed } from '../../formats/index.js';
import { readForDetection } from '../locale-file-reading.js';
import { pathsEndingIn, type FoundFileSet, type LayoutDetector } from '../layout-search.js';
import { nameCandidates, patternFileSet, readCandidate } from '../name-patterns.js';

const yaml = formatNamed('yaml')!;
const EXTENSIONS = ['.yml', '.yaml'];

export const detectRailsLayouts: LayoutDetector = async (search) => {
  const sets: FoundFileSet[] = [];
  const candidates = nameCandidates(pathsEndingIn(search, EXTENSIONS), {
    format: yaml,
    extensions: EXTENSIONS,
    separators: ['.', '_'],
    folders: true,
    oneLocaleNeedsLocaleFolder: true,
  });
  for (const candidate of candidates) {
    const roots = await Promise.all(
      candidate.files.map(async (file) => rootLocale(await search.read(file.path))),
    );
    const rails = roots.every((root, index) => root !== undefined && root === candidate.files[index]!.locale);
    const files = await readCandidate(search, candidate, (file, bytes) =>
      readForDetection({
        format: yaml,
        bytes,
        locale: file.locale,
        path: file.path,
        options: rails ? { rails } : {},
      }),
    );
    if (files.length === 0) continue;
    sets.push(
      patternFileSet(search, {
        candidate,
        files,
        settings: { format: 'yaml', ...(rails ? { rails } : {}) },
        ...(rails ? { fallbackHint: 'rails' } : {}),
      }),
    );
  }
  return sets;
};

/** The locale a Rails file's one root key spells (`en:`), or undefined. */
function rootLocale(bytes: Buffer): string | undefined {
  let document: unknown;
  try {
    document = parseYaml(bytes.toString('utf8'), { version: '1.1' });
  } catch {
    return undefined;
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
  const keys = Object.keys(document);
  return keys.length === 1 ? yaml.readLocale(keys[0]!) : undefined;
}
