import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';

const DAY_SECONDS = 24 * 60 * 60;

export const configSchema = z.object({
  PORT: env.port(SERVICE_PORTS.identity),
  HOST: env.host(),
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  // UserDeleted goes out through the outbox and RabbitMQ.
  AMQP_URL: env.url(['amqp', 'amqps']),
  INTERNAL_JWT_SECRET: env.secret(),
  JWT_PRIVATE_KEY: env.es256Key('private'),
  // The dashboard's origin: the device login's verification page lives there.
  PUBLIC_URL: env.httpBase('http://localhost:8080'),
  ACCESS_TOKEN_TTL_SECONDS: env.seconds(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: env.seconds(30 * DAY_SECONDS),
  DEVICE_CODE_TTL_SECONDS: env.seconds(15 * 60),
  DEVICE_POLL_INTERVAL_SECONDS: env.seconds(5),
  // Deleting an account first names the projects it deletes, which project-service knows.
  PROJECT_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.project}`),
  PROJECT_SERVICE_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  LOG_LEVEL: env.logLevel(),
});

export type IdentityConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export function loadIdentityConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<IdentityConfig> {
  return loadConfig(configSchema, source);
}

/** `npm run migrate` needs the database only, not the signing secrets. */
export function loadMigrationConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<Pick<IdentityConfig, 'DATABASE_URL' | 'LOG_LEVEL'>> {
  return loadConfig(configSchema.pick({ DATABASE_URL: true, LOG_LEVEL: true }), source);
}
