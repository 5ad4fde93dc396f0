import { LRUCache } from 'lru-cache';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '@tolk/errors';
import { retryAfterSeconds } from './middleware.js';

/** Addresses this instance remembers as blocked; an attacker with more rotates the oldest out. */
const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * Refused tokens per client address: a guard against token guessing and against garbage that
 * costs a signature check or a token-service lookup per request.
 *
 * Every refusal (401) is counted in the shared store, so every instance adds to one count. The
 * refusal past the limit becomes a 429, and from then until the window ends this instance knows
 * the address is blocked without asking the store: the check costs nothing on the path of valid
 * requests. Another instance learns of the block at the address's next refusal there.
 *
 * While blocked, what the authenticator does with the address is its decision (authenticate.ts):
 * tokens it can prove valid without asking a service still pass, so one broken CI job behind a
 * team's NAT does not lock out everyone else behind it.
 */
export function createFailedAuthLimit(deps: {
  limiter: RateLimiterAbstract;
  onStoreError: (err: unknown) => void;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const blockedUntil = new LRUCache<string, number>({ max: MAX_BLOCKED_ADDRESSES });

  return {
    /** Milliseconds until the address may be refused again without a 429; undefined when it is not blocked. */
    blockedFor(address: string): number | undefined {
      const until = blockedUntil.get(address);
      if (until === undefined) return undefined;
      const left = until - now();
      if (left > 0) return left;
      blockedUntil.delete(address);
      return undefined;
    },

    /** Counts a refusal; the one past the limit blocks the address and throws the 429 to answer instead. */
    async noteFailure(address: string): Promise<void> {
      try {
        await deps.limiter.consume(address);
      } catch (refusedOrFailed) {
        // A store that fails without insurance lets the refusal stand as a plain 401.
        if (!(refusedOrFailed instanceof RateLimiterRes)) {
          deps.onStoreError(refusedOrFailed);
          return;
        }
        blockedUntil.set(address, now() + refusedOrFailed.msBeforeNext);
        throw new RateLimitedError(retryAfterSeconds(refusedOrFailed.msBeforeNext));
      }
    },
  };
}

export type FailedAuthLimit = ReturnType<typeof createFailedAuthLimit>;
