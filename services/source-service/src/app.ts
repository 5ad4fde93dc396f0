import type { Express } from 'express';
import type { Bus } from '@tolk/bus';
import type { Db } from '@tolk/db';
import { createInternalCallerSigner, createServiceApp } from '@tolk/http';
import { createProjectDirectory } from '@tolk/projects';
import type { Logger } from '@tolk/logger';
import { readinessOf } from '@tolk/service';
import { createVersionCache, encodeDocument } from '@tolk/locale-file';
import type { SourceVersion } from './domain/key-revisions.js';
import type { SourceConfig } from './config.js';
import { createBaselinesRepository } from './data-access/baselines-repository.js';
import { createDeletedKeysRepository } from './data-access/deleted-keys-repository.js';
import { createProjectsRepository } from './data-access/projects-repository.js';
import { createVersionsRepository } from './data-access/versions-repository.js';
import { createProjectSync, type ProjectSync } from './domain/project-sync.js';
import { PRODUCER } from './domain/source-events.js';
import { createSources } from './domain/sources.js';
import { createSourceRouter } from './entry-points/http/router.js';

export type SourceAppConfig = Pick<
  SourceConfig,
  | 'INTERNAL_JWT_SECRET'
  | 'PROJECT_SERVICE_URL'
  | 'PROJECT_SERVICE_TIMEOUT_MS'
  | 'SOURCE_MAX_BODY_BYTES'
  | 'SOURCE_MAX_KEYS'
  | 'SOURCE_MAX_DEPTH'
  | 'SOURCE_MAX_KEY_LENGTH'
  | 'SOURCE_CACHE_MAX_KEYS'
>;

/**
 * Composition root: wires repositories, use cases and routes into the service's express app,
 * and the effects of consumed events (`sync`, for its consumer). `db` must be
 * bound to the source schema and migrated. Events go to the outbox in `db`; the frame relays
 * them. Never listens.
 */
export function createSourceService(deps: {
  config: SourceAppConfig;
  db: Db;
  bus: Pick<Bus, 'isConnected'>;
  logger: Logger;
  now?: () => number;
}): { app: Express; sync: ProjectSync } {
  const { config, db, bus, logger } = deps;
  const now = deps.now ?? Date.now;

  const projects = createProjectsRepository(db);
  const versions = createVersionsRepository(db);
  const baselines = createBaselinesRepository(db);
  const directory = createProjectDirectory({
    store: projects,
    baseUrl: config.PROJECT_SERVICE_URL,
    timeoutMs: config.PROJECT_SERVICE_TIMEOUT_MS,
    signInternalCaller: createInternalCallerSigner(config.INTERNAL_JWT_SECRET, PRODUCER),
    logger,
  });
  const cache = createVersionCache<SourceVersion>(config.SOURCE_CACHE_MAX_KEYS);
  const sources = createSources({
    db,
    projects,
    versions,
    baselines,
    deletedKeys: createDeletedKeysRepository(db),
    directory,
    cache,
    limits: {
      maxKeys: config.SOURCE_MAX_KEYS,
      maxDepth: config.SOURCE_MAX_DEPTH,
      maxKeyLength: config.SOURCE_MAX_KEY_LENGTH,
    },
    now,
    logger,
  });

  const compressing = new WeakMap<object, Promise<Buffer>>();
  const app = createServiceApp({
    logger,
    router: createSourceRouter({ sources, compressedBody: (req) => compressing.get(req) }),
    internalSecret: config.INTERNAL_JWT_SECRET,
    bodyLimitBytes: config.SOURCE_MAX_BODY_BYTES,
    // An upload's document is compressed for storage while the event loop parses it.
    onJsonBody: (req, raw) => {
      if (req.method !== 'PUT') return;
      const compressed = encodeDocument(raw);
      // Not awaited when the upload is refused or unchanged.
      compressed.catch(() => undefined);
      compressing.set(req, compressed);
    },
    readiness: readinessOf({ db, bus }),
  });
  return { app, sync: createProjectSync({ projects, baselines, cache, now }) };
}
