import type { RequestHandler } from 'express';
import { PRINCIPAL_HEADER, PROJECT_TOKEN_PREFIX, type Principal } from '@tolk/contracts';
import { ForbiddenError, UnauthorizedError, requestIdOf } from '@tolk/http';
import type { GatewayRoute } from '../routes.js';

/**
 * Turns a bearer token of one kind into the verified caller, or throws UnauthorizedError.
 * `requestId` goes with any lookup it makes, for the answering service's log lines.
 */
export type PrincipalResolver = (token: string, requestId?: string) => Promise<Principal>;

const BEARER = /^Bearer +([^\s]+) *$/i;
// Far longer than any real token; bounds the work (and the cache key) a client can make us do.
const MAX_TOKEN_LENGTH = 4096;

function bearerToken(authorization: string | undefined): string {
  if (!authorization) throw new UnauthorizedError('Authorization: Bearer <token> is required');
  const token = BEARER.exec(authorization)?.[1];
  if (!token || token.length > MAX_TOKEN_LENGTH) {
    throw new UnauthorizedError('The Authorization header must be "Bearer <token>"');
  }
  return token;
}

/**
 * Authenticates the caller of a route that needs a token and forwards who it is as the signed
 * internal principal header (client-sent identity headers are gone by then).
 */
export function createAuthenticator(deps: {
  verifyAccessToken: PrincipalResolver;
  resolveProjectToken: PrincipalResolver;
  signPrincipal: (principal: Principal) => Promise<string>;
}) {
  function resolve(token: string, requestId: string | undefined): Promise<Principal> {
    return token.startsWith(PROJECT_TOKEN_PREFIX)
      ? deps.resolveProjectToken(token, requestId)
      : deps.verifyAccessToken(token);
  }

  /** For a route that needs a token: a user's, or a project API token for the methods in `tokens`. */
  return function requireAccess(tokens: GatewayRoute['tokens']): RequestHandler {
    return async (req, _res, next) => {
      const principal = await resolve(bearerToken(req.headers.authorization), requestIdOf(req));
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
