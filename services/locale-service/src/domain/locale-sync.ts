import type { Queryable } from '@tolk/db';
import type { BaselinesRepository } from '../data-access/baselines-repository.js';
import type { LocalesRepository } from '../data-access/locales-repository.js';
import type { ProjectFacts } from '@tolk/projects';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import type { SourceHeadsRepository } from '../data-access/source-heads-repository.js';
import type { RetiredTranslationsRepository } from '../data-access/retired-translations-repository.js';
import type { CarryOver, SourceCarryOver } from './carry-over.js';
import type { SourceDocuments } from './source-documents.js';

/**
 * What locale-service learns from other services' events, applied inside the consumer's
 * transaction (the one that records the event as processed).
 */
export function createLocaleSync(deps: {
  projects: ProjectsRepository;
  heads: SourceHeadsRepository;
  locales: LocalesRepository;
  documents: SourceDocuments;
  carry: CarryOver;
  retired: RetiredTranslationsRepository;
  baselines: BaselinesRepository;
  now: () => number;
}) {
  const { projects, heads, locales, documents, carry, retired, baselines, now } = deps;

  return {
    /**
     * ProjectCreated / ProjectUpdated: the source locale, the plural-key setting and the key
     * rules; an older state never overwrites a newer one. A changed setting or rule changes
     * every locale's keys or counts: they are recomputed (refresh) as if the source had moved.
     */
    async projectChanged(facts: ProjectFacts, tx: Queryable): Promise<void> {
      const { changed } = await projects.remember(facts, tx);
      if (changed.includes('i18next_plurals') || changed.includes('key_rules')) {
        await baselines.lock(facts.projectId, tx);
        await locales.markStale(facts.projectId, tx);
      }
    },

    /** ProjectDeleted: every row of the project goes; a tombstone keeps it from coming back. */
    async projectDeleted(projectId: string, tx: Queryable): Promise<void> {
      await projects.purge(projectId, now(), tx);
      await retired.purge(projectId, undefined, tx);
      documents.evictProject(projectId);
    },

    /**
     * SourceChanged: the source head moves forward, never back (version guard), which alone
     * makes every locale not synced with it `behind`; the version's renames and restores are
     * carried over into the translations of the locales carried up to the version before it
     * (DESIGN §13; guarded by their carried version). Returns whether the head moved; the counts
     * are refreshed after the transaction commits.
     */
    async sourceChanged(
      change: SourceCarryOver & { projectId: string; keyCount: number; occurredAt: number },
      tx: Queryable,
    ): Promise<boolean> {
      // The baseline's lock first, as every change to a project's locales takes it: the rows below
      // are then never locked in another order by a refresh or an upload running beside it.
      await baselines.lock(change.projectId, tx);
      const moved = await heads.advance(change.projectId, change, tx);
      if (moved) await locales.touchBehind(change.projectId, change.version, change.occurredAt, tx);
      await carry.sourceChanged(change.projectId, change, tx);
      return moved;
    },
  };
}

export type LocaleSync = ReturnType<typeof createLocaleSync>;
