import { z } from 'zod';
import {
  liveTokenPath,
  tokenIntrospectionResponseSchema,
  writeRightLock,
  type Principal,
} from '@tolk/contracts';
import { holdAdvisoryLocks, type Queryable, type TransactionOptions } from '@tolk/db';
import { UnauthorizedError } from '@tolk/errors';
import { createInternalClient } from '@tolk/internal-client';
import type { Logger } from '@tolk/logger';
import { authorizeProject, projectNotFound } from './project-access.js';

// The gateway's own words for the same refusals, so a client cannot tell where it was refused.
const ACCOUNT_DELETED = 'The account of this access token has been deleted';
const TOKEN_REVOKED = 'This project API token is unknown or has been revoked';

const usersSchema = z.object({ users: z.array(z.object({ userId: z.string() })) });
const membershipSchema = z.object({ role: z.string().min(1) });

/**
 * Authorisation at commit. The gateway checks a caller before it reads the body (from caches that
 * events evict), and an upload's body may take minutes to arrive, its checks seconds more and its
 * transaction may wait for the project's lock behind another upload; the service trusts the
 * principal the gateway forwarded. `atCommit` gives the options of the write's transaction
 * (`Db.transaction`) that make it commit only if its sender may still write then: last before
 * COMMIT, after the write's statements, it takes the sender's `writeRightLock`s (shared) and asks
 * the services that own the truth, never a cache; a refusal rolls the write back. The owners take
 * the same lock exclusively when they revoke, so a removal, a revocation or a deletion either
 * committed before the question, which sees it, or waits for the write's commit: nothing is stored
 * after its sender lost the right and was told so. The project's locks are held while they answer
 * (a few milliseconds; a slow answer is 504 within `timeoutMs`). Embedded (one connection), the
 * question is asked just before the transaction (see `TransactionOptions`), where no other
 * transaction can commit until it ends.
 *
 * - A user: identity-service, that the account still exists (project-service drops a deleted
 *   account's memberships only once it has consumed UserDeleted), and project-service, that the
 *   user is still a member — a deleted project has none. Both at once.
 *   `members: 'kept here'` leaves the membership to the caller (project-service, which reads its
 *   own members table under the project's lock in the same transaction, as a removal writes it:
 *   it takes no membership lock, which a removal holds while it waits for the project's lock).
 * - A project API token: token-service, that the token is still live (TokenRevoked, or its
 *   project deleted), of this project and allowed to write.
 *
 * Refused as the gateway refuses: a deleted account or a revoked token 401, a removed member 404
 * with a non-member's message. The owner of the truth unreachable → 503, slower than `timeoutMs`
 * → 504: nothing is stored on doubt.
 */
export function createWriterCheck(
  service: {
    config: { IDENTITY_SERVICE_URL: string; PROJECT_SERVICE_URL?: string; TOKEN_SERVICE_URL?: string };
    signInternalCaller: () => Promise<string>;
    logger: Logger;
  },
  options: { timeoutMs: number; members?: 'ask project-service' | 'kept here' },
) {
  const { config } = service;
  const clientOf = (baseUrl: string, name: string, serves: string) =>
    createInternalClient({ ...service, baseUrl, timeoutMs: options.timeoutMs, service: name, serves });
  const identity = clientOf(config.IDENTITY_SERVICE_URL, 'identity-service', 'user directory');
  let projects: ReturnType<typeof clientOf> | undefined;
  if (options.members !== 'kept here') {
    if (!config.PROJECT_SERVICE_URL)
      throw new Error('createWriterCheck: members are asked of PROJECT_SERVICE_URL');
    projects = clientOf(config.PROJECT_SERVICE_URL, 'project-service', 'project directory');
  }
  const tokens =
    config.TOKEN_SERVICE_URL === undefined
      ? undefined
      : clientOf(config.TOKEN_SERVICE_URL, 'token-service', 'project token directory');

  async function accountExists(userId: string): Promise<boolean> {
    const path = '/internal/users/lookup';
    const answer = await identity.call(path, { method: 'POST', body: { userIds: [userId] } });
    return identity.expect(usersSchema, answer, path).users.some((user) => user.userId === userId);
  }

  async function isMember(projectId: string, userId: string): Promise<boolean> {
    if (!projects) return true;
    const path = `/internal/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`;
    const answer = await projects.call(path);
    if (answer.status === 404) return false;
    projects.expect(membershipSchema, answer, path);
    return true;
  }

  async function liveToken(tokenId: string) {
    if (!tokens) throw new Error('createWriterCheck needs TOKEN_SERVICE_URL for project API tokens');
    const path = liveTokenPath(tokenId);
    const answer = await tokens.call(path);
    if (answer.status === 404) return undefined;
    return tokens.expect(tokenIntrospectionResponseSchema, answer, path);
  }

  /** The locks a revocation of `principal`'s right to write to `projectId` takes too. */
  function locksOf(principal: Principal, projectId: string): string[] {
    if (principal.kind === 'project_token') return [writeRightLock.token(principal.tokenId)];
    const account = writeRightLock.account(principal.userId);
    return projects ? [account, writeRightLock.membership(projectId, principal.userId)] : [account];
  }

  /** Throws unless `principal` may still write to `projectId`; in `tx`, holding its locks. */
  async function confirm(principal: Principal | undefined, projectId: string, tx: Queryable | undefined) {
    authorizeProject(principal, projectId, 'write');
    if (tx) await holdAdvisoryLocks(tx, locksOf(principal, projectId), 'shared');
    if (principal.kind === 'user') {
      const { userId } = principal;
      const [exists, member] = await Promise.all([accountExists(userId), isMember(projectId, userId)]);
      if (!exists) throw new UnauthorizedError(ACCOUNT_DELETED);
      if (!member) throw projectNotFound();
    } else {
      const live = await liveToken(principal.tokenId);
      if (!live) throw new UnauthorizedError(TOKEN_REVOKED);
      authorizeProject({ kind: 'project_token', ...live }, projectId, 'write');
    }
  }

  return {
    /**
     * The options of a write's transaction (`db.transaction(fn, writerCheck.atCommit(...))`):
     * it commits only if `principal` may still write to `projectId` then; see above.
     */
    atCommit(principal: Principal | undefined, projectId: string): TransactionOptions {
      return { beforeCommit: (tx) => confirm(principal, projectId, tx) };
    },
  };
}

export type WriterCheck = ReturnType<typeof createWriterCheck>;
