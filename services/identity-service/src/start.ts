import http from 'node:http';
import { ConfigError } from '@tolk/config';
import { createPgDb, migrate } from '@tolk/db';
import { createLogger } from '@tolk/logger';
import { IDENTITY_SCHEMA, MIGRATIONS_DIR, createIdentityApp } from './app.js';
import { loadIdentityConfig } from './config.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadIdentityConfig();
  const logger = createLogger({ name: 'identity-service', level: config.LOG_LEVEL });
  const db = createPgDb({
    url: config.DATABASE_URL,
    schema: IDENTITY_SCHEMA,
    logger,
    applicationName: 'identity-service',
  });
  await migrate(db, MIGRATIONS_DIR, logger);

  const server = http.createServer(createIdentityApp({ config, db, logger }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  logger.info(`identity-service listening on http://${config.HOST}:${config.PORT}`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'identity-service shutting down');
    // In-flight requests finish; idle keep-alive connections must not hold the exit.
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    server.closeIdleConnections();
    server.close(() => {
      db.close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'closing the database failed');
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
