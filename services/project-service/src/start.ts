import { createRabbitBus, startOutboxRelay } from '@tolk/bus';
import { createPgDb, migrate } from '@tolk/db';
import { runProcess, serveUntilSignalled } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { MIGRATIONS_DIR, PROJECTS_SCHEMA, createProjectAccountRemoval, createProjectApp } from './app.js';
import { loadProjectConfig } from './config.js';
import { PRODUCER } from './domain/project-events.js';
import { subscribeProjectConsumer } from './entry-points/messaging/project-consumer.js';

runProcess(async () => {
  const config = loadProjectConfig();
  const logger = createLogger({ name: 'project-service', level: config.LOG_LEVEL });
  const db = createPgDb({
    url: config.DATABASE_URL,
    schema: PROJECTS_SCHEMA,
    logger,
    applicationName: 'project-service',
  });
  await migrate(db, MIGRATIONS_DIR, logger);

  // Connects in the background; the outbox keeps events while RabbitMQ is away.
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, producer: PRODUCER });
  const relay = await startOutboxRelay({ db, bus, logger });
  const accountRemoval = createProjectAccountRemoval({ db, logger });
  void subscribeProjectConsumer({ bus, db, accountRemoval, logger }).catch((err: unknown) =>
    logger.error({ err }, 'subscribing to events failed'),
  );

  await serveUntilSignalled({
    name: 'project-service',
    app: createProjectApp({ config, db, bus, logger }),
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
