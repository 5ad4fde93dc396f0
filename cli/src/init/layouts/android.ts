/**
 * Android: each module's `res/values/strings.xml` is the source of its
 * `res/values-{locale}/strings.xml`, the sibling `values-*` folders that spell a locale
 * (`values-pl`, `values-zh-rCN`, `values-b+zh+Hant`; `values-night` or `values-v21` spell none).
 * An app of several modules (`app/`, `feature/settings/`) or source sets (`src/main`,
 * `src/foss`) is a file set per `res` folder. The source locale is what `values/strings.xml`
 * declares in `tools:locale`, else the default (English unless `--source` says otherwise).
 */
import { posix } from 'node:path';
import { formatNamed } from '../../formats/index.js';
import { distinct, type FoundFile, type FoundFileSet, type LayoutDetector } from '../layout-search.js';
import { firstAttribute } from '../xml-attributes.js';

const android = formatNamed('android')!;

export const detectAndroidLayouts: LayoutDetector = async (search) => {
  const paths = search.paths.filter((path) => /(^|\/)res\/values[^/]*\/strings\.xml$/.test(path));
  const sets: FoundFileSet[] = [];
  for (const base of paths.filter((path) => posix.basename(posix.dirname(path)) === 'values')) {
    const res = posix.dirname(posix.dirname(base));
    const found: FoundFile[] = paths.flatMap((path) => {
      const folder = posix.dirname(path);
      if (posix.dirname(folder) !== res || !posix.basename(folder).startsWith('values-')) return [];
      const locale = android.readLocale(posix.basename(folder).slice('values-'.length));
      return locale ? [{ path, locale }] : [];
    });
    const declared = firstAttribute(await search.read(base), [['resources', 'tools:locale']]);
    const locale = declared === undefined ? undefined : android.readLocale(declared);
    sets.push({
      fileSet: { path: posix.join(res, 'values-{locale}', 'strings.xml'), format: 'android', source: base },
      locales: distinct(found.map((file) => file.locale)).sort(),
      files: [base, ...found.map((file) => file.path)].sort(),
      found,
      namespaceHint: moduleName(res),
      source: locale === undefined ? { kind: 'template', file: base } : { kind: 'declared', locale },
    });
  }
  return sets;
};

/** `app/src/main/res` → `app`; `feature/settings/src/foss/res` → `feature-settings-foss`. */
function moduleName(res: string): string {
  const segments = res
    .split('/')
    .slice(0, -1)
    .filter((segment) => segment !== 'src' && segment !== 'main');
  return segments.length > 0 ? segments.join('-') : 'strings';
}
