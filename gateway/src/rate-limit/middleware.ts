import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { normalizeEmail } from '@tolk/contracts';
import { RateLimitedError } from '@tolk/errors';
import { decodeJsonBody } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import { consumedBody } from '../proxy/consumed-body.js';
import type { Verdict } from './batched-limiter.js';
import type { RateLimiters } from './limiters.js';

export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/**
 * The login's email, in identity-service's normal form and hashed: no addresses in Redis, one key
 * per mailbox. The body was decoded by the rule identity-service reads it by (decodeJsonBody).
 */
function loginEmailKey(body: unknown): string | undefined {
  const email = (body as { email?: unknown } | null | undefined)?.email;
  if (typeof email !== 'string') return undefined; // identity-service refuses it itself
  const normalized = normalizeEmail(email);
  if (normalized === '') return undefined;
  return createHash('sha256').update(normalized).digest('hex');
}

export function createRateLimitMiddleware(deps: {
  limiters: RateLimiters;
  logger: Logger;
  /** The largest login body the gateway reads, decompressed included. */
  loginBodyLimitBytes: number;
}) {
  const { limiters, logger, loginBodyLimitBytes } = deps;

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
   * A body that cannot be decoded is refused here with the answer identity-service would give,
   * so no body reaches it whose email the gateway could not count.
   */
  const failedLoginsPerEmail: RequestHandler = async (req, res, next) => {
    const body = consumedBody(req);
    const key =
      body && loginEmailKey(await decodeJsonBody(body, req.headers, { limitBytes: loginBodyLimitBytes }));
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
