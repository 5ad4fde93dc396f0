import http from 'node:http';
import { createRabbitBus, startOutboxRelay } from '@tolk/bus';
import { ConfigError } from '@tolk/config';
import { createPgDb, migrate } from '@tolk/db';
import { createLogger } from '@tolk/logger';
import { MIGRATIONS_DIR, SOURCE_SCHEMA, createSourceService } from './app.js';
import { loadSourceConfig } from './config.js';
import { PRODUCER } from './domain/source-events.js';
import { subscribeSourceConsumer } from './entry-points/messaging/source-consumer.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
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
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  logger.info(`source-service listening on http://${config.HOST}:${config.PORT}`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'source-service shutting down');
    // In-flight requests finish; idle keep-alive connections must not hold the exit.
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    server.closeIdleConnections();
    server.close(() => {
      // Whatever the relay has not sent yet stays in the outbox for the next start.
      relay
        .stop()
        .then(() => bus.close())
        .then(() => db.close())
        .then(
          () => process.exit(0),
          (err: unknown) => {
            logger.error({ err }, 'shutting down failed');
            process.exit(1);
          },
        );
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  // Configuration problems are listed one per line in the message; no logger exists yet then.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
