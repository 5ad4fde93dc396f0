import type { ServiceDeps, ServiceParts } from '@tolk/service';
import type { ByokConfig } from './config.js';
import { createKeysRepository } from './data-access/keys-repository.js';
import { createKeyCipher } from './domain/key-cipher.js';
import { createByokSync } from './domain/byok-sync.js';
import { createProviderKeys } from './domain/provider-keys.js';
import { byokConsumer } from './entry-points/messaging/byok-consumer.js';
import { createByokRouter } from './entry-points/http/router.js';
import { resolveMasterKeys } from './master-key-source.js';

// A provider key is at most 4096 characters; this leaves room for JSON escapes of every one.
const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Composition root: the master keys (BYOK_MASTER_KEYS, or the development key file: see
 * master-key-source.ts), the repository, the cipher over them and the routes, and the consumer
 * of UserDeleted. `db` is bound to the byok schema and migrated.
 */
export async function createByokService(deps: ServiceDeps<ByokConfig>): Promise<ServiceParts> {
  const { config, db, logger, now } = deps;
  const masterKeys = await resolveMasterKeys(config);
  if (masterKeys.from === 'development-file') {
    logger.warn(
      { file: masterKeys.file },
      `BYOK_MASTER_KEYS is not set: ${masterKeys.generated ? 'generated' : 'using'} the development master key in ${masterKeys.file}`,
    );
  }
  const { keyring } = masterKeys;
  logger.info({ activeKeyId: keyring.active.id, keyIds: [...keyring.byId.keys()] }, 'master keys loaded');

  const keys = createKeysRepository(db);
  const providerKeys = createProviderKeys({ keys, cipher: createKeyCipher(keyring), now });
  return {
    router: createByokRouter({ providerKeys }),
    // Deletions wait in the durable queue while RabbitMQ is away.
    consumer: byokConsumer(createByokSync({ keys, now })),
    bodyLimitBytes: BODY_LIMIT_BYTES,
    // Answers carry decrypted keys: no cache may keep any of them, the frame's own answers included.
    onRequest: (_req, res) => res.setHeader('Cache-Control', 'no-store'),
  };
}
