import { z } from 'zod';
import { configLoader, env, serviceEnv } from '@tolk/config';
import { DEFAULT_KEY_RULES_BUDGET, SERVICE_PORTS } from '@tolk/contracts';

export const configSchema = z.object({
  ...serviceEnv(SERVICE_PORTS.project),
  // Members are added by email and listed with their emails; identity-service owns both.
  IDENTITY_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.identity}`),
  IDENTITY_SERVICE_TIMEOUT_MS: env.count(5_000),
  // Last before a glossary write's transaction commits, its sender is asked of the owners of the
  // truth: a project API token of token-service, a user's account of identity-service. The
  // project's row is locked meanwhile: slower is 504.
  TOKEN_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.token}`),
  WRITER_CHECK_TIMEOUT_MS: env.count(2_000),
  // Key rules are budgeted against the keys of the current source, which source-service holds.
  SOURCE_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.source}`),
  SOURCE_SERVICE_TIMEOUT_MS: env.count(5_000),
  // The key rules' work over the source's keys: their cost per character × its key characters.
  KEY_RULES_BUDGET: env.count(DEFAULT_KEY_RULES_BUDGET),
  // Glossary imports running at once in this process, of all callers (each holds a database
  // connection of the pool's 10 and a share of the event loop); the others wait their turn.
  GLOSSARY_IMPORTS_AT_ONCE: env.count(2),
  // An import not ready to commit this long after it arrived is refused (503, nothing stored).
  // Keep it below the gateway's UPSTREAM_TIMEOUT_MS (30 s), past which the gateway answers 504
  // itself: an import must never be stored after its sender was told it failed.
  GLOSSARY_IMPORT_TIMEOUT_MS: env.count(20_000),
});

export type ProjectConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export const loadProjectConfig = configLoader(configSchema);

export { loadMigrationConfig } from '@tolk/config';
