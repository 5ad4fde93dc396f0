import { fileURLToPath } from 'node:url';
import { defineService } from '@tolk/service';
import { createByokService } from './app.js';
import { configSchema } from './config.js';
import { byokConsumer } from './entry-points/messaging/byok-consumer.js';
import { resolveMasterKeys } from './master-key-source.js';

/** byok-service: users' AI provider keys, encrypted under the master keys; consumes UserDeleted. */
export const byokService = defineService({
  name: 'byok',
  schema: 'byok',
  migrations: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: configSchema,
  outbox: false,
  consumes: true,
  async create(deps) {
    const { config, logger } = deps;
    const masterKeys = await resolveMasterKeys(config);
    if (masterKeys.from === 'development-file') {
      logger.warn(
        { file: masterKeys.file },
        `BYOK_MASTER_KEYS is not set: ${masterKeys.generated ? 'generated' : 'using'} the development master key in ${masterKeys.file}`,
      );
    }
    logger.info(
      { activeKeyId: masterKeys.keyring.active.id, keyIds: [...masterKeys.keyring.byId.keys()] },
      'master keys loaded',
    );
    const { app, sync } = createByokService({ ...deps, keyring: masterKeys.keyring });
    // Deletions wait in the durable queue while RabbitMQ is away.
    return { app, consumer: byokConsumer(sync) };
  },
});
