import { enqueueEvent } from '@tolk/bus';
import type { Queryable } from '@tolk/db';
import type { ProjectFacts } from '@tolk/http';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import type { TokensRepository } from '../data-access/tokens-repository.js';
import { tokenRevokedEvent } from './token-events.js';

/**
 * What token-service learns from project-service's events, applied inside the consumer's
 * transaction (the one that records the event as processed).
 */
export function createTokenSync(deps: {
  schema: string;
  projects: ProjectsRepository;
  tokens: TokensRepository;
  now: () => number;
}) {
  const { schema, projects, tokens, now } = deps;

  return {
    /** ProjectCreated / ProjectUpdated: the project exists; an older state never overwrites a newer one. */
    async projectChanged(facts: ProjectFacts, tx: Queryable): Promise<void> {
      await projects.remember(facts, tx);
    },

    /**
     * ProjectDeleted: the project is tombstoned and every token of it deleted; each one that was
     * live is announced with TokenRevoked, in the same transaction. A duplicate event finds
     * nothing left and announces nothing.
     */
    async projectDeleted(projectId: string, tx: Queryable): Promise<void> {
      const at = now();
      await projects.bury(projectId, at, tx);
      for (const revoked of await tokens.deleteProject(projectId, tx)) {
        await enqueueEvent(tx, schema, tokenRevokedEvent(revoked, at));
      }
    },
  };
}

export type TokenSync = ReturnType<typeof createTokenSync>;
