import type { Principal } from '@tolk/contracts';
import { ConflictError, ValidationError } from '@tolk/errors';
import type { Finding } from '@tolk/locale-file';
import {
  computeLocaleState,
  prepareKeyRules,
  RULED,
  ruledKeysOf,
  targetKeysOf,
  untranslatedCounts,
} from './locale-state.js';
import { createLocaleReads } from './locale-reads.js';
import { localeNotFound, presentLocale, type Locale } from './locale-record.js';
import type { LocalesDeps } from './locale-deps.js';
import { createLocaleAccess } from './locale-access.js';
import { createRefreshLocales } from './refresh-locales.js';
import { createUploadTranslations } from './upload-translations.js';
import { createBrowseKeys } from './browse-keys.js';
import { createDownloadTranslations } from './download-translations.js';
import { findingsOfKeys, NO_FINDINGS } from './locale-findings.js';

export type LocaleDetail = Locale & { missing: string[]; outdated: string[]; findings: Finding[] };

/**
 * Target locales of a project, their translations and status (DESIGN §5). The status is
 * `behind` as soon as a newer source version is known (SourceChanged); the counts are computed
 * against the newest source when they are shown, if an event has not already done it.
 */
export function createLocales(deps: LocalesDeps) {
  const { locales, projects, writerCheck, documents, retired, baseline, memory, now } = deps;
  const reads = createLocaleReads(deps);
  const { storedTranslations, storedFindings, requireLocale, keysMadeFrom } = reads;
  const { refresh, refreshBehind } = createRefreshLocales({ ...deps, reads });
  const access = createLocaleAccess({ ...deps, refresh });
  const { open, settledLocale } = access;

  return {
    refresh,
    refreshBehind,
    upload: createUploadTranslations({ ...deps, reads, refresh }),
    browse: createBrowseKeys({ ...deps, reads, open }),
    download: createDownloadTranslations({ ...deps, reads, access }),

    /** `GET .../locales`: in the order they were added. */
    async list(principal: Principal | undefined, projectId: string): Promise<Locale[]> {
      const { head } = await open(principal, projectId, 'read');
      return (await locales.list(projectId)).map((row) => presentLocale(row, head.version));
    },

    /** `GET .../locales/{locale}`: the record and the keys left to translate. */
    async get(principal: Principal | undefined, projectId: string, locale: string): Promise<LocaleDetail> {
      const opened = await open(principal, projectId, 'read');
      const { row, i18nextPlurals, keyRules, head } = await settledLocale(projectId, locale, opened.head);
      const hasFindings = row.errorCount + row.warningCount > 0;
      if (row.missingCount === 0 && row.outdatedCount === 0 && !hasFindings) {
        return { ...presentLocale(row, head.version), missing: [], outdated: [], findings: [] };
      }
      const source = await documents.version(
        projectId,
        row.countsVersion < 0 ? head.version : row.countsVersion,
      );
      const target = targetKeysOf(source, locale, i18nextPlurals);
      const rules = await prepareKeyRules(keyRules, source, target);
      const findings = hasFindings ? await storedFindings(projectId, locale) : NO_FINDINGS;
      const state = await computeLocaleState(
        source,
        target,
        await storedTranslations(projectId, locale),
        row.translatedFrom,
        i18nextPlurals ? await keysMadeFrom(projectId, source, row.translatedFrom) : undefined,
        rules,
        findings,
      );
      const ruled = ruledKeysOf(source, target, rules);
      const shown = await findingsOfKeys(
        target ? target.keys : source.keys,
        findings,
        (i) => (ruled?.rules[i] ?? 0) >= RULED.neverTranslate,
      );
      return {
        ...presentLocale(row, head.version),
        missing: state.missing,
        outdated: state.outdated,
        findings: shown,
      };
    },

    /** `POST .../locales`: 409 when present, 400 for the project's source locale. */
    async add(principal: Principal | undefined, projectId: string, locale: string): Promise<Locale> {
      const { project, head } = await open(principal, projectId, 'manage');
      if (locale === project.sourceLocale) {
        throw new ValidationError(`locale: ${locale} is the project's source locale, not a target locale`);
      }
      // The locale's keys depend on the source's plural groups, the project's setting and key rules.
      const source = head.version > 0 ? await documents.version(projectId, head.version) : undefined;
      const at = now();
      const atCommit = writerCheck.atCommit(principal, projectId);
      await baseline.change(
        projectId,
        async (tx) => {
          const { i18nextPlurals, keyRules } = await projects.lockKeySettings(projectId, tx);
          const target = source && targetKeysOf(source, locale, i18nextPlurals);
          const keys = target ? target.keys : source?.keys;
          const ruled =
            source && ruledKeysOf(source, target, await prepareKeyRules(keyRules, source, target));
          const counts = untranslatedCounts(head.version, keys ? keys.length : head.keyCount, ruled);
          const added = await locales.insert(projectId, locale, counts, at, tx);
          if (!added) throw new ConflictError(`Locale ${locale} is already a target locale of this project`);
        },
        atCommit,
      );
      return presentLocale(await requireLocale(projectId, locale), head.version);
    },

    /** `DELETE .../locales/{locale}`: its translations go with it; the baseline moves. */
    async remove(principal: Principal | undefined, projectId: string, locale: string): Promise<void> {
      await open(principal, projectId, 'manage');
      const atCommit = writerCheck.atCommit(principal, projectId);
      await baseline.change(
        projectId,
        async (tx) => {
          if (!(await locales.delete(projectId, locale, tx))) throw localeNotFound(locale);
          await memory.forgetLocale(projectId, locale, tx);
          await retired.purge(projectId, locale, tx);
        },
        atCommit,
      );
    },
  };
}

export type Locales = ReturnType<typeof createLocales>;
