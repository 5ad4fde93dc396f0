import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@tolk/bus';
import { userEventDataSchemas, writeRightLock, type EventEnvelope } from '@tolk/contracts';
import { ConflictError, UnauthorizedError, ValidationError } from '@tolk/errors';
import { holdAdvisoryLocks, type Db } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { OwnedProject, ProjectClient } from '../data-access/project-client.js';
import type { User, UsersRepository } from '../data-access/users-repository.js';
import { newId } from './opaque-tokens.js';
import { PASSWORD_SCRYPT_PARAMS, hashPassword, verifyPassword, type ScryptParams } from './passwords.js';
import type { Session, Sessions } from './sessions.js';

export const PRODUCER = 'identity-service';

/** A 409 names this many projects at most; a user with more is told how many more. */
const NAMED_PROJECTS = 20;

function userDeletedEvent(userId: string, occurredAt: number): EventEnvelope {
  const data = userEventDataSchemas.UserDeleted.parse({ userId });
  return { id: randomUUID(), type: 'UserDeleted', occurredAt, producer: PRODUCER, data };
}

/** What a deletion without confirmation answers: what would go, and how to confirm. */
function confirmationNeeded(projects: OwnedProject[]): ConflictError {
  const named = projects
    .slice(0, NAMED_PROJECTS)
    .map((project) => `${JSON.stringify(project.name)} (${project.projectId})`);
  if (projects.length > NAMED_PROJECTS) named.push(`and ${projects.length - NAMED_PROJECTS} more`);
  const consequence =
    projects.length === 0
      ? 'No project is deleted with it: you are not the only owner of any.'
      : `It also deletes the ${projects.length === 1 ? 'project' : `${projects.length} projects`} you are ` +
        `the only owner of, with all their data: ${named.join(', ')}. To keep one, make another member ` +
        'an owner first.';
  return new ConflictError(
    `Deleting your account cannot be undone. ${consequence} To delete it, send ` +
      '{"confirm": "<your account\'s email>"}',
  );
}

/** Emails arrive in normalizeEmail's form (@tolk/contracts) from the request schemas. */
export function createAccounts(deps: {
  db: Db;
  users: UsersRepository;
  sessions: Sessions;
  projects: ProjectClient;
  now: () => number;
  logger: Logger;
  /** The cost of new password hashes (production's by default). */
  passwordCost?: ScryptParams;
}) {
  const { db, users, sessions, projects, now, logger } = deps;
  const passwordCost = deps.passwordCost ?? PASSWORD_SCRYPT_PARAMS;

  /** The user behind a verified access token; gone users must sign in again. */
  async function getUser(userId: string): Promise<User> {
    const user = await users.findById(userId);
    if (!user) throw new UnauthorizedError('The user of this access token no longer exists');
    return user;
  }

  return {
    async signUp(input: { email: string; password: string; name: string | null }): Promise<Session> {
      const passwordHash = await hashPassword(input.password, passwordCost);
      const session = await db.transaction(async (tx) => {
        const user = await users.insertUnlessEmailTaken(
          { userId: newId('usr'), email: input.email, name: input.name, createdAt: now(), passwordHash },
          tx,
        );
        if (!user) throw new ConflictError('An account with this email already exists');
        return sessions.start(user, tx);
      });
      logger.info({ userId: session.user.userId }, 'user signed up');
      return session;
    },

    /** One answer for an unknown email and a wrong password, after the same amount of work. */
    async logIn(input: { email: string; password: string }): Promise<Session> {
      const account = await users.findWithPasswordByEmail(input.email);
      const passwordMatches = await verifyPassword(input.password, account?.passwordHash, passwordCost);
      if (!account || !passwordMatches) throw new UnauthorizedError('Invalid email or password');
      return sessions.start(account.user);
    },

    getUser,

    /**
     * `DELETE /v1/user/me`. Without `confirm`, nothing happens: 409 names the projects that would
     * be deleted with the account (those the user is the only owner of). With `confirm` equal to
     * the account's email, the user is deleted with every sign-in (refresh tokens, device logins),
     * and UserDeleted goes to the outbox in the same transaction: project-service deletes those
     * projects and the memberships, byok-service the provider keys, token-service revokes the
     * tokens the user created, and every gateway refuses the user's access tokens.
     */
    async deleteAccount(userId: string, confirm: string | undefined): Promise<void> {
      const user = await getUser(userId);
      if (confirm === undefined) throw confirmationNeeded(await projects.soleOwnedProjects(userId));
      if (confirm !== user.email) {
        throw new ValidationError("body.confirm: must be this account's email, to confirm the deletion");
      }
      await db.transaction(async (tx) => {
        // A write of the user's that asked whether the account exists commits first or is refused.
        await holdAdvisoryLocks(tx, [writeRightLock.account(userId)], 'exclusive');
        if (!(await users.delete(userId, tx))) {
          throw new UnauthorizedError('The user of this access token no longer exists');
        }
        await enqueueEvent(tx, db.schema, userDeletedEvent(userId, now()));
      });
      logger.info({ userId }, 'account deleted');
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
