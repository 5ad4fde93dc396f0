import { createSecretKey } from 'node:crypto';
import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { INTERNAL_CALLER_HEADER } from '@tolk/contracts';
import { UnauthorizedError } from '@tolk/errors';
import { verifyJwt } from './jwt.js';

const AUDIENCE = 'tolk-internal';
const ALGORITHM = 'HS256';
/** The claim naming the calling process. Principal tokens never carry it, so neither kind passes for the other. */
const CALLER_CLAIM = 'svc';

/**
 * A service's credential for another service's `/internal/...` routes, where no user is behind
 * the call (e.g. the gateway's membership check): a short-lived HS256 token signed with the
 * internal secret, naming the caller. It is reused until shortly before it expires.
 */
export function createInternalCallerSigner(secret: string, caller: string, ttlSeconds = 60) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  let cached: { token: string; renewAt: number } | undefined;

  return async function signInternalCaller(): Promise<string> {
    const now = Date.now();
    if (cached && cached.renewAt > now) return cached.token;
    const issuedAt = Math.floor(now / 1000);
    const token = jwt.sign({ [CALLER_CLAIM]: caller, iat: issuedAt, exp: issuedAt + ttlSeconds }, key, {
      algorithm: ALGORITHM,
      issuer: caller,
      audience: AUDIENCE,
    });
    cached = { token, renewAt: now + (ttlSeconds * 1000) / 2 };
    return token;
  };
}

/** Verifies an internal caller token; the caller's name, or undefined for anything else. */
export function createInternalCallerVerifier(secret: string) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return async function verifyInternalCaller(token: string): Promise<string | undefined> {
    try {
      const payload = verifyJwt(token, key, {
        algorithms: [ALGORITHM],
        audience: AUDIENCE,
        requiredClaims: ['exp', CALLER_CLAIM],
      });
      const caller = payload[CALLER_CLAIM];
      return typeof caller === 'string' && caller.length > 0 && payload['p'] === undefined
        ? caller
        : undefined;
    } catch {
      return undefined;
    }
  };
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The service that called an `/internal/...` route, verified. */
    internalCaller?: string;
  }
}

/**
 * Guards `/internal/...`: only a request carrying a valid internal caller token passes; any
 * other gets 401, whatever user principal it carries. The gateway never routes these paths.
 */
export function requireInternalCaller(secret: string): RequestHandler {
  const verify = createInternalCallerVerifier(secret);
  return async (req, _res, next) => {
    const header = req.headers[INTERNAL_CALLER_HEADER];
    const caller = typeof header === 'string' ? await verify(header) : undefined;
    if (!caller) throw new UnauthorizedError('Internal routes need a valid internal caller token');
    req.internalCaller = caller;
    next();
  };
}
