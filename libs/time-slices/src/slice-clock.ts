import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Work over a large input (a locale file of 200,000 keys, values as long as the limits allow, a
 * JSON body of 10 MiB) shares the event loop with every other request of its process — with every
 * service's, in the embedded mode. It runs in slices of about SLICE_MS of work, then lets the
 * event loop serve whatever waits. Slices are timed, not counted: a thousand short labels take a
 * millisecond, a thousand values at the limits seconds. Slices are short because another user's
 * request passes through the event loop some twenty times (the gateway, the service, each
 * database answer) and may wait for a slice at each: measured beside one user's largest uploads,
 * 2 ms slices took another user's p99 under a second where 5 ms did not, on a machine shared with
 * other work; yielding costs microseconds.
 */
export const SLICE_MS = 2;

/** Lets the event loop serve what waits (I/O, timers) before the work goes on. */
export function yieldToEventLoop(): Promise<void> {
  return nextTurn();
}

/**
 * A clock of the current slice, for loops that cannot be cut into ranges:
 * `if (clock.due()) await clock.next();` between two steps. The time is read every `stride` calls
 * of `due` (reading it costs as much as a cheap step).
 */
export function sliceClock(stride = 64) {
  let started = performance.now();
  let calls = 0;
  return {
    /** Whether the slice is used up. */
    due(): boolean {
      if (++calls < stride) return false;
      calls = 0;
      return performance.now() - started >= SLICE_MS;
    },
    /** Yields, then starts the next slice. */
    async next(): Promise<void> {
      await yieldToEventLoop();
      started = performance.now();
    },
  };
}
