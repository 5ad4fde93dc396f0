import { createSecretKey } from 'node:crypto';
import type { RequestHandler, Request } from 'express';
import { SignJWT, jwtVerify } from 'jose';
import { PRINCIPAL_HEADER, principalSchema, type Principal } from '@tolk/contracts';
import { ForbiddenError, UnauthorizedError } from './errors.js';

const ISSUER = 'tolk-gateway';
const AUDIENCE = 'tolk-internal';
const ALGORITHM = 'HS256';

/**
 * The gateway's half: wraps a verified principal in a short-lived internal token. Signed tokens
 * are reused until shortly before they expire, so the hot path rarely signs.
 */
export function createPrincipalSigner(secret: string, ttlSeconds = 60) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const cache = new Map<string, { token: string; renewAt: number }>();
  const MAX_CACHED = 10_000;

  return async function signPrincipal(principal: Principal): Promise<string> {
    const cacheKey =
      principal.kind === 'user'
        ? `u:${principal.userId}`
        : `t:${principal.tokenId}:${principal.projectId}:${principal.permissions}`;
    const now = Date.now();
    const cached = cache.get(cacheKey);
    if (cached && cached.renewAt > now) return cached.token;
    const token = await new SignJWT({ p: principal })
      .setProtectedHeader({ alg: ALGORITHM })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(now / 1000) + ttlSeconds)
      .sign(key);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(cacheKey, { token, renewAt: now + (ttlSeconds * 1000) / 2 });
    return token;
  };
}

/** The service's half: verifies the internal token; anything else is an anonymous request. */
export function createPrincipalVerifier(secret: string) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  // The gateway reuses each signed token for half its life: verify each one once, then remember
  // it (by its exact string, never past its expiry).
  const verified = new Map<string, { principal: Principal; expiresAt: number }>();
  const MAX_REMEMBERED = 10_000;

  return async function verifyPrincipal(token: string): Promise<Principal | undefined> {
    const remembered = verified.get(token);
    if (remembered) {
      if (remembered.expiresAt > Date.now()) return remembered.principal;
      verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp'],
      });
      const parsed = principalSchema.safeParse(payload['p']);
      if (!parsed.success) return undefined;
      if (verified.size >= MAX_REMEMBERED) verified.clear();
      verified.set(token, { principal: parsed.data, expiresAt: payload.exp! * 1000 });
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
