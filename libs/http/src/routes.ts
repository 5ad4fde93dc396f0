import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { AppError } from '@tolk/errors';
import { NO_QUERY_PARAMETERS, parseQuery, type QuerySchema } from './query.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

const QUERY_SCHEMA = Symbol('query schema');

type QueryHandler = RequestHandler & { [QUERY_SCHEMA]: QuerySchema | 'ignored' };

/**
 * A handler that takes query parameters: `schema` names each one, and the handler gets them
 * parsed. A handler registered without it takes none (see `route`).
 */
export function withQuery<S extends QuerySchema>(
  schema: S,
  handler: (req: Request, res: Response, query: z.infer<S>) => unknown,
): RequestHandler {
  const parsed: RequestHandler = (req, res) => handler(req, res, parseQuery(schema, req));
  return Object.assign(parsed, { [QUERY_SCHEMA]: schema });
}

/**
 * A handler that reads no query and tolerates any: only for pages people open from links, which
 * may carry tracking parameters (`?utm_source=...`); never for an API operation.
 */
export function ignoringQuery(handler: RequestHandler): RequestHandler {
  return Object.assign((...args: Parameters<RequestHandler>) => handler(...args), {
    [QUERY_SCHEMA]: 'ignored' as const,
  });
}

function takesQuery(handler: RequestHandler): handler is QueryHandler {
  return QUERY_SCHEMA in handler;
}

/** Refuses every query parameter, for handlers that read none. */
const refuseQuery: RequestHandler = (req, _res, next) => {
  parseQuery(NO_QUERY_PARAMETERS, req);
  next();
};

/**
 * Registers the handlers of one path and answers every other method with 405 and an `Allow`
 * header, so a known route with the wrong method is never mistaken for an unknown one.
 * A handler's query parameters are those of its `withQuery` schema, or none: any other
 * parameter is a VALIDATION_ERROR, so a misspelt or bracketed one (`dryRun[]=true`) is never
 * silently ignored.
 */
export function route(router: Router, path: string, handlers: Partial<Record<Method, RequestHandler>>): void {
  const allowed = Object.keys(handlers).map((m) => m.toUpperCase());
  if (allowed.includes('GET')) allowed.push('HEAD');
  for (const [method, handler] of Object.entries(handlers) as [Method, RequestHandler][]) {
    if (takesQuery(handler)) router[method](path, handler);
    else router[method](path, refuseQuery, handler);
  }
  router.all(path, (req, res, next) => {
    res.setHeader('Allow', allowed.join(', '));
    next(
      new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; allowed: ${allowed.join(', ')}`),
    );
  });
}

/** A named path segment; never a list, since Tolk's routes have no wildcards. */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/** For routers whose answers no shared or browser cache may keep: `router.use(noStore)`. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
