import { createRabbitBus } from '@tolk/bus';
import { createPgDb, migrate } from '@tolk/db';
import { runProcess, serveUntilSignalled } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { BYOK_SCHEMA, MIGRATIONS_DIR, createByokService } from './app.js';
import { loadByokConfig } from './config.js';
import { subscribeByokConsumer } from './entry-points/messaging/byok-consumer.js';
import { resolveMasterKeys } from './master-key-source.js';

runProcess(async () => {
  const config = loadByokConfig();
  const logger = createLogger({ name: 'byok-service', level: config.LOG_LEVEL });
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

  const db = createPgDb({
    url: config.DATABASE_URL,
    schema: BYOK_SCHEMA,
    logger,
    applicationName: 'byok-service',
  });
  await migrate(db, MIGRATIONS_DIR, logger);

  const { app, sync } = createByokService({ config, db, keyring: masterKeys.keyring, logger });
  // Connects in the background; deletions wait in the durable queue while RabbitMQ is away.
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, producer: 'byok-service' });
  void subscribeByokConsumer({ bus, db, sync, logger }).catch((err: unknown) =>
    logger.error({ err }, 'subscribing to events failed'),
  );
  await serveUntilSignalled({
    name: 'byok-service',
    app,
    port: config.PORT,
    host: config.HOST,
    logger,
    release: async () => {
      await bus.close();
      await db.close();
    },
  });
});
