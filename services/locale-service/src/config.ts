import { z } from 'zod';
import { configLoader, env, serviceEnv } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';

const MIB = 1024 * 1024;

export const configSchema = z.object({
  ...serviceEnv(SERVICE_PORTS.locale),
  // The source locale of a project not yet known from its events is asked of project-service.
  PROJECT_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.project}`),
  // Source versions (keys, values, revisions, layout) are read from source-service.
  SOURCE_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.source}`),
  // Last before an upload's transaction commits, its sender is asked of the owners of the truth:
  // the account of identity-service, the membership of project-service, a project API token of
  // token-service. The project's locks are held meanwhile: a slower answer is 504 soon, and
  // nothing is stored.
  IDENTITY_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.identity}`),
  TOKEN_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.token}`),
  WRITER_CHECK_TIMEOUT_MS: env.count(2_000),
  // A 200,000-key source is several megabytes: allowed more time than a small lookup.
  UPSTREAM_TIMEOUT_MS: env.count(10_000),
  // Limits of an uploaded translation: those of a source (DESIGN §4, §5).
  LOCALE_MAX_BODY_BYTES: env.count(10 * MIB),
  LOCALE_MAX_KEYS: env.count(200_000),
  LOCALE_MAX_DEPTH: env.count(32),
  LOCALE_MAX_KEY_LENGTH: env.count(1000),
  // How long a translation-memory near-match search may take before it is given up (the answer
  // says so): near matches are hints for a prompt, not worth a long wait.
  MEMORY_NEAR_TIMEOUT_MS: env.count(500),
  // Per value: what bounds the time its checks take (parse-locale-file.ts), ~10 ms at these.
  LOCALE_MAX_VALUE_LENGTH: env.count(100_000),
  LOCALE_MAX_VALUE_BRACES: env.count(1000),
  // Source versions kept in memory, counted in keys.
  LOCALE_SOURCE_CACHE_MAX_KEYS: z.coerce.number().int().nonnegative().default(1_000_000),
  // What the translation browser computed of locales (values, states, provenance) and kept for
  // the next page, counted in keys: about 20 locales of 20,000 keys.
  LOCALE_BROWSE_CACHE_MAX_KEYS: z.coerce.number().int().positive().default(400_000),
});

export type LocaleConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export const loadLocaleConfig = configLoader(configSchema);

export { loadMigrationConfig } from '@tolk/config';
