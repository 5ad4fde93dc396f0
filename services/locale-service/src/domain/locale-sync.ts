import type { Queryable } from '@tolk/db';
import type { LocalesRepository } from '../data-access/locales-repository.js';
import type { ProjectFacts } from '@tolk/projects';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import type { SourceHeadsRepository } from '../data-access/source-heads-repository.js';
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
  now: () => number;
}) {
  const { projects, heads, locales, documents, now } = deps;

  return {
    /**
     * ProjectCreated / ProjectUpdated: the source locale, the plural-key setting and the key
     * rules; an older state never overwrites a newer one. A changed setting or rule changes
     * every locale's keys or counts: they are recomputed (refresh) as if the source had moved.
     */
    async projectChanged(facts: ProjectFacts, tx: Queryable): Promise<void> {
      const { changed } = await projects.remember(facts, tx);
      if (changed.includes('i18next_plurals') || changed.includes('key_rules')) {
        await locales.markStale(facts.projectId, tx);
      }
    },

    /** ProjectDeleted: every row of the project goes; a tombstone keeps it from coming back. */
    async projectDeleted(projectId: string, tx: Queryable): Promise<void> {
      await projects.purge(projectId, now(), tx);
      documents.evictProject(projectId);
    },

    /**
     * SourceChanged: the source head moves forward, never back (version guard), which alone
     * makes every locale not synced with it `behind`. Returns whether it moved; the counts are
     * refreshed after the transaction commits.
     */
    async sourceChanged(
      change: { projectId: string; version: number; keyCount: number; occurredAt: number },
      tx: Queryable,
    ): Promise<boolean> {
      const moved = await heads.advance(change.projectId, change, tx);
      if (moved) await locales.touchBehind(change.projectId, change.version, change.occurredAt, tx);
      return moved;
    },
  };
}

export type LocaleSync = ReturnType<typeof createLocaleSync>;
