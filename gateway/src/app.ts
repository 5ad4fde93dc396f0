import express, { type RequestHandler } from 'express';
import { createRabbitBus, type Bus } from '@tolk/bus';
import type { ServiceName } from '@tolk/contracts';
import {
  accessLogMiddleware,
  createInternalCallerSigner,
  createPrincipalSigner,
  errorBody,
  errorMiddleware,
  httpMetricsMiddleware,
  metricsHandler,
  notFoundHandler,
  requestIdMiddleware,
} from '@tolk/http';
import { serviceNameOf, type Logger } from '@tolk/logger';
import { createAccessTokenVerifier } from './auth/access-token-verifier.js';
import { createAuthenticator, type PrincipalResolver } from './auth/authenticate.js';
import { createDeletedUsers, listenForUserDeletions, subscribeUserDeletions } from './auth/deleted-users.js';
import { subscribeMembershipEvictions } from './auth/membership-events.js';
import {
  createMembershipCache,
  createMembershipLookup,
  requireProjectMember,
} from './auth/project-membership.js';
import { createProjectTokenResolver, createTokenIntrospection } from './auth/project-token-resolver.js';
import { listenForTokenEvictions, subscribeTokenRevocations } from './auth/token-events.js';
import { createTokenUsageReporter } from './auth/token-usage.js';
import type { GatewayConfig } from './config.js';
import { createDashboardRouter } from './dashboard/dashboard-router.js';
import { createApiReferenceRouter } from './openapi/api-reference-router.js';
import { consumeBody } from './proxy/consumed-body.js';
import { stripClientIdentityHeaders } from './proxy/forwarded-headers.js';
import { rejectDotSegments } from './proxy/path-guard.js';
import { createUpstreamHealthProbe } from './proxy/upstream-health.js';
import { createUpstreamProxy, type UpstreamProxy } from './proxy/upstream-proxy.js';
import { createFailedAuthLimit } from './rate-limit/failed-auth.js';
import { createRateLimiters } from './rate-limit/limiters.js';
import { createRateLimitMiddleware } from './rate-limit/middleware.js';
import { createRedisClient } from './rate-limit/redis-client.js';
import { createUploadSlots } from './rate-limit/upload-slots.js';
import { mountRoutes } from './route-dispatch.js';
import { ROUTES, type GatewayRoute } from './routes.js';

/** Set before a route's guards run, so that their refusals carry it too. */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** Login bodies are a few hundred bytes; the gateway reads their email. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;
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
  const onRateLimitStoreError = (err: unknown) =>
    logger.debug({ err }, 'rate limit store unavailable; let through');
  const limiters = createRateLimiters({
    redis,
    keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
    onStoreError: onRateLimitStoreError,
    limits: {
      authAttemptsPerIp: {
        points: config.RATE_LIMIT_AUTH_PER_IP,
        durationSeconds: config.RATE_LIMIT_AUTH_PER_IP_WINDOW_SECONDS,
      },
      loginFailuresPerEmail: {
        points: config.RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL,
        durationSeconds: config.RATE_LIMIT_LOGIN_FAILURES_WINDOW_SECONDS,
      },
      authFailuresPerIp: {
        points: config.RATE_LIMIT_AUTH_FAILURES_PER_IP,
        durationSeconds: config.RATE_LIMIT_AUTH_FAILURES_WINDOW_SECONDS,
      },
      perPrincipal: {
        points: config.RATE_LIMIT_PER_USER,
        durationSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
      },
      perIp: { points: config.RATE_LIMIT_PER_IP, durationSeconds: config.RATE_LIMIT_WINDOW_SECONDS },
    },
  });
  const rateLimits = createRateLimitMiddleware({
    logger,
    limiters,
    loginBodyLimitBytes: MAX_AUTH_BODY_BYTES,
  });

  const signInternalCaller = createInternalCallerSigner(config.INTERNAL_JWT_SECRET, 'gateway');
  // Project API tokens are resolved by token-service; without it they are refused as unknown.
  const tokenServiceUrl = config.UPSTREAMS.token;
  const tokenUsage = tokenServiceUrl
    ? createTokenUsageReporter({
        tokenServiceUrl,
        signInternalCaller,
        timeoutMs: config.TOKEN_LOOKUP_TIMEOUT_MS,
        flushMs: config.TOKEN_USAGE_FLUSH_MS,
        intervalMs: 60_000,
        logger,
      })
    : undefined;
  const projectTokens = createProjectTokenResolver({
    introspect: tokenServiceUrl
      ? createTokenIntrospection({
          tokenServiceUrl,
          signInternalCaller,
          timeoutMs: config.TOKEN_LOOKUP_TIMEOUT_MS,
        })
      : async () => null,
    redis,
    keyPrefix: config.TOKEN_CACHE_KEY_PREFIX,
    redisTtlSeconds: config.TOKEN_CACHE_TTL_SECONDS,
    localTtlMs: config.TOKEN_LOCAL_CACHE_TTL_MS,
    localMaxEntries: config.TOKEN_LOCAL_CACHE_SIZE,
    noteUse: tokenUsage?.noteUse,
    logger,
  });
  const tokenEvictionChannel = `${config.TOKEN_CACHE_KEY_PREFIX}:revoked`;
  const tokenEvictions = redis
    ? listenForTokenEvictions({ redis, channel: tokenEvictionChannel, resolver: projectTokens, logger })
    : undefined;

  // Deleted accounts: their access tokens are refused until they would have expired.
  const deletedUsersTtlMs = config.ACCESS_TOKEN_MAX_TTL_SECONDS * 1000;
  const deletedUsers = createDeletedUsers({
    redis,
    key: `${config.TOKEN_CACHE_KEY_PREFIX}:deleted-users`,
    ttlMs: deletedUsersTtlMs,
    logger,
  });
  const userDeletionChannel = `${config.TOKEN_CACHE_KEY_PREFIX}:user-deleted`;
  const userDeletions = redis
    ? listenForUserDeletions({ redis, channel: userDeletionChannel, deletedUsers, logger })
    : undefined;

  const requireAccess = createAuthenticator({
    verifyAccessToken: createAccessTokenVerifier({
      publicKeyPem: config.JWT_PUBLIC_KEY,
      cacheSize: config.ACCESS_TOKEN_CACHE_SIZE,
      deletedUsers,
    }),
    resolveProjectToken: deps.resolveProjectToken ?? projectTokens.resolve,
    signPrincipal: createPrincipalSigner(config.INTERNAL_JWT_SECRET),
    failedAuth: createFailedAuthLimit({
      limiter: limiters.authFailuresPerIp,
      onStoreError: onRateLimitStoreError,
    }),
  });

  // Project-scoped routes are authorised by project-service: without it they are not routed.
  const projectServiceUrl = config.UPSTREAMS.project;
  const membershipCache = projectServiceUrl
    ? createMembershipCache({
        redis,
        keyPrefix: config.MEMBERSHIP_CACHE_KEY_PREFIX,
        memberTtlSeconds: config.MEMBERSHIP_CACHE_TTL_SECONDS,
        nonMemberTtlSeconds: config.MEMBERSHIP_CACHE_NEGATIVE_TTL_SECONDS,
        lookup: createMembershipLookup({
          projectServiceUrl,
          signInternalCaller,
          timeoutMs: config.MEMBERSHIP_LOOKUP_TIMEOUT_MS,
        }),
        logger,
      })
    : undefined;
  const requireMember = membershipCache
    ? requireProjectMember({ membershipOf: membershipCache.membershipOf })
    : undefined;
  // Evictions: memberships where they are cached (Redis); tokens always (in-process caches too).
  const bus =
    deps.bus ??
    (config.AMQP_URL ? createRabbitBus({ url: config.AMQP_URL, logger, producer: 'gateway' }) : undefined);

  const proxies = new Map<ServiceName, UpstreamProxy>();
  for (const [service, target] of Object.entries(config.UPSTREAMS) as [ServiceName, string][]) {
    proxies.set(
      service,
      createUpstreamProxy({
        service,
        target,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        maxSockets: config.UPSTREAM_MAX_SOCKETS,
        logger,
      }),
    );
  }
  const probeUpstreams = createUpstreamHealthProbe({
    upstreams: config.UPSTREAMS,
    timeoutMs: Math.min(READINESS_TIMEOUT_MS, config.UPSTREAM_TIMEOUT_MS),
  });

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

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);

  app.use(requestIdMiddleware({ scopeLogs: false }));
  app.use(stripClientIdentityHeaders);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Ready while it can route anything: one service down makes its routes answer 503 each, and is
  // reported here as `degraded`, but does not take the gateway out of rotation — on Kubernetes
  // that would take every gateway pod out with it and turn one service's outage into everyone's.
  // Not ready only when no service it routes to answers.
  app.get('/readyz', async (_req, res) => {
    const upstreams = await probeUpstreams();
    const states = Object.entries(upstreams);
    const down = states.filter(([, state]) => state === 'down').map(([service]) => service);
    // Redis and RabbitMQ are reported, not required: without them the limits fall back (see
    // rate-limit/limiters.ts) and memberships are asked for every time or expire by TTL.
    const redisState = !redis ? 'not configured' : redis.status === 'ready' ? 'up' : 'down';
    const events = !bus ? 'not configured' : bus.isConnected() ? 'up' : 'down';
    if (states.length > 0 && down.length === states.length) {
      logger.warn({ upstreams }, 'not ready');
      res.status(503).json(errorBody('SERVICE_UNAVAILABLE', `Not ready: ${down.join(', ')} not reachable`));
      return;
    }
    if (down.length > 0) logger.warn({ upstreams }, 'degraded');
    res.json({ status: down.length > 0 ? 'degraded' : 'ready', upstreams, redis: redisState, events });
  });

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
  const routeTable = ROUTES.flatMap((route) => {
    const proxy = proxies.get(route.service);
    if (!proxy || (route.scope === 'project' && !requireMember)) return [];
    const headers = route.noStore ? [noStore] : [];
    return [{ path: route.path, handlers: [...headers, ...guardsOf(route), proxy.handler] }];
  });
  mountRoutes(app, routeTable);
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
      if (!bus) return;
      await Promise.all([
        membershipCache && redis
          ? subscribeMembershipEvictions({
              bus,
              queue: config.MEMBERSHIP_EVENTS_QUEUE,
              cache: membershipCache,
              logger,
            })
          : undefined,
        tokenServiceUrl
          ? subscribeTokenRevocations({
              bus,
              queue: config.TOKEN_EVENTS_QUEUE,
              redis,
              channel: tokenEvictionChannel,
              resolver: projectTokens,
              logger,
            })
          : undefined,
        subscribeUserDeletions({
          bus,
          queue: config.USER_EVENTS_QUEUE,
          redis,
          channel: userDeletionChannel,
          deletedUsers,
          ttlMs: deletedUsersTtlMs,
          logger,
        }),
      ]);
    },
    async close(): Promise<void> {
      for (const proxy of proxies.values()) proxy.close();
      await tokenUsage?.close();
      await tokenEvictions?.close();
      await userDeletions?.close();
      await bus?.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

export type GatewayApp = ReturnType<typeof createGatewayApp>;
