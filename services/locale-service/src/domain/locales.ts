import { NO_KEY_RULES, type KeyRuleMatcher, type Principal, type ShownProvenance } from '@tolk/contracts';
import { ConflictError, ValidationError } from '@tolk/errors';
import {
  judgedSourceOf,
  rebuildTranslation,
  type Finding,
  type FlatEntries,
  type TargetKeys,
} from '@tolk/locale-file';
import type { LocaleRevision } from '../data-access/locales-repository.js';
import type { SourceVersion } from '../data-access/source-client.js';
import {
  computeLocaleState,
  prepareKeyRules,
  RULED,
  ruledKeysOf,
  targetKeysOf,
  untranslatedCounts,
} from './locale-state.js';
import { createLocaleReads, decodeTranslations } from './locale-reads.js';
import { localeNotFound, presentLocale, type Locale } from './locale-record.js';
import type { LocalesDeps } from './locale-deps.js';
import { createLocaleAccess } from './locale-access.js';
import { createRefreshLocales } from './refresh-locales.js';
import { createUploadTranslations } from './upload-translations.js';
import {
  browsePage,
  browseRows,
  type BrowsedKey,
  type BrowsedLocale,
  type FindingsFilter,
  type BrowseRows,
  type KeyState,
} from './browse.js';
import { createSharedComputations } from './shared-computations.js';
import { createSliceQueue } from './slice-queue.js';
import { decodeFindings, findingsOfKeys, NO_FINDINGS } from './locale-findings.js';
import {
  decodeProvenance,
  keepProvenanceOf,
  shownProvenanceOf,
  UNKNOWN_WRITER,
  type Provenance,
} from './provenance.js';

export type LocaleDetail = Locale & { missing: string[]; outdated: string[]; findings: Finding[] };

/** A page of the translation browser (`GET /v1/projects/{projectId}/keys`). */
export type KeyPage = {
  sourceVersion: number;
  locales: string[];
  total: number;
  offset: number;
  limit: number;
  keys: BrowsedKey[];
};

export type Translations = {
  locale: string;
  syncedVersion: number;
  /** The source version the stored translations were uploaded for; 0: none. */
  translatedFrom: number;
  content: string;
  updatedAt: number;
  /** Key of `content` → who wrote its translation, in the order of `content`, where it is known. */
  provenance: ReadonlyMap<string, Provenance>;
  /** Keys of `content` whose stored translation has no known writer, in the order of `content`. */
  unknownWriters: string[];
  /** The revision of the stored translations `content` shows: its entity tag. */
  revision: number;
};

/**
 * A locale's value of each of its keys under the key rules (DESIGN §13): none for an excluded
 * key, the source text for one never translated (a plural form's: as the ICU rules read it),
 * else the stored translation.
 */
function ruledValueOf(
  source: FlatEntries,
  target: TargetKeys | undefined,
  rules: KeyRuleMatcher,
  translations: ReadonlyMap<string, string>,
): (key: string) => string | undefined {
  const keys = target ? target.keys : source.keys;
  const ruled = ruledKeysOf(source, target, rules);
  if (!ruled) return (key) => translations.get(key);
  const sourceTexts = judgedSourceOf(source, target).values;
  const ruleOf = new Map<string, { rule: number; sourceText: string }>();
  ruled.rules.forEach((rule, i) => {
    if (rule >= RULED.neverTranslate) ruleOf.set(keys[i]!, { rule, sourceText: sourceTexts[i]! });
  });
  return (key) => {
    const found = ruleOf.get(key);
    if (!found) return translations.get(key);
    return found.rule === RULED.neverTranslate ? found.sourceText : undefined;
  };
}

/**
 * Target locales of a project, their translations and status (DESIGN §5). The status is
 * `behind` as soon as a newer source version is known (SourceChanged); the counts are computed
 * against the newest source when they are shown, if an event has not already done it.
 */
export function createLocales(deps: LocalesDeps) {
  const { locales, projects, writerCheck, documents, retired, baseline, memory, now } = deps;
  const reads = createLocaleReads(deps);
  const { storedTranslations, storedFindings, storedWithProvenance, requireLocale, keysMadeFrom } = reads;
  const { refresh, refreshBehind } = createRefreshLocales({ ...deps, reads });
  const { open, settledLocale } = createLocaleAccess({ ...deps, refresh });

  // The translation browser's state of each locale and its rows, computed once and shared by
  // the requests that show them (20 reads of a project of 20,000 keys in 10 locales took 4 s each,
  // each decoding and computing everything again); its CPU-heavy work in slices, one at a time,
  // projects taking turns.
  const browsedLocales = createSharedComputations<BrowsedLocale>(deps.browseCacheMaxKeys);
  const browsedRowLists = createSharedComputations<BrowseRows>(deps.browseCacheMaxKeys);
  const slices = createSliceQueue();

  /**
   * A locale as the translation browser shows it against `source`: computed once per source
   * version, key settings and revision of the locale's row.
   */
  async function browsedLocale(
    projectId: string,
    source: SourceVersion,
    listed: LocaleRevision,
  ): Promise<BrowsedLocale> {
    const { locale, i18nextPlurals } = listed;
    const rules = await prepareKeyRules(listed.keyRules);
    const identity = (revision: string) =>
      [source.version, i18nextPlurals, rules.id, revision].join('\u0000');
    return browsedLocales.get(
      `${projectId}\u0000${locale}`,
      identity(listed.revision),
      source.keys.length,
      async () => {
        const stored = await locales.translationsAtRevision(projectId, locale);
        if (!stored) throw localeNotFound(locale);
        const translations = await decodeTranslations(stored.content);
        const provenance = await decodeProvenance(stored.provenance);
        const findings = await decodeFindings(stored.findings);
        const madeFrom = i18nextPlurals
          ? await keysMadeFrom(projectId, source, stored.translatedFrom)
          : undefined;
        const target = targetKeysOf(source, locale, i18nextPlurals);
        const excludedKeys = ruledKeysOf(
          source,
          target,
          await prepareKeyRules(listed.keyRules, source, target),
        )?.excludedKeys;
        // In time slices of its own.
        const state = await computeLocaleState(
          source,
          target,
          translations,
          stored.translatedFrom,
          madeFrom,
          rules,
        );
        const value: BrowsedLocale = {
          locale,
          target,
          valueOf: ruledValueOf(source, target, rules, translations),
          excluded: (key) => excludedKeys?.has(key) ?? false,
          provenance,
          stored: translations,
          findings,
          missing: new Set(state.missing),
          outdated: new Set(state.outdated),
          lowered: new Map(),
        };
        return { value, identity: identity(stored.revision) };
      },
    );
  }

  /** The browser's rows of the shown locales: computed once per source version, settings and locales shown. */
  async function browsedRows(
    projectId: string,
    source: SourceVersion,
    shown: readonly BrowsedLocale[],
    settings: Pick<LocaleRevision, 'i18nextPlurals' | 'keyRules'>,
  ): Promise<BrowseRows> {
    const codes = shown.map((locale) => locale.locale).join(',');
    const rules = await prepareKeyRules(settings.keyRules);
    const identity = [source.version, settings.i18nextPlurals, rules.id].join('\u0000');
    return browsedRowLists.get(`${projectId}\u0000${codes}`, identity, source.keys.length, async () => ({
      value: await browseRows(source, shown, slices.lane(projectId)),
      identity,
    }));
  }

  return {
    refresh,
    refreshBehind,
    upload: createUploadTranslations({ ...deps, reads, refresh }),

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

    /**
     * `GET /v1/projects/{projectId}/keys`: a page of the translation browser over the target
     * locales `codes` (canonical; all when undefined), in the order they were added.
     */
    async browse(
      principal: Principal | undefined,
      projectId: string,
      query: {
        codes?: readonly string[];
        status?: KeyState;
        by?: ShownProvenance['by'];
        findings?: FindingsFilter;
        q?: string;
        offset: number;
        limit: number;
      },
    ): Promise<KeyPage> {
      const opened = await open(principal, projectId, 'read');
      const listed = await locales.listRevisions(projectId);
      const known = new Set(listed.map((row) => row.locale));
      const unknown = (query.codes ?? []).filter((code) => !known.has(code));
      if (unknown.length > 0) {
        throw new ValidationError(
          `query.locale: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a target locale' : 'are not target locales'} of this project`,
        );
      }
      const chosen = listed.filter((row) => !query.codes || query.codes.includes(row.locale));
      const codes = chosen.map((row) => row.locale);
      const page = { locales: codes, offset: query.offset, limit: query.limit };
      if (opened.head.version === 0) return { sourceVersion: 0, total: 0, keys: [], ...page };
      const source = await documents.version(projectId, opened.head.version);
      // One locale after the other: each is decoded and computed at most once per revision anyway.
      const shown: BrowsedLocale[] = [];
      for (const row of chosen) shown.push(await browsedLocale(projectId, source, row));
      const settings = listed[0] ?? { i18nextPlurals: true, keyRules: NO_KEY_RULES };
      const found = await browsePage(
        {
          source,
          rows: await browsedRows(projectId, source, shown, settings),
          locales: shown,
          status: query.status,
          by: query.by,
          findings: query.findings,
          q: query.q,
          offset: query.offset,
          limit: query.limit,
        },
        slices.lane(projectId),
      );
      return { sourceVersion: source.version, ...found, ...page };
    },

    /** `GET .../locales/{locale}/translations`: in the current source's nesting and key order. */
    async download(
      principal: Principal | undefined,
      projectId: string,
      locale: string,
    ): Promise<Translations> {
      const opened = await open(principal, projectId, 'read');
      const { row, i18nextPlurals, keyRules, head } = await settledLocale(projectId, locale, opened.head);
      const { translations, provenance, raw } = await storedWithProvenance(projectId, locale);
      const rules = await prepareKeyRules(keyRules);
      const source =
        translations.size > 0 || !rules.empty ? await documents.version(projectId, head.version) : undefined;
      const target = source && targetKeysOf(source, row.locale, i18nextPlurals);
      if (source) await prepareKeyRules(keyRules, source, target);
      const valueOf = source ? ruledValueOf(source, target, rules, translations) : () => undefined;
      // The locale's own plural forms at each group's place; stored forms it does not use (left
      // by the setting switched off and on again) are not asked for, so not written.
      const written: string[] = [];
      const document = source
        ? rebuildTranslation(
            source,
            (key) => {
              const value = valueOf(key);
              if (value !== undefined) written.push(key);
              return value;
            },
            { locale: row.locale, target },
          )
        : {};
      return {
        locale,
        syncedVersion: row.syncedVersion,
        translatedFrom: row.translatedFrom,
        content: JSON.stringify(document),
        updatedAt: row.translatedAt ?? row.createdAt,
        provenance: keepProvenanceOf(provenance, written),
        unknownWriters: written.filter(
          (key) => shownProvenanceOf(provenance, translations, key) === UNKNOWN_WRITER,
        ),
        revision: raw.revision,
      };
    },
  };
}

export type Locales = ReturnType<typeof createLocales>;
