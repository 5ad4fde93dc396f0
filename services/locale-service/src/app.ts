import type { Express } from 'express';
import type { Bus } from '@tolk/bus';
import type { Db } from '@tolk/db';
import { createInternalCallerSigner, createServiceApp } from '@tolk/http';
import { createProjectDirectory } from '@tolk/projects';
import type { Logger } from '@tolk/logger';
import { readinessOf } from '@tolk/service';
import type { LocaleConfig } from './config.js';
import { createBaselinesRepository } from './data-access/baselines-repository.js';
import { createLocalesRepository } from './data-access/locales-repository.js';
import { createProjectsRepository } from './data-access/projects-repository.js';
import { createRetiredTranslationsRepository } from './data-access/retired-translations-repository.js';
import { createSourceClient } from './data-access/source-client.js';
import { createSourceHeadsRepository } from './data-access/source-heads-repository.js';
import { PRODUCER, createBaselineKeeper } from './domain/baseline.js';
import { createCarryOver } from './domain/carry-over.js';
import { createLocaleSync, type LocaleSync } from './domain/locale-sync.js';
import { createLocales } from './domain/locales.js';
import { createSourceDocuments } from './domain/source-documents.js';
import { createLocaleRouter } from './entry-points/http/router.js';

export type LocaleAppConfig = Pick<
  LocaleConfig,
  | 'INTERNAL_JWT_SECRET'
  | 'PROJECT_SERVICE_URL'
  | 'SOURCE_SERVICE_URL'
  | 'UPSTREAM_TIMEOUT_MS'
  | 'LOCALE_MAX_BODY_BYTES'
  | 'LOCALE_MAX_KEYS'
  | 'LOCALE_MAX_DEPTH'
  | 'LOCALE_MAX_KEY_LENGTH'
  | 'LOCALE_SOURCE_CACHE_MAX_KEYS'
>;

/**
 * Composition root: wires repositories, use cases and routes into the service's express app,
 * and the effects of consumed events (`sync` and `refresh`, for its consumer).
 * `db` must be bound to the locales schema and migrated. Events go to the outbox in `db`; the
 * frame relays them. Never listens.
 */
export function createLocaleService(deps: {
  config: LocaleAppConfig;
  db: Db;
  bus: Pick<Bus, 'isConnected'>;
  logger: Logger;
  now?: () => number;
}): { app: Express; sync: LocaleSync; refresh: (projectId: string) => Promise<unknown> } {
  const { config, db, bus, logger } = deps;
  const now = deps.now ?? Date.now;
  const signInternalCaller = createInternalCallerSigner(config.INTERNAL_JWT_SECRET, PRODUCER);

  const projects = createProjectsRepository(db);
  const heads = createSourceHeadsRepository(db);
  const locales = createLocalesRepository(db);
  const client = createSourceClient({
    baseUrl: config.SOURCE_SERVICE_URL,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    signInternalCaller,
    logger,
  });
  const documents = createSourceDocuments({
    db,
    heads,
    client,
    cacheMaxKeys: config.LOCALE_SOURCE_CACHE_MAX_KEYS,
  });
  const retired = createRetiredTranslationsRepository(db);
  const carry = createCarryOver({ locales, retired, client, logger });
  const directory = createProjectDirectory({
    store: projects,
    baseUrl: config.PROJECT_SERVICE_URL,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    signInternalCaller,
    logger,
  });
  const useCases = createLocales({
    db,
    locales,
    projects,
    directory,
    documents,
    carry,
    retired,
    baseline: createBaselineKeeper({ db, baselines: createBaselinesRepository(), locales, now }),
    limits: {
      maxKeys: config.LOCALE_MAX_KEYS,
      maxDepth: config.LOCALE_MAX_DEPTH,
      maxKeyLength: config.LOCALE_MAX_KEY_LENGTH,
    },
    now,
    logger,
  });

  const app = createServiceApp({
    logger,
    router: createLocaleRouter({ locales: useCases }),
    internalSecret: config.INTERNAL_JWT_SECRET,
    bodyLimitBytes: config.LOCALE_MAX_BODY_BYTES,
    readiness: readinessOf({ db, bus }),
  });
  return {
    app,
    sync: createLocaleSync({ projects, heads, locales, documents, carry, retired, now }),
    refresh: useCases.refresh,
  };
}
