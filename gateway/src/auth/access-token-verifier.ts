import { createPublicKey } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import {
  ACCESS_TOKEN_ALGORITHM,
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  type Principal,
} from '@tolk/contracts';
import { UnauthorizedError } from '@tolk/errors';
import { verifyJwt } from '@tolk/http';
import { noteTokenCacheLookup } from './cache-metrics.js';

/**
 * Verifies identity-service's ES256 access tokens. The key is parsed once; verified tokens are
 * remembered (by their exact string, never past their `exp`) so a busy CLI does not pay for an
 * ECDSA verification on every request. The cache is bounded and forgets its least recently used
 * entries first.
 * A token of a deleted account is refused, cached or not.
 */
export function createAccessTokenVerifier(deps: {
  publicKeyPem: string;
  cacheSize: number;
  /** Users whose accounts were deleted: their tokens are refused, however valid (see deleted-users.ts). */
  deletedUsers?: { has(userId: string): boolean };
  now?: () => number;
}) {
  const publicKey = createPublicKey(deps.publicKeyPem);
  const now = deps.now ?? Date.now;
  // ttlResolution 0: the clock is read at every lookup, so no token outlives its `exp`.
  const cache =
    deps.cacheSize > 0
      ? new LRUCache<string, Principal>({ max: deps.cacheSize, perf: { now }, ttlResolution: 0 })
      : undefined;

  function remember(token: string, principal: Principal, expiresAt: number): void {
    // lru-cache keeps an entry while its age is at most its ttl; the token is refused from its
    // `exp` on. A ttl of 0 would mean "forever".
    const ttl = expiresAt - 1 - now();
    if (ttl > 0) cache?.set(token, principal, { ttl });
  }

  function refuseDeleted(principal: Principal): Principal {
    if (principal.kind === 'user' && deps.deletedUsers?.has(principal.userId)) {
      throw new UnauthorizedError('The account of this access token has been deleted');
    }
    return principal;
  }

  return async function verifyAccessToken(token: string): Promise<Principal> {
    const cached = cache?.get(token);
    if (cached) {
      noteTokenCacheLookup('access', 'memory', true);
      return refuseDeleted(cached);
    }
    noteTokenCacheLookup('access', 'memory', false);
    let subject: string | undefined;
    let expiresAt: number;
    try {
      const payload = verifyJwt(token, publicKey, {
        algorithms: [ACCESS_TOKEN_ALGORITHM],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        requiredClaims: ['exp', 'sub'],
        clockTimestamp: Math.floor(now() / 1000),
      });
      subject = payload.sub;
      expiresAt = payload.exp! * 1000;
    } catch {
      // Which check failed is of use to an attacker only.
      throw new UnauthorizedError('The access token is invalid or expired');
    }
    if (!subject) throw new UnauthorizedError('The access token names no user');
    const principal: Principal = { kind: 'user', userId: subject };
    remember(token, principal, expiresAt);
    return refuseDeleted(principal);
  };
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
