import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';

function positive(fallback: number) {
  return z.coerce.number().int().positive().default(fallback);
}

export const configSchema = z.object({
  PORT: env.port(SERVICE_PORTS.token),
  HOST: env.host(),
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  AMQP_URL: env.url(['amqp', 'amqps']),
  INTERNAL_JWT_SECRET: env.secret(),
  // A project not yet known from its events is asked of project-service.
  PROJECT_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.project}`),
  PROJECT_SERVICE_TIMEOUT_MS: positive(5_000),
  // Live tokens a project may hold at once; the list view is never paged.
  TOKEN_MAX_PER_PROJECT: positive(100),
  LOG_LEVEL: env.logLevel(),
});

export type TokenConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export function loadTokenConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<TokenConfig> {
  return loadConfig(configSchema, source);
}

/** `npm run migrate` needs the database only. */
export function loadMigrationConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<Pick<TokenConfig, 'DATABASE_URL' | 'LOG_LEVEL'>> {
  return loadConfig(configSchema.pick({ DATABASE_URL: true, LOG_LEVEL: true }), source);
}
