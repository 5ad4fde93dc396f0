import type { Principal } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  authorizeProject,
  type ProjectDirectory,
} from '@tolk/http';
import type { LocaleProject } from '../data-access/projects-repository.js';
import type { Logger } from '@tolk/logger';
import {
  decodeStoredEntries,
  encodeStoredEntries,
  findIcuProblems,
  findPlaceholderMismatches,
  parseSourceDocument,
  rebuildTranslation,
  type SourceLimits,
} from '@tolk/locale-file';
import type { LocaleRow, LocalesRepository } from '../data-access/locales-repository.js';
import type { SourceVersion } from '../data-access/source-client.js';
import type { SourceHead } from '../data-access/source-heads-repository.js';
import type { BaselineKeeper } from './baseline.js';
import { computeLocaleState, statusOf, untranslatedCounts, type LocaleStatus } from './locale-state.js';
import type { SourceDocuments } from './source-documents.js';

/** The locale record (DESIGN §5). */
export type Locale = {
  locale: string;
  status: LocaleStatus;
  syncedVersion: number;
  sourceVersion: number;
  keyCount: number;
  translatedCount: number;
  missingCount: number;
  outdatedCount: number;
  updatedAt: number;
};

export type LocaleDetail = Locale & { missing: string[]; outdated: string[] };

export type Translations = { locale: string; syncedVersion: number; content: string; updatedAt: number };

/** How many keys an error message names before it says how many more there are. */
const NAMED_KEYS = 10;

function nameKeys(keys: readonly string[]): string {
  const named = keys.slice(0, NAMED_KEYS).map((key) => JSON.stringify(key));
  const more = keys.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

function localeNotFound(locale: string): NotFoundError {
  return new NotFoundError(`Locale ${locale} is not a target locale of this project`);
}

/** A translations map of the stored form; an empty value counts as not translated. */
function translationsOf(entries: {
  keys: readonly string[];
  values: readonly string[];
}): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i < entries.keys.length; i++) {
    const value = entries.values[i]!;
    if (value !== '') map.set(entries.keys[i]!, value);
  }
  return map;
}

const NO_TRANSLATIONS: ReadonlyMap<string, string> = new Map();

/**
 * Target locales of a project, their translations and status (DESIGN §5). The status is
 * `behind` as soon as a newer source version is known (SourceChanged); the counts are computed
 * against the newest source when they are shown, if an event has not already done it.
 */
export function createLocales(deps: {
  db: Db;
  locales: LocalesRepository;
  directory: ProjectDirectory<LocaleProject>;
  documents: SourceDocuments;
  baseline: BaselineKeeper;
  limits: SourceLimits;
  now: () => number;
  logger: Logger;
}) {
  const { db, locales, directory, documents, baseline, limits, now, logger } = deps;

  function present(row: LocaleRow, head: number): Locale {
    // Counts refreshed by a concurrent request may be newer than the head this one read.
    const sourceVersion = Math.max(head, row.countsVersion);
    return {
      locale: row.locale,
      status: statusOf(row.syncedVersion, sourceVersion),
      syncedVersion: row.syncedVersion,
      sourceVersion,
      keyCount: row.keyCount,
      translatedCount: row.translatedCount,
      missingCount: row.missingCount,
      outdatedCount: row.outdatedCount,
      updatedAt: row.updatedAt,
    };
  }

  async function storedTranslations(projectId: string, locale: string, q: Queryable = db) {
    const content = await locales.content(projectId, locale, q);
    return content ? translationsOf(await decodeStoredEntries(content)) : NO_TRANSLATIONS;
  }

  /** Per project, the refresh running or queued last: one at a time, each after the one before. */
  const refreshes = new Map<string, Promise<SourceHead>>();

  /**
   * Brings the counts of every locale of the project up to the newest source version known,
   * and the baseline with them. A no-op when they are current. Refreshes of one project run one
   * after the other in this process: a read arriving while the event's refresh runs waits for it
   * and then finds the counts current, instead of doing the same work beside it.
   */
  function refresh(projectId: string): Promise<SourceHead> {
    const previous = refreshes.get(projectId);
    const next = (previous ? previous.catch(() => undefined) : Promise.resolve()).then(() =>
      refreshNow(projectId),
    );
    refreshes.set(projectId, next);
    const forget = () => {
      if (refreshes.get(projectId) === next) refreshes.delete(projectId);
    };
    next.then(forget, forget);
    return next;
  }

  /** Returns the head the counts were brought to: what they are shown against. */
  async function refreshNow(projectId: string): Promise<SourceHead> {
    const head = await documents.head(projectId);
    const stale = (await locales.list(projectId)).filter((row) => row.countsVersion < head.version);
    if (stale.length === 0) return head;
    // Fetched before the transaction: no lock is held while source-service answers.
    const needsSource = stale.some((row) => row.translatedFrom > 0);
    const source = needsSource ? await documents.version(projectId, head.version) : undefined;
    await baseline.change(projectId, async (tx) => {
      for (const row of await locales.lockStale(projectId, head.version, tx)) {
        const counts =
          source && row.translatedFrom > 0
            ? computeLocaleState(
                source,
                await storedTranslations(projectId, row.locale, tx),
                row.translatedFrom,
              )
            : untranslatedCounts(head.version, head.keyCount);
        await locales.saveCounts(projectId, row.locale, counts, now(), tx);
      }
    });
    logger.debug({ projectId, version: head.version, locales: stale.length }, 'locale counts refreshed');
    return head;
  }

  /** The project exists and the principal may do `need`; the source head, counts current. */
  async function open(
    principal: Principal | undefined,
    projectId: string,
    need: 'read' | 'write' | 'manage',
  ) {
    authorizeProject(principal, projectId, need);
    const project = await directory.require(projectId);
    // Shown against the head the counts were refreshed to. A SourceChanged that committed while
    // they were refreshed is taken in too, rather than left for the next read.
    let head = await refresh(projectId);
    if ((await documents.head(projectId)).version > head.version) head = await refresh(projectId);
    return { project, head };
  }

  async function requireLocale(projectId: string, locale: string, q: Queryable = db): Promise<LocaleRow> {
    const row = await locales.find(projectId, locale, q);
    if (!row) throw localeNotFound(locale);
    return row;
  }

  /**
   * The upload's keys must all be keys of the source version it was made from, every value must
   * keep the ICU rules of its source for `locale` (DESIGN §11) and use its source value's
   * placeholders; otherwise nothing is stored.
   */
  function checkAgainstSource(
    translation: { keys: string[]; values: string[] },
    source: SourceVersion,
    locale: string,
  ) {
    const sourceKeys = new Set(source.keys);
    const unknown = translation.keys.filter((key) => !sourceKeys.has(key));
    if (unknown.length > 0) {
      throw new ValidationError(
        `Keys not in source version ${source.version}: ${nameKeys(unknown)}; nothing was stored`,
      );
    }
    // Before placeholders: a translation that does not parse loses arguments, and the parser's
    // error says better why.
    const icu = findIcuProblems(source, translation, locale);
    if (icu.length > 0) {
      const named = icu.slice(0, NAMED_KEYS).map((p) => `${JSON.stringify(p.key)}: ${p.message}`);
      const more = icu.length > named.length ? `; and ${icu.length - named.length} more` : '';
      throw new ValidationError(
        `ICU messages break the rules for ${locale} in ${icu.length} key(s): ${named.join('; ')}${more}; nothing was stored`,
      );
    }
    const mismatches = findPlaceholderMismatches(source, translation);
    if (mismatches.length > 0) {
      const first = mismatches[0]!;
      const detail = [
        first.missing.length > 0 ? `missing ${first.missing.join(' ')}` : '',
        first.unexpected.length > 0 ? `unexpected ${first.unexpected.join(' ')}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      throw new ValidationError(
        `Placeholders differ from the source in ${mismatches.length} key(s): ` +
          `${nameKeys(mismatches.map((m) => m.key))} (${JSON.stringify(first.key)}: ${detail}); nothing was stored`,
      );
    }
  }

  return {
    refresh,

    /** `GET .../locales`: in the order they were added. */
    async list(principal: Principal | undefined, projectId: string): Promise<Locale[]> {
      const { head } = await open(principal, projectId, 'read');
      return (await locales.list(projectId)).map((row) => present(row, head.version));
    },

    /** `GET .../locales/{locale}`: the record and the keys left to translate. */
    async get(principal: Principal | undefined, projectId: string, locale: string): Promise<LocaleDetail> {
      const { head } = await open(principal, projectId, 'read');
      const row = await requireLocale(projectId, locale);
      if (row.missingCount === 0 && row.outdatedCount === 0) {
        return { ...present(row, head.version), missing: [], outdated: [] };
      }
      const source = await documents.version(projectId, row.countsVersion);
      const state = computeLocaleState(
        source,
        await storedTranslations(projectId, locale),
        row.translatedFrom,
      );
      return { ...present(row, head.version), missing: state.missing, outdated: state.outdated };
    },

    /** `POST .../locales`: 409 when present, 400 for the project's source locale. */
    async add(principal: Principal | undefined, projectId: string, locale: string): Promise<Locale> {
      const { project, head } = await open(principal, projectId, 'manage');
      if (locale === project.sourceLocale) {
        throw new ValidationError(`locale: ${locale} is the project's source locale, not a target locale`);
      }
      const at = now();
      await baseline.change(projectId, async (tx) => {
        const added = await locales.insert(
          projectId,
          locale,
          untranslatedCounts(head.version, head.keyCount),
          at,
          tx,
        );
        if (!added) throw new ConflictError(`Locale ${locale} is already a target locale of this project`);
      });
      return present(await requireLocale(projectId, locale), head.version);
    },

    /** `DELETE .../locales/{locale}`: its translations go with it; the baseline moves. */
    async remove(principal: Principal | undefined, projectId: string, locale: string): Promise<void> {
      await open(principal, projectId, 'manage');
      await baseline.change(projectId, async (tx) => {
        if (!(await locales.delete(projectId, locale, tx))) throw localeNotFound(locale);
      });
    },

    /**
     * `PUT .../locales/{locale}/translations?sourceVersion=N`: the locale's translations, whole,
     * made from source version N. Checked against version N before anything is stored.
     */
    async upload(
      principal: Principal | undefined,
      projectId: string,
      locale: string,
      body: unknown,
      from: number,
    ): Promise<Locale> {
      authorizeProject(principal, projectId, 'write');
      const parsed = parseSourceDocument(body, limits);
      await directory.require(projectId);
      await requireLocale(projectId, locale);
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
      checkAgainstSource(parsed, made, locale);

      const translations = translationsOf(parsed);
      const current = head.version === from ? made : await documents.version(projectId, head.version);
      const counts = computeLocaleState(current, translations, from);
      const content = await encodeStoredEntries({
        keys: [...translations.keys()],
        values: [...translations.values()],
      });
      const at = now();
      await baseline.change(projectId, async (tx) => {
        const row = await locales.lock(projectId, locale, tx);
        if (!row) throw localeNotFound(locale);
        if (from < row.translatedFrom) {
          throw new ConflictError(
            `Translations made from source version ${row.translatedFrom} are already stored; ` +
              `an upload made from version ${from} would replace them. Pull, translate and upload again`,
          );
        }
        await locales.saveTranslations(projectId, locale, { content, from }, counts, at, tx);
      });
      // A newer source may have arrived meanwhile: counts follow it before they are shown.
      const latest = await refresh(projectId);
      return present(await requireLocale(projectId, locale), latest.version);
    },

    /** `GET .../locales/{locale}/translations`: in the current source's nesting and key order. */
    async download(
      principal: Principal | undefined,
      projectId: string,
      locale: string,
    ): Promise<Translations> {
      const { head } = await open(principal, projectId, 'read');
      const row = await requireLocale(projectId, locale);
      const translations = await storedTranslations(projectId, locale);
      const source = translations.size > 0 ? await documents.version(projectId, head.version) : undefined;
      const document = source
        ? rebuildTranslation(source, (key) => translations.get(key), { locale: row.locale })
        : {};
      return {
        locale,
        syncedVersion: row.syncedVersion,
        content: JSON.stringify(document),
        updatedAt: row.translatedAt ?? row.createdAt,
      };
    },
  };
}

export type Locales = ReturnType<typeof createLocales>;
