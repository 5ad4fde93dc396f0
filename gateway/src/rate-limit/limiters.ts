import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export type Limit = { points: number; durationSeconds: number };

export type RateLimits = {
  /** Signup and login attempts per client IP. */
  authAttemptsPerIp: Limit;
  /** Failed logins per email. */
  loginFailuresPerEmail: Limit;
  /** Every authenticated request, per principal. */
  perPrincipal: Limit;
  /** Every unauthenticated request, per client IP. */
  perIp: Limit;
};

/**
 * The limiters, shared by every gateway instance through Redis when it is configured, else kept
 * in this process. When Redis is configured but down:
 * - the brute-force limits (signup/login per IP, failed logins per email) fall back to an
 *   in-memory insurance limiter per instance: still enforced, per instance rather than globally;
 * - the general per-principal / per-IP limit fails open: requests are served unlimited until
 *   Redis is back, because refusing all traffic over a lost cache would be the worse outage.
 */
export function createRateLimiters(deps: { redis?: Redis; keyPrefix: string; limits: RateLimits }) {
  const { redis, keyPrefix, limits } = deps;

  function limiter(name: string, limit: Limit, whenRedisIsDown: 'insure' | 'fail-open'): RateLimiterAbstract {
    const options = {
      keyPrefix: `${keyPrefix}:${name}`,
      points: limit.points,
      duration: limit.durationSeconds,
    };
    if (!redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: redis,
      // Do not even try while disconnected: go straight to the insurance (or fail open).
      rejectIfRedisNotReady: true,
      insuranceLimiter: whenRedisIsDown === 'insure' ? new RateLimiterMemory(options) : undefined,
    });
  }

  return {
    authAttemptsPerIp: limiter('auth-ip', limits.authAttemptsPerIp, 'insure'),
    loginFailuresPerEmail: limiter('login-email', limits.loginFailuresPerEmail, 'insure'),
    perPrincipal: limiter('principal', limits.perPrincipal, 'fail-open'),
    perIp: limiter('ip', limits.perIp, 'fail-open'),
  };
}

export type RateLimiters = ReturnType<typeof createRateLimiters>;
