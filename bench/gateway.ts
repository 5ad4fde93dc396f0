/**
 * `npm run bench:gateway`: an authenticated GET (`/v1/user/me`) through the gateway against the
 * same GET straight to identity-service, measured in one run on this machine.
 *   - throughput at 50 connections: target gateway ≥ 0.5× direct
 *   - a fixed 1,000 req/s: target gateway adds ≤ 2 ms at p50 and ≤ 5 ms at p99, no errors
 * each in BENCH_ROUNDS rounds (default 3) with the targets in rotating order, the figures being
 * medians over the rounds (each round's ratio and added p99 printed too);
 * and, through the gateway, `GET /v1/projects/{id}` with a project API token against the same GET
 * with the user's access token (JWT), in alternating rounds at 50 connections: target token ≥ 0.9×
 * JWT; every answer must be 200, else the run fails.
 * A third column runs the same GET through a bare express + http-proxy-middleware proxy (no token
 * check, no limits): the floor of the gateway's stack on this machine, so what is the stack's and
 * what is Tolk's own work can be told apart.
 * Uses the Postgres, Redis and RabbitMQ of DATABASE_URL / REDIS_URL / AMQP_URL (local default
 * ports when unset). token-service consumes the queue `token-service`, as under `npm start`: the
 * bench refuses to run beside it.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { createPrincipalSigner } from '@tolk/http';
import { ROOT, supervise, waitForHealthy } from '../scripts/processes.js';
import { measureThroughput, type Throughput } from './load.js';
import { measureFixedRateRaw as measureFixedRate, type FixedRate } from './raw-load.js';
import { benchConfig } from './config.js';
import { deleteQueues, inspectServiceQueues } from './service-queues.js';
import { inheritedEnvironment } from '../scripts/config.js';

const config = benchConfig();
const seconds = config.BENCH_SECONDS;
const rounds = config.BENCH_ROUNDS;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
const databaseName = 'tolk_bench_gateway';
const connections = 50;
/** Rounds of each kind of token; alternated, so drift over the run reaches both alike. */
const tokenRounds = 3;
/** The queues the services consume under fixed names; shared with `npm start` on the same broker. */
const SERVICE_QUEUES = ['token-service'];

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
const projectPort = 18083;
const tokenPort = 18084;
const runId = randomBytes(6).toString('hex');
// The gateway's queues and Redis keys are named per run, so nothing mixes with another gateway's
// on the same servers and they can be removed without touching anyone's.
const gatewayQueues = {
  membership: `bench-gateway.gateway.membership-cache.${runId}`,
  tokens: `bench-gateway.gateway.token-revocations.${runId}`,
};
const createdQueues = [
  ...(await inspectServiceQueues(config.AMQP_URL, SERVICE_QUEUES, console.log)),
  ...Object.values(gatewayQueues),
];
const common = {
  ...inheritedEnvironment(),
  LOG_LEVEL: 'warn',
  INTERNAL_JWT_SECRET: internalSecret,
  DATABASE_URL: await recreateDatabase(),
  REDIS_URL: config.REDIS_URL,
  AMQP_URL: config.AMQP_URL,
};
/** One process crashed for good: the others are stopped too, never left running behind the bench. */
function giveUp(): void {
  void Promise.allSettled([...proxies, ...services].map((p) => p.stop())).then(() => process.exit(1));
}
const services = [
  supervise(
    {
      name: 'identity-service',
      entry: path.join(ROOT, 'services/identity-service/src/start.ts'),
      port: identityPort,
      env: { ...common, JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    },
    0,
    giveUp,
  ),
  supervise(
    {
      name: 'project-service',
      entry: path.join(ROOT, 'services/project-service/src/start.ts'),
      port: projectPort,
      env: { ...common, IDENTITY_SERVICE_URL: `http://127.0.0.1:${identityPort}` },
    },
    1,
    giveUp,
  ),
  supervise(
    {
      name: 'token-service',
      entry: path.join(ROOT, 'services/token-service/src/start.ts'),
      port: tokenPort,
      env: {
        ...common,
        PROJECT_SERVICE_URL: `http://127.0.0.1:${projectPort}`,
        IDENTITY_SERVICE_URL: `http://127.0.0.1:${identityPort}`,
      },
    },
    2,
    giveUp,
  ),
];
const proxies = [
  supervise(
    {
      name: 'gateway',
      entry: path.join(ROOT, 'gateway/src/start.ts'),
      port: gatewayPort,
      env: {
        ...common,
        JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        IDENTITY_SERVICE_URL: `http://127.0.0.1:${identityPort}`,
        PROJECT_SERVICE_URL: `http://127.0.0.1:${projectPort}`,
        TOKEN_SERVICE_URL: `http://127.0.0.1:${tokenPort}`,
        RATE_LIMIT_KEY_PREFIX: `tolk-bench-gateway:${runId}`,
        MEMBERSHIP_CACHE_KEY_PREFIX: `tolk-bench-gateway:${runId}:membership`,
        MEMBERSHIP_EVENTS_QUEUE: gatewayQueues.membership,
        TOKEN_CACHE_KEY_PREFIX: `tolk-bench-gateway:${runId}:tokens`,
        TOKEN_EVENTS_QUEUE: gatewayQueues.tokens,
        // The general per-principal limit is set out of the way: this measures proxying, not 429s.
        RATE_LIMIT_PER_USER: '100000000',
      },
    },
    3,
    giveUp,
  ),
  supervise(
    {
      name: 'bare-proxy',
      entry: path.join(ROOT, 'bench/bare-proxy.ts'),
      port: bareProxyPort,
      env: { ...common, TARGET_URL: `http://127.0.0.1:${identityPort}` },
    },
    4,
    giveUp,
  ),
];

/** A call through the gateway that must answer `expected`; its JSON body. */
async function callGateway(
  method: 'GET' | 'POST',
  target: string,
  options: { accessToken?: string; body?: Record<string, unknown>; expected: number },
): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (options.accessToken) headers['authorization'] = `Bearer ${options.accessToken}`;
  if (options.body) headers['content-type'] = 'application/json';
  const response = await fetch(`http://127.0.0.1:${gatewayPort}${target}`, {
    method,
    headers,
    body: options.body && JSON.stringify(options.body),
  });
  const text = await response.text();
  if (response.status !== options.expected)
    throw new Error(`${method} ${target} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

try {
  for (const port of [identityPort, projectPort, tokenPort, gatewayPort, bareProxyPort])
    await waitForHealthy(`http://127.0.0.1:${port}/healthz`, 30_000);

  const { accessToken, user } = (await callGateway('POST', '/v1/auth/signup', {
    body: { email: `bench-${Date.now()}@example.com`, password: 'benchmark password' },
    expected: 201,
  })) as { accessToken: string; user: { userId: string } };
  const { projectId } = (await callGateway('POST', '/v1/projects', {
    accessToken,
    body: { name: 'Gateway benchmark', sourceLocale: 'en' },
    expected: 201,
  })) as { projectId: string };
  const { token: projectToken } = (await callGateway(
    'POST',
    `/v1/projects/${encodeURIComponent(projectId)}/tokens`,
    { accessToken, body: { label: 'gateway benchmark', permissions: 'read' }, expected: 201 },
  )) as { token: string };

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
  const projectUrl = `http://127.0.0.1:${gatewayPort}/v1/projects/${encodeURIComponent(projectId)}`;
  const projectWithJwt = { url: projectUrl, headers: { authorization: `Bearer ${accessToken}` } };
  const projectWithToken = { url: projectUrl, headers: { authorization: `Bearer ${projectToken}` } };
  for (const target of [...targets, projectWithJwt, projectWithToken]) {
    const check = await fetch(target.url, { headers: target.headers });
    if (check.status !== 200)
      throw new Error(`${target.url} answered ${check.status}: ${await check.text()}`);
  }

  const warmup = Math.min(3, seconds);
  console.log(`\nwarming up (${warmup} s each) ...`);
  for (const target of [...targets, projectWithJwt, projectWithToken])
    await measureThroughput({ ...target, connections, seconds: warmup });

  // Every measurement in `rounds` rounds, the three targets in a rotating order (direct, gateway,
  // bare | gateway, bare, direct | ...): a burst of background work on the machine lands on one
  // round of one target, and the median over the rounds leaves it out.
  const rotated = <T>(items: readonly T[], round: number) =>
    items.map((_, i) => items[(i + round) % items.length]!);
  const targetIndexes = targets.map((_, i) => i);
  console.log(`throughput at ${connections} connections, ${rounds} rounds of ${seconds} s each ...`);
  const throughputRounds: Throughput[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const i of rotated(targetIndexes, round)) {
      throughputRounds[i]!.push(await measureThroughput({ ...targets[i]!, connections, seconds }));
    }
  }

  console.log(`fixed 1,000 req/s, ${rounds} rounds of ${seconds} s each ...`);
  const fixedRounds: FixedRate[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const i of rotated(targetIndexes, round)) {
      fixedRounds[i]!.push(await measureFixedRate({ ...targets[i]!, rate: 1000, seconds }));
    }
  }
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const throughput: Throughput[] = throughputRounds.map((runs) => ({
    requestsPerSecond: median(runs.map((t) => t.requestsPerSecond)),
    errors: sum(runs.map((t) => t.errors)),
    non2xx: sum(runs.map((t) => t.non2xx)),
    p50: median(runs.map((t) => t.p50)),
    p99: median(runs.map((t) => t.p99)),
  }));
  const fixed = fixedRounds.map((runs) => ({
    achievedRate: Math.min(...runs.map((f) => f.achievedRate)),
    errors: sum(runs.map((f) => f.errors)),
    p50: median(runs.map((f) => f.p50)),
    p99: median(runs.map((f) => f.p99)),
  }));

  console.log(
    `GET /v1/projects/{id} with a JWT and with a project API token: ${tokenRounds} rounds each of ${seconds} s, alternating ...`,
  );
  const withJwt: Throughput[] = [];
  const withToken: Throughput[] = [];
  for (let round = 0; round < tokenRounds; round++) {
    // JWT, token | token, JWT | JWT, token: a drift over the run reaches both about alike.
    const order = round % 2 === 0 ? (['jwt', 'token'] as const) : (['token', 'jwt'] as const);
    for (const kind of order) {
      if (kind === 'jwt') withJwt.push(await measureThroughput({ ...projectWithJwt, connections, seconds }));
      else withToken.push(await measureThroughput({ ...projectWithToken, connections, seconds }));
    }
  }

  const [directThroughput, gatewayThroughput, bareThroughput] = throughput as [
    Throughput,
    Throughput,
    Throughput,
  ];
  const [directFixed, gatewayFixed, bareFixed] = fixed as [
    (typeof fixed)[number],
    (typeof fixed)[number],
    (typeof fixed)[number],
  ];
  const perRound = (of: (round: number) => number) => Array.from({ length: rounds }, (_, round) => of(round));
  const roundThroughputRatios = perRound(
    (r) => throughputRounds[1]![r]!.requestsPerSecond / throughputRounds[0]![r]!.requestsPerSecond,
  );
  const roundAddedP99 = perRound((r) => fixedRounds[1]![r]!.p99 - fixedRounds[0]![r]!.p99);
  const roundBareAddedP99 = perRound((r) => fixedRounds[2]![r]!.p99 - fixedRounds[0]![r]!.p99);
  const ratio = gatewayThroughput.requestsPerSecond / directThroughput.requestsPerSecond;
  const addedP50 = gatewayFixed.p50 - directFixed.p50;
  const addedP99 = gatewayFixed.p99 - directFixed.p99;
  const total = (rounds: Throughput[], of: (t: Throughput) => number) =>
    rounds.reduce((sum, t) => sum + of(t), 0);
  const meanRate = (rounds: Throughput[]) => total(rounds, (t) => t.requestsPerSecond) / rounds.length;
  const tokenRatio = meanRate(withToken) / meanRate(withJwt);
  const roundRatios = withToken.map((t, i) => t.requestsPerSecond / withJwt[i]!.requestsPerSecond);
  const tokenFailures = total([...withJwt, ...withToken], (t) => t.errors + t.non2xx);
  const fmt = (n: number, digits = 2) => n.toFixed(digits);
  const row = (label: string, values: string[]) =>
    `  ${label.padEnd(28)}${values.map((v) => v.padStart(12)).join('')}`;
  console.log(`
${`GET /v1/user/me (median of ${rounds})`.padEnd(30)}${['direct', 'gateway', 'bare proxy'].map((v) => v.padStart(12)).join('')}
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
  per round: throughput ratio    ${roundThroughputRatios.map((r) => `${fmt(r)}×`).join('  ')}
  per round: added p99 ms        ${roundAddedP99.map((r) => `+${fmt(r)}`).join('  ')}

for comparison, a bare express + http-proxy-middleware proxy (no auth, no limits):
  throughput ratio bare/direct   ${fmt(bareThroughput.requestsPerSecond / directThroughput.requestsPerSecond)}×
  added latency at 1,000 req/s   p50 +${fmt(bareFixed.p50 - directFixed.p50)} ms, p99 +${fmt(bareFixed.p99 - directFixed.p99)} ms
  per round: added p99 ms        ${roundBareAddedP99.map((r) => `+${fmt(r)}`).join('  ')}

${'GET /v1/projects/{id} via gateway'.padEnd(30)}${['JWT', 'API token'].map((v) => v.padStart(12)).join('')}
${withJwt
  .map((jwt, i) =>
    row(`round ${i + 1}: req/s at ${connections} conn.`, [
      fmt(jwt.requestsPerSecond, 0),
      fmt(withToken[i]!.requestsPerSecond, 0),
    ]),
  )
  .join('\n')}
${row('mean req/s', [fmt(meanRate(withJwt), 0), fmt(meanRate(withToken), 0)])}
${row(
  'errors / non-2xx',
  [withJwt, withToken].map((rounds) => `${total(rounds, (t) => t.errors)}/${total(rounds, (t) => t.non2xx)}`),
)}

throughput ratio token/JWT       ${fmt(tokenRatio)}×   (target ≥ 0.90)  ${tokenRatio >= 0.9 && tokenFailures === 0 ? 'met' : 'MISSED'}
  per round                      ${roundRatios.map((r) => `${fmt(r)}×`).join('  ')}
`);
  if (tokenFailures > 0) {
    throw new Error(
      `GET /v1/projects/{id} failed ${tokenFailures} time(s) (errors or answers other than 2xx, see the ` +
        'table): the token/JWT ratio means nothing until every answer is 200',
    );
  }
} finally {
  // The proxies first: what they still hold of the last round is answered by live services, not
  // turned into 503s by services that are going away.
  await Promise.all(proxies.map((p) => p.stop()));
  await Promise.all(services.map((p) => p.stop()));
  await deleteQueues(config.AMQP_URL, createdQueues, console.log).catch((err: unknown) =>
    console.log(`could not remove the bench's queues: ${(err as Error).message}`),
  );
}
