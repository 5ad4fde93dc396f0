import { LRUCache } from 'lru-cache';

type Entry<T> = { identity: string; promise: Promise<T> };

/**
 * Results computed once and shared: under each name, the value for one identity (what it was
 * computed from). The first request that asks for a name with an identity not held computes it;
 * the others asking meanwhile wait for the same promise (single flight); a newer identity replaces
 * the older one. Kept for the most recently used names up to `maxSize`, each counted at the size
 * its asker gives (a locale's keys, say).
 */
export function createSharedComputations<T extends object>(maxSize: number) {
  const held = new LRUCache<string, Entry<T>>({ maxSize });

  return {
    /**
     * The value of `name` for `identity`. `compute` answers the value with the identity it was
     * actually computed from (what it read may be newer than what the asker saw): held under that.
     */
    get(
      name: string,
      identity: string,
      size: number,
      compute: () => Promise<{ value: T; identity: string }>,
    ): Promise<T> {
      const known = held.get(name);
      if (known?.identity === identity) return known.promise;
      const entry: Entry<T> = {
        identity,
        promise: compute().then(
          (computed) => {
            entry.identity = computed.identity;
            return computed.value;
          },
          (error: unknown) => {
            if (held.peek(name) === entry) held.delete(name);
            throw error;
          },
        ),
      };
      held.set(name, entry, { size: Math.max(1, size) });
      return entry.promise;
    },
  };
}
