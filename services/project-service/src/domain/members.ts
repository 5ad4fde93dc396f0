import { enqueueEvent } from '@tolk/bus';
import { writeRightLock } from '@tolk/contracts';
import { holdAdvisoryLocks, type Db } from '@tolk/db';
import { ConflictError, ForbiddenError, NotFoundError } from '@tolk/errors';
import type { Logger } from '@tolk/logger';
import type { IdentityClient } from '../data-access/identity-client.js';
import type { MembersRepository } from '../data-access/members-repository.js';
import type { Role } from '../data-access/projects-repository.js';
import { isPlausibleId } from './ids.js';
import { requireOwner, type ProjectAccess } from './project-access.js';
import { projectEvent } from './project-events.js';

/** `email` is looked up when read, never stored here; null when the account no longer exists. */
export type Member = { userId: string; email: string | null; role: Role };

/**
 * A project's members. Owners add (by email), remove members and change their roles; a member may
 * leave; a project never loses its last owner. Each change publishes ProjectMembershipChanged through the outbox.
 */
export function createMembers(deps: {
  db: Db;
  members: MembersRepository;
  access: ProjectAccess;
  identity: IdentityClient;
  now: () => number;
  logger: Logger;
}) {
  const { db, members, access, identity, now, logger } = deps;

  return {
    /** Any member may list them, in the order they joined, with their current emails. */
    async list(callerId: string, projectId: string): Promise<Member[]> {
      await access.roleOf(projectId, callerId);
      const memberships = await members.listByProject(projectId);
      const users = await identity.findUsersByIds(memberships.map((m) => m.userId));
      const emails = new Map(users.map((user) => [user.userId, user.email]));
      return memberships.map(({ userId, role }) => ({ userId, email: emails.get(userId) ?? null, role }));
    },

    /** Owners only; the person needs a Tolk account. */
    async add(callerId: string, projectId: string, input: { email: string; role: Role }): Promise<Member> {
      // Checked before asking identity-service, so that non-owners learn nothing about accounts.
      requireOwner(await access.roleOf(projectId, callerId));
      const user = await identity.findUserByEmail(input.email);
      if (!user)
        throw new NotFoundError('There is no Tolk account with that email; they need to sign up first');
      await db.transaction(async (tx) => {
        await access.lockAsOwner(projectId, callerId, tx);
        const at = now();
        const added = await members.insertUnlessMember(
          { projectId, userId: user.userId, role: input.role, addedAt: at },
          tx,
        );
        if (!added) throw new ConflictError(`${user.email} is already a member of this project`);
        await enqueueEvent(
          tx,
          db.schema,
          projectEvent('ProjectMembershipChanged', { projectId, userId: user.userId, change: 'added' }, at),
        );
      });
      logger.info({ projectId, userId: user.userId, role: input.role, by: callerId }, 'member added');
      return { userId: user.userId, email: user.email, role: input.role };
    },

    /** Owners remove anyone but the last owner; a member may remove only themselves (leave). */
    async remove(callerId: string, projectId: string, userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        // First, before the project's lock: a write of the member's in another service that asked
        // whether they are a member either commits before the removal or is refused.
        await holdAdvisoryLocks(tx, [writeRightLock.membership(projectId, userId)], 'exclusive');
        const { role } = await access.lockAsMember(projectId, callerId, tx);
        if (userId !== callerId && role !== 'owner') {
          throw new ForbiddenError('Only an owner can remove other members; a member can only leave');
        }
        const target = isPlausibleId(userId) ? await members.find(projectId, userId, tx) : undefined;
        if (!target) throw new NotFoundError('That user is not a member of this project');
        if (target.role === 'owner' && (await members.countOwners(projectId, tx)) <= 1) {
          throw new ConflictError(
            'This is the last owner of the project; add another owner first, or delete the project',
          );
        }
        await members.delete(projectId, userId, tx);
        await enqueueEvent(
          tx,
          db.schema,
          projectEvent('ProjectMembershipChanged', { projectId, userId, change: 'removed' }, now()),
        );
      });
      logger.info({ projectId, userId, by: callerId }, 'member removed');
    },

    /**
     * Owners only: the member's new role. Demoting the last owner is refused, so a project always
     * keeps one; a role the member already has changes nothing and publishes nothing.
     */
    async changeRole(callerId: string, projectId: string, userId: string, role: Role): Promise<Member> {
      const changed = await db.transaction(async (tx) => {
        await access.lockAsOwner(projectId, callerId, tx);
        const target = isPlausibleId(userId) ? await members.find(projectId, userId, tx) : undefined;
        if (!target) throw new NotFoundError('That user is not a member of this project');
        if (target.role === role) return false;
        if (target.role === 'owner' && (await members.countOwners(projectId, tx)) <= 1) {
          throw new ConflictError(
            'This is the last owner of the project; make another member an owner first',
          );
        }
        await members.setRole(projectId, userId, role, tx);
        await enqueueEvent(
          tx,
          db.schema,
          projectEvent('ProjectMembershipChanged', { projectId, userId, change: 'role_changed' }, now()),
        );
        return true;
      });
      if (changed) logger.info({ projectId, userId, role, by: callerId }, 'member role changed');
      const [user] = await identity.findUsersByIds([userId]);
      return { userId, email: user?.email ?? null, role };
    },

    /** For the gateway's membership check (internal): the user's role, or 404. */
    async membership(
      projectId: string,
      userId: string,
    ): Promise<{ projectId: string; userId: string; role: Role }> {
      const membership =
        isPlausibleId(projectId) && isPlausibleId(userId) ? await members.find(projectId, userId) : undefined;
      if (!membership) throw new NotFoundError('No such project, or the user is not a member of it');
      return { projectId, userId, role: membership.role };
    },

    /** For translation memory (internal): the projects the user is a member of, so may read. */
    async projectIdsOf(userId: string): Promise<string[]> {
      return isPlausibleId(userId) ? members.listProjectIdsOfUser(userId) : [];
    },
  };
}

export type Members = ReturnType<typeof createMembers>;
