import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';

const MIB = 1024 * 1024;

function positive(fallback: number) {
  return z.coerce.number().int().positive().default(fallback);
}

export const configSchema = z.object({
  PORT: env.port(SERVICE_PORTS.source),
  HOST: env.host(),
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  AMQP_URL: env.url(['amqp', 'amqps']),
  INTERNAL_JWT_SECRET: env.secret(),
  // The source locale of a project not yet known from its events is asked of project-service.
  PROJECT_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.project}`),
  PROJECT_SERVICE_TIMEOUT_MS: positive(5_000),
  // Limits of an uploaded source (DESIGN §4).
  SOURCE_MAX_BODY_BYTES: positive(10 * MIB),
  SOURCE_MAX_KEYS: positive(200_000),
  SOURCE_MAX_DEPTH: positive(32),
  SOURCE_MAX_KEY_LENGTH: positive(1000),
  // Parsed versions kept in memory, counted in keys, so the common upload compares against the
  // previous version without reading or decompressing it.
  SOURCE_CACHE_MAX_KEYS: z.coerce.number().int().nonnegative().default(1_000_000),
  LOG_LEVEL: env.logLevel(),
});

export type SourceConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export function loadSourceConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<SourceConfig> {
  return loadConfig(configSchema, source);
}

/** `npm run migrate` needs the database only. */
export function loadMigrationConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<Pick<SourceConfig, 'DATABASE_URL' | 'LOG_LEVEL'>> {
  return loadConfig(configSchema.pick({ DATABASE_URL: true, LOG_LEVEL: true }), source);
}
