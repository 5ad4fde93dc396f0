import { z } from 'zod';
import { configLoader, env, serviceEnv } from '@tolk/config';
import { DEFAULT_KEY_RULES_BUDGET, SERVICE_PORTS } from '@tolk/contracts';

const MIB = 1024 * 1024;

export const configSchema = z.object({
  ...serviceEnv(SERVICE_PORTS.source),
  // The source locale of a project not yet known from its events is asked of project-service.
  PROJECT_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.project}`),
  PROJECT_SERVICE_TIMEOUT_MS: env.count(5_000),
  // Last before an upload's transaction commits, its sender is asked of the owners of the truth:
  // the account of identity-service, the membership of project-service, a project API token of
  // token-service. The project's locks are held meanwhile: a slower answer is 504 soon, and
  // nothing is stored.
  IDENTITY_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.identity}`),
  TOKEN_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.token}`),
  WRITER_CHECK_TIMEOUT_MS: env.count(2_000),
  // Limits of an uploaded source (DESIGN §4).
  SOURCE_MAX_BODY_BYTES: env.count(10 * MIB),
  SOURCE_MAX_KEYS: env.count(200_000),
  SOURCE_MAX_DEPTH: env.count(32),
  SOURCE_MAX_KEY_LENGTH: env.count(1000),
  // Per value: what bounds the time its checks take (parse-locale-file.ts), ~10 ms at these.
  SOURCE_MAX_VALUE_LENGTH: env.count(100_000),
  SOURCE_MAX_VALUE_BRACES: env.count(1000),
  // The key rules' work over an upload's keys: their cost per character × its key characters.
  KEY_RULES_BUDGET: env.count(DEFAULT_KEY_RULES_BUDGET),
  // Parsed versions kept in memory, counted in keys, so the common upload compares against the
  // previous version without reading or decompressing it.
  SOURCE_CACHE_MAX_KEYS: z.coerce.number().int().nonnegative().default(1_000_000),
});

export type SourceConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export const loadSourceConfig = configLoader(configSchema);

export { loadMigrationConfig } from '@tolk/config';
