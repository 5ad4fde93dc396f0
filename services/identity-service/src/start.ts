import { createPgDb, migrate } from '@tolk/db';
import { runProcess, serveUntilSignalled } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { IDENTITY_SCHEMA, MIGRATIONS_DIR, createIdentityApp } from './app.js';
import { loadIdentityConfig } from './config.js';

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

  await serveUntilSignalled({
    name: 'identity-service',
    app: createIdentityApp({ config, db, logger }),
    port: config.PORT,
    host: config.HOST,
    logger,
    release: () => db.close(),
  });
});
