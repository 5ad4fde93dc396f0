import { z } from 'zod';
import { configLoader, env, serviceEnv } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';

const DAY_SECONDS = 24 * 60 * 60;

export const configSchema = z.object({
  // AMQP_URL: UserDeleted goes out through the outbox and RabbitMQ.
  ...serviceEnv(SERVICE_PORTS.identity),
  JWT_PRIVATE_KEY: env.es256Key('private'),
  // The dashboard's origin: the device login's verification page lives there.
  PUBLIC_URL: env.httpBase('http://localhost:8080'),
  ACCESS_TOKEN_TTL_SECONDS: env.seconds(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: env.seconds(30 * DAY_SECONDS),
  DEVICE_CODE_TTL_SECONDS: env.seconds(15 * 60),
  DEVICE_POLL_INTERVAL_SECONDS: env.seconds(5),
  // Deleting an account first names the projects it deletes, which project-service knows.
  PROJECT_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.project}`),
  PROJECT_SERVICE_TIMEOUT_MS: env.count(5_000),
});

export type IdentityConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export const loadIdentityConfig = configLoader(configSchema);

/** `npm run migrate` needs the database only, not the signing secrets. */
export { loadMigrationConfig } from '@tolk/config';
