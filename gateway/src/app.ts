import express from 'express';
import { createRabbitBus, type Bus } from '@tolk/bus';
import {
  accessLogMiddleware,
  errorMiddleware,
  httpMetricsMiddleware,
  metricsHandler,
  notFoundHandler,
  requestIdMiddleware,
} from '@tolk/http';
import { serviceNameOf, type Logger } from '@tolk/logger';
import { MAX_AUTH_BODY_BYTES, mountApiRoutes } from './api-routes.js';
import { createGatewayAccess } from './auth/gateway-access.js';
import type { PrincipalResolver } from './auth/authenticate.js';
import type { GatewayConfig } from './config.js';
import { createDashboardRouter } from './dashboard/dashboard-router.js';
import { mountHealthRoutes } from './health-routes.js';
import { createApiReferenceRouter } from './openapi/api-reference-router.js';
import { stripClientIdentityHeaders } from './proxy/forwarded-headers.js';
import { rejectDotSegments } from './proxy/path-guard.js';
import { createUpstreamHealthProbe } from './proxy/upstream-health.js';
import { createUpstreamProxies } from './proxy/upstream-proxies.js';
import { createGatewayRateLimits } from './rate-limit/gateway-rate-limits.js';
import { createRedisClient } from './rate-limit/redis-client.js';
import { ROUTES } from './routes.js';

const READINESS_TIMEOUT_MS = 2000;

/**
 * The composition root of the gateway: builds every part from the configuration and returns the
 * express app (it never listens), `startConsumers`, which starts the membership- and token-cache
 * evictions and the deleted-account refusals when AMQP_URL is set, and `close`, which releases Redis, RabbitMQ and the upstream connections.
 */
export function createGatewayApp(deps: {
  config: GatewayConfig;
  logger: Logger;
  /** Resolves `tolk_...` project API tokens instead of token-service (tests). */
  resolveProjectToken?: PrincipalResolver;
  /** The event bus to consume cache evictions from, instead of RabbitMQ at AMQP_URL (embedded mode). */
  bus?: Bus;
}) {
  const { config, logger } = deps;

  const redis = config.REDIS_URL
    ? createRedisClient(config.REDIS_URL, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, logger })
    : undefined;
  const rateLimits = createGatewayRateLimits({
    config,
    redis,
    logger,
    loginBodyLimitBytes: MAX_AUTH_BODY_BYTES,
  });

  const access = createGatewayAccess({
    config,
    redis,
    logger,
    failedAuth: rateLimits.failedAuth,
    resolveProjectToken: deps.resolveProjectToken,
  });
  // What the access caches' evictions come from.
  const bus =
    deps.bus ??
    (config.AMQP_URL ? createRabbitBus({ url: config.AMQP_URL, logger, producer: 'gateway' }) : undefined);

  const proxies = createUpstreamProxies({ config, logger });
  const probeUpstreams = createUpstreamHealthProbe({
    upstreams: config.UPSTREAMS,
    timeoutMs: Math.min(READINESS_TIMEOUT_MS, config.UPSTREAM_TIMEOUT_MS),
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);

  app.use(requestIdMiddleware({ scopeLogs: false }));
  app.use(stripClientIdentityHeaders);
  mountHealthRoutes(app, { probeUpstreams, redis, bus, logger });

  // The gateway's own metrics are on the metrics port (metricsApp); on this public one only to a
  // scrape bearing METRICS_TOKEN, when it is set. Those of services are never routed here.
  if (config.METRICS_TOKEN) {
    app.get(
      '/metrics',
      metricsHandler({ service: serviceNameOf(logger), bearerToken: config.METRICS_TOKEN }),
    );
  }
  app.use(httpMetricsMiddleware(serviceNameOf(logger)));
  app.use(accessLogMiddleware(logger));
  app.use(rejectDotSegments);
  // Public, no token, not proxied: the OpenAPI document and the reference page built from it.
  app.use(createApiReferenceRouter());
  mountApiRoutes(app, {
    routes: ROUTES,
    config,
    proxies,
    requireAccess: access.requireAccess,
    rateLimits: rateLimits.middleware,
    requireMember: access.requireMember,
  });
  // The web dashboard: its files and, for pages a browser asks for, the app (never for /v1).
  app.use(createDashboardRouter({ dir: config.DASHBOARD_DIR }));
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));

  // For METRICS_PORT, which only the scraper reaches (nothing routes to it from outside).
  const metricsApp = express();
  metricsApp.disable('x-powered-by');
  metricsApp.get('/metrics', metricsHandler({ service: serviceNameOf(logger) }));
  metricsApp.use(notFoundHandler);
  metricsApp.use(errorMiddleware(logger));

  return {
    app,
    /** GET /metrics alone, to serve on METRICS_PORT. */
    metricsApp,
    /** Resolves once the eviction consumer is bound (it waits for RabbitMQ); at once without it. */
    async startConsumers(): Promise<void> {
      if (bus) await access.startConsumers(bus);
    },
    async close(): Promise<void> {
      proxies.close();
      await access.close();
      await bus?.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

export type GatewayApp = ReturnType<typeof createGatewayApp>;
