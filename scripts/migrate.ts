/** `npm run migrate`: applies every service's migrations to DATABASE_URL, then exits. */
import { createLogger } from '@tolk/logger';
import { migrateService, processName } from '@tolk/service';
import { SERVER_DEFAULTS, loadLauncherConfig } from './config.js';
import { ensureDatabase } from './infrastructure.js';
import { SERVICES } from './services.js';

const config = loadLauncherConfig();
// The embedded mode migrates at every start; this is for a server (the local one by default).
const databaseUrl = config.DATABASE_URL ?? SERVER_DEFAULTS.DATABASE_URL;
await ensureDatabase(databaseUrl);
for (const definition of SERVICES) {
  const name = processName(definition);
  try {
    await migrateService(definition, databaseUrl, createLogger({ name, level: config.LOG_LEVEL }));
  } catch (err) {
    console.error(`migrations of ${name} failed: ${(err as Error).message}`);
    process.exit(1);
  }
  console.log(`${name}: migrations applied`);
}
