import type { Express } from 'express';
import type { Bus } from '@tolk/bus';
import type { Db } from '@tolk/db';
import { createInternalCallerSigner, createServiceApp } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import { readinessOf } from '@tolk/service';
import type { ProjectConfig } from './config.js';
import { createGlossaryRepository } from './data-access/glossary-repository.js';
import { createIdentityClient } from './data-access/identity-client.js';
import { createMembersRepository } from './data-access/members-repository.js';
import { createProjectsRepository } from './data-access/projects-repository.js';
import { createAccountRemoval, type AccountRemoval } from './domain/account-removal.js';
import { createGlossary } from './domain/glossary.js';
import { createMembers } from './domain/members.js';
import { createProjectAccess } from './domain/project-access.js';
import { PRODUCER } from './domain/project-events.js';
import { createProjects } from './domain/projects.js';
import { createProjectRouter } from './entry-points/http/router.js';

export type ProjectAppConfig = Pick<
  ProjectConfig,
  'INTERNAL_JWT_SECRET' | 'IDENTITY_SERVICE_URL' | 'IDENTITY_SERVICE_TIMEOUT_MS'
>;

/**
 * Composition root: wires repositories, use cases and routes into the service's express app.
 * `db` must be bound to the projects schema and migrated. Events go to the outbox in `db`; the
 * frame relays them over `bus`; the app only reports whether the bus
 * is connected. Never listens.
 */
export function createProjectApp(deps: {
  config: ProjectAppConfig;
  db: Db;
  bus: Pick<Bus, 'isConnected'>;
  logger: Logger;
  now?: () => number;
}): Express {
  const { config, db, bus, logger } = deps;
  const now = deps.now ?? Date.now;

  const projectsRepository = createProjectsRepository(db);
  const membersRepository = createMembersRepository(db);
  const identity = createIdentityClient({
    baseUrl: config.IDENTITY_SERVICE_URL,
    timeoutMs: config.IDENTITY_SERVICE_TIMEOUT_MS,
    signInternalCaller: createInternalCallerSigner(config.INTERNAL_JWT_SECRET, PRODUCER),
    logger,
  });
  const access = createProjectAccess({ projects: projectsRepository, members: membersRepository });
  const projects = createProjects({
    db,
    projects: projectsRepository,
    members: membersRepository,
    access,
    now,
    logger,
  });
  const members = createMembers({ db, members: membersRepository, access, identity, now, logger });
  const accountRemoval = createProjectAccountRemoval({ db, logger, now });
  const glossary = createGlossary({
    db,
    glossary: createGlossaryRepository(db),
    projects: projectsRepository,
    access,
    now,
    logger,
  });

  return createServiceApp({
    logger,
    router: createProjectRouter({ projects, members, accountRemoval, glossary }),
    // A glossary import of 10,000 entries with renderings in a dozen locales is a few MiB.
    bodyLimitBytes: 8 * 1024 * 1024,
    internalSecret: config.INTERNAL_JWT_SECRET,
    readiness: readinessOf({ db, bus }),
  });
}

/**
 * What deleting an account does to projects: the sole-owned projects identity-service names
 * first, and the effect of UserDeleted, for its consumer. `db` as for the app.
 */
export function createProjectAccountRemoval(deps: {
  db: Db;
  logger: Logger;
  now?: () => number;
}): AccountRemoval {
  return createAccountRemoval({
    schema: deps.db.schema,
    projects: createProjectsRepository(deps.db),
    members: createMembersRepository(deps.db),
    now: deps.now ?? Date.now,
    logger: deps.logger,
  });
}
