/**
 * Flutter's ARB files. gen-l10n's `l10n.yaml` names them: its `arb-dir` (default `lib/l10n`) and
 * `template-arb-file` (default `app_en.arb`), whose locale is the source's. The `intl_utils`
 * plugin's settings in `pubspec.yaml` (`flutter_intl:` with `arb_dir` and `main_locale`) name
 * `intl_{locale}.arb` the same way. ARB files with neither are found by their names
 * (`lib/l10n/app_de.arb`).
 */
import { posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { formatNamed } from '../../formats/index.js';
import { plainJsonObject, readForDetection } from '../locale-file-reading.js';
import {
  distinct,
  pathsEndingIn,
  type FoundFile,
  type FoundFileSet,
  type LayoutDetector,
  type LayoutSearch,
} from '../layout-search.js';
import { foundFile, localeSpelledBy, spellings, splitNameAndLocale } from '../locale-names.js';
import { nameCandidates, patternFileSet, readCandidate } from '../name-patterns.js';

const arb = formatNamed('arb')!;

/** Where an app's ARB files are and which is the template, as its settings say. */
type ArbSettings = { config: string; dir: string; prefix: string; sourceLocale?: string };

export const detectFlutterLayouts: LayoutDetector = async (search) => {
  const sets: FoundFileSet[] = [];
  const claimed = new Set<string>();
  for (const config of search.paths.filter((path) =>
    ['l10n.yaml', 'pubspec.yaml'].includes(posix.basename(path)),
  )) {
    const settings = await arbSettings(search, config);
    if (
      !settings ||
      sets.some((set) => set.fileSet.path === posix.join(settings.dir, `${settings.prefix}{locale}.arb`))
    )
      continue;
    const set = await settingsFileSet(search, settings);
    set.files.forEach((file) => claimed.add(file));
    sets.push(set);
  }
  const rest = pathsEndingIn(search, ['.arb']).filter((path) => !claimed.has(path));
  for (const candidate of nameCandidates(rest, {
    format: arb,
    extensions: ['.arb'],
    separators: ['_'],
    folders: false,
    oneLocaleNeedsLocaleFolder: false,
  })) {
    const files = await readCandidate(search, candidate, (file, bytes) =>
      readForDetection({
        format: arb,
        bytes,
        locale: file.locale,
        path: file.path,
        plainly: plainJsonObject,
      }),
    );
    if (files.length > 0)
      sets.push(patternFileSet(search, { candidate, files, settings: { format: 'arb' } }));
  }
  return sets;
};

/** The ARB settings of `l10n.yaml`, or of `pubspec.yaml`'s `flutter_intl`; undefined for neither. */
async function arbSettings(search: LayoutSearch, config: string): Promise<ArbSettings | undefined> {
  const pubspec = posix.basename(config) === 'pubspec.yaml';
  let values: unknown;
  try {
    values = parseYaml((await search.read(config)).toString('utf8'));
  } catch (error) {
    if (!pubspec)
      search.notes.push(`${config} is not YAML (${(error as Error).message.split('\n')[0]}); left out`);
    return undefined;
  }
  const settings = pubspec ? objectOrEmpty(objectOrEmpty(values)['flutter_intl']) : objectOrEmpty(values);
  if (pubspec && objectOrEmpty(values)['flutter_intl'] === undefined) return undefined;
  const text = (name: string) => (typeof settings[name] === 'string' ? settings[name] : undefined);
  const dirOf = (path: string) => posix.normalize(posix.join(posix.dirname(config), path)).replace(/\/$/, '');
  if (pubspec) {
    const main = localeSpelledBy(arb, text('main_locale') ?? 'en');
    return {
      config,
      dir: dirOf(text('arb_dir') ?? 'lib/l10n'),
      prefix: 'intl_',
      ...(main ? { sourceLocale: main.locale } : {}),
    };
  }
  const template = text('template-arb-file') ?? 'app_en.arb';
  const split = splitNameAndLocale(arb, posix.basename(template, '.arb'), ['_']);
  if (!split) {
    search.notes.push(
      `${config}: the template-arb-file ${template} names no locale at its end (app_en.arb); left out`,
    );
    return undefined;
  }
  const dir = dirOf(text('arb-dir') ?? 'lib/l10n');
  return { config, dir, prefix: `${split.name}_`, sourceLocale: split.locale.locale };
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

async function settingsFileSet(search: LayoutSearch, settings: ArbSettings): Promise<FoundFileSet> {
  const files: FoundFile[] = [];
  for (const path of search.paths) {
    if (posix.dirname(path) !== settings.dir || !path.endsWith('.arb')) continue;
    const stem = posix.basename(path, '.arb');
    if (!stem.startsWith(settings.prefix)) continue;
    const found = localeSpelledBy(arb, stem.slice(settings.prefix.length));
    if (found !== undefined) files.push(foundFile(path, found));
  }
  return {
    fileSet: {
      path: posix.join(settings.dir, `${settings.prefix}{locale}.arb`),
      format: 'arb',
      ...spellings(files),
    },
    locales: distinct(files.map((file) => file.locale)).sort(),
    files: files.map((file) => file.path),
    found: files,
    namespaceHint: settings.prefix.slice(0, -1),
    source: settings.sourceLocale ? { kind: 'declared', locale: settings.sourceLocale } : { kind: 'files' },
  };
}
