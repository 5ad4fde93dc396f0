import { redactProjectTokens } from '@tolk/contracts';
import { createProjectDirectory, createWriterCheck } from '@tolk/projects';
import type { ServiceDeps, ServiceParts } from '@tolk/service';
import type { TokenConfig } from './config.js';
import { createProjectsRepository } from './data-access/projects-repository.js';
import { createTokensRepository } from './data-access/tokens-repository.js';
import { createTokenSync } from './domain/token-sync.js';
import { createTokens } from './domain/tokens.js';
import { tokenConsumer } from './entry-points/messaging/token-consumer.js';
import { createTokenRouter } from './entry-points/http/router.js';

/**
 * Composition root: wires repositories, use cases and routes, and the consumer of the events
 * that keep its copy of projects and members. `db` is bound to the tokens schema and migrated;
 * events go to the outbox in `db` and the frame relays them.
 */
export function createTokenService(deps: ServiceDeps<TokenConfig>): ServiceParts {
  const { config, db, now } = deps;
  const projects = createProjectsRepository(db);
  const tokens = createTokensRepository(db);
  const directory = createProjectDirectory(deps, projects, config.PROJECT_SERVICE_TIMEOUT_MS);
  const useCases = createTokens({
    db,
    tokens,
    projects,
    directory,
    writerCheck: createWriterCheck(deps, { timeoutMs: config.WRITER_CHECK_TIMEOUT_MS }),
    maxPerProject: config.TOKEN_MAX_PER_PROJECT,
    now,
  });
  return {
    router: createTokenRouter({ tokens: useCases }),
    consumer: tokenConsumer(createTokenSync({ schema: db.schema, projects, tokens, now })),
    // A creation answer carries a token, so no cache may keep any answer, the frame's own
    // included; and no token pasted into a URL reaches routing or a log line.
    onRequest: (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      req.url = req.originalUrl = redactProjectTokens(req.url);
    },
  };
}
