import { describe, expect, it } from 'vitest';
import { createVersionCache } from '../src/version-cache.js';

/** A parsed version with `count` keys: weighs count + 1. */
const version = (count: number) => ({ keys: Array.from({ length: count }, (_, i) => `k${i}`) });

describe('createVersionCache', () => {
  it('when the versions outweigh maxKeys, then the least recently used go first', () => {
    const cache = createVersionCache<ReturnType<typeof version>>(10);
    const [v1, v2, v3] = [version(3), version(3), version(3)];
    cache.set('p', 1, v1);
    cache.set('p', 2, v2);
    expect(cache.get('p', 1)).toBe(v1); // 1 is now the most recently used
    cache.set('p', 3, v3); // 12 > 10: 2 goes
    expect(cache.get('p', 2)).toBeUndefined();
    expect(cache.get('p', 1)).toBe(v1);
    expect(cache.get('p', 3)).toBe(v3);
  });

  it('when a version alone outweighs the cache, then it is not kept, nor what it replaced', () => {
    const cache = createVersionCache<ReturnType<typeof version>>(10);
    cache.set('p', 1, version(2));
    cache.set('p', 2, version(2));
    cache.set('p', 1, version(10));
    expect(cache.get('p', 1)).toBeUndefined();
    expect(cache.get('p', 2)).toEqual(version(2));
    // Weight 10 (9 keys + 1) fits exactly.
    cache.set('p', 3, version(9));
    expect(cache.get('p', 3)).toEqual(version(9));
    expect(cache.get('p', 2)).toBeUndefined();
  });

  it('evicts every version of one project and only of that one', () => {
    const cache = createVersionCache<ReturnType<typeof version>>(100);
    cache.set('p', 1, version(1));
    cache.set('p', 2, version(1));
    cache.set('xp', 1, version(1));
    cache.set('p:x', 1, version(1));
    cache.evictProject('p');
    expect([cache.get('p', 1), cache.get('p', 2)]).toEqual([undefined, undefined]);
    expect(cache.get('xp', 1)).toEqual(version(1));
    expect(cache.get('p:x', 1)).toEqual(version(1));
  });

  it('when maxKeys is 0, then nothing is kept', () => {
    const cache = createVersionCache<ReturnType<typeof version>>(0);
    cache.set('p', 1, version(0));
    expect(cache.get('p', 1)).toBeUndefined();
    cache.evictProject('p');
  });
});
