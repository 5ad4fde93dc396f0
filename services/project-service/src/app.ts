import { createWriterCheck } from '@tolk/projects';
import type { Request } from 'express';
import type { ServiceDeps, ServiceParts } from '@tolk/service';
import type { ProjectConfig } from './config.js';
import { createGlossaryRepository } from './data-access/glossary-repository.js';
import { createIdentityClient } from './data-access/identity-client.js';
import { createMembersRepository } from './data-access/members-repository.js';
import { createProjectsRepository } from './data-access/projects-repository.js';
import { createSourceClient } from './data-access/source-client.js';
import { createAccountRemoval } from './domain/account-removal.js';
import { createGlossary } from './domain/glossary.js';
import { createMembers } from './domain/members.js';
import { createProjectAccess } from './domain/project-access.js';
import { createProjects } from './domain/projects.js';
import { projectConsumer } from './entry-points/messaging/project-consumer.js';
import { createProjectRouter } from './entry-points/http/router.js';

/**
 * A glossary import carries the whole glossary: at its bound (MAX_GLOSSARY_BYTES of text, 4 MiB)
 * its JSON is about 1.3 times that on real glossaries, plus some 80 bytes an entry. Every other
 * body is one entry (at most about 610 kB with every field at its cap), a project's settings or a
 * member: the frame's 1 MiB.
 */
const GLOSSARY_IMPORT_BODY_BYTES = 8 * 1024 * 1024;
const BODY_BYTES = 1024 * 1024;
const GLOSSARY_IMPORT = /^\/v1\/projects\/[^/]+\/glossary\/?$/i;

const isGlossaryImport = (req: Request) => req.method === 'PUT' && GLOSSARY_IMPORT.test(req.path);

function bodyLimitOf(req: Request): number {
  return isGlossaryImport(req) ? GLOSSARY_IMPORT_BODY_BYTES : BODY_BYTES;
}

/**
 * Composition root: wires repositories, use cases and routes, and the consumer of UserDeleted.
 * `db` is bound to the projects schema and migrated; events go to the outbox in `db` and the
 * frame relays them.
 */
export function createProjectService(deps: ServiceDeps<ProjectConfig>): ServiceParts {
  const { config, db, now, logger } = deps;
  const projectsRepository = createProjectsRepository(db);
  const membersRepository = createMembersRepository(db);
  const access = createProjectAccess({ projects: projectsRepository, members: membersRepository });
  const identity = createIdentityClient({
    ...deps,
    baseUrl: config.IDENTITY_SERVICE_URL,
    timeoutMs: config.IDENTITY_SERVICE_TIMEOUT_MS,
  });
  const source = createSourceClient({
    ...deps,
    baseUrl: config.SOURCE_SERVICE_URL,
    timeoutMs: config.SOURCE_SERVICE_TIMEOUT_MS,
  });
  const projects = createProjects({
    db,
    projects: projectsRepository,
    members: membersRepository,
    access,
    source,
    keyRulesBudget: config.KEY_RULES_BUDGET,
    now,
    logger,
  });
  const members = createMembers({ db, members: membersRepository, access, identity, now, logger });
  // What deleting an account does to projects: the sole-owned ones identity-service names
  // first, and the effect of UserDeleted.
  const accountRemoval = createAccountRemoval({
    schema: db.schema,
    projects: projectsRepository,
    members: membersRepository,
    now,
    logger,
  });
  const glossary = createGlossary({
    db,
    glossary: createGlossaryRepository(db),
    projects: projectsRepository,
    access,
    // Members are this service's own, read in the same transaction; accounts and tokens are not.
    writerCheck: createWriterCheck(deps, { timeoutMs: config.WRITER_CHECK_TIMEOUT_MS, members: 'kept here' }),
    now,
    logger,
  });
  return {
    router: createProjectRouter({
      projects,
      members,
      accountRemoval,
      glossary,
      glossaryImports: {
        atOnce: config.GLOSSARY_IMPORTS_AT_ONCE,
        timeoutMs: config.GLOSSARY_IMPORT_TIMEOUT_MS,
      },
    }),
    consumer: projectConsumer(accountRemoval),
    bodyLimitBytes: bodyLimitOf,
    // Parsed by the route in turn with the caller's other imports (glossary-import.ts).
    parseLater: isGlossaryImport,
  };
}
