import { describe, expect, it } from 'vitest';
import { keyCharacters, keyRuleMatcher } from '@tolk/contracts';
import { targetKeys } from '@tolk/locale-file';
import { prepareKeyRules, ruledKeysOf } from '../src/domain/locale-state.js';

/** How long the event loop may be held by rules being worked out, at a time. */
const MAX_HELD_MS = 50;

/**
 * Rules costing about 150 steps a key character (three patterns with too many cases to
 * determinise) and 600 nested braces that take a few hundred ms to compile, over 50,000 keys of
 * about 30 characters: some hundred million steps, about a second of one core.
 */
const rules = {
  humanOnly: Array.from({ length: 200 }, (_, i) => {
    let pattern = `xh${i}`;
    while (`{a,${pattern}}`.length <= 500) pattern = `{a,${pattern}}`;
    return pattern;
  }),
  neverTranslate: ['**.url', 'brand.*', `**.a${'.*'.repeat(14)}`],
  exclude: ['debug.**', `**.b${'.*'.repeat(14)}`, `**.k${'.*'.repeat(14)}`],
};
const keys = Array.from({ length: 50_000 }, (_, i) => `section${i % 97}.group${i % 13}.key_${i}_other`);

describe('key rules worked out in slices', () => {
  it('when a large source meets costly rules, then the event loop is never held more than 50 ms and the rules are those keyRuleMatcher gives', async () => {
    // Gaps between the turns of a timer due every millisecond: how long the loop was held each
    // time. A collection of the garbage or another process on the machine may hold it too: the
    // slices are judged by the gaps but the few longest.
    let last = performance.now();
    const gaps: number[] = [];
    const ticking = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 1);
    const started = performance.now();
    const matcher = await prepareKeyRules(rules, { keys });
    const took = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
    clearInterval(ticking);

    expect(matcher.cost * keyCharacters(keys)).toBeGreaterThan(50_000_000);
    expect(took).toBeGreaterThan(4 * MAX_HELD_MS);
    gaps.sort((a, b) => a - b);
    expect(gaps.length).toBeGreaterThan(took / MAX_HELD_MS);
    expect(gaps[Math.floor(gaps.length * 0.9)]).toBeLessThan(MAX_HELD_MS);

    const ruled = ruledKeysOf({ keys }, undefined, matcher)!;
    const again = keyRuleMatcher(rules);
    for (const i of [0, 1, 4_999, 25_000, 49_999]) {
      const rule = again.ruleOf(keys[i]!);
      expect(ruled.rules[i]).toBe(
        rule === undefined ? 0 : { humanOnly: 1, neverTranslate: 2, exclude: 3 }[rule],
      );
    }
  });

  it("when a locale's keys hold plural forms, then its plain keys take the source's rules and only its forms are matched", async () => {
    const source = { keys: ['cart.items_one', 'cart.items_other', 'debug.x', 'brand.name'] };
    const target = targetKeys(source, 'pl');
    const plural = { humanOnly: [], neverTranslate: ['brand.*'], exclude: ['debug.**', '*.items_many'] };
    const matcher = await prepareKeyRules(plural, source, target);
    const ruled = ruledKeysOf(source, target, matcher)!;
    expect(target.keys).toEqual([
      'cart.items_one',
      'cart.items_few',
      'cart.items_many',
      'cart.items_other',
      'debug.x',
      'brand.name',
    ]);
    expect([...ruled.rules]).toEqual([0, 0, 3, 0, 3, 2]);
    expect(ruled).toMatchObject({ excluded: 2, neverTranslated: 1 });
  });
});
