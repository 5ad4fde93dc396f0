import type { RequestHandler, Router } from 'express';
import { AppError } from './errors.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Registers the handlers of one path and answers every other method with 405 and an `Allow`
 * header, so a known route with the wrong method is never mistaken for an unknown one.
 */
export function route(router: Router, path: string, handlers: Partial<Record<Method, RequestHandler>>): void {
  const allowed = Object.keys(handlers).map((m) => m.toUpperCase());
  if (allowed.includes('GET')) allowed.push('HEAD');
  for (const [method, handler] of Object.entries(handlers) as [Method, RequestHandler][]) {
    router[method](path, handler);
  }
  router.all(path, (req, res, next) => {
    res.setHeader('Allow', allowed.join(', '));
    next(
      new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; allowed: ${allowed.join(', ')}`),
    );
  });
}
