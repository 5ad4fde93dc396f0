import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@tolk/bus';
import {
  TOKEN_PREFIX_LENGTH,
  generateProjectToken,
  hashProjectToken,
  writeRightLock,
  type Principal,
} from '@tolk/contracts';
import { holdAdvisoryLocks, type Db } from '@tolk/db';
import { ConflictError, ForbiddenError, NotFoundError } from '@tolk/errors';
import { authorizeProject, projectNotFound, type ProjectDirectory, type WriterCheck } from '@tolk/projects';
import type { ProjectsRepository, TokenProject } from '../data-access/projects-repository.js';
import type {
  LiveToken,
  TokenPermissions,
  TokenRow,
  TokensRepository,
} from '../data-access/tokens-repository.js';
import { tokenRevokedEvent } from './token-events.js';

/** A live token in the list view: the spec's ApiToken with its `tokenPrefix`. */
export type ListedToken = TokenRow;

/** A new token: the only time the token itself is ever seen (never used, no prefix shown yet). */
export type CreatedToken = Pick<TokenRow, 'tokenId' | 'label' | 'permissions' | 'createdAt'> & {
  token: string;
};

/** No token id is longer or has anything but visible ASCII: such a value names nothing. */
const PLAUSIBLE_ID = /^[\x21-\x7e]{1,200}$/;

function newTokenId(): string {
  return `tok_${randomUUID().replaceAll('-', '')}`;
}

function tokenNotFound(): NotFoundError {
  return new NotFoundError('Token not found');
}

/**
 * The user managing the project's tokens. Only a user passes `manage` (a project API token of
 * this project gets 403, of another project 404); the gateway has already checked membership.
 */
function manager(principal: Principal | undefined, projectId: string): string {
  authorizeProject(principal, projectId, 'manage');
  // Never thrown after authorizeProject; it tells the compiler that the principal is a user.
  if (principal?.kind !== 'user') throw new ForbiddenError();
  return principal.userId;
}

/** Project API tokens (DESIGN §2, §7): created, listed and revoked by members; resolved for the gateway. */
export function createTokens(deps: {
  db: Db;
  tokens: TokensRepository;
  projects: ProjectsRepository;
  directory: ProjectDirectory<TokenProject>;
  /** A change commits only if its user is still a member with an account then. */
  writerCheck: WriterCheck;
  maxPerProject: number;
  now: () => number;
}) {
  const { db, tokens, projects, directory, writerCheck, maxPerProject, now } = deps;

  return {
    /**
     * `POST .../tokens`: a new token, shown this once. Only its SHA-256 and its first 10
     * characters are stored. The project's row is locked while the token is added, so a project
     * never holds more than `maxPerProject` live tokens and ProjectDeleted revokes this one too.
     */
    async create(
      principal: Principal | undefined,
      projectId: string,
      input: { label: string; permissions: TokenPermissions },
    ): Promise<CreatedToken> {
      const userId = manager(principal, projectId);
      await directory.require(projectId);
      const token = generateProjectToken();
      const created = {
        tokenId: newTokenId(),
        label: input.label,
        permissions: input.permissions,
        createdAt: now(),
      };
      // Committed only if the user may still write then: a removed member's slow request must not
      // leave them a working token of the project.
      const atCommit = writerCheck.atCommit(principal, projectId);
      await db.transaction(async (tx) => {
        if (!(await projects.lock(projectId, tx))) throw projectNotFound();
        if ((await tokens.countLive(projectId, tx)) >= maxPerProject) {
          throw new ConflictError(
            `This project already has ${maxPerProject} tokens, the most it may hold; revoke one first`,
          );
        }
        await tokens.insert(
          {
            ...created,
            projectId,
            tokenHash: hashProjectToken(token),
            tokenPrefix: token.slice(0, TOKEN_PREFIX_LENGTH),
            createdBy: userId,
          },
          tx,
        );
      }, atCommit);
      return { ...created, token };
    },

    /** `GET .../tokens`: the live tokens, newest first, each with its prefix. */
    async list(principal: Principal | undefined, projectId: string): Promise<ListedToken[]> {
      manager(principal, projectId);
      await directory.require(projectId);
      return tokens.listLive(projectId);
    },

    /**
     * `DELETE .../tokens/{tokenId}`: the token stops working. TokenRevoked (with the token's hash,
     * for the gateway's cache) goes to the outbox in the same transaction. An unknown or already
     * revoked token is 404.
     */
    async revoke(principal: Principal | undefined, projectId: string, tokenId: string): Promise<void> {
      const userId = manager(principal, projectId);
      await directory.require(projectId);
      if (!PLAUSIBLE_ID.test(tokenId)) throw tokenNotFound();
      const at = now();
      const atCommit = writerCheck.atCommit(principal, projectId);
      await db.transaction(async (tx) => {
        // A write of this token that asked whether it is live either commits first or is refused.
        await holdAdvisoryLocks(tx, [writeRightLock.token(tokenId)], 'exclusive');
        const revoked = await tokens.revoke(projectId, tokenId, { userId, at }, tx);
        if (!revoked) throw tokenNotFound();
        await enqueueEvent(tx, db.schema, tokenRevokedEvent(revoked, at));
      }, atCommit);
    },

    /** The gateway's lookup of a presented token, by its hash: the live token, or 404. */
    async introspect(tokenHash: string): Promise<LiveToken> {
      const live = await tokens.findLive(tokenHash);
      if (!live) throw new NotFoundError('No live token has this hash');
      return live;
    },

    /**
     * A service's check of a token before it commits that token's write: the token while it is
     * live, or 404 (revoked, or no such token).
     */
    async liveById(tokenId: string): Promise<LiveToken> {
      const live = PLAUSIBLE_ID.test(tokenId) ? await tokens.findLiveById(tokenId) : undefined;
      if (!live) throw new NotFoundError('No live token has this id');
      return live;
    },

    /**
     * The uses the gateway saw. Per token only the latest counts; a time ahead of this clock is
     * taken as now, so a skewed reporter cannot hold `lastUsedAt` in the future. Returns how many
     * tokens' `lastUsedAt` moved (at most about once a minute each).
     */
    async recordUses(uses: readonly { tokenId: string; at: number }[]): Promise<number> {
      const latest = new Map<string, number>();
      const ceiling = now();
      for (const { tokenId, at } of uses) {
        const clamped = Math.min(at, ceiling);
        if (clamped > (latest.get(tokenId) ?? -1)) latest.set(tokenId, clamped);
      }
      return tokens.recordUses([...latest].map(([tokenId, at]) => ({ tokenId, at })));
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;
