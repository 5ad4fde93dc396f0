import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import { consumedBody } from '../proxy/consumed-body.js';
import type { Verdict } from './batched-limiter.js';
import type { RateLimiters } from './limiters.js';

function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/** The login's email, normalised and hashed: no addresses in Redis, one key per mailbox. */
function loginEmailKey(body: Buffer): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined; // identity-service answers the malformed body itself
  }
  const email = (parsed as { email?: unknown } | null)?.email;
  if (typeof email !== 'string' || email.trim() === '') return undefined;
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

export function createRateLimitMiddleware(deps: { limiters: RateLimiters; logger: Logger }) {
  const { limiters, logger } = deps;

  /** Spends a point: over the limit is a 429; a store that fails (no insurance) lets it through. */
  async function spend(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
    try {
      await limiter.consume(key);
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes)
        throw new RateLimitedError(retryAfterSeconds(rejection.msBeforeNext));
      logger.debug(
        { err: rejection, limiter: limiter.keyPrefix },
        'rate limit store unavailable; let through',
      );
      return false;
    }
  }

  function settleQuietly(operation: Promise<unknown>): void {
    operation.catch((err: unknown) => logger.debug({ err }, 'rate limit store unavailable'));
  }

  function admit(verdict: Verdict, next: NextFunction): void {
    if (!verdict.allowed) throw new RateLimitedError(retryAfterSeconds(verdict.msBeforeNext));
    next();
  }

  /**
   * Every /v1 request: per principal once authenticated, per client IP otherwise. Synchronous
   * when the general limiter can answer at once (its usual case), so no request waits for Redis.
   */
  const perCaller: RequestHandler = (req, _res, next) => {
    const principal = req.principal;
    const verdict = !principal
      ? limiters.perIp.consume(clientIp(req))
      : limiters.perPrincipal.consume(
          principal.kind === 'user' ? `user:${principal.userId}` : `token:${principal.tokenId}`,
        );
    if (verdict instanceof Promise) return verdict.then((settled) => admit(settled, next));
    admit(verdict, next);
  };

  /** Signup and login, per client IP, whatever their outcome. */
  const authAttemptsPerIp: RequestHandler = async (req, _res, next) => {
    await spend(limiters.authAttemptsPerIp, clientIp(req));
    next();
  };

  /**
   * Failed logins per email. The attempt is counted before it is forwarded and given back unless
   * identity-service answers 401, so parallel guesses cannot all slip in before the first failure
   * is counted; a successful login clears the count. Needs the body read by consumeBody.
   */
  const failedLoginsPerEmail: RequestHandler = async (req, res, next) => {
    const body = consumedBody(req);
    const key = body && loginEmailKey(body);
    if (key && (await spend(limiters.loginFailuresPerEmail, key))) {
      res.once('close', () => {
        const status = res.headersSent ? res.statusCode : 0;
        if (status === 401) return;
        if (status >= 200 && status < 300) settleQuietly(limiters.loginFailuresPerEmail.delete(key));
        else settleQuietly(limiters.loginFailuresPerEmail.reward(key));
      });
    }
    next();
  };

  return { perCaller, authAttemptsPerIp, failedLoginsPerEmail };
}
