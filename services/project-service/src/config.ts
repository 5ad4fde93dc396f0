import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';

export const configSchema = z.object({
  PORT: env.port(SERVICE_PORTS.project),
  HOST: env.host(),
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  AMQP_URL: env.url(['amqp', 'amqps']),
  INTERNAL_JWT_SECRET: env.secret(),
  // Members are added by email and listed with their emails; identity-service owns both.
  IDENTITY_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.identity}`),
  IDENTITY_SERVICE_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  LOG_LEVEL: env.logLevel(),
});

export type ProjectConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export function loadProjectConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<ProjectConfig> {
  return loadConfig(configSchema, source);
}

/** `npm run migrate` needs the database only. */
export function loadMigrationConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<Pick<ProjectConfig, 'DATABASE_URL' | 'LOG_LEVEL'>> {
  return loadConfig(configSchema.pick({ DATABASE_URL: true, LOG_LEVEL: true }), source);
}
