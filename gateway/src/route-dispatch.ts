import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { setRoutePattern } from '@tolk/http';

/**
 * Compiles a route pattern of the table (`:param` for one segment, `{/*rest}` for any tail) into
 * one regular expression, matched like express: case-insensitive, trailing slash allowed. Each
 * `:param` is a named group holding the segment as sent (still percent-encoded).
 */
export function compileRoutePath(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+?^$()[\]\\|]/g, '\\$&')
    .replace(/\{\/\*\w+\}/g, '(?:/.*)?')
    .replace(/:(\w+)/g, '(?<$1>[^/]+)');
  return new RegExp(`^${source}/?$`, 'i');
}

/** Runs express handlers one after the other, as a route would; an error or rejection ends the chain. */
function runChain(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  done: NextFunction,
): void {
  let index = 0;
  const step = (err?: unknown): void => {
    if (err) {
      done(err);
      return;
    }
    const handler = handlers[index++];
    if (!handler) {
      done();
      return;
    }
    try {
      const result = handler(req, res, step) as unknown;
      if (result instanceof Promise) result.catch(done);
    } catch (error) {
      done(error);
    }
  };
  step();
}

/**
 * One middleware for the whole route table: a request is matched against precompiled patterns
 * and runs its route's handlers directly. Express' router would instead walk a layer per route
 * and per guard on every request, which was the largest single cost of a proxied request.
 * A route with `:params` gets them in `req.params` (raw segments); others pay nothing for it.
 */
export function createRouteDispatcher(
  routes: { path: string; handlers: RequestHandler[] }[],
): RequestHandler {
  const compiled = routes.map((route) => ({
    path: route.path,
    pattern: compileRoutePath(route.path),
    hasParams: /:\w/.test(route.path),
    handlers: route.handlers,
  }));
  return (req, res, next) => {
    const path = req.path;
    const route = compiled.find((candidate) => candidate.pattern.test(path));
    if (!route) {
      next();
      return;
    }
    if (route.hasParams) req.params = { ...route.pattern.exec(path)?.groups };
    // The metrics' `route` label: the table's pattern, never the path with its ids.
    setRoutePattern(req, route.path);
    runChain(route.handlers, req, res, next);
  };
}
