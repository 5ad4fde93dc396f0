import type { Logger } from '@tolk/logger';
import type { MemoryRepository } from '../data-access/memory-repository.js';

/**
 * When the translation memory learns what uploads teach it (DESIGN §13). An upload keeps its
 * lessons in its own transaction (`MemoryRepository.defer`); they are learned once no upload of
 * the project is under way in this process — an import's locales follow one another, and
 * learning between them would only make each wait — and before any lookup of the locale, which so
 * reads everything uploaded before it. Lessons kept by a service that stopped are learned when it
 * starts again.
 */
export function createMemoryLearning(deps: {
  memory: Pick<MemoryRepository, 'learnNext' | 'learnPending' | 'pendingProjects'>;
  logger: Logger;
}) {
  const { memory, logger } = deps;
  /** Uploads under way in this process, by project. */
  const uploading = new Map<string, number>();
  /** The project's learning under way, by project. */
  const learning = new Map<string, Promise<void>>();
  let stopped = false;

  async function learnAll(projectId: string): Promise<void> {
    try {
      while (!stopped && !uploading.has(projectId) && (await memory.learnNext(projectId))) {
        // One upload's lessons a statement: an upload that starts meanwhile waits for one at most.
      }
    } catch (error) {
      // Kept: the next upload of the project, a lookup or the next start learns them.
      logger.error({ err: error, projectId }, 'translation memory: learning an upload failed');
    }
  }

  function learn(projectId: string): void {
    if (stopped || learning.has(projectId)) return;
    const run = learnAll(projectId).finally(() => learning.delete(projectId));
    learning.set(projectId, run);
  }

  return {
    /**
     * Runs an upload of the project; when the last one under way ends, the memory learns what
     * they kept.
     */
    async during<T>(projectId: string, upload: () => Promise<T>): Promise<T> {
      uploading.set(projectId, (uploading.get(projectId) ?? 0) + 1);
      try {
        return await upload();
      } finally {
        const left = uploading.get(projectId)! - 1;
        if (left > 0) uploading.set(projectId, left);
        else {
          uploading.delete(projectId);
          learn(projectId);
        }
      }
    },

    /** Before a lookup: every upload of `locale` in `projectIds` learned. */
    catchUp(projectIds: readonly string[], locale: string): Promise<void> {
      return memory.learnPending(projectIds, locale);
    },

    /** Learns what a stopped service kept. */
    async resume(): Promise<void> {
      try {
        for (const projectId of await memory.pendingProjects()) learn(projectId);
      } catch (error) {
        logger.error({ err: error }, 'translation memory: the uploads left to learn could not be listed');
      }
    },

    /** Stops learning; what is kept stays kept. Waits for the statements under way. */
    async stop(): Promise<void> {
      stopped = true;
      await Promise.all(learning.values());
    },
  };
}

export type MemoryLearning = ReturnType<typeof createMemoryLearning>;
