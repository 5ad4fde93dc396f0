import { createRabbitBus, startOutboxRelay } from '@tolk/bus';
import { createPgDb, migrate } from '@tolk/db';
import { runProcess, serveUntilSignalled } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { IDENTITY_SCHEMA, MIGRATIONS_DIR, createIdentityApp } from './app.js';
import { loadIdentityConfig } from './config.js';
import { PRODUCER } from './domain/accounts.js';

runProcess(async () => {
  const config = loadIdentityConfig();
  const logger = createLogger({ name: 'identity-service', level: config.LOG_LEVEL });
  const db = createPgDb({
    url: config.DATABASE_URL,
    schema: IDENTITY_SCHEMA,
    logger,
    applicationName: 'identity-service',
  });
  await migrate(db, MIGRATIONS_DIR, logger);

  // Connects in the background; the outbox keeps events while RabbitMQ is away.
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, producer: PRODUCER });
  const relay = await startOutboxRelay({ db, bus, logger });

  await serveUntilSignalled({
    name: 'identity-service',
    app: createIdentityApp({ config, db, bus, logger }),
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
