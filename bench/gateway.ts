/**
 * `npm run bench:gateway`: an authenticated GET (`/v1/user/me`) through the gateway against the
 * same GET straight to identity-service, measured in one run on this machine.
 *   - throughput at 50 connections: target gateway ≥ 0.5× direct
 *   - a fixed 1,000 req/s: target gateway adds ≤ 2 ms at p50 and ≤ 5 ms at p99, no errors
 * Uses the Postgres and Redis of DATABASE_URL / REDIS_URL (local default ports when unset).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { createPrincipalSigner } from '@tolk/http';
import { ROOT, supervise, waitForHealthy } from '../scripts/processes.js';
import { measureThroughput } from './load.js';
import { measureFixedRateRaw as measureFixedRate } from './raw-load.js';
import { benchConfig } from './config.js';
import { inheritedEnvironment } from '../scripts/config.js';

const config = benchConfig();
const seconds = config.BENCH_SECONDS;
const databaseName = 'tolk_bench_gateway';

async function recreateDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: config.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const url = new URL(config.DATABASE_URL);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const internalSecret = randomBytes(32).toString('base64url');
const identityPort = 18081;
const gatewayPort = 18080;
const common = {
  ...inheritedEnvironment(),
  LOG_LEVEL: 'warn',
  INTERNAL_JWT_SECRET: internalSecret,
  DATABASE_URL: await recreateDatabase(),
  REDIS_URL: config.REDIS_URL,
};
const processes = [
  supervise(
    {
      name: 'identity-service',
      entry: path.join(ROOT, 'services/identity-service/src/start.ts'),
      port: identityPort,
      env: { ...common, JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    },
    0,
    () => process.exit(1),
  ),
  supervise(
    {
      name: 'gateway',
      entry: path.join(ROOT, 'gateway/src/start.ts'),
      port: gatewayPort,
      env: {
        ...common,
        JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        IDENTITY_SERVICE_URL: `http://127.0.0.1:${identityPort}`,
        // The general per-principal limit is set out of the way: this measures proxying, not 429s.
        RATE_LIMIT_PER_USER: '100000000',
      },
    },
    1,
    () => process.exit(1),
  ),
];

try {
  await waitForHealthy(`http://127.0.0.1:${identityPort}/healthz`, 30_000);
  await waitForHealthy(`http://127.0.0.1:${gatewayPort}/healthz`, 30_000);

  const signup = await fetch(`http://127.0.0.1:${gatewayPort}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'benchmark password' }),
  });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${await signup.text()}`);
  const { accessToken, user } = (await signup.json()) as { accessToken: string; user: { userId: string } };

  const direct = {
    url: `http://127.0.0.1:${identityPort}/v1/user/me`,
    headers: {
      'x-tolk-principal': await createPrincipalSigner(
        internalSecret,
        3600,
      )({ kind: 'user', userId: user.userId }),
    },
  };
  const viaGateway = {
    url: `http://127.0.0.1:${gatewayPort}/v1/user/me`,
    headers: { authorization: `Bearer ${accessToken}` },
  };
  for (const target of [direct, viaGateway]) {
    const check = await fetch(target.url, { headers: target.headers });
    if (check.status !== 200)
      throw new Error(`${target.url} answered ${check.status}: ${await check.text()}`);
  }

  console.log(`\nwarming up (${Math.min(3, seconds)} s each) ...`);
  await measureThroughput({ ...direct, connections: 50, seconds: Math.min(3, seconds) });
  await measureThroughput({ ...viaGateway, connections: 50, seconds: Math.min(3, seconds) });

  console.log(`throughput at 50 connections, ${seconds} s each ...`);
  const directThroughput = await measureThroughput({ ...direct, connections: 50, seconds });
  const gatewayThroughput = await measureThroughput({ ...viaGateway, connections: 50, seconds });

  console.log(`fixed 1,000 req/s, ${seconds} s each ...`);
  const directFixed = await measureFixedRate({ ...direct, rate: 1000, seconds });
  const gatewayFixed = await measureFixedRate({ ...viaGateway, rate: 1000, seconds });

  const ratio = gatewayThroughput.requestsPerSecond / directThroughput.requestsPerSecond;
  const addedP50 = gatewayFixed.p50 - directFixed.p50;
  const addedP99 = gatewayFixed.p99 - directFixed.p99;
  const fmt = (n: number, digits = 2) => n.toFixed(digits);
  console.log(`
GET /v1/user/me                     direct        gateway
  req/s at 50 connections      ${fmt(directThroughput.requestsPerSecond, 0).padStart(10)}  ${fmt(gatewayThroughput.requestsPerSecond, 0).padStart(12)}
  errors / non-2xx             ${`${directThroughput.errors}/${directThroughput.non2xx}`.padStart(10)}  ${`${gatewayThroughput.errors}/${gatewayThroughput.non2xx}`.padStart(12)}
  fixed 1,000 req/s: achieved  ${fmt(directFixed.achievedRate, 0).padStart(10)}  ${fmt(gatewayFixed.achievedRate, 0).padStart(12)}
  fixed 1,000 req/s: p50 ms    ${fmt(directFixed.p50).padStart(10)}  ${fmt(gatewayFixed.p50).padStart(12)}
  fixed 1,000 req/s: p99 ms    ${fmt(directFixed.p99).padStart(10)}  ${fmt(gatewayFixed.p99).padStart(12)}
  fixed 1,000 req/s: errors    ${String(directFixed.errors).padStart(10)}  ${String(gatewayFixed.errors).padStart(12)}

throughput ratio gateway/direct  ${fmt(ratio)}×   (target ≥ 0.50)  ${ratio >= 0.5 ? 'met' : 'MISSED'}
added latency at 1,000 req/s     p50 +${fmt(addedP50)} ms (target ≤ 2)  ${addedP50 <= 2 ? 'met' : 'MISSED'}
                                 p99 +${fmt(addedP99)} ms (target ≤ 5)  ${addedP99 <= 5 ? 'met' : 'MISSED'}
offered rate achieved, no errors ${gatewayFixed.errors === 0 && gatewayFixed.achievedRate >= 990 ? 'met' : 'MISSED'}
`);
} finally {
  await Promise.all(processes.map((p) => p.stop()));
}
