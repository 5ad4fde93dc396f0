/**
 * `npm run bench:gateway`: an authenticated GET (`/v1/user/me`) through the gateway against the
 * same GET straight to identity-service, measured in one run on this machine.
 *   - throughput at 50 connections: target gateway ≥ 0.5× direct
 *   - a fixed 1,000 req/s: target gateway adds ≤ 2 ms at p50 and ≤ 5 ms at p99, no errors
 * A third column runs the same GET through a bare express + http-proxy-middleware proxy (no token
 * check, no limits): the floor of the gateway's stack on this machine, so what is the stack's and
 * what is Tolk's own work can be told apart.
 * Uses the Postgres and Redis of DATABASE_URL / REDIS_URL (local default ports when unset).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { createPrincipalSigner } from '@tolk/http';
import { ROOT, supervise, waitForHealthy } from '../scripts/processes.js';
import { measureThroughput, type Throughput } from './load.js';
import { measureFixedRateRaw as measureFixedRate, type FixedRate } from './raw-load.js';
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
const bareProxyPort = 18082;
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
  supervise(
    {
      name: 'bare-proxy',
      entry: path.join(ROOT, 'bench/bare-proxy.ts'),
      port: bareProxyPort,
      env: { ...common, TARGET_URL: `http://127.0.0.1:${identityPort}` },
    },
    2,
    () => process.exit(1),
  ),
];

try {
  await waitForHealthy(`http://127.0.0.1:${identityPort}/healthz`, 30_000);
  await waitForHealthy(`http://127.0.0.1:${gatewayPort}/healthz`, 30_000);
  await waitForHealthy(`http://127.0.0.1:${bareProxyPort}/healthz`, 30_000);

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
  const viaBareProxy = { url: `http://127.0.0.1:${bareProxyPort}/v1/user/me`, headers: direct.headers };
  const targets = [direct, viaGateway, viaBareProxy];
  for (const target of targets) {
    const check = await fetch(target.url, { headers: target.headers });
    if (check.status !== 200)
      throw new Error(`${target.url} answered ${check.status}: ${await check.text()}`);
  }

  const warmup = Math.min(3, seconds);
  console.log(`\nwarming up (${warmup} s each) ...`);
  for (const target of targets) await measureThroughput({ ...target, connections: 50, seconds: warmup });

  console.log(`throughput at 50 connections, ${seconds} s each ...`);
  const throughput = [];
  for (const target of targets)
    throughput.push(await measureThroughput({ ...target, connections: 50, seconds }));

  console.log(`fixed 1,000 req/s, ${seconds} s each ...`);
  const fixed = [];
  for (const target of targets) fixed.push(await measureFixedRate({ ...target, rate: 1000, seconds }));

  const [directThroughput, gatewayThroughput, bareThroughput] = throughput as [
    Throughput,
    Throughput,
    Throughput,
  ];
  const [directFixed, gatewayFixed, bareFixed] = fixed as [FixedRate, FixedRate, FixedRate];
  const ratio = gatewayThroughput.requestsPerSecond / directThroughput.requestsPerSecond;
  const addedP50 = gatewayFixed.p50 - directFixed.p50;
  const addedP99 = gatewayFixed.p99 - directFixed.p99;
  const fmt = (n: number, digits = 2) => n.toFixed(digits);
  const row = (label: string, values: string[]) =>
    `  ${label.padEnd(28)}${values.map((v) => v.padStart(12)).join('')}`;
  console.log(`
GET /v1/user/me                     direct     gateway  bare proxy
${row(
  'req/s at 50 connections',
  throughput.map((t) => fmt(t.requestsPerSecond, 0)),
)}
${row(
  'errors / non-2xx',
  throughput.map((t) => `${t.errors}/${t.non2xx}`),
)}
${row(
  'fixed 1,000 req/s: achieved',
  fixed.map((f) => fmt(f.achievedRate, 0)),
)}
${row(
  'fixed 1,000 req/s: p50 ms',
  fixed.map((f) => fmt(f.p50)),
)}
${row(
  'fixed 1,000 req/s: p99 ms',
  fixed.map((f) => fmt(f.p99)),
)}
${row(
  'fixed 1,000 req/s: errors',
  fixed.map((f) => String(f.errors)),
)}

throughput ratio gateway/direct  ${fmt(ratio)}×   (target ≥ 0.50)  ${ratio >= 0.5 ? 'met' : 'MISSED'}
added latency at 1,000 req/s     p50 +${fmt(addedP50)} ms (target ≤ 2)  ${addedP50 <= 2 ? 'met' : 'MISSED'}
                                 p99 +${fmt(addedP99)} ms (target ≤ 5)  ${addedP99 <= 5 ? 'met' : 'MISSED'}
offered rate achieved, no errors ${gatewayFixed.errors === 0 && gatewayFixed.achievedRate >= 990 ? 'met' : 'MISSED'}

for comparison, a bare express + http-proxy-middleware proxy (no auth, no limits):
  throughput ratio bare/direct   ${fmt(bareThroughput.requestsPerSecond / directThroughput.requestsPerSecond)}×
  added latency at 1,000 req/s   p50 +${fmt(bareFixed.p50 - directFixed.p50)} ms, p99 +${fmt(bareFixed.p99 - directFixed.p99)} ms
`);
} finally {
  await Promise.all(processes.map((p) => p.stop()));
}
