import { createRabbitBus, startOutboxRelay } from '@tolk/bus';
import { createPgDb, migrate } from '@tolk/db';
import { runProcess, serveUntilSignalled } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { LOCALES_SCHEMA, MIGRATIONS_DIR, createLocaleService } from './app.js';
import { loadLocaleConfig } from './config.js';
import { PRODUCER } from './domain/baseline.js';
import { subscribeLocaleConsumer } from './entry-points/messaging/locale-consumer.js';

runProcess(async () => {
  const config = loadLocaleConfig();
  const logger = createLogger({ name: 'locale-service', level: config.LOG_LEVEL });
  const db = createPgDb({
    url: config.DATABASE_URL,
    schema: LOCALES_SCHEMA,
    logger,
    applicationName: 'locale-service',
  });
  await migrate(db, MIGRATIONS_DIR, logger);

  // Connects in the background; the outbox keeps events while RabbitMQ is away.
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, producer: PRODUCER });
  const relay = await startOutboxRelay({ db, bus, logger });

  const { app, sync, refresh } = createLocaleService({ config, db, bus, logger });
  void subscribeLocaleConsumer({ bus, db, sync, refresh, logger }).catch((err: unknown) =>
    logger.error({ err }, 'subscribing to events failed'),
  );

  await serveUntilSignalled({
    name: 'locale-service',
    app,
    port: config.PORT,
    host: config.HOST,
    logger,
    release: async () => {
      await relay.stop();
      await bus.close();
      await db.close();
    },
  });
});
