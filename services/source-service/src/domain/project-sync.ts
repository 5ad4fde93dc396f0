import type { Queryable } from '@tolk/db';
import type { BaselinesRepository } from '../data-access/baselines-repository.js';
import type { ProjectFacts } from '@tolk/projects';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import type { VersionCache } from '@tolk/locale-file';
import type { SourceVersion } from './key-revisions.js';

/**
 * What source-service learns from other services' events, applied inside the consumer's
 * transaction (the one that records the event as processed).
 */
export function createProjectSync(deps: {
  projects: ProjectsRepository;
  baselines: BaselinesRepository;
  cache: VersionCache<SourceVersion>;
  now: () => number;
}) {
  const { projects, baselines, cache, now } = deps;

  return {
    /** ProjectCreated / ProjectUpdated: the source locale; an older state never overwrites a newer one. */
    async projectChanged(facts: ProjectFacts, tx: Queryable): Promise<void> {
      await projects.remember(facts, tx);
    },

    /** ProjectDeleted: every row of the project goes; a tombstone keeps it from coming back. */
    async projectDeleted(projectId: string, tx: Queryable): Promise<void> {
      await projects.purge(projectId, now(), tx);
      cache.evictProject(projectId);
    },

    /** TranslationBaselineChanged: the baseline with the highest sequence wins. */
    async baselineChanged(projectId: string, baselineVersion: number, sequence: number, tx: Queryable) {
      await baselines.apply(projectId, baselineVersion, sequence, tx);
    },
  };
}

export type ProjectSync = ReturnType<typeof createProjectSync>;
