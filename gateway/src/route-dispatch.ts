import type { Express, RequestHandler } from 'express';
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

/**
 * Puts the route table on the app's own router, one route per entry, for every method. Express
 * matches each by an expression without groups, so it decodes nothing: a route's `:params` reach
 * `req.params` as sent (still percent-encoded), and a segment that does not decode is for the
 * guards to refuse (a project id that names no project is 404), not express's 400. The metrics'
 * `route` label is the table's pattern, never the path with its ids.
 */
export function mountRoutes(app: Express, routes: { path: string; handlers: RequestHandler[] }[]): void {
  for (const route of routes) {
    const pattern = compileRoutePath(route.path);
    const matcher = new RegExp(pattern.source.replace(/\(\?<\w+>/g, '(?:'), pattern.flags);
    const hasParams = /:\w/.test(route.path);
    const enter: RequestHandler = (req, _res, next) => {
      if (hasParams) req.params = { ...pattern.exec(req.path)?.groups };
      setRoutePattern(req, route.path);
      next();
    };
    app.all(matcher, enter, ...route.handlers);
  }
}
