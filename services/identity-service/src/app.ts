import type { ServiceDeps, ServiceParts } from '@tolk/service';
import type { IdentityConfig } from './config.js';
import { createDeviceCodesRepository } from './data-access/device-codes-repository.js';
import { createProjectClient } from './data-access/project-client.js';
import { createRefreshTokensRepository } from './data-access/refresh-tokens-repository.js';
import { createUsersRepository } from './data-access/users-repository.js';
import { createAccessTokenIssuer } from './domain/access-tokens.js';
import { createAccounts } from './domain/accounts.js';
import { PASSWORD_SCRYPT_PARAMS } from './domain/passwords.js';
import { createDeviceLogin } from './domain/device-login.js';
import { createSessions } from './domain/sessions.js';
import { createUserDirectory } from './domain/user-directory.js';
import { createIdentityRouter } from './entry-points/http/router.js';

/**
 * Composition root: wires repositories, use cases and routes. `db` is bound to the identity
 * schema and migrated. `now` is the clock every expiry and poll interval is measured with. New
 * passwords are hashed at `PASSWORD_SCRYPT_N` (production's unless configured lower, as test
 * systems do). Events (UserDeleted) go to the outbox in `db`; the frame relays them.
 */
export function createIdentityService(deps: ServiceDeps<IdentityConfig>): ServiceParts {
  const { config, db, logger, now } = deps;

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
    ...deps,
    baseUrl: config.PROJECT_SERVICE_URL,
    timeoutMs: config.PROJECT_SERVICE_TIMEOUT_MS,
  });
  const accounts = createAccounts({
    db,
    users,
    sessions,
    projects,
    now,
    logger,
    passwordCost: { ...PASSWORD_SCRYPT_PARAMS, N: config.PASSWORD_SCRYPT_N },
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

  return {
    router: createIdentityRouter({
      accounts,
      sessions,
      deviceLogin,
      userDirectory: createUserDirectory({ users }),
    }),
  };
}
