import type { Request, RequestHandler } from 'express';
import { PRINCIPAL_HEADER, PROJECT_TOKEN_PREFIX, type Principal } from '@tolk/contracts';
import { ForbiddenError, RateLimitedError, UnauthorizedError } from '@tolk/errors';
import { requestIdOf } from '@tolk/http';
import type { FailedAuthLimit } from '../rate-limit/failed-auth.js';
import { clientIp, retryAfterSeconds } from '../rate-limit/middleware.js';
import type { GatewayRoute } from '../routes.js';

/**
 * Turns a bearer token of one kind into the verified caller, or throws UnauthorizedError.
 * `requestId` goes with any lookup it makes, for the answering service's log lines. With
 * `lookUp: false` it asks no other service: a token its caches cannot vouch for is refused.
 */
export type PrincipalResolver = (
  token: string,
  requestId?: string,
  options?: { lookUp: boolean },
) => Promise<Principal>;

const BEARER = /^Bearer +([^\s]+) *$/i;
// Far longer than any real token; bounds the work (and the cache key) a client can make us do.
const MAX_TOKEN_LENGTH = 4096;

function bearerToken(authorization: string): string {
  const token = BEARER.exec(authorization)?.[1];
  if (!token || token.length > MAX_TOKEN_LENGTH) {
    throw new UnauthorizedError('The Authorization header must be "Bearer <token>"');
  }
  return token;
}

/**
 * Authenticates the caller of a route that needs a token and forwards who it is as the signed
 * internal principal header (client-sent identity headers are gone by then).
 *
 * With `failedAuth`, refused tokens are counted per client address (rate-limit/failed-auth.ts).
 * Once an address is over the limit, each of its requests that sends an Authorization header is
 * answered 429 unless its token is proven valid without asking another service: an access token
 * by its signature (checked here, no network), a project API token from the gateway's caches.
 * A team behind one NAT address keeps working while one of its machines loops on a bad token;
 * what the blocked address can no longer do is make the gateway ask token-service, or be told
 * 401 (which token is wrong) instead of 429. A request with no Authorization header is a plain
 * 401, never counted: it costs nothing and guesses nothing.
 */
export function createAuthenticator(deps: {
  verifyAccessToken: PrincipalResolver;
  resolveProjectToken: PrincipalResolver;
  signPrincipal: (principal: Principal) => Promise<string>;
  failedAuth?: FailedAuthLimit;
}) {
  const { failedAuth } = deps;

  function resolve(token: string, requestId: string | undefined, lookUp: boolean): Promise<Principal> {
    return token.startsWith(PROJECT_TOKEN_PREFIX)
      ? deps.resolveProjectToken(token, requestId, { lookUp })
      : deps.verifyAccessToken(token);
  }

  async function authenticate(req: Request): Promise<Principal> {
    const authorization = req.headers.authorization;
    if (!authorization) throw new UnauthorizedError('Authorization: Bearer <token> is required');
    const address = clientIp(req);
    const blockedFor = failedAuth?.blockedFor(address);
    try {
      return await resolve(bearerToken(authorization), requestIdOf(req), blockedFor === undefined);
    } catch (err) {
      if (!(err instanceof UnauthorizedError) || !failedAuth) throw err;
      if (blockedFor !== undefined) throw new RateLimitedError(retryAfterSeconds(blockedFor));
      await failedAuth.noteFailure(address);
      throw err;
    }
  }

  /** For a route that needs a token: a user's, or a project API token for the methods in `tokens`. */
  return function requireAccess(tokens: GatewayRoute['tokens']): RequestHandler {
    return async (req, _res, next) => {
      const principal = await authenticate(req);
      if (principal.kind === 'project_token') {
        const method = req.method === 'HEAD' ? 'GET' : req.method;
        const needed = tokens?.[method as keyof typeof tokens];
        if (!needed) {
          throw new ForbiddenError(
            tokens
              ? `Project API tokens cannot ${method} here; it needs a user access token`
              : 'This route needs a user access token, not a project API token',
          );
        }
        if (needed === 'read_write' && principal.permissions !== 'read_write') {
          throw new ForbiddenError('This project API token may only read; uploading needs read_write');
        }
      }
      req.principal = principal;
      req.headers[PRINCIPAL_HEADER] = await deps.signPrincipal(principal);
      next();
    };
  };
}
