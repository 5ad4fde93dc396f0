/**
 * JSON apps (i18next, react-intl, vue-i18n, next-intl and the like), wherever their files live:
 * a folder per locale with a file per namespace (`public/locales/{locale}/{namespace}.json`,
 * `frontend/src/i18n/locales/{locale}/{namespace}.json`; nested namespace folders become
 * `locales/{locale}/**` globs), a file per locale (`app/javascript/locales/de.json`), or a locale
 * at the end of a name (`messages.de.json`). The format is `i18next` when a file holds i18next
 * plural keys (`item_one`, `item_other`), plain `json` otherwise. A file whose keys hold dots (an
 * i18next app with `keySeparator: false`) is still the app's: the keys are for `tolk push` to judge.
 */
import { findPluralGroups } from '@tolk/locale-file';
import { formatNamed } from '../../formats/index.js';
import { flatKeys, plainJsonObject, readForDetection } from '../locale-file-reading.js';
import { pathsEndingIn, type FoundFileSet, type LayoutDetector } from '../layout-search.js';
import { nameCandidates, patternFileSet, readCandidate } from '../name-patterns.js';

const json = formatNamed('json')!;

export const detectJsonLayouts: LayoutDetector = async (search) => {
  const sets: FoundFileSet[] = [];
  const candidates = nameCandidates(pathsEndingIn(search, ['.json']), {
    format: json,
    extensions: ['.json'],
    separators: ['.', '_'],
    folders: true,
    oneLocaleNeedsLocaleFolder: true,
  });
  for (const candidate of candidates) {
    const files = await readCandidate(search, candidate, (file, bytes) =>
      readForDetection({
        format: json,
        bytes,
        locale: file.locale,
        path: file.path,
        plainly: plainJsonObject,
      }),
    );
    if (files.length === 0) continue;
    const plurals = files.some((file) => findPluralGroups(flatKeys(file.document)).length > 0);
    sets.push(
      patternFileSet(search, { candidate, files, settings: { format: plurals ? 'i18next' : 'json' } }),
    );
  }
  return sets;
};
