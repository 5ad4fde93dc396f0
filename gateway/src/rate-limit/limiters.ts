import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { createBatchedLimiter, type Verdict } from './batched-limiter.js';

export type Limit = { points: number; durationSeconds: number };

export type RateLimits = {
  /** Signup and login attempts per client IP. */
  authAttemptsPerIp: Limit;
  /** Failed logins per email. */
  loginFailuresPerEmail: Limit;
  /** Requests refused for their token (401), per client IP. */
  authFailuresPerIp: Limit;
  /** Every authenticated request, per principal. */
  perPrincipal: Limit;
  /** Every unauthenticated request, per client IP. */
  perIp: Limit;
};

/** The general limit's interface: a verdict, at once where it can be given at once. */
export type GeneralLimiter = { consume(key: string): Verdict | Promise<Verdict> };

/** How often an instance sends the general limit's points to Redis (batched-limiter.ts). */
export const GENERAL_LIMIT_FLUSH_MS = 50;

/** A plain limiter behind the general limit's interface: every request asks the store. */
function askingEveryTime(limiter: RateLimiterAbstract, onStoreError: (err: unknown) => void): GeneralLimiter {
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return { allowed: true };
      } catch (refusedOrFailed) {
        if (refusedOrFailed instanceof RateLimiterRes) {
          return { allowed: false, msBeforeNext: refusedOrFailed.msBeforeNext };
        }
        onStoreError(refusedOrFailed);
        return { allowed: true };
      }
    },
  };
}

/**
 * The limiters, shared by every gateway instance through Redis when it is configured, else kept
 * in this process. When Redis is configured but down:
 * - the brute-force limits (signup/login per IP, failed logins per email, refused tokens per IP) fall back to an
 *   in-memory insurance limiter per instance: still enforced, per instance rather than globally;
 * - the general per-principal / per-IP limit fails open: requests are served unlimited until
 *   Redis is back, because refusing all traffic over a lost cache would be the worse outage.
 * The general limit does not ask Redis on every request: far from the limit it counts here and
 * sends the counts every GENERAL_LIMIT_FLUSH_MS (batched-limiter.ts says what that trades).
 */
export function createRateLimiters(deps: {
  redis?: Redis;
  keyPrefix: string;
  limits: RateLimits;
  onStoreError: (err: unknown) => void;
}) {
  const { redis, keyPrefix, limits, onStoreError } = deps;

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

  function general(name: string, limit: Limit): GeneralLimiter {
    const store = limiter(name, limit, 'fail-open');
    if (!redis) return askingEveryTime(store, onStoreError);
    return createBatchedLimiter({
      store,
      points: limit.points,
      flushIntervalMs: GENERAL_LIMIT_FLUSH_MS,
      onStoreError,
    });
  }

  return {
    authAttemptsPerIp: limiter('auth-ip', limits.authAttemptsPerIp, 'insure'),
    loginFailuresPerEmail: limiter('login-email', limits.loginFailuresPerEmail, 'insure'),
    authFailuresPerIp: limiter('auth-failure-ip', limits.authFailuresPerIp, 'insure'),
    perPrincipal: general('principal', limits.perPrincipal),
    perIp: general('ip', limits.perIp),
  };
}

export type RateLimiters = ReturnType<typeof createRateLimiters>;
