import { performance } from 'node:perf_hooks';

/** How long one slice of work may hold the event loop. */
export const SLICE_MS = 10;

/** Work cut into slices, each run in a turn of the event loop of its own (see createSliceQueue). */
export type Slices = {
  /** Runs `slice` in a turn of its own, after the slices queued before it in its lane. */
  run<T>(slice: () => T): Promise<T>;
  /** `visit(i)` for each i from 0 to count − 1, in order, in slices of about SLICE_MS. */
  each(count: number, visit: (i: number) => void): Promise<void>;
};

/**
 * CPU-heavy work of many requests, cut into slices that run one per turn of the event loop:
 * other requests are served between any two slices, however many requests have work waiting.
 * Each lane (a project, say) has its slices run in the order they were queued, and the lanes
 * with work take turns, so a project with twenty requests' work waiting delays another
 * project's slice by one of its own, not twenty. Each request yielding with setImmediate on its
 * own would not do: every callback queued before a turn runs in that turn, so 20 requests would
 * hold the loop for 20 slices at a time; and a promise queue (p-limit, p-queue) starts its next
 * task in a microtask of the same turn. A slice queued from inside a turn runs in a later one.
 */
export function createSliceQueue() {
  /** The lanes with slices waiting, in the order they take turns. */
  const lanes = new Map<string, (() => void)[]>();
  let scheduled = false;

  function runNext() {
    const next = lanes.entries().next();
    if (!next.done) {
      const [lane, waiting] = next.value;
      lanes.delete(lane);
      const slice = waiting.shift()!;
      if (waiting.length > 0) lanes.set(lane, waiting);
      slice();
    }
    // The work that waited for this slice goes on in a microtask and queues its next slice itself.
    scheduled = lanes.size > 0;
    if (scheduled) setImmediate(runNext);
  }

  function run<T>(lane: string, slice: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiting = lanes.get(lane) ?? [];
      waiting.push(() => {
        try {
          resolve(slice());
        } catch (error) {
          reject(error as Error);
        }
      });
      if (!lanes.has(lane)) lanes.set(lane, waiting);
      if (!scheduled) {
        scheduled = true;
        setImmediate(runNext);
      }
    });
  }

  return {
    /** The slices of `lane`. */
    lane(lane: string): Slices {
      return {
        run: (slice) => run(lane, slice),
        async each(count, visit) {
          let i = 0;
          while (i < count) {
            await run(lane, () => {
              const until = performance.now() + SLICE_MS;
              // The clock is read every 64 items: reading it costs more than most visits.
              do visit(i++);
              while (i < count && (i % 64 !== 0 || performance.now() < until));
            });
          }
        },
      };
    },
  };
}

export type SliceQueue = ReturnType<typeof createSliceQueue>;
