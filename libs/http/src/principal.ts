import { createSecretKey } from 'node:crypto';
import type { RequestHandler, Request } from 'express';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { PRINCIPAL_HEADER, principalSchema, type Principal } from '@tolk/contracts';
import { ForbiddenError, UnauthorizedError } from '@tolk/errors';
import { verifyJwt } from './jwt.js';

const ISSUER = 'tolk-gateway';
const AUDIENCE = 'tolk-internal';
const ALGORITHM = 'HS256';
/** Principals (signer) and tokens (verifier) remembered; the least recently used go first. */
const MAX_REMEMBERED = 10_000;

/**
 * The gateway's half: wraps a verified principal in a short-lived internal token. Signed tokens
 * are reused until shortly before they expire, so the hot path rarely signs.
 */
export function createPrincipalSigner(secret: string, ttlSeconds = 60) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  // Renewed at half its life, so a token handed out always has the other half to live.
  const cache = new LRUCache<string, string>({ max: MAX_REMEMBERED, ttl: (ttlSeconds * 1000) / 2 });

  return async function signPrincipal(principal: Principal): Promise<string> {
    const cacheKey =
      principal.kind === 'user'
        ? `u:${principal.userId}`
        : `t:${principal.tokenId}:${principal.projectId}:${principal.permissions}`;
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    const issuedAt = Math.floor(Date.now() / 1000);
    const token = jwt.sign({ p: principal, iat: issuedAt, exp: issuedAt + ttlSeconds }, key, {
      algorithm: ALGORITHM,
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    cache.set(cacheKey, token);
    return token;
  };
}

/** The service's half: verifies the internal token; anything else is an anonymous request. */
export function createPrincipalVerifier(secret: string) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  // The gateway reuses each signed token for half its life: verify each one once, then remember
  // it (by its exact string, never past its expiry).
  // ttlResolution 0: the clock is read at every lookup, so no token outlives its `exp`.
  const verified = new LRUCache<string, Principal>({ max: MAX_REMEMBERED, ttlResolution: 0 });

  return async function verifyPrincipal(token: string): Promise<Principal | undefined> {
    const remembered = verified.get(token);
    if (remembered) return remembered;
    try {
      const payload = verifyJwt(token, key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp'],
      });
      const parsed = principalSchema.safeParse(payload['p']);
      if (!parsed.success) return undefined;
      // lru-cache keeps an entry while its age is at most its ttl (0 would mean "forever").
      const ttl = payload.exp! * 1000 - 1 - Date.now();
      if (ttl > 0) verified.set(token, parsed.data, { ttl });
      return parsed.data;
    } catch {
      return undefined;
    }
  };
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
    /** A JSON body's UTF-8 text (decompressed, without a byte order mark), beside its parsed `body`. */
    rawBody?: Buffer;
  }
}

/** Attaches `req.principal` when the request carries a valid internal principal token. */
export function principalMiddleware(secret: string): RequestHandler {
  const verify = createPrincipalVerifier(secret);
  return async (req, _res, next) => {
    const header = req.headers[PRINCIPAL_HEADER];
    req.principal = typeof header === 'string' ? await verify(header) : undefined;
    next();
  };
}

/** The signed-in user behind the request, or UnauthorizedError. Project tokens are refused. */
export function requireUser(req: Request): { userId: string } {
  const principal = req.principal;
  if (!principal) throw new UnauthorizedError('A valid access token is required');
  if (principal.kind !== 'user')
    throw new ForbiddenError('This route needs a user access token, not a project API token');
  return { userId: principal.userId };
}
