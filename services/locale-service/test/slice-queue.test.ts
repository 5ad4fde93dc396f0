/** The slices the translation browser's work is cut into: one per turn of the event loop, lanes taking turns. */
import { describe, expect, it } from 'vitest';
import { createSliceQueue, SLICE_MS } from '../src/domain/slice-queue.js';

/** Resolves in the next turn of the event loop that has timers run. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('createSliceQueue', () => {
  it('when many requests queue work at once, then other callbacks run between any two slices', async () => {
    const queue = createSliceQueue();
    const log: string[] = [];
    const work = Array.from({ length: 5 }, async (_, request) => {
      for (let i = 0; i < 3; i++) {
        await queue.lane('p').run(() => {
          log.push(`slice ${request}.${i}`);
          const until = performance.now() + SLICE_MS;
          while (performance.now() < until);
        });
      }
    });
    let turns = 0;
    let done = false;
    const others = (async () => {
      while (!done) {
        await nextTurn();
        turns++;
        log.push('other');
      }
    })();
    await Promise.all(work);
    done = true;
    await others;
    const slices = log.filter((entry) => entry !== 'other');
    expect(slices).toHaveLength(15);
    // Never two slices in one turn: an "other" between each pair.
    for (let i = 1; i < log.length; i++) {
      if (log[i]!.startsWith('slice')) expect(log[i - 1], `before ${log[i]}`).not.toMatch(/^slice/);
    }
    expect(turns).toBeGreaterThanOrEqual(14);
    // The requests took turns in the order they came.
    expect(slices.slice(0, 5)).toEqual(['slice 0.0', 'slice 1.0', 'slice 2.0', 'slice 3.0', 'slice 4.0']);
  });

  it('when a loop is run in slices, then each slice stops once SLICE_MS have passed', async () => {
    const queue = createSliceQueue();
    const turns: number[] = [];
    let last = -1;
    let turn = 0;
    const ticking = setInterval(() => turn++, 0);
    try {
      await queue.lane('p').each(3_000_000, (i) => {
        if (turn !== last) {
          turns.push(i);
          last = turn;
        }
      });
    } finally {
      clearInterval(ticking);
    }
    // Three million visits take far longer than one slice: several turns, each starting after the last.
    expect(turns.length).toBeGreaterThan(1);
    expect(turns).toEqual([...turns].sort((a, b) => a - b));
  });

  it("when one lane has much work waiting, then another lane's slice runs after one of it, not after all", async () => {
    const queue = createSliceQueue();
    const log: string[] = [];
    const busy = Array.from({ length: 20 }, (_, request) =>
      queue.lane('busy').run(() => log.push(`busy ${request}`)),
    );
    const other = queue.lane('other').run(() => log.push('other'));
    await Promise.all([...busy, other]);
    expect(log.indexOf('other')).toBe(1);
  });

  it('when a slice throws, then its work is rejected and the queue goes on', async () => {
    const queue = createSliceQueue();
    const failing = queue.lane('p').run(() => {
      throw new Error('broken');
    });
    await expect(failing).rejects.toThrow('broken');
    await expect(queue.lane('p').run(() => 42)).resolves.toBe(42);
  });
});
