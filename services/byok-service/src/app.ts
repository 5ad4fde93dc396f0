import type { Express } from 'express';
import type { Db } from '@tolk/db';
import { createServiceApp } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import { readinessOf } from '@tolk/service';
import type { ByokConfig } from './config.js';
import { createKeysRepository } from './data-access/keys-repository.js';
import { createKeyCipher } from './domain/key-cipher.js';
import type { MasterKeyring } from './domain/master-keys.js';
import { createByokSync, type ByokSync } from './domain/byok-sync.js';
import { createProviderKeys } from './domain/provider-keys.js';
import { createByokRouter } from './entry-points/http/router.js';

// A provider key is at most 4096 characters; this leaves room for JSON escapes of every one.
const BODY_LIMIT_BYTES = 64 * 1024;

export type ByokAppConfig = Pick<ByokConfig, 'INTERNAL_JWT_SECRET'>;

/**
 * Composition root: wires the repository, the cipher over the master keys and the routes into the
 * service's app, and the effects of consumed events (`sync`, for its consumer). `db`
 * must be bound to the byok schema and migrated; `keyring` comes from BYOK_MASTER_KEYS or the
 * development key file (see master-key-source.ts). Never listens.
 */
export function createByokService(deps: {
  config: ByokAppConfig;
  db: Db;
  keyring: MasterKeyring;
  logger: Logger;
  now?: () => number;
}): { app: Express; sync: ByokSync } {
  const { config, db, keyring, logger } = deps;
  const now = deps.now ?? Date.now;
  const keys = createKeysRepository(db);

  const providerKeys = createProviderKeys({ keys, cipher: createKeyCipher(keyring), now });

  const app = createServiceApp({
    logger,
    router: createByokRouter({ providerKeys }),
    internalSecret: config.INTERNAL_JWT_SECRET,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    readiness: readinessOf({ db }),
    // Answers carry decrypted keys: no cache may keep any of them, the frame's own answers included.
    onRequest: (_req, res) => res.setHeader('Cache-Control', 'no-store'),
  });
  return { app, sync: createByokSync({ keys, now }) };
}
