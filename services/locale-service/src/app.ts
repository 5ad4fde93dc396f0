import { createProjectDirectory, createWriterCheck } from '@tolk/projects';
import type { ServiceDeps, ServiceParts } from '@tolk/service';
import type { LocaleConfig } from './config.js';
import { createBaselinesRepository } from './data-access/baselines-repository.js';
import { createLocalesRepository } from './data-access/locales-repository.js';
import { createProjectsRepository } from './data-access/projects-repository.js';
import { createRetiredTranslationsRepository } from './data-access/retired-translations-repository.js';
import { createSourceClient } from './data-access/source-client.js';
import { createSourceHeadsRepository } from './data-access/source-heads-repository.js';
import { createBaselineKeeper } from './domain/baseline.js';
import { createCarryOver } from './domain/carry-over.js';
import { createLocaleSync } from './domain/locale-sync.js';
import { createLocales } from './domain/locales.js';
import { createSourceDocuments } from './domain/source-documents.js';
import { createMemoryRepository } from './data-access/memory-repository.js';
import { createMemory } from './domain/memory.js';
import { createMemoryLearning } from './domain/memory-learning.js';
import { createStoredCatchUp } from './domain/stored-catch-up.js';
import { localeConsumer } from './entry-points/messaging/locale-consumer.js';
import { createLocaleRouter } from './entry-points/http/router.js';

/**
 * Composition root: wires repositories, use cases and routes, and the consumer of project
 * events and source changes. `db` is bound to the locales schema and migrated; events go to the
 * outbox in `db` and the frame relays them.
 */
export function createLocaleService(deps: ServiceDeps<LocaleConfig>): ServiceParts {
  const { config, db, now, logger } = deps;
  const projects = createProjectsRepository(db);
  const heads = createSourceHeadsRepository(db);
  const locales = createLocalesRepository(db);
  const client = createSourceClient({
    ...deps,
    baseUrl: config.SOURCE_SERVICE_URL,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
  });
  const documents = createSourceDocuments({
    db,
    heads,
    client,
    cacheMaxKeys: config.LOCALE_SOURCE_CACHE_MAX_KEYS,
  });
  const retired = createRetiredTranslationsRepository(db);
  const baselines = createBaselinesRepository();
  const carry = createCarryOver({ locales, retired, client, logger });
  const directory = createProjectDirectory(deps, projects, config.UPSTREAM_TIMEOUT_MS);
  const memoryRepository = createMemoryRepository(db, { nearTimeoutMs: config.MEMORY_NEAR_TIMEOUT_MS });
  const learning = createMemoryLearning({ memory: memoryRepository, logger });
  const memory = createMemory({ memory: memoryRepository, locales, directory, learning, logger });
  const useCases = createLocales({
    db,
    locales,
    projects,
    directory,
    writerCheck: createWriterCheck(deps, { timeoutMs: config.WRITER_CHECK_TIMEOUT_MS }),
    documents,
    carry,
    retired,
    baseline: createBaselineKeeper({ db, baselines, locales, now }),
    memory,
    learning,
    storedCatchUp: createStoredCatchUp({
      db,
      locales,
      projects,
      documents,
      memory,
      learning,
      now,
      logger,
    }),
    limits: {
      maxKeys: config.LOCALE_MAX_KEYS,
      maxDepth: config.LOCALE_MAX_DEPTH,
      maxKeyLength: config.LOCALE_MAX_KEY_LENGTH,
      maxValueLength: config.LOCALE_MAX_VALUE_LENGTH,
      maxValueBraces: config.LOCALE_MAX_VALUE_BRACES,
    },
    browseCacheMaxKeys: config.LOCALE_BROWSE_CACHE_MAX_KEYS,
    now,
    logger,
  });
  void learning.resume();
  // What an upgrade left behind (counts of earlier rules, translations never judged or learned).
  let stopping = false;
  const caughtUp = useCases.refreshBehind(() => stopping);
  const sync = createLocaleSync({ projects, heads, locales, documents, carry, retired, baselines, now });
  return {
    router: createLocaleRouter({ locales: useCases, memory }),
    consumer: localeConsumer(sync, useCases.refresh, logger),
    bodyLimitBytes: config.LOCALE_MAX_BODY_BYTES,
    stop: async () => {
      stopping = true;
      await caughtUp;
      await learning.stop();
    },
  };
}
