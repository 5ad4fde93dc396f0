import type { SourceVersion } from './key-revisions.js';

/**
 * Parsed source versions kept in memory, least recently used first out, bounded by their total
 * number of keys. Versions never change once written, so an entry is never stale; a version is
 * only ever looked up by its number, which each instance reads from the database.
 */
export function createSourceCache(maxKeys: number) {
  const entries = new Map<string, SourceVersion>();
  let totalKeys = 0;

  const cacheKey = (projectId: string, version: number) => `${version}:${projectId}`;
  const weight = (source: SourceVersion) => source.keys.length + 1;

  function remove(key: string): void {
    const source = entries.get(key);
    if (!source) return;
    entries.delete(key);
    totalKeys -= weight(source);
  }

  return {
    get(projectId: string, version: number): SourceVersion | undefined {
      const key = cacheKey(projectId, version);
      const source = entries.get(key);
      if (source) {
        // Most recently used goes last.
        entries.delete(key);
        entries.set(key, source);
      }
      return source;
    },

    set(projectId: string, version: number, source: SourceVersion): void {
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

export type SourceCache = ReturnType<typeof createSourceCache>;
