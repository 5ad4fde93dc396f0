import { redactProjectTokens } from '@tolk/contracts';
import type { Bus } from '@tolk/bus';
import type { Express } from 'express';
import type { Db } from '@tolk/db';
import { createInternalCallerSigner, createServiceApp } from '@tolk/http';
import { createProjectDirectory } from '@tolk/projects';
import type { Logger } from '@tolk/logger';
import { readinessOf } from '@tolk/service';
import type { TokenConfig } from './config.js';
import { createProjectsRepository } from './data-access/projects-repository.js';
import { createTokensRepository } from './data-access/tokens-repository.js';
import { PRODUCER } from './domain/token-events.js';
import { createTokenSync, type TokenSync } from './domain/token-sync.js';
import { createTokens } from './domain/tokens.js';
import { createTokenRouter } from './entry-points/http/router.js';

export type TokenAppConfig = Pick<
  TokenConfig,
  'INTERNAL_JWT_SECRET' | 'PROJECT_SERVICE_URL' | 'PROJECT_SERVICE_TIMEOUT_MS' | 'TOKEN_MAX_PER_PROJECT'
>;

/**
 * Composition root: wires repositories, use cases and routes into the service's app, and the
 * effects of consumed events (`sync`, for its consumer). `db` must be bound to the
 * tokens schema and migrated. Events go to the outbox in `db`; the frame relays them.
 * Never listens.
 */
export function createTokenService(deps: {
  config: TokenAppConfig;
  db: Db;
  bus: Pick<Bus, 'isConnected'>;
  logger: Logger;
  now?: () => number;
}): { app: Express; sync: TokenSync } {
  const { config, db, bus, logger } = deps;
  const now = deps.now ?? Date.now;

  const projects = createProjectsRepository(db);
  const tokens = createTokensRepository(db);
  const directory = createProjectDirectory({
    store: projects,
    baseUrl: config.PROJECT_SERVICE_URL,
    timeoutMs: config.PROJECT_SERVICE_TIMEOUT_MS,
    signInternalCaller: createInternalCallerSigner(config.INTERNAL_JWT_SECRET, PRODUCER),
    logger,
  });
  const useCases = createTokens({
    db,
    tokens,
    projects,
    directory,
    maxPerProject: config.TOKEN_MAX_PER_PROJECT,
    now,
  });

  const app = createServiceApp({
    logger,
    router: createTokenRouter({ tokens: useCases }),
    internalSecret: config.INTERNAL_JWT_SECRET,
    readiness: readinessOf({ db, bus }),
    // A creation answer carries a token, so no cache may keep any answer, the frame's own
    // included; and no token pasted into a URL reaches routing or a log line.
    onRequest: (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      req.url = req.originalUrl = redactProjectTokens(req.url);
    },
  });

  return {
    app,
    sync: createTokenSync({ schema: db.schema, projects, tokens, now }),
  };
}
