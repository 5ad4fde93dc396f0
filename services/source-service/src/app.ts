import { createVersionCache, encodeDocument } from '@tolk/locale-file';
import { createProjectDirectory, createWriterCheck } from '@tolk/projects';
import type { ServiceDeps, ServiceParts } from '@tolk/service';
import type { SourceVersion } from './domain/key-revisions.js';
import type { SourceConfig } from './config.js';
import { createBaselinesRepository } from './data-access/baselines-repository.js';
import { createDeletedKeysRepository } from './data-access/deleted-keys-repository.js';
import { createProjectsRepository } from './data-access/projects-repository.js';
import { createVersionsRepository } from './data-access/versions-repository.js';
import { createProjectSync } from './domain/project-sync.js';
import { createSources } from './domain/sources.js';
import { sourceConsumer } from './entry-points/messaging/source-consumer.js';
import { createSourceRouter } from './entry-points/http/router.js';

/**
 * Composition root: wires repositories, use cases and routes, and the consumer of project events
 * and baselines. `db` is bound to the source schema and migrated; events go to the outbox in
 * `db` and the frame relays them.
 */
export function createSourceService(deps: ServiceDeps<SourceConfig>): ServiceParts {
  const { config, db, now, logger } = deps;
  const projects = createProjectsRepository(db);
  const baselines = createBaselinesRepository(db);
  const cache = createVersionCache<SourceVersion>(config.SOURCE_CACHE_MAX_KEYS);
  const sources = createSources({
    db,
    projects,
    versions: createVersionsRepository(db),
    baselines,
    deletedKeys: createDeletedKeysRepository(db),
    directory: createProjectDirectory(deps, projects, config.PROJECT_SERVICE_TIMEOUT_MS),
    writerCheck: createWriterCheck(deps, { timeoutMs: config.WRITER_CHECK_TIMEOUT_MS }),
    cache,
    limits: {
      maxKeys: config.SOURCE_MAX_KEYS,
      maxDepth: config.SOURCE_MAX_DEPTH,
      maxKeyLength: config.SOURCE_MAX_KEY_LENGTH,
      maxValueLength: config.SOURCE_MAX_VALUE_LENGTH,
      maxValueBraces: config.SOURCE_MAX_VALUE_BRACES,
    },
    keyRulesBudget: config.KEY_RULES_BUDGET,
    now,
    logger,
  });

  const compressing = new WeakMap<object, Promise<Buffer>>();
  return {
    router: createSourceRouter({ sources, compressedBody: (req) => compressing.get(req) }),
    consumer: sourceConsumer(createProjectSync({ projects, baselines, cache, now })),
    bodyLimitBytes: config.SOURCE_MAX_BODY_BYTES,
    // An upload's document is compressed for storage while the event loop parses it.
    onJsonBody: (req, raw) => {
      if (req.method !== 'PUT') return;
      const compressed = encodeDocument(raw);
      // Not awaited when the upload is refused or unchanged.
      compressed.catch(() => undefined);
      compressing.set(req, compressed);
    },
  };
}
