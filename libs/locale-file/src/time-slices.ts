import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { KeyRange } from './icu-messages.js';

/**
 * Work over a large locale file (200,000 keys, or values as long as the limits allow) shares the
 * event loop with every other request of its process — with every service's, in the embedded
 * mode. It runs in slices of about SLICE_MS of work, then lets the event loop serve whatever
 * waits. Slices are timed, not counted in keys: a thousand short labels take a millisecond, a
 * thousand values at the limits seconds. A slice ends between two chunks of keys, and a chunk is
 * bounded by the characters it reads as well as by its keys, so that no chunk runs long whatever
 * its keys hold: one value within the limits is checked in about 10 ms at worst. Slices are short
 * because another user's request passes through the event loop some twenty times (the gateway,
 * the service, each database answer) and may wait for a slice at each: measured beside one user's
 * largest uploads, 2 ms slices took another user's p99 under a second where 5 ms did not, on a
 * machine shared with other work; yielding costs microseconds.
 */
export const SLICE_MS = 2;
const CHUNK_CHARACTERS = 20_000;
const CHUNK_KEYS = 256;

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

/**
 * `check` over keys [0, count) in chunks (`charactersOf(i)`: what key i's work reads), yielding
 * between chunks whenever a slice is used up; the findings concatenated in key order.
 */
export async function checkInSlices<T>(
  count: number,
  charactersOf: (index: number) => number,
  check: (range: KeyRange) => readonly T[],
): Promise<T[]> {
  const found: T[] = [];
  const clock = sliceClock(1);
  let start = 0;
  while (start < count) {
    let end = start;
    let characters = 0;
    while (end < count && end - start < CHUNK_KEYS && characters < CHUNK_CHARACTERS) {
      characters += charactersOf(end++);
    }
    for (const finding of check({ start, end })) found.push(finding);
    start = end;
    if (start < count && clock.due()) await clock.next();
  }
  return found;
}

/** `visit(i)` for i in [0, count), yielding whenever a slice is used up. */
export async function forEachInSlices(count: number, visit: (index: number) => void): Promise<void> {
  const clock = sliceClock();
  for (let i = 0; i < count; i++) {
    visit(i);
    if (clock.due()) await clock.next();
  }
}
