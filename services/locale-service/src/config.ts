import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';

const MIB = 1024 * 1024;

function positive(fallback: number) {
  return z.coerce.number().int().positive().default(fallback);
}

export const configSchema = z.object({
  PORT: env.port(SERVICE_PORTS.locale),
  HOST: env.host(),
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  AMQP_URL: env.url(['amqp', 'amqps']),
  INTERNAL_JWT_SECRET: env.secret(),
  // The source locale of a project not yet known from its events is asked of project-service.
  PROJECT_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.project}`),
  // Source versions (keys, values, revisions, layout) are read from source-service.
  SOURCE_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.source}`),
  // A 200,000-key source is several megabytes: allowed more time than a small lookup.
  UPSTREAM_TIMEOUT_MS: positive(10_000),
  // Limits of an uploaded translation: those of a source (DESIGN §4, §5).
  LOCALE_MAX_BODY_BYTES: positive(10 * MIB),
  LOCALE_MAX_KEYS: positive(200_000),
  LOCALE_MAX_DEPTH: positive(32),
  LOCALE_MAX_KEY_LENGTH: positive(1000),
  // Source versions kept in memory, counted in keys.
  LOCALE_SOURCE_CACHE_MAX_KEYS: z.coerce.number().int().nonnegative().default(1_000_000),
  LOG_LEVEL: env.logLevel(),
});

export type LocaleConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export function loadLocaleConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<LocaleConfig> {
  return loadConfig(configSchema, source);
}

/** `npm run migrate` needs the database only. */
export function loadMigrationConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<Pick<LocaleConfig, 'DATABASE_URL' | 'LOG_LEVEL'>> {
  return loadConfig(configSchema.pick({ DATABASE_URL: true, LOG_LEVEL: true }), source);
}
