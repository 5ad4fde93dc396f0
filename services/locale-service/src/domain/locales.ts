import {
  ifMatchHolds,
  MAX_IGNORED_NAMED,
  NO_KEY_RULES,
  type IfMatch,
  type KeyRuleMatcher,
  type Principal,
  type ShownProvenance,
} from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import { ConflictError, PreconditionFailedError, ValidationError } from '@tolk/errors';
import { authorizeProject, type ProjectDirectory, type WriterCheck } from '@tolk/projects';
import {
  keySettingsOf,
  type KeySettings,
  type LocaleProject,
  type ProjectsRepository,
} from '../data-access/projects-repository.js';
import type { Logger } from '@tolk/logger';
import {
  encodeStoredEntries,
  judgedSourceOf,
  rebuildTranslation,
  type Finding,
  type FlatEntries,
  type SourceLimits,
  type TargetKeys,
} from '@tolk/locale-file';
import type { LocaleRevision, LocaleRow, LocalesRepository } from '../data-access/locales-repository.js';
import type { SourceVersion } from '../data-access/source-client.js';
import type {
  RetiredTranslation,
  RetiredTranslationsRepository,
} from '../data-access/retired-translations-repository.js';
import type { BaselineKeeper } from './baseline.js';
import type { CarryOver } from './carry-over.js';
import {
  computeLocaleState,
  prepareKeyRules,
  RULED,
  ruledKeysOf,
  type RuledKeys,
  targetKeysOf,
  untranslatedCounts,
} from './locale-state.js';
import type { SourceDocuments } from './source-documents.js';
import type { StoredCatchUp } from './stored-catch-up.js';
import { memoryOfUpload, type Memory } from './memory.js';
import {
  createLocaleReads,
  decodeTranslations,
  translationsOf,
  type StoredWithProvenance,
} from './locale-reads.js';
import { localeNotFound, presentLocale, type Locale } from './locale-record.js';
import { createLocaleAccess } from './locale-access.js';
import { createRefreshLocales } from './refresh-locales.js';
import type { MemoryLearning } from './memory-learning.js';
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
import { parseUpload } from '@tolk/locale-file/upload';
import {
  decodeFindings,
  encodeFindings,
  findingsOfKeys,
  groupFindings,
  NO_FINDINGS,
} from './locale-findings.js';
import { judgeUpload } from './judge-upload.js';
import {
  decodeProvenance,
  encodeProvenance,
  keepProvenanceOf,
  shownProvenanceOf,
  UNKNOWN_WRITER,
  provenanceOfUpload,
  NO_PROVENANCE,
  readProvenanceClaim,
  type Provenance,
  type ClaimedKeys,
  type ProvenanceMap,
} from './provenance.js';

export type LocaleDetail = Locale & { missing: string[]; outdated: string[]; findings: Finding[] };

/** The answer of an upload: the locale, the revision stored and the keys it ignored. */
export type UploadedLocale = Locale & { revision: number; ignored: string[]; ignoredCount: number };

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

/** An upload's `If-Match` against the revision of the locale's translations; `*`: the locale exists. */
function requireRevision(expected: IfMatch | undefined, locale: string, current: number): void {
  if (!ifMatchHolds(expected, current, true)) {
    throw new PreconditionFailedError(
      `If-Match does not match: the translations of ${locale} are at revision ${current}; ` +
        'nothing was stored (download them again and merge)',
    );
  }
}

/** The upload without the keys the rules exclude or never translate. */
function withoutRuledKeys(upload: { keys: string[]; values: string[] }, ruled: RuledKeys | undefined) {
  if (!ruled || ruled.untranslated.size === 0) return upload;
  const kept: { keys: string[]; values: string[] } = { keys: [], values: [] };
  for (let i = 0; i < upload.keys.length; i++) {
    if (ruled.untranslated.has(upload.keys[i]!)) continue;
    kept.keys.push(upload.keys[i]!);
    kept.values.push(upload.values[i]!);
  }
  return kept;
}

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
export function createLocales(deps: {
  db: Db;
  locales: LocalesRepository;
  projects: Pick<ProjectsRepository, 'find' | 'lockKeySettings'>;
  directory: ProjectDirectory<LocaleProject>;
  /** A write commits only if its sender may still write then (the body may have been slow). */
  writerCheck: WriterCheck;
  documents: SourceDocuments;
  carry: CarryOver;
  retired: RetiredTranslationsRepository;
  baseline: BaselineKeeper;
  memory: Pick<Memory, 'lessons' | 'keep' | 'forgetLocale'>;
  learning: Pick<MemoryLearning, 'during'>;
  /** Locales whose stored translations an upgrade left behind, judged and taught at refresh. */
  storedCatchUp: Pick<StoredCatchUp, 'catchUp'>;
  limits: SourceLimits;
  /** What the translation browser keeps of locales it computed, counted in keys. */
  browseCacheMaxKeys: number;
  now: () => number;
  logger: Logger;
}) {
  const {
    db,
    locales,
    projects,
    directory,
    writerCheck,
    documents,
    carry,
    retired,
    baseline,
    memory,
    learning,
    limits,
    now,
  } = deps;
  const reads = createLocaleReads(deps);
  const {
    storedTranslations,
    storedFindings,
    storedWithProvenance,
    requireLocale,
    keySettings,
    keysMadeFrom,
  } = reads;
  const { refresh, refreshBehind } = createRefreshLocales({ ...deps, reads });
  const { open, settledLocale } = createLocaleAccess({ ...deps, refresh });

  /** The provenance of an upload's keys (provenanceOfUpload) over `stored`, encoded. */
  async function uploadProvenance(
    uploaded: ReadonlyMap<string, string>,
    writers: { claimed: ClaimedKeys; restored: ProvenanceMap },
    stored: StoredWithProvenance,
    at: number,
  ) {
    return encodeProvenance(
      await provenanceOfUpload({
        uploaded,
        ...writers,
        before: stored.translations,
        beforeProvenance: stored.provenance,
        at,
      }),
    );
  }

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

  /**
   * Whether what is stored in `q` is still `known`, read before the row was locked (comparing
   * the bytes costs far less than decoding them again).
   */
  async function storedUnchanged(
    projectId: string,
    locale: string,
    known: StoredWithProvenance,
    q: Queryable,
  ): Promise<boolean> {
    const current = await locales.translations(projectId, locale, q);
    const same = (a: Buffer | undefined, b: Buffer | undefined) => (a && b ? a.equals(b) : a === b);
    return (
      current !== undefined &&
      same(current.content, known.raw.content) &&
      same(current.provenance, known.raw.provenance)
    );
  }

  /**
   * The stored translations an upload drops of keys that are no source keys any more (deleted
   * from the source): kept as retired translations, each with the revision of its source key in
   * the version it was made from, for a restore of the key (DESIGN §13).
   */
  async function leavingTranslations(
    projectId: string,
    row: LocaleRow,
    current: SourceVersion,
    target: TargetKeys | undefined,
    upload: ReadonlyMap<string, string>,
    tx: Queryable,
  ): Promise<RetiredTranslation[]> {
    if (!row.hasContent || row.translatedFrom === 0) return [];
    // One read of the row: the translations now, who wrote them only when some leave.
    const raw = await locales.translations(projectId, row.locale, tx);
    const stored = await decodeTranslations(raw?.content);
    const keys: ReadonlySet<string> | ReadonlyMap<string, unknown> = target?.byKey ?? new Set(current.keys);
    const leaving = [...stored.keys()].filter((key) => !keys.has(key) && !upload.has(key));
    if (leaving.length === 0) return [];
    const made = await documents.version(projectId, row.translatedFrom);
    // Who wrote them goes with them: a restored key gets its writer back.
    const provenance = await decodeProvenance(raw?.provenance);
    const wanted = new Set(leaving);
    const retiring: RetiredTranslation[] = [];
    for (let i = 0; i < made.keys.length; i++) {
      const key = made.keys[i]!;
      if (!wanted.has(key)) continue;
      const writer = provenance.get(key);
      retiring.push({
        key,
        sourceRevision: made.revisions[i]!,
        translation: stored.get(key)!,
        ...(writer && { provenance: writer }),
      });
    }
    return retiring;
  }

  /**
   * `PUT .../locales/{locale}/translations?sourceVersion=N`: the locale's translations, whole,
   * made from source version N. Judged against version N before anything is stored (DESIGN §15):
   * keys the locale does not have are ignored and named; the model's and the memory's values
   * must keep every rule, or nothing is stored; a person's value is stored with its findings.
   * With `expected` (If-Match), stored only if the translations are still at that revision when
   * the row is locked. Returns the locale, the revision stored and the keys ignored.
   */
  async function storeUpload(
    principal: Principal | undefined,
    projectId: string,
    locale: string,
    body: unknown,
    from: number,
    expected?: IfMatch,
  ): Promise<UploadedLocale> {
    authorizeProject(principal, projectId, 'write');
    const upload = await parseUpload(body, limits);
    const claimed = readProvenanceClaim(upload.metadata, upload.keys);
    const project = await directory.require(projectId);
    // A stale If-Match is refused before the upload is checked, and again under the lock below.
    requireRevision(expected, locale, (await requireLocale(projectId, locale)).revision);
    let head = await documents.head(projectId);
    if (from > head.version) {
      // A source version this service has not heard of yet (its SourceChanged is on the way).
      if (!(await documents.catchUp(projectId, from))) {
        throw new ValidationError(
          `query.sourceVersion: source version ${from} does not exist; the source is at version ${head.version}`,
        );
      }
      head = await documents.head(projectId);
    }
    const made = await documents.version(projectId, from);
    const madeTarget = targetKeysOf(made, locale, project.i18nextPlurals);
    // Values of keys left out of targets or never translated are not kept (DESIGN §13).
    const ruled = ruledKeysOf(made, madeTarget, await prepareKeyRules(project.keyRules, made, madeTarget));
    const parsed = withoutRuledKeys(upload, ruled);
    const judged = await judgeUpload(parsed, made, {
      locale,
      sourceLocale: project.sourceLocale,
      target: madeTarget,
      claimed,
    });
    const findings = await groupFindings(judged.findings);
    const storedFindings = await encodeFindings(findings);

    const translations = await translationsOf(judged.kept);
    const current = head.version === from ? made : await documents.version(projectId, head.version);
    // Made before renames and restores of later versions: they are carried into it (DESIGN §13);
    // when source-service cannot say which, the next refresh does it.
    const steps = await carry.fetchSteps(projectId, from, head.version);
    const writers =
      steps && steps.length > 0
        ? await carry.carryUpload(projectId, locale, translations, claimed, steps, db)
        : { claimed, restored: NO_PROVENANCE };
    const carried = steps ? head.version : from;
    const content = await encodeStoredEntries({
      keys: [...translations.keys()],
      values: [...translations.values()],
    });
    // Read before the lock, so that the lock is not held while they are decoded; read again
    // under it only when an upload was stored in between.
    const known = await storedWithProvenance(projectId, locale);
    const at = now();
    const countsWith = async ({ i18nextPlurals: plurals, keyRules }: KeySettings) => {
      const target = targetKeysOf(current, locale, plurals);
      return computeLocaleState(
        current,
        target,
        translations,
        from,
        plurals ? made.keys : undefined,
        await prepareKeyRules(keyRules, current, target),
        findings,
      );
    };
    // The memory learns the translations new in this upload, by the texts they were made for.
    const learnedWith = (plurals: boolean) =>
      memoryOfUpload(made, targetKeysOf(made, locale, plurals), translations, known.translations, findings);
    // Worked out before the row is locked, with the settings and the stored translations read
    // before it — the transaction holds a connection (embedded, the only one of every service)
    // while it runs — and again under the lock only where those changed meanwhile.
    const assumed = keySettingsOf(project);
    const ahead = {
      counts: await countsWith(assumed),
      provenance: await uploadProvenance(translations, writers, known, at),
      lessons: await memory.lessons(await learnedWith(assumed.i18nextPlurals)),
    };
    // Committed only if the sender may still write then: they may have lost the right while the
    // body arrived or the upload waited for the project's lock.
    const atCommit = writerCheck.atCommit(principal, projectId);
    const revision = await baseline.change(
      projectId,
      async (tx) => {
        const row = await locales.lock(projectId, locale, tx);
        if (!row) throw localeNotFound(locale);
        requireRevision(expected, locale, row.revision);
        const settings = await keySettings(projectId, tx);
        const target = targetKeysOf(current, locale, settings.i18nextPlurals);
        if (from < row.translatedFrom) {
          throw new ConflictError(
            `Translations made from source version ${row.translatedFrom} are already stored; ` +
              `an upload made from version ${from} would replace them. Pull, translate and upload again`,
          );
        }
        const leaving = await leavingTranslations(projectId, row, current, target, translations, tx);
        await retired.retire(projectId, locale, leaving, at, tx);
        const samePlurals = settings.i18nextPlurals === assumed.i18nextPlurals;
        const sameSettings =
          samePlurals && JSON.stringify(settings.keyRules) === JSON.stringify(assumed.keyRules);
        const counts = sameSettings ? ahead.counts : await countsWith(settings);
        const provenance = (await storedUnchanged(projectId, locale, known, tx))
          ? ahead.provenance
          : await uploadProvenance(
              translations,
              writers,
              await storedWithProvenance(projectId, locale, tx),
              at,
            );
        const stored = await locales.saveTranslations(
          projectId,
          locale,
          { content, provenance, findings: storedFindings, from, carried },
          counts,
          at,
          tx,
        );
        // What the memory learns, kept with the upload; it follows plural groups taken otherwise meanwhile.
        const lessons = samePlurals
          ? ahead.lessons
          : await memory.lessons(await learnedWith(settings.i18nextPlurals));
        await memory.keep(projectId, locale, lessons, at, tx);
        return stored;
      },
      atCommit,
    );
    // A newer source may have arrived meanwhile: counts follow it before they are shown.
    const latest = await refresh(projectId);
    return {
      ...presentLocale(await requireLocale(projectId, locale), latest.version),
      revision,
      ignored: judged.ignored.slice(0, MAX_IGNORED_NAMED),
      ignoredCount: judged.ignored.length,
    };
  }

  return {
    refresh,
    refreshBehind,

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

    /** See storeUpload; the memory learns what the project's uploads teach it once they are done. */
    upload(...args: Parameters<typeof storeUpload>): Promise<UploadedLocale> {
      return learning.during(args[1], () => storeUpload(...args));
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
