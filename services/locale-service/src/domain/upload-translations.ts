import { ifMatchHolds, MAX_IGNORED_NAMED, type IfMatch, type Principal } from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import { ConflictError, PreconditionFailedError, ValidationError } from '@tolk/errors';
import { encodeStoredEntries, type TargetKeys } from '@tolk/locale-file';
import { parseUpload } from '@tolk/locale-file/upload';
import { authorizeProject } from '@tolk/projects';
import type { LocaleRow } from '../data-access/locales-repository.js';
import { keySettingsOf, type KeySettings } from '../data-access/projects-repository.js';
import type { RetiredTranslation } from '../data-access/retired-translations-repository.js';
import type { SourceVersion } from '../data-access/source-client.js';
import { judgeUpload } from './judge-upload.js';
import { encodeFindings, groupFindings } from './locale-findings.js';
import { decodeTranslations, translationsOf, type StoredWithProvenance } from './locale-reads.js';
import { localeNotFound, presentLocale, type Locale } from './locale-record.js';
import {
  computeLocaleState,
  prepareKeyRules,
  ruledKeysOf,
  targetKeysOf,
  type RuledKeys,
} from './locale-state.js';
import { memoryOfUpload } from './memory.js';
import {
  decodeProvenance,
  encodeProvenance,
  NO_PROVENANCE,
  provenanceOfUpload,
  readProvenanceClaim,
  type ClaimedKeys,
  type ProvenanceMap,
} from './provenance.js';
import type { LocaleUseCaseDeps } from './locale-deps.js';

/** The answer of an upload: the locale, the revision stored and the keys it ignored. */
export type UploadedLocale = Locale & { revision: number; ignored: string[]; ignoredCount: number };

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
 * A locale's translations uploaded whole (`PUT .../locales/{locale}/translations`): judged, carried
 * over the source's later renames and restores, stored with who wrote them and what the memory
 * learns of them; the memory learns it once the project's uploads are done.
 */
export function createUploadTranslations(deps: LocaleUseCaseDeps) {
  const { db, locales, directory, writerCheck, documents, carry, retired, baseline, memory, learning } = deps;
  const { limits, refresh, now } = deps;
  const { storedWithProvenance, requireLocale, keySettings } = deps.reads;

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

  /** storeUpload; the memory learns what the project's uploads teach it once they are done. */
  return function upload(...args: Parameters<typeof storeUpload>): Promise<UploadedLocale> {
    return learning.during(args[1], () => storeUpload(...args));
  };
}
