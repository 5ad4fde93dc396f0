/**
 * `npm run byok:rotate` (in a container: `node dist/rotate.js`): re-encrypts every stored key
 * under the active master key, the first of BYOK_MASTER_KEYS. Run it after putting a new key
 * first and keeping the old ones behind it; once it reports no key under an old id, that key can
 * go. Exits 1 when a key could not be decrypted (it is left as it was).
 */
import { ConfigError } from '@tolk/config';
import { createPgDb } from '@tolk/db';
import { createLogger } from '@tolk/logger';
import { loadRotationConfig } from './config.js';
import { createKeysRepository } from './data-access/keys-repository.js';
import { createKeyCipher } from './domain/key-cipher.js';
import { rotateMasterKey } from './domain/key-rotation.js';
import { byokService } from './index.js';
import { resolveMasterKeys } from './master-key-source.js';

async function main(): Promise<number> {
  const config = loadRotationConfig();
  const logger = createLogger({ name: 'byok-rotate', level: config.LOG_LEVEL });
  const { keyring } = await resolveMasterKeys(config);
  const db = createPgDb({ url: config.DATABASE_URL, schema: byokService.schema, logger, max: 2 });
  try {
    const report = await rotateMasterKey({
      db,
      keys: createKeysRepository(db),
      cipher: createKeyCipher(keyring),
    });
    for (const key of report.unreadable) {
      console.error(`not re-encrypted: ${key.reason} (master key id "${key.keyId}")`);
    }
    const counts = Object.entries(report.keysByKeyId)
      .map(([keyId, keys]) => `${keyId}: ${keys}`)
      .join(', ');
    console.log(
      `byok: ${report.reEncrypted} key(s) re-encrypted under master key "${report.activeKeyId}"` +
        (report.unreadable.length > 0 ? `; ${report.unreadable.length} could not be decrypted` : '') +
        `. Keys per master key id: ${counts || 'none stored'}`,
    );
    return report.unreadable.length > 0 ? 1 : 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
