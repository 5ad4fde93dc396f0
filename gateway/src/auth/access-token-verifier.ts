import { createPublicKey } from 'node:crypto';
import { jwtVerify } from 'jose';
import {
  ACCESS_TOKEN_ALGORITHM,
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  type Principal,
} from '@tolk/contracts';
import { UnauthorizedError } from '@tolk/http';
import { noteTokenCacheLookup } from './cache-metrics.js';

type CachedPrincipal = { principal: Principal; expiresAt: number };

/**
 * Verifies identity-service's ES256 access tokens. The key is parsed once; verified tokens are
 * remembered (by their exact string, never past their `exp`) so a busy CLI does not pay for an
 * ECDSA verification on every request. The cache is bounded and forgets its oldest entries first.
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
  const cache = new Map<string, CachedPrincipal>();

  function remember(token: string, entry: CachedPrincipal): void {
    if (deps.cacheSize === 0) return;
    if (cache.size >= deps.cacheSize) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(token, entry);
  }

  function refuseDeleted(principal: Principal): Principal {
    if (principal.kind === 'user' && deps.deletedUsers?.has(principal.userId)) {
      throw new UnauthorizedError('The account of this access token has been deleted');
    }
    return principal;
  }

  return async function verifyAccessToken(token: string): Promise<Principal> {
    const cached = cache.get(token);
    if (cached) {
      if (cached.expiresAt > now()) {
        noteTokenCacheLookup('access', 'memory', true);
        return refuseDeleted(cached.principal);
      }
      cache.delete(token);
    }
    noteTokenCacheLookup('access', 'memory', false);
    let subject: string | undefined;
    let expiresAt: number;
    try {
      const { payload } = await jwtVerify(token, publicKey, {
        algorithms: [ACCESS_TOKEN_ALGORITHM],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(now()),
      });
      subject = payload.sub;
      expiresAt = payload.exp! * 1000;
    } catch {
      // Which check failed is of use to an attacker only.
      throw new UnauthorizedError('The access token is invalid or expired');
    }
    if (!subject) throw new UnauthorizedError('The access token names no user');
    const principal: Principal = { kind: 'user', userId: subject };
    remember(token, { principal, expiresAt });
    return refuseDeleted(principal);
  };
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
