import { NO_KEY_RULES, type Principal } from '@tolk/contracts';
import { ValidationError } from '@tolk/errors';
import type { LocaleRevision } from '../data-access/locales-repository.js';
import type { SourceVersion } from '../data-access/source-client.js';
import {
  browsePage,
  browseRows,
  type BrowsedKey,
  type BrowseQuery,
  type BrowsedLocale,
  type BrowseRows,
} from './browse.js';
import type { LocaleUseCaseDeps } from './locale-deps.js';
import { decodeFindings } from './locale-findings.js';
import { decodeTranslations } from './locale-reads.js';
import { localeNotFound } from './locale-record.js';
import {
  computeLocaleState,
  prepareKeyRules,
  ruledKeysOf,
  ruledValueOf,
  targetKeysOf,
} from './locale-state.js';
import { decodeProvenance } from './provenance.js';
import { createSharedComputations } from './shared-computations.js';
import { createSliceQueue } from './slice-queue.js';

/** A page of the translation browser (`GET /v1/projects/{projectId}/keys`). */
export type KeyPage = {
  sourceVersion: number;
  locales: string[];
  total: number;
  offset: number;
  limit: number;
  keys: BrowsedKey[];
};

/**
 * The translation browser (`GET /v1/projects/{projectId}/keys`): a page of the source's keys with
 * each shown locale's translation, its state, who wrote it and its findings.
 */
export function createBrowseKeys({
  locales,
  documents,
  browseCacheMaxKeys,
  reads,
  access,
}: LocaleUseCaseDeps) {
  const { keysMadeFrom } = reads;
  const { open } = access;

  // The translation browser's state of each locale and its rows, computed once and shared by
  // the requests that show them (20 reads of a project of 20,000 keys in 10 locales took 4 s each,
  // each decoding and computing everything again); its CPU-heavy work in slices, one at a time,
  // projects taking turns.
  const browsedLocales = createSharedComputations<BrowsedLocale>(browseCacheMaxKeys);
  const browsedRowLists = createSharedComputations<BrowseRows>(browseCacheMaxKeys);
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

  /**
   * `GET /v1/projects/{projectId}/keys`: a page of the translation browser over the target
   * locales `codes` (canonical; all when undefined), in the order they were added.
   */
  return async function browse(
    principal: Principal | undefined,
    projectId: string,
    query: BrowseQuery & { codes?: readonly string[] },
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
  };
}
