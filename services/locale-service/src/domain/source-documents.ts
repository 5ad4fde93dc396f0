import type { Db, Queryable } from '@tolk/db';
import { NotFoundError } from '@tolk/errors';
import { projectNotFound } from '@tolk/projects';
import { createVersionCache } from '@tolk/locale-file';
import type { SourceClient, SourceVersion } from '../data-access/source-client.js';
import type { SourceHead, SourceHeadsRepository } from '../data-access/source-heads-repository.js';

/**
 * The sources locale-service works against, read from source-service and kept in memory
 * (versions never change once written), and each project's source head: from SourceChanged
 * events, or — for a project never heard of from source-service — asked of it once.
 */
export function createSourceDocuments(deps: {
  db: Db;
  heads: SourceHeadsRepository;
  client: SourceClient;
  cacheMaxKeys: number;
}) {
  const { db, heads, client } = deps;
  const cache = createVersionCache<SourceVersion>(deps.cacheMaxKeys);

  function remember(projectId: string, source: SourceVersion): void {
    cache.set(projectId, source.version, source);
  }

  return {
    /** The latest source version known of the project; asked of source-service on first sight. */
    async head(projectId: string, q: Queryable = db): Promise<SourceHead> {
      const known = await heads.find(projectId, q);
      if (known) return known;
      const current = await client.fetchVersion(projectId, 'current');
      // source-service answers 404 only for a deleted project.
      if (!current) throw projectNotFound();
      remember(projectId, current);
      await heads.advance(projectId, { version: current.version, keyCount: current.keys.length });
      return (await heads.find(projectId)) ?? { version: current.version, keyCount: current.keys.length };
    },

    /** Version `version` of the project's source; NotFoundError when there is no such version. */
    async version(projectId: string, version: number): Promise<SourceVersion> {
      const cached = cache.get(projectId, version);
      if (cached) return cached;
      const source = await client.fetchVersion(projectId, version);
      if (!source || source.version !== version) {
        throw new NotFoundError(`Source version ${version} does not exist`);
      }
      remember(projectId, source);
      return source;
    },

    /**
     * Whether version `version` exists, asked of source-service when it is newer than the head
     * known here (a SourceChanged not consumed yet); the head catches up to it.
     */
    async catchUp(projectId: string, version: number): Promise<SourceVersion | undefined> {
      const source = cache.get(projectId, version) ?? (await client.fetchVersion(projectId, version));
      if (!source || source.version !== version) return undefined;
      remember(projectId, source);
      await heads.advance(projectId, { version, keyCount: source.keys.length });
      return source;
    },

    evictProject(projectId: string): void {
      cache.evictProject(projectId);
    },
  };
}

export type SourceDocuments = ReturnType<typeof createSourceDocuments>;
