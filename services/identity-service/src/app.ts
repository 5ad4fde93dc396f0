import type { Express } from 'express';
import type { Bus } from '@tolk/bus';
import type { Db } from '@tolk/db';
import { createInternalCallerSigner, createServiceApp } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import { readinessOf } from '@tolk/service';
import type { IdentityConfig } from './config.js';
import { createDeviceCodesRepository } from './data-access/device-codes-repository.js';
import { createProjectClient } from './data-access/project-client.js';
import { createRefreshTokensRepository } from './data-access/refresh-tokens-repository.js';
import { createUsersRepository } from './data-access/users-repository.js';
import { createAccessTokenIssuer } from './domain/access-tokens.js';
import { PRODUCER, createAccounts } from './domain/accounts.js';
import { PASSWORD_SCRYPT_PARAMS } from './domain/passwords.js';
import { createDeviceLogin } from './domain/device-login.js';
import { createSessions } from './domain/sessions.js';
import { createUserDirectory } from './domain/user-directory.js';
import { createIdentityRouter } from './entry-points/http/router.js';

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
> &
  Partial<Pick<IdentityConfig, 'PASSWORD_SCRYPT_N'>>;

/**
 * Composition root: wires repositories, use cases and routes into the service's express app.
 * `db` must be bound to the identity schema and migrated. `now` is the clock every expiry and
 * poll interval is measured with. New passwords are hashed at `PASSWORD_SCRYPT_N` (production's
 * unless configured lower, as test systems do). Events (UserDeleted) go to the outbox in `db`; the frame
 * relays them over `bus`. Never listens.
 */
export function createIdentityApp(deps: {
  config: IdentityAppConfig;
  db: Db;
  bus: Pick<Bus, 'isConnected'>;
  logger: Logger;
  now?: () => number;
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
    passwordCost: { ...PASSWORD_SCRYPT_PARAMS, N: config.PASSWORD_SCRYPT_N ?? PASSWORD_SCRYPT_PARAMS.N },
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
    readiness: readinessOf({ db, bus }),
  });
}
