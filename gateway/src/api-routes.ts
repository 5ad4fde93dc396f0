import type { Express, RequestHandler } from 'express';
import type { createAuthenticator } from './auth/authenticate.js';
import type { GatewayConfig } from './config.js';
import type { UpstreamProxies } from './proxy/upstream-proxies.js';
import { consumeBody } from './proxy/consumed-body.js';
import type { createRateLimitMiddleware } from './rate-limit/middleware.js';
import { createUploadSlots } from './rate-limit/upload-slots.js';
import { mountRoutes } from './route-dispatch.js';
import type { GatewayRoute } from './routes.js';

/** Login bodies are a few hundred bytes; the gateway reads their email. */
export const MAX_AUTH_BODY_BYTES = 16 * 1024;

/** Set before a route's guards run, so that their refusals carry it too. */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * Mounts each route of the table on the app: its guards (identity, limits, membership, body
 * checks), then its service's proxy. A route whose service is not configured, or a project-scoped
 * one without project-service to authorise it, is not routed (404).
 */
export function mountApiRoutes(
  app: Express,
  deps: {
    routes: readonly GatewayRoute[];
    config: GatewayConfig;
    proxies: UpstreamProxies;
    requireAccess: ReturnType<typeof createAuthenticator>;
    rateLimits: ReturnType<typeof createRateLimitMiddleware>;
    /** Lets only the project's members through; undefined without project-service. */
    requireMember: RequestHandler | undefined;
  },
): void {
  const { config, rateLimits, requireAccess, requireMember } = deps;
  const uploadSlots = createUploadSlots({ maxPerUploader: config.MAX_UPLOADS_PER_PRINCIPAL });
  const bodyTiming = {
    timeoutMs: config.BODY_TIMEOUT_MS,
    minBytesPerSecond: config.BODY_MIN_BYTES_PER_SECOND,
    graceMs: config.BODY_MIN_RATE_GRACE_MS,
  };
  const body = consumeBody(config.MAX_BODY_BYTES, bodyTiming);
  const loginBody = consumeBody(MAX_AUTH_BODY_BYTES, bodyTiming);

  /** What a route runs before its service's proxy: identity, limits, membership, body checks. */
  function guardsOf(route: GatewayRoute): RequestHandler[] {
    const guards: RequestHandler[] = [];
    if (route.access !== 'public') guards.push(requireAccess(route.tokens));
    guards.push(rateLimits.perCaller);
    if (route.scope === 'project' && requireMember) guards.push(requireMember);
    if (route.authAttempt) guards.push(rateLimits.authAttemptsPerIp);
    guards.push(uploadSlots, route.authAttempt === 'login' ? loginBody : body);
    if (route.authAttempt === 'login') guards.push(rateLimits.failedLoginsPerEmail);
    return guards;
  }

  const routeTable = deps.routes.flatMap((route) => {
    const proxy = deps.proxies.of(route.service);
    if (!proxy || (route.scope === 'project' && !requireMember)) return [];
    const headers = route.noStore ? [noStore] : [];
    return [{ path: route.path, handlers: [...headers, ...guardsOf(route), proxy.handler] }];
  });
  mountRoutes(app, routeTable);
}
