import type { Queryable } from '@tolk/db';
import type { LocaleRow } from '../data-access/locales-repository.js';
import type { KeySettings } from '../data-access/projects-repository.js';
import type { SourceVersion } from '../data-access/source-client.js';
import type { SourceHead } from '../data-access/source-heads-repository.js';
import type { LocalesDeps } from './locale-deps.js';
import type { LocaleReads } from './locale-reads.js';
import {
  computeLocaleState,
  prepareKeyRules,
  ruledKeysOf,
  targetKeysOf,
  untranslatedCounts,
} from './locale-state.js';

/**
 * The counts of a project's locales brought up to the newest source version known (`refresh`),
 * after a SourceChanged or before they are shown; at start, of every project an upgrade left
 * behind (`refreshBehind`).
 */
export function createRefreshLocales(
  deps: Pick<
    LocalesDeps,
    'locales' | 'documents' | 'carry' | 'baseline' | 'storedCatchUp' | 'now' | 'logger'
  > & {
    reads: Pick<LocaleReads, 'storedTranslations' | 'storedFindings' | 'keySettings' | 'keysMadeFrom'>;
  },
) {
  const { locales, documents, carry, baseline, storedCatchUp, now, logger } = deps;
  const { storedTranslations, storedFindings, keySettings, keysMadeFrom } = deps.reads;

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

  /** A locale's counts against `source` (undefined: no source yet). */
  async function countsOf(
    projectId: string,
    row: LocaleRow,
    source: SourceVersion | undefined,
    settings: KeySettings,
    q: Queryable,
  ) {
    if (!source) return untranslatedCounts(0, 0);
    const plurals = settings.i18nextPlurals;
    const target = targetKeysOf(source, row.locale, plurals);
    const rules = await prepareKeyRules(settings.keyRules, source, target);
    if (row.translatedFrom === 0) {
      const keys = target ? target.keys : source.keys;
      return untranslatedCounts(source.version, keys.length, ruledKeysOf(source, target, rules));
    }
    return computeLocaleState(
      source,
      target,
      await storedTranslations(projectId, row.locale, q),
      row.translatedFrom,
      plurals ? await keysMadeFrom(projectId, source, row.translatedFrom) : undefined,
      rules,
      await storedFindings(projectId, row.locale, q),
    );
  }

  /** Returns the head the counts were brought to: what they are shown against. */
  async function refreshNow(projectId: string): Promise<SourceHead> {
    const head = await documents.head(projectId);
    let rows = await locales.list(projectId);
    const behind = rows.filter((row) => row.storedBehind && row.hasContent);
    if (behind.length > 0) {
      await storedCatchUp.catchUp(projectId, behind);
      rows = await locales.list(projectId);
    }
    const stale = rows.filter((row) => row.countsVersion < head.version);
    // Translations the consumer could not carry over a version's renames and restores (an event
    // missed or too large for them): carried now, with what source-service says of the versions.
    const uncarried = rows.filter((row) => row.hasContent && row.carriedVersion < head.version);
    const steps =
      uncarried.length > 0
        ? await carry.fetchSteps(
            projectId,
            Math.min(...uncarried.map((row) => row.carriedVersion)),
            head.version,
          )
        : undefined;
    if (stale.length === 0 && !steps) return head;
    // Fetched before the transaction: no lock is held while source-service answers. The source is
    // needed for every locale, translated or not: with plural groups each has keys of its own.
    // Without groups the source is what the translated locales need anyway, and kept in memory.
    const source = head.version > 0 ? await documents.version(projectId, head.version) : undefined;
    if (source) {
      for (const from of new Set(stale.map((row) => row.translatedFrom))) {
        await keysMadeFrom(projectId, source, from);
      }
    }
    await baseline.change(projectId, async (tx) => {
      if (steps) await carry.catchUp(projectId, head.version, steps, tx);
      const rows = await locales.lockStale(projectId, head.version, tx);
      if (rows.length === 0) return;
      const settings = await keySettings(projectId, tx);
      for (const row of rows) {
        const counts = await countsOf(projectId, row, source, settings, tx);
        await locales.saveCounts(projectId, row.locale, counts, now(), tx);
      }
    });
    logger.debug({ projectId, version: head.version, locales: stale.length }, 'locale counts refreshed');
    return head;
  }

  /**
   * Refreshes, one at a time, every project whose locales are stale or untaught (as an upgrade
   * leaves them), so that they are up to date before they are read; a project that fails is
   * left for its next read. Stops between two projects once `stopped` says so.
   */
  async function refreshBehind(stopped: () => boolean): Promise<void> {
    const projectIds = await locales.projectsBehind().catch((error: unknown) => {
      logger.error({ err: error }, 'the projects whose locales are behind could not be listed');
      return [];
    });
    for (const projectId of projectIds) {
      if (stopped()) return;
      await refresh(projectId).catch((error: unknown) => {
        logger.warn({ err: error, projectId }, "locales behind: left for the project's next read");
      });
    }
  }

  return { refresh, refreshBehind };
}

export type RefreshLocales = ReturnType<typeof createRefreshLocales>;
