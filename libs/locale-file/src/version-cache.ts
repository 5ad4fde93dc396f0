/**
 * Parsed versions of a project's file kept in memory, least recently used first out, bounded by their total
 * number of keys. Versions never change once written, so an entry is never stale; a version is
 * only ever looked up by its number, which each instance reads from the database.
 */
export function createVersionCache<T extends { readonly keys: readonly unknown[] }>(maxKeys: number) {
  const entries = new Map<string, T>();
  let totalKeys = 0;

  const cacheKey = (projectId: string, version: number) => `${version}:${projectId}`;
  const weight = (source: T) => source.keys.length + 1;

  function remove(key: string): void {
    const source = entries.get(key);
    if (!source) return;
    entries.delete(key);
    totalKeys -= weight(source);
  }

  return {
    get(projectId: string, version: number): T | undefined {
      const key = cacheKey(projectId, version);
      const source = entries.get(key);
      if (source) {
        // Most recently used goes last.
        entries.delete(key);
        entries.set(key, source);
      }
      return source;
    },

    set(projectId: string, version: number, source: T): void {
      const key = cacheKey(projectId, version);
      remove(key);
      if (weight(source) > maxKeys) return;
      entries.set(key, source);
      totalKeys += weight(source);
      for (const oldest of entries.keys()) {
        if (totalKeys <= maxKeys) break;
        remove(oldest);
      }
    },

    evictProject(projectId: string): void {
      const suffix = `:${projectId}`;
      for (const key of [...entries.keys()]) {
        if (key.endsWith(suffix) && /^\d+$/.test(key.slice(0, -suffix.length))) remove(key);
      }
    },
  };
}

export type VersionCache<T extends { readonly keys: readonly unknown[] }> = ReturnType<
  typeof createVersionCache<T>
>;
