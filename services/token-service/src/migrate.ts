import { ConfigError } from '@tolk/config';
import { createPgDb, migrate } from '@tolk/db';
import { createLogger } from '@tolk/logger';
import { MIGRATIONS_DIR, TOKENS_SCHEMA } from './app.js';
import { loadMigrationConfig } from './config.js';

/** `npm run migrate`: applies this service's migrations, then exits. */
async function main(): Promise<void> {
  const config = loadMigrationConfig();
  const logger = createLogger({ name: 'token-service', level: config.LOG_LEVEL });
  const db = createPgDb({ url: config.DATABASE_URL, schema: TOKENS_SCHEMA, logger });
  try {
    const applied = await migrate(db, MIGRATIONS_DIR, logger);
    logger.info({ applied }, `tokens schema up to date (${applied.length} migration(s) applied)`);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
