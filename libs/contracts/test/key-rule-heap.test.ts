/**
 * What compiling key rules keeps for the collector to trace, in a file of its own: the heap is
 * measured, so it runs as the timed files run, alone and in a process of its own (in the in-memory
 * group, other files' garbage was promoted while it measured).
 */
import { describe, expect, it } from 'vitest';
import { compileKeyRules, type KeyRules } from '../src/key-rules.js';

describe('key-rule compilation: the heap', () => {
  it.each([
    [
      'lists that cannot be determinised',
      {
        humanOnly: [`*a${'?'.repeat(480)}heap`],
        neverTranslate: [`*b${'?'.repeat(480)}heap`],
        exclude: [`*c${'?'.repeat(480)}heap`],
      },
    ],
    [
      '3 lists of 200 nested braces',
      Object.fromEntries(
        ['humanOnly', 'neverTranslate', 'exclude'].map((list) => {
          let nested = 'heap';
          while (`{b,${nested}}`.length <= 490) nested = `{b,${nested}}`;
          return [list, Array.from({ length: 200 }, (_, i) => `${nested}${list}${i}`)];
        }),
      ) as KeyRules,
    ],
  ])(
    'when %s are compiled, then the objects the collector traces grow by a few MB, not a hundred',
    async (_, rules) => {
      // Sampled every turn between slices. Kept objects (a set of NFA states per DFA state, the
      // patterns' trees) cost the collector pauses of tens of ms, several compilations at once
      // hundreds: 100 MB and more were kept; typed arrays are outside this heap.
      const before = process.memoryUsage().heapUsed;
      let most = before;
      const sampling = setInterval(() => {
        most = Math.max(most, process.memoryUsage().heapUsed);
      }, 0);
      await compileKeyRules(rules);
      clearInterval(sampling);
      // Young garbage (up to a semi-space of 16 MB) comes and goes with the work.
      expect((most - before) / 1e6).toBeLessThan(20);
    },
  );
});
