import http from 'node:http';
import { createRabbitBus, startOutboxRelay } from '@tolk/bus';
import { ConfigError } from '@tolk/config';
import { createPgDb, migrate } from '@tolk/db';
import { createLogger } from '@tolk/logger';
import { MIGRATIONS_DIR, PROJECTS_SCHEMA, createProjectApp } from './app.js';
import { loadProjectConfig } from './config.js';
import { PRODUCER } from './domain/project-events.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
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

  const server = http.createServer(createProjectApp({ config, db, bus, logger }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  logger.info(`project-service listening on http://${config.HOST}:${config.PORT}`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'project-service shutting down');
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
