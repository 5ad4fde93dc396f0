import { LRUCache } from 'lru-cache';

/**
 * Parsed versions of a project's file kept in memory, least recently used first out, bounded by their total
 * number of keys. Versions never change once written, so an entry is never stale; a version is
 * only ever looked up by its number, which each instance reads from the database.
 */
export function createVersionCache<T extends { readonly keys: readonly unknown[] }>(maxKeys: number) {
  // A version weighs its keys, plus one so an empty file counts; one heavier than the whole
  // cache is not kept. lru-cache needs a positive bound: 0 keeps nothing.
  const entries =
    maxKeys > 0
      ? new LRUCache<string, T>({ maxSize: maxKeys, sizeCalculation: (source) => source.keys.length + 1 })
      : undefined;
  const cacheKey = (projectId: string, version: number) => `${version}:${projectId}`;

  return {
    get(projectId: string, version: number): T | undefined {
      return entries?.get(cacheKey(projectId, version));
    },

    set(projectId: string, version: number, source: T): void {
      entries?.set(cacheKey(projectId, version), source);
    },

    evictProject(projectId: string): void {
      if (!entries) return;
      const suffix = `:${projectId}`;
      for (const key of [...entries.keys()]) {
        if (key.endsWith(suffix) && /^\d+$/.test(key.slice(0, -suffix.length))) entries.delete(key);
      }
    },
  };
}

export type VersionCache<T extends { readonly keys: readonly unknown[] }> = ReturnType<
  typeof createVersionCache<T>
>;
