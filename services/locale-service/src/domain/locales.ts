import { createAddLocale } from './add-locale.js';
import { createBrowseKeys } from './browse-keys.js';
import { createDownloadTranslations } from './download-translations.js';
import { createListLocales } from './list-locales.js';
import { createLocaleAccess } from './locale-access.js';
import type { LocalesDeps } from './locale-deps.js';
import { createLocaleReads } from './locale-reads.js';
import { createReadLocale } from './read-locale.js';
import { createRefreshLocales } from './refresh-locales.js';
import { createRemoveLocale } from './remove-locale.js';
import { createUploadTranslations } from './upload-translations.js';

/**
 * Target locales of a project, their translations and status (DESIGN §5), one use case a file.
 * The status is `behind` as soon as a newer source version is known (SourceChanged); the counts
 * are computed against the newest source when they are shown, if an event has not already done it.
 */
export function createLocales(deps: LocalesDeps) {
  const reads = createLocaleReads(deps);
  const { refresh, refreshBehind } = createRefreshLocales({ ...deps, reads });
  const access = createLocaleAccess({ ...deps, refresh });
  const made = { ...deps, reads, refresh, access };
  return {
    refresh,
    refreshBehind,
    list: createListLocales(made),
    get: createReadLocale(made),
    add: createAddLocale(made),
    remove: createRemoveLocale(made),
    upload: createUploadTranslations(made),
    download: createDownloadTranslations(made),
    browse: createBrowseKeys(made),
  };
}

export type Locales = ReturnType<typeof createLocales>;
