/** `npm run migrate`: applies every service's migrations to DATABASE_URL, then exits. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SERVER_DEFAULTS, loadLauncherConfig } from './config.js';
import { ensureDatabase } from './infrastructure.js';
import { ROOT, presentServices } from './processes.js';

const config = loadLauncherConfig();
// The embedded mode migrates at every start; this is for a server (the local one by default).
const databaseUrl = config.DATABASE_URL ?? SERVER_DEFAULTS.DATABASE_URL;
await ensureDatabase(databaseUrl);
for (const { service, dir } of presentServices()) {
  const entry = path.join(dir, 'src', 'migrate.ts');
  if (!existsSync(entry)) continue;
  const result = spawnSync(process.execPath, ['--conditions=tolk-source', '--import', 'tsx', entry], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  if (result.status !== 0) {
    console.error(`migrations of ${service}-service failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`${service}-service: migrations applied`);
}
