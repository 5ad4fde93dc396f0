import { enqueueEvent } from '@tolk/bus';
import { writeRightLock } from '@tolk/contracts';
import { holdAdvisoryLocks, type Queryable } from '@tolk/db';
import type { ProjectFacts } from '@tolk/projects';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import type { RevokedToken, TokensRepository } from '../data-access/tokens-repository.js';
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
      await announceRevoked(await tokens.deleteProject(projectId, tx), at, tx);
    },

    /**
     * ProjectMembershipChanged (removed, or left): a project token belongs to the member who
     * created it, so every live token they created in the project is revoked, each announced with
     * TokenRevoked in this transaction; the gateway refuses it within a second. A duplicate event
     * finds none left. Tokens the member creates after being added again are not touched by a
     * redelivery (it is recorded as processed), but an event delayed past a re-addition revokes
     * those too: the safe side.
     */
    async memberRemoved(projectId: string, userId: string, tx: Queryable): Promise<void> {
      await revokeAndAnnounce(userId, projectId, 'member-removed', tx);
    },

    /** UserDeleted: every live token the user created, in any project, is revoked. */
    async userDeleted(userId: string, tx: Queryable): Promise<void> {
      await revokeAndAnnounce(userId, undefined, 'user-deleted', tx);
    },
  };

  async function revokeAndAnnounce(
    userId: string,
    projectId: string | undefined,
    reason: string,
    tx: Queryable,
  ): Promise<void> {
    const at = now();
    const revoked = await tokens.revokeCreatedBy(userId, projectId, { reason: `system:${reason}`, at }, tx);
    await announceRevoked(revoked, at, tx);
  }

  /**
   * TokenRevoked for each, in this transaction; and, as a revocation by a user does, each token's
   * write-right lock: a write of one of them that asked whether it is live commits first.
   */
  async function announceRevoked(revoked: RevokedToken[], at: number, tx: Queryable): Promise<void> {
    await holdAdvisoryLocks(
      tx,
      revoked.map((token) => writeRightLock.token(token.tokenId)),
      'exclusive',
    );
    for (const token of revoked) await enqueueEvent(tx, schema, tokenRevokedEvent(token, at));
  }
}

export type TokenSync = ReturnType<typeof createTokenSync>;
