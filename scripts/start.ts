/**
 * `npm start`: runs the gateway and every service of this checkout on one machine.
 * - With none of DATABASE_URL, AMQP_URL and REDIS_URL set: the embedded mode, everything in this
 *   one process on PGlite under TOLK_DATA_DIR (scripts/embedded.ts). Nothing to install.
 * - With any of them set: one process per service against those servers (the others at their
 *   local default ports); a crashing service is reported and restarted.
 * Ctrl-C stops everything.
 */
import path from 'node:path';
import { SERVICE_PORTS } from '@tolk/contracts';
import { SERVER_DEFAULTS, inheritedEnvironment, loadLauncherConfig } from './config.js';
import { ensureDashboardBuilt } from './dashboard.js';
import { embeddedDatabaseDir, startEmbeddedTolk } from './embedded.js';
import { resolveSecrets } from './dev-secrets.js';
import { ensureDatabase } from './infrastructure.js';
import { ROOT, presentServices, supervise, waitForHealthy } from './processes.js';

const config = loadLauncherConfig();
const publicUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;

function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

const NEXT_STEPS = `
Next steps:
  Open the dashboard: ${publicUrl}/  (sign up, create a project, add your provider keys)
  Then the command-line tool, from your app's folder (README: "60-second walkthrough"):
    node ${path.join(ROOT, 'cli', 'bin', 'tolk.js')} login --api ${publicUrl}
  Or use the API directly (reference: ${publicUrl}/docs):
  curl -s -X POST ${publicUrl}/v1/auth/signup -H 'content-type: application/json' \\
       -d '{"email":"you@example.com","password":"a long passphrase"}'
  curl -s ${publicUrl}/v1/user/me -H "authorization: Bearer <accessToken from above>"

Press Ctrl-C to stop.
`;

/**
 * Once Tolk is up: builds the dashboard in the background when dashboard/dist is missing or older
 * than its sources (a fresh clone), so that starting is not held up by it.
 */
function buildDashboardInBackground(): void {
  ensureDashboardBuilt((line) => console.log(line)).then(
    ({ built, ms }) => {
      if (built) console.log(`web dashboard built in ${ms} ms: open ${publicUrl}/`);
    },
    (err: unknown) => {
      console.error(
        `the web dashboard could not be built (the API works without it): ${(err as Error).message}\n` +
          'build it with: npm run build -w @tolk/dashboard',
      );
    },
  );
}

const dataDir = path.resolve(ROOT, config.TOLK_DATA_DIR);
const { secrets, generated } = await resolveSecrets({
  dataDir,
  production: config.NODE_ENV === 'production',
  configured: {
    jwtPrivateKey: config.JWT_PRIVATE_KEY,
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    internalJwtSecret: config.INTERNAL_JWT_SECRET,
  },
});
if (generated) console.log(`generated development secrets in ${path.join(dataDir, 'dev-secrets.json')}`);

if (config.DATABASE_URL === undefined && config.AMQP_URL === undefined && config.REDIS_URL === undefined) {
  const databaseDir = embeddedDatabaseDir(dataDir);
  console.log(
    `embedded mode: no DATABASE_URL, AMQP_URL or REDIS_URL set — Postgres (PGlite) in ${databaseDir}, ` +
      'events and caches in this process',
  );
  try {
    const tolk = await startEmbeddedTolk({
      dataDir: databaseDir,
      tolkDataDir: dataDir,
      secrets,
      publicUrl,
      port: config.PORT,
      host: '0.0.0.0',
      usualPorts: true,
      logLevel: config.LOG_LEVEL,
      ...(config.METRICS_PORT !== undefined && { gatewayEnv: { METRICS_PORT: String(config.METRICS_PORT) } }),
    });
    const stop = async () => {
      console.log('\nstopping Tolk ...');
      await tolk.close();
      console.log('stopped.');
      process.exit(0);
    };
    process.on('SIGINT', () => void stop());
    process.on('SIGTERM', () => void stop());
    console.log(
      `\nTolk is running at ${publicUrl}  (embedded, started in ${tolk.startedInMs} ms)\n${NEXT_STEPS}`,
    );
    buildDashboardInBackground();
  } catch (err) {
    console.error(`\nTolk did not start: ${(err as Error).message}`);
    process.exit(1);
  }
} else {
  await runOnServers();
}

async function runOnServers(): Promise<void> {
  // Loaded only here: the embedded mode probes no servers and need not load the test helpers.
  const { isReachable } = await import('@tolk/testing');
  const databaseUrl = config.DATABASE_URL ?? SERVER_DEFAULTS.DATABASE_URL;
  const amqpUrl = config.AMQP_URL ?? SERVER_DEFAULTS.AMQP_URL;
  const redisUrl = config.REDIS_URL ?? SERVER_DEFAULTS.REDIS_URL;
  const dependencies = [
    { name: 'Postgres', variable: 'DATABASE_URL', url: databaseUrl },
    { name: 'RabbitMQ', variable: 'AMQP_URL', url: amqpUrl },
    { name: 'Redis', variable: 'REDIS_URL', url: redisUrl },
  ];
  const unreachable = [];
  for (const dependency of dependencies) {
    const ok = await isReachable(dependency.url, 1500);
    console.log(
      `${ok ? 'ok  ' : 'DOWN'} ${dependency.name.padEnd(9)} ${redactUrl(dependency.url)} (${dependency.variable})`,
    );
    if (!ok) unreachable.push(dependency);
  }
  if (unreachable.some((d) => d.name !== 'Redis')) {
    console.error(
      `\nTolk needs ${unreachable.map((d) => d.name).join(' and ')}. Start them, or point ` +
        `${unreachable.map((d) => d.variable).join(' / ')} at running servers (see DEVELOPERS.md).`,
    );
    process.exit(1);
  }
  if (unreachable.length > 0) console.warn('Redis is down: Tolk runs, with rate limits kept in memory.');

  if (await ensureDatabase(databaseUrl))
    console.log(`created database ${new URL(databaseUrl).pathname.slice(1)}`);

  const common: NodeJS.ProcessEnv = {
    ...inheritedEnvironment(),
    DATABASE_URL: databaseUrl,
    AMQP_URL: amqpUrl,
    REDIS_URL: redisUrl,
    INTERNAL_JWT_SECRET: secrets.internalJwtSecret,
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: config.LOG_LEVEL,
    HOST: '127.0.0.1',
  };

  const services = presentServices();
  const running: ReturnType<typeof supervise>[] = [];
  let shuttingDown = false;

  async function shutdown(code: number): Promise<never> {
    if (!shuttingDown) {
      shuttingDown = true;
      console.log('\nstopping Tolk ...');
      await Promise.all(running.map((p) => p.stop()));
      console.log('stopped.');
    }
    process.exit(code);
  }
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  const giveUp = () => void shutdown(1);

  try {
    services.forEach(({ service, dir, port }, index) => {
      running.push(
        supervise(
          {
            name: `${service}-service`,
            entry: path.join(dir, 'src', 'start.ts'),
            port,
            env: { ...common, JWT_PRIVATE_KEY: secrets.jwtPrivateKey },
          },
          index,
          giveUp,
        ),
      );
    });
    await Promise.all(services.map(({ port }) => waitForHealthy(`http://127.0.0.1:${port}/healthz`, 60_000)));

    const serviceUrls = Object.fromEntries(
      services.map(({ service }) => [
        `${service.toUpperCase()}_SERVICE_URL`,
        `http://127.0.0.1:${SERVICE_PORTS[service]}`,
      ]),
    );
    running.push(
      supervise(
        {
          name: 'gateway',
          entry: path.join(ROOT, 'gateway', 'src', 'start.ts'),
          port: config.PORT,
          env: { ...common, ...serviceUrls, HOST: '0.0.0.0', JWT_PUBLIC_KEY: secrets.jwtPublicKey },
        },
        services.length,
        giveUp,
      ),
    );
    await waitForHealthy(`http://127.0.0.1:${config.PORT}/healthz`, 60_000);
  } catch (err) {
    console.error(`\nTolk did not start: ${(err as Error).message}`);
    await shutdown(1);
  }

  console.log(`
Tolk is running at ${publicUrl}  (services: ${services.map((s) => s.service).join(', ')})
${NEXT_STEPS}`);
  buildDashboardInBackground();
}
