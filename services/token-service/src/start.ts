import { createRabbitBus, startOutboxRelay } from '@tolk/bus';
import { createPgDb, migrate } from '@tolk/db';
import { runProcess, serveUntilSignalled } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { MIGRATIONS_DIR, TOKENS_SCHEMA, createTokenService } from './app.js';
import { loadTokenConfig } from './config.js';
import { PRODUCER } from './domain/token-events.js';
import { subscribeTokenConsumer } from './entry-points/messaging/token-consumer.js';

runProcess(async () => {
  const config = loadTokenConfig();
  const logger = createLogger({ name: 'token-service', level: config.LOG_LEVEL });
  const db = createPgDb({
    url: config.DATABASE_URL,
    schema: TOKENS_SCHEMA,
    logger,
    applicationName: 'token-service',
  });
  await migrate(db, MIGRATIONS_DIR, logger);

  // Connects in the background; the outbox keeps events while RabbitMQ is away.
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, producer: PRODUCER });
  const relay = await startOutboxRelay({ db, bus, logger });

  const { app, sync } = createTokenService({ config, db, bus, logger });
  void subscribeTokenConsumer({ bus, db, sync, logger }).catch((err: unknown) =>
    logger.error({ err }, 'subscribing to events failed'),
  );

  await serveUntilSignalled({
    name: 'token-service',
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
