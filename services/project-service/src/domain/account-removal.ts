import { enqueueEvent } from '@tolk/bus';
import type { Queryable } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { MembersRepository } from '../data-access/members-repository.js';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import { projectEvent } from './project-events.js';

/**
 * What deleting an account (identity-service's UserDeleted) does to projects: those the user is
 * the only owner of are deleted, as their owner would delete them (ProjectDeleted); from every
 * other project the user is removed, as an owner would remove them (ProjectMembershipChanged,
 * which also revokes the project tokens they created).
 */
export function createAccountRemoval(deps: {
  schema: string;
  projects: ProjectsRepository;
  members: MembersRepository;
  now: () => number;
  logger: Logger;
}) {
  const { schema, projects, members, now, logger } = deps;

  return {
    /** What identity-service names before it deletes an account (the confirmation it asks for). */
    soleOwnedProjects(userId: string): Promise<{ projectId: string; name: string }[]> {
      return members.listSolelyOwned(userId);
    },

    /**
     * UserDeleted, inside the consumer's transaction. Each project is locked first, as every
     * membership change locks it, in id order so two deletions never deadlock; who owns what is
     * read under that lock. A duplicate event finds no membership left and changes nothing.
     */
    async userDeleted(userId: string, tx: Queryable): Promise<void> {
      const at = now();
      for (const projectId of await members.listProjectIdsOfUser(userId, tx)) {
        if (!(await projects.lock(projectId, tx))) continue;
        const membership = await members.find(projectId, userId, tx);
        if (!membership) continue;
        if (membership.role === 'owner' && (await members.countOwners(projectId, tx)) <= 1) {
          await projects.delete(projectId, tx);
          await enqueueEvent(tx, schema, projectEvent('ProjectDeleted', { projectId }, at));
          logger.info({ projectId, userId }, 'project deleted with its only owner');
        } else {
          await members.delete(projectId, userId, tx);
          await enqueueEvent(
            tx,
            schema,
            projectEvent('ProjectMembershipChanged', { projectId, userId, change: 'removed' }, at),
          );
          logger.info({ projectId, userId }, 'member removed with their account');
        }
      }
    },
  };
}

export type AccountRemoval = ReturnType<typeof createAccountRemoval>;
