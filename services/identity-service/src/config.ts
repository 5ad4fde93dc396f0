import { z } from 'zod';
import { configLoader, env, serviceEnv } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';
import { PASSWORD_SCRYPT_PARAMS } from './domain/passwords.js';

const DAY_SECONDS = 24 * 60 * 60;

/** scrypt's N for new password hashes, production's: about 100 ms on one core of a small server. */
export const PRODUCTION_SCRYPT_N = PASSWORD_SCRYPT_PARAMS.N;

export const configSchema = z
  .object({
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
    // The cost of new password hashes (stored hashes keep their own, so changing it never locks
    // anyone out). Test systems lower it; production refuses anything below its own.
    PASSWORD_SCRYPT_N: env
      .count(PRODUCTION_SCRYPT_N)
      .refine((n) => n >= 1024 && (n & (n - 1)) === 0, { message: 'must be a power of two, at least 1024' }),
    NODE_ENV: env.nodeEnv(),
  })
  .refine((config) => config.NODE_ENV !== 'production' || config.PASSWORD_SCRYPT_N >= PRODUCTION_SCRYPT_N, {
    message: `must be at least ${PRODUCTION_SCRYPT_N} when NODE_ENV is production`,
    path: ['PASSWORD_SCRYPT_N'],
  });

export type IdentityConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export const loadIdentityConfig = configLoader(configSchema);

/** `npm run migrate` needs the database only, not the signing secrets. */
export { loadMigrationConfig } from '@tolk/config';
