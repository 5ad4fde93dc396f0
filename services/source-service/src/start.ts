import { createRabbitBus, startOutboxRelay } from '@tolk/bus';
import { createPgDb, migrate } from '@tolk/db';
import { runProcess, serveUntilSignalled } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { MIGRATIONS_DIR, SOURCE_SCHEMA, createSourceService } from './app.js';
import { loadSourceConfig } from './config.js';
import { PRODUCER } from './domain/source-events.js';
import { subscribeSourceConsumer } from './entry-points/messaging/source-consumer.js';

runProcess(async () => {
  const config = loadSourceConfig();
  const logger = createLogger({ name: 'source-service', level: config.LOG_LEVEL });
  const db = createPgDb({
    url: config.DATABASE_URL,
    schema: SOURCE_SCHEMA,
    logger,
    applicationName: 'source-service',
  });
  await migrate(db, MIGRATIONS_DIR, logger);

  // Connects in the background; the outbox keeps events while RabbitMQ is away.
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, producer: PRODUCER });
  const relay = await startOutboxRelay({ db, bus, logger });

  const { app, sync } = createSourceService({ config, db, bus, logger });
  // Resolves once consuming; until RabbitMQ is up, requests still work (unknown projects are
  // asked of project-service).
  void subscribeSourceConsumer({ bus, db, sync, logger }).catch((err: unknown) =>
    logger.error({ err }, 'subscribing to events failed'),
  );

  await serveUntilSignalled({
    name: 'source-service',
    app,
    port: config.PORT,
    host: config.HOST,
    logger,
    // Whatever the relay has not sent yet stays in the outbox for the next start.
    release: async () => {
      await relay.stop();
      await bus.close();
      await db.close();
    },
  });
});
