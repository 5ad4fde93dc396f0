import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import type { Bus } from '@tolk/bus';
import type { Db } from '@tolk/db';
import { createInternalCallerSigner, createServiceApp } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import type { IdentityConfig } from './config.js';
import { createDeviceCodesRepository } from './data-access/device-codes-repository.js';
import { createProjectClient } from './data-access/project-client.js';
import { createRefreshTokensRepository } from './data-access/refresh-tokens-repository.js';
import { createUsersRepository } from './data-access/users-repository.js';
import { createAccessTokenIssuer } from './domain/access-tokens.js';
import { PRODUCER, createAccounts } from './domain/accounts.js';
import { createDeviceLogin } from './domain/device-login.js';
import type { ScryptParams } from './domain/passwords.js';
import { createSessions } from './domain/sessions.js';
import { createUserDirectory } from './domain/user-directory.js';
import { createIdentityRouter } from './entry-points/http/router.js';

export type { ScryptParams as PasswordCost } from './domain/passwords.js';

/** The one schema this service owns. */
export const IDENTITY_SCHEMA = 'identity';
/** Next to src/ and dist/ alike. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export type IdentityAppConfig = Pick<
  IdentityConfig,
  | 'INTERNAL_JWT_SECRET'
  | 'JWT_PRIVATE_KEY'
  | 'PUBLIC_URL'
  | 'ACCESS_TOKEN_TTL_SECONDS'
  | 'REFRESH_TOKEN_TTL_SECONDS'
  | 'DEVICE_CODE_TTL_SECONDS'
  | 'DEVICE_POLL_INTERVAL_SECONDS'
  | 'PROJECT_SERVICE_URL'
  | 'PROJECT_SERVICE_TIMEOUT_MS'
>;

/**
 * Composition root: wires repositories, use cases and routes into the service's express app.
 * `db` must be bound to the identity schema and migrated. `now` is the clock every expiry and
 * poll interval is measured with. `passwordCost` is the scrypt cost of new password hashes:
 * production's (PASSWORD_SCRYPT_PARAMS) unless a test asks for a cheaper one. Events (UserDeleted)
 * go to the outbox in `db`; the relay that sends them over `bus` is started by start.ts. Never
 * listens.
 */
export function createIdentityApp(deps: {
  config: IdentityAppConfig;
  db: Db;
  bus: Pick<Bus, 'isConnected'>;
  logger: Logger;
  now?: () => number;
  passwordCost?: ScryptParams;
}): Express {
  const { config, db, bus, logger } = deps;
  const now = deps.now ?? Date.now;

  const users = createUsersRepository(db);
  const refreshTokens = createRefreshTokensRepository(db);
  const deviceCodes = createDeviceCodesRepository(db);

  const accessTokens = createAccessTokenIssuer({
    privateKeyPem: config.JWT_PRIVATE_KEY,
    ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    now,
  });
  const sessions = createSessions({
    db,
    users,
    refreshTokens,
    accessTokens,
    refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
    now,
    logger,
  });
  const projects = createProjectClient({
    baseUrl: config.PROJECT_SERVICE_URL,
    timeoutMs: config.PROJECT_SERVICE_TIMEOUT_MS,
    signInternalCaller: createInternalCallerSigner(config.INTERNAL_JWT_SECRET, PRODUCER),
    logger,
  });
  const accounts = createAccounts({
    db,
    users,
    sessions,
    projects,
    now,
    logger,
    passwordCost: deps.passwordCost,
  });
  const deviceLogin = createDeviceLogin({
    db,
    deviceCodes,
    users,
    accounts,
    sessions,
    publicUrl: config.PUBLIC_URL,
    codeTtlSeconds: config.DEVICE_CODE_TTL_SECONDS,
    pollIntervalSeconds: config.DEVICE_POLL_INTERVAL_SECONDS,
    now,
  });

  return createServiceApp({
    logger,
    router: createIdentityRouter({
      accounts,
      sessions,
      deviceLogin,
      userDirectory: createUserDirectory({ users }),
    }),
    internalSecret: config.INTERNAL_JWT_SECRET,
    readiness: [
      () => db.ping(),
      async () => {
        if (!bus.isConnected()) throw new Error('not connected to RabbitMQ');
      },
    ],
  });
}
