import type { Redis } from 'ioredis';
import type { Logger } from '@tolk/logger';
import type { GatewayConfig } from '../config.js';
import { createFailedAuthLimit } from './failed-auth.js';
import { createRateLimiters } from './limiters.js';
import { createRateLimitMiddleware } from './middleware.js';

/**
 * The gateway's limiters, from its configuration: the middleware that spends their points, and the
 * limit of refused tokens per address that the authenticator keeps.
 */
export function createGatewayRateLimits(deps: {
  config: GatewayConfig;
  redis: Redis | undefined;
  logger: Logger;
  /** The largest login body the gateway reads, for the failed-login limit per email. */
  loginBodyLimitBytes: number;
}) {
  const { config, logger } = deps;
  const onStoreError = (err: unknown) => logger.debug({ err }, 'rate limit store unavailable; let through');
  const limiters = createRateLimiters({
    redis: deps.redis,
    keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
    onStoreError,
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
  const middleware = createRateLimitMiddleware({
    logger,
    limiters,
    loginBodyLimitBytes: deps.loginBodyLimitBytes,
  });
  return {
    middleware,
    failedAuth: createFailedAuthLimit({ limiter: limiters.authFailuresPerIp, onStoreError }),
  };
}
