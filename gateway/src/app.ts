import express, { type RequestHandler } from 'express';
import type { ServiceName } from '@tolk/contracts';
import {
  accessLogMiddleware,
  createPrincipalSigner,
  errorBody,
  errorMiddleware,
  notFoundHandler,
  requestIdMiddleware,
} from '@tolk/http';
import type { Logger } from '@tolk/logger';
import { createAccessTokenVerifier } from './auth/access-token-verifier.js';
import { createAuthenticator, type PrincipalResolver } from './auth/authenticate.js';
import { refuseProjectTokens } from './auth/project-token-resolver.js';
import type { GatewayConfig } from './config.js';
import { rejectDeclaredOversizedBody } from './proxy/body-limit.js';
import { consumeSmallBody } from './proxy/consumed-body.js';
import { stripClientIdentityHeaders } from './proxy/forwarded-headers.js';
import { rejectDotSegments } from './proxy/path-guard.js';
import { createUpstreamHealthProbe } from './proxy/upstream-health.js';
import { createUpstreamProxy, type UpstreamProxy } from './proxy/upstream-proxy.js';
import { createRateLimiters } from './rate-limit/limiters.js';
import { createRateLimitMiddleware } from './rate-limit/middleware.js';
import { createRedisClient } from './rate-limit/redis-client.js';
import { createRouteDispatcher } from './route-dispatch.js';
import { ROUTES, type GatewayRoute } from './routes.js';

/** Login and signup bodies are a few hundred bytes; only these are read by the gateway. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;
const READINESS_TIMEOUT_MS = 2000;

/**
 * The composition root of the gateway: builds every part from the configuration and returns the
 * express app (it never listens) and `close`, which releases Redis and the upstream connections.
 */
export function createGatewayApp(deps: {
  config: GatewayConfig;
  logger: Logger;
  /** Resolves `tolk_...` project API tokens; until token-service does, they are refused. */
  resolveProjectToken?: PrincipalResolver;
}) {
  const { config, logger } = deps;

  const redis = config.REDIS_URL
    ? createRedisClient(config.REDIS_URL, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, logger })
    : undefined;
  const rateLimits = createRateLimitMiddleware({
    logger,
    limiters: createRateLimiters({
      redis,
      keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
      limits: {
        authAttemptsPerIp: {
          points: config.RATE_LIMIT_AUTH_PER_IP,
          durationSeconds: config.RATE_LIMIT_AUTH_PER_IP_WINDOW_SECONDS,
        },
        loginFailuresPerEmail: {
          points: config.RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL,
          durationSeconds: config.RATE_LIMIT_LOGIN_FAILURES_WINDOW_SECONDS,
        },
        perPrincipal: {
          points: config.RATE_LIMIT_PER_USER,
          durationSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
        },
        perIp: { points: config.RATE_LIMIT_PER_IP, durationSeconds: config.RATE_LIMIT_WINDOW_SECONDS },
      },
    }),
  });

  const requireAccess = createAuthenticator({
    verifyAccessToken: createAccessTokenVerifier({
      publicKeyPem: config.JWT_PUBLIC_KEY,
      cacheSize: config.ACCESS_TOKEN_CACHE_SIZE,
    }),
    resolveProjectToken: deps.resolveProjectToken ?? refuseProjectTokens,
    signPrincipal: createPrincipalSigner(config.INTERNAL_JWT_SECRET),
  });

  const proxies = new Map<ServiceName, UpstreamProxy>();
  for (const [service, target] of Object.entries(config.UPSTREAMS) as [ServiceName, string][]) {
    proxies.set(
      service,
      createUpstreamProxy({
        service,
        target,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        maxSockets: config.UPSTREAM_MAX_SOCKETS,
        maxBodyBytes: config.MAX_BODY_BYTES,
        logger,
      }),
    );
  }
  const probeUpstreams = createUpstreamHealthProbe({
    upstreams: config.UPSTREAMS,
    timeoutMs: Math.min(READINESS_TIMEOUT_MS, config.UPSTREAM_TIMEOUT_MS),
  });

  const bodyLimit = rejectDeclaredOversizedBody(config.MAX_BODY_BYTES);

  /** What a route runs before its service's proxy: identity, limits, body checks. */
  function guardsOf(route: GatewayRoute): RequestHandler[] {
    const guards: RequestHandler[] = [];
    if (route.access !== 'public') guards.push(requireAccess(route.access));
    guards.push(rateLimits.perCaller, bodyLimit);
    if (route.authAttempt) guards.push(rateLimits.authAttemptsPerIp);
    if (route.authAttempt === 'login') {
      guards.push(consumeSmallBody(MAX_AUTH_BODY_BYTES), rateLimits.failedLoginsPerEmail);
    }
    return guards;
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);

  app.use(requestIdMiddleware({ scopeLogs: false }));
  app.use(stripClientIdentityHeaders);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const upstreams = await probeUpstreams();
    const down = Object.entries(upstreams)
      .filter(([, state]) => state === 'down')
      .map(([service]) => service);
    if (down.length > 0) {
      logger.warn({ upstreams }, 'not ready');
      res.status(503).json(errorBody('SERVICE_UNAVAILABLE', `Not ready: ${down.join(', ')} not reachable`));
      return;
    }
    // Redis is reported, not required: without it the limits fall back (see rate-limit/limiters.ts).
    const redisState = !redis ? 'not configured' : redis.status === 'ready' ? 'up' : 'down';
    res.json({ status: 'ready', upstreams, redis: redisState });
  });

  app.use(accessLogMiddleware(logger));
  app.use(rejectDotSegments);
  app.use(
    createRouteDispatcher(
      ROUTES.flatMap((route) => {
        const proxy = proxies.get(route.service);
        return proxy ? [{ path: route.path, handlers: [...guardsOf(route), proxy.handler] }] : [];
      }),
    ),
  );
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));

  return {
    app,
    async close(): Promise<void> {
      for (const proxy of proxies.values()) proxy.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

export type GatewayApp = ReturnType<typeof createGatewayApp>;
