import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import {
  TOKEN_INTROSPECTION_PATH,
  hashProjectToken,
  isWellFormedProjectToken,
  tokenIntrospectionResponseSchema,
  type Principal,
} from '@tolk/contracts';
import { UnauthorizedError } from '@tolk/errors';
import type { Logger } from '@tolk/logger';
import type { PrincipalResolver } from './authenticate.js';
import { noteTokenCacheLookup } from './cache-metrics.js';
import { createInternalLookup } from './internal-lookup.js';

export type TokenPrincipal = Extract<Principal, { kind: 'project_token' }>;

/** token-service's answer for a token hash: the principal, or null (unknown or revoked). */
export type TokenIntrospection = (tokenHash: string, requestId?: string) => Promise<TokenPrincipal | null>;

const REVOKED = 'revoked';

/**
 * `POST /internal/tokens/introspect {tokenHash}` on token-service → 200 principal or 404.
 * Unreachable or any other answer → 503; silent for `timeoutMs` → 504.
 */
export function createTokenIntrospection(deps: {
  tokenServiceUrl: string;
  signInternalCaller: () => Promise<string>;
  timeoutMs: number;
}): TokenIntrospection {
  const lookUp = createInternalLookup({ ...deps, service: 'token service', baseUrl: deps.tokenServiceUrl });
  return async function introspect(tokenHash, requestId) {
    const answer = await lookUp(TOKEN_INTROSPECTION_PATH, tokenIntrospectionResponseSchema, {
      body: { tokenHash },
      requestId,
    });
    return answer && { kind: 'project_token', ...answer };
  };
}

/** lru-cache holds no null: "unknown or revoked" is kept wrapped. */
type LocalEntry = { principal: TokenPrincipal | null };

/**
 * Project API tokens resolved for the gateway (DESIGN §2, §7):
 * - a token of the wrong shape or with a bad checksum is refused before any lookup;
 * - then by the SHA-256 of the token: a small in-process cache (`localTtlMs`), Redis shared by
 *   every instance (`redisTtlSeconds`), and token-service's introspection, whose answer fills the
 *   in-process cache, and Redis when it is a principal. "Unknown" is never written to Redis: a
 *   key per made-up token would let anyone fill it; the in-process cache is bounded, and
 *   failed-auth.ts bounds how many an address may try;
 * - `revoke` (TokenRevoked) writes a tombstone in Redis and evicts the in-process caches of every
 *   instance through Redis pub/sub (`evictLocal` on each); should that message be lost, an
 *   in-process entry lives `localTtlMs` at most, and a Redis entry `redisTtlSeconds`;
 * - a positive answer never overwrites a tombstone (SET NX), and one that arrives after a
 *   revocation it raced with is not kept in-process either.
 * `noteUse` is told of every accepted token (for `lastUsedAt`).
 */
export function createProjectTokenResolver(deps: {
  introspect: TokenIntrospection;
  redis?: Redis;
  keyPrefix: string;
  redisTtlSeconds: number;
  localTtlMs: number;
  localMaxEntries: number;
  noteUse?: (tokenId: string) => void;
  logger: Logger;
  now?: () => number;
}) {
  const { introspect, redis, keyPrefix, logger } = deps;
  const now = deps.now ?? Date.now;
  const clock = { perf: { now }, ttlResolution: 0 };
  const local = new LRUCache<string, LocalEntry>({
    max: deps.localMaxEntries,
    ttl: deps.localTtlMs,
    ...clock,
  });
  /** Hashes revoked lately: an introspection that raced with the revocation is not cached. */
  const revokedLately = new LRUCache<string, true>({
    max: deps.localMaxEntries,
    ttl: deps.redisTtlSeconds * 1000,
    ...clock,
  });
  const entryKey = (tokenHash: string) => `${keyPrefix}:token:${tokenHash}`;

  function remember(tokenHash: string, principal: TokenPrincipal | null): void {
    // An answer that raced a revocation is not kept while any cache may still hold a stale one.
    if (principal && revokedLately.has(tokenHash)) return;
    local.set(tokenHash, { principal });
  }

  async function fromRedis(tokenHash: string): Promise<TokenPrincipal | null | undefined> {
    if (!redis || redis.status !== 'ready') return undefined;
    try {
      const stored = await redis.get(entryKey(tokenHash));
      if (stored === null) return undefined;
      if (stored === REVOKED) return null;
      return JSON.parse(stored) as TokenPrincipal;
    } catch (err) {
      logger.warn({ err }, 'token cache unavailable; asking token-service');
      return undefined;
    }
  }

  function toRedis(tokenHash: string, principal: TokenPrincipal): void {
    if (!redis || redis.status !== 'ready') return;
    // Not awaited: the answer is known; a lost write only costs a later introspection.
    redis
      .set(entryKey(tokenHash), JSON.stringify(principal), 'EX', deps.redisTtlSeconds, 'NX')
      .catch((err: unknown) => logger.warn({ err }, 'could not cache a token answer'));
  }

  /** `mayAsk: false`: what the caches know, and null (refused) where they know nothing. */
  async function lookUp(
    tokenHash: string,
    requestId: string | undefined,
    mayAsk: boolean,
  ): Promise<TokenPrincipal | null> {
    const cached = local.get(tokenHash);
    noteTokenCacheLookup('project', 'memory', cached !== undefined);
    if (cached) return cached.principal;
    const shared = await fromRedis(tokenHash);
    // Redis away or not configured counts as a miss: token-service is asked either way.
    noteTokenCacheLookup('project', 'redis', shared !== undefined);
    if (shared !== undefined) {
      remember(tokenHash, shared);
      return shared;
    }
    if (!mayAsk) return null;
    const principal = await introspect(tokenHash, requestId);
    remember(tokenHash, principal);
    if (principal) toRedis(tokenHash, principal);
    return principal;
  }

  const resolve: PrincipalResolver = async (token, requestId, options) => {
    if (!isWellFormedProjectToken(token)) {
      throw new UnauthorizedError('This is not a valid Tolk project API token (wrong format or checksum)');
    }
    const principal = await lookUp(hashProjectToken(token), requestId, options?.lookUp ?? true);
    if (!principal) throw new UnauthorizedError('This project API token is unknown or has been revoked');
    deps.noteUse?.(principal.tokenId);
    return principal;
  };

  return {
    resolve,

    /** Forgets a token in this instance only (the pub/sub message of a revocation). */
    evictLocal(tokenHash: string): void {
      local.delete(tokenHash);
      revokedLately.set(tokenHash, true);
    },

    /** TokenRevoked: the shared tombstone, written whatever was there. */
    async revokeShared(tokenHash: string): Promise<void> {
      if (!redis) return;
      await redis.set(entryKey(tokenHash), REVOKED, 'EX', deps.redisTtlSeconds);
    },
  };
}

export type ProjectTokenResolver = ReturnType<typeof createProjectTokenResolver>;
