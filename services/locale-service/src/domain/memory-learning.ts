import type { Logger } from '@tolk/logger';
import type { MemoryRepository } from '../data-access/memory-repository.js';

/**
 * When the translation memory learns what uploads teach it (DESIGN §13). An upload keeps its
 * lessons in its own transaction (`MemoryRepository.defer`); they are learned once no upload of
 * the project has been under way in this process for `idleMs` — an import's locales follow one
 * another, with a moment between two while the client reads the next files, and learning between
 * them would only make each wait — and before any lookup of the locale, which so reads everything
 * uploaded before it. Lessons kept by a service that stopped are learned when it starts again.
 */
/**
 * Long enough for a client importing locale after locale to read the next one's files and send
 * it (`tolk push` reads a 50,000-key locale in about a quarter of a second): an import is learned
 * once, after it, rather than between its uploads.
 */
const IDLE_MS = 1_000;

export function createMemoryLearning(deps: {
  memory: Pick<MemoryRepository, 'learnNext' | 'learnPending' | 'pendingProjects'>;
  logger: Logger;
  /** How long a project's uploads must have been over before its lessons are learned. */
  idleMs?: number;
}) {
  const { memory, logger, idleMs = IDLE_MS } = deps;
  /** Uploads under way in this process, by project. */
  const uploading = new Map<string, number>();
  /** The project's learning under way, by project. */
  const learning = new Map<string, Promise<void>>();
  /** Learning to start once the project's uploads have been over for `idleMs`, by project. */
  const waiting = new Map<string, NodeJS.Timeout>();
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

  function learnWhenIdle(projectId: string): void {
    if (stopped) return;
    clearTimeout(waiting.get(projectId));
    const timer = setTimeout(() => {
      waiting.delete(projectId);
      if (!uploading.has(projectId)) learn(projectId);
    }, idleMs);
    // A service that stops learns at its next start what it kept.
    timer.unref();
    waiting.set(projectId, timer);
  }

  function learn(projectId: string): void {
    if (stopped || learning.has(projectId)) return;
    const run = learnAll(projectId).finally(() => learning.delete(projectId));
    learning.set(projectId, run);
  }

  return {
    /**
     * Runs an upload of the project; when the last one under way has ended and no other started
     * for `idleMs`, the memory learns what they kept.
     */
    async during<T>(projectId: string, upload: () => Promise<T>): Promise<T> {
      uploading.set(projectId, (uploading.get(projectId) ?? 0) + 1);
      clearTimeout(waiting.get(projectId));
      waiting.delete(projectId);
      try {
        return await upload();
      } finally {
        const left = uploading.get(projectId)! - 1;
        if (left > 0) uploading.set(projectId, left);
        else {
          uploading.delete(projectId);
          learnWhenIdle(projectId);
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
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
      await Promise.all(learning.values());
    },
  };
}

export type MemoryLearning = ReturnType<typeof createMemoryLearning>;
