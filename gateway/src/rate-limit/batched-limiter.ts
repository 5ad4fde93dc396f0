import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export type Verdict = { allowed: true } | { allowed: false; msBeforeNext: number };

const ALLOWED: Verdict = Object.freeze({ allowed: true });

/** New keys between two sweeps for idle ones outside a flush. */
const FORGET_EVERY = 10_000;

/** What this instance knows of one key's window in the shared store, and what it has not told it yet. */
type Window = {
  /** Points the store has counted in the current window, as of its last answer. */
  counted: number;
  /** When the store's window ends (epoch ms). */
  resetsAt: number;
  /** Points let through here and being sent to the store. */
  inFlight: number;
  /** Points let through here, not sent yet. */
  pending: number;
};

/**
 * The general per-caller limit without a Redis round trip per request. Far from the limit a
 * request is let through on what this instance knows, and the points it spends are sent to the
 * shared store in one batch every `flushIntervalMs` (one command per busy key, pipelined); the
 * store's answers keep the local picture current. Within `headroom` points of the limit — and for
 * a key's first request of a window, when nothing is known yet — every request asks the store and
 * waits, exactly like a plain store limiter, so small limits are exact and shared by every
 * instance.
 *
 * The cost of the fast path: instances learn of each other's requests at the next flush, so with
 * N instances a caller can exceed the limit by what N instances let through in one flush interval
 * beyond `headroom`. For the general limit — a guard against runaway clients, not a brute-force
 * limit — that is the right trade; the brute-force limits stay exact, with the store asked on
 * every attempt.
 *
 * A store that fails lets the request through (the general limit fails open) and its points are
 * dropped, as a store limiter without insurance would.
 */
export function createBatchedLimiter(deps: {
  store: RateLimiterAbstract;
  points: number;
  flushIntervalMs: number;
  /** Requests asked of the store within this many points of the limit; default 10% of it, ≥ 10. */
  headroom?: number;
  onStoreError: (err: unknown) => void;
  now?: () => number;
}) {
  const { store, points } = deps;
  const now = deps.now ?? Date.now;
  const headroom = deps.headroom ?? Math.max(10, Math.ceil(points / 10));
  const windows = new Map<string, Window>();
  let flushTimer: NodeJS.Timeout | undefined;

  /** The store's answer (granted or refused) becomes what this instance knows. */
  function learn(window: Window, answer: RateLimiterRes): void {
    window.counted = answer.consumedPoints;
    window.resetsAt = now() + answer.msBeforeNext;
  }

  /** A key with nothing pending whose window has ended is known no better than a new one. */
  function isIdle(window: Window): boolean {
    return window.pending === 0 && window.inFlight === 0 && window.resetsAt <= now();
  }

  async function flush(): Promise<void> {
    flushTimer = undefined;
    const sends: Promise<void>[] = [];
    for (const [key, window] of windows) {
      if (window.pending === 0) {
        if (isIdle(window)) windows.delete(key);
        continue;
      }
      const sent = window.pending;
      window.pending = 0;
      window.inFlight += sent;
      sends.push(
        store.consume(key, sent).then(
          (granted) => {
            window.inFlight -= sent;
            learn(window, granted);
          },
          (refusedOrFailed: unknown) => {
            window.inFlight -= sent;
            if (refusedOrFailed instanceof RateLimiterRes) learn(window, refusedOrFailed);
            else deps.onStoreError(refusedOrFailed);
          },
        ),
      );
    }
    await Promise.all(sends);
  }

  function scheduleFlush(): void {
    if (flushTimer) return;
    flushTimer = setTimeout(() => void flush(), deps.flushIntervalMs);
    flushTimer.unref();
  }

  /** The exact path: one point asked of the store, waited for. */
  async function askStore(key: string, window: Window): Promise<Verdict> {
    window.inFlight += 1;
    try {
      learn(window, await store.consume(key, 1));
      return ALLOWED;
    } catch (refusedOrFailed) {
      if (!(refusedOrFailed instanceof RateLimiterRes)) {
        deps.onStoreError(refusedOrFailed);
        return ALLOWED;
      }
      learn(window, refusedOrFailed);
      return { allowed: false, msBeforeNext: refusedOrFailed.msBeforeNext };
    } finally {
      window.inFlight -= 1;
    }
  }

  return {
    /** Spends a point for `key`: at once on the fast path, else after the store has answered. */
    consume(key: string): Verdict | Promise<Verdict> {
      let window = windows.get(key);
      if (!window) {
        // Callers that only ever ask the store (one request each) never make a flush run: forget
        // the idle ones here too, once per FORGET_EVERY new keys, so the map stays bounded.
        if (windows.size % FORGET_EVERY === FORGET_EVERY - 1) {
          for (const [known, seen] of windows) if (isIdle(seen)) windows.delete(known);
        }
        window = { counted: 0, resetsAt: 0, inFlight: 0, pending: 0 };
        windows.set(key, window);
      }
      const at = now();
      if (window.resetsAt <= at) {
        // A new window (or the first request): nothing is known until the store says so.
        if (window.pending === 0 && window.inFlight === 0) window.counted = 0;
        return askStore(key, window);
      }
      const spent = window.counted + window.inFlight + window.pending;
      if (spent >= points) return { allowed: false, msBeforeNext: window.resetsAt - at };
      if (spent + 1 > points - headroom) return askStore(key, window);
      window.pending += 1;
      scheduleFlush();
      return ALLOWED;
    },

    /** Sends what is pending now, without waiting for the timer (tests). */
    async flush(): Promise<void> {
      if (flushTimer) clearTimeout(flushTimer);
      await flush();
    },
  };
}
