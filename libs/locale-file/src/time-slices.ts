import { sliceClock } from '@tolk/time-slices';
import type { KeyRange } from './icu-messages.js';

// The slice clock is generic plumbing (@tolk/time-slices); re-exported, as it was defined here.
export { SLICE_MS, sliceClock, yieldToEventLoop } from '@tolk/time-slices';

/**
 * Work over a large locale file (200,000 keys, or values as long as the limits allow) runs in
 * slices of about SLICE_MS (see @tolk/time-slices). A slice ends between two chunks of keys, and a
 * chunk is bounded by the characters it reads as well as by its keys, so that no chunk runs long
 * whatever its keys hold: one value within the limits is checked in about 10 ms at worst.
 */
const CHUNK_CHARACTERS = 20_000;
const CHUNK_KEYS = 256;

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
