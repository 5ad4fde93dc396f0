/**
 * `npm run bench:slow-clients`: what one user's slow uploads do to everyone else (issue 13, item 1),
 * measured in one run through the real gateway in front of the real services (as bench:source
 * starts them, with the default limits), on Postgres, RabbitMQ and Redis:
 *   1. another user's source GET and PUT, one after the other: p50 and p99, alone
 *   2. the same while the first user holds BENCH_SLOW_CLIENTS uploads (600) that each send a byte
 *      every BENCH_SLOW_EVERY_MS (5 s) and are reopened whenever the gateway ends one
 * and the ratio of the two p99s. A call slower than CALL_TIMEOUT_MS counts as that long, and
 * after MAX_TIMEOUTS of them the phase stops: its p99 is then past the timeout anyway.
 * Everything on loopback. The exit code says whether the run worked, not how the figures look.
 */
import { slowClientsBenchConfig } from './config.js';
import { percentile } from './percentile.js';
import { startSlowUploads } from './slow-uploads.js';
import {
  createHttpClient,
  startBenchTolk,
  timeCalls,
  type HttpClient,
  type TolkSystem,
  expectStatus,
} from './source-system.js';

const CALL_TIMEOUT_MS = 10_000;
const MAX_TIMEOUTS = 5;

const config = slowClientsBenchConfig();

/** A user of its own with a project of its own; `sourcePath` is that project's source. */
async function userWithProject(client: HttpClient, name: string) {
  const signup = await client.call('POST', '/v1/auth/signup', {
    body: { email: `bench-slow-${name}-${Date.now()}@example.com`, password: 'benchmark password' },
  });
  expectStatus(signup, 201, 'POST /v1/auth/signup');
  const headers = { authorization: `Bearer ${(signup.body as { accessToken: string }).accessToken}` };
  const created = await client.call('POST', '/v1/projects', { headers, body: { name, sourceLocale: 'en' } });
  expectStatus(created, 201, 'POST /v1/projects');
  const sourcePath = `/v1/projects/${(created.body as { projectId: string }).projectId}/source`;
  return { headers, sourcePath };
}

type Phase = { calls: number; timeouts: number; p50: number; p99: number };

/** The other user's GETs and PUTs of its source, alternating, one after the other. */
async function measureOtherUser(
  client: HttpClient,
  user: { headers: Record<string, string>; sourcePath: string },
): Promise<Phase> {
  const { durations, timeouts } = await timeCalls(client, {
    calls: config.BENCH_SLOW_CALLS,
    timeoutMs: CALL_TIMEOUT_MS,
    maxTimeouts: MAX_TIMEOUTS,
    request: (n) => ({
      method: n % 2 === 1 ? 'PUT' : 'GET',
      path: user.sourcePath,
      headers: user.headers,
      body: n % 2 === 1 ? { greeting: `Hello ${n}`, farewell: 'Goodbye' } : undefined,
    }),
    check: (answer, what) => expectStatus(answer, 200, what),
  });
  return {
    calls: durations.length,
    timeouts,
    p50: percentile(durations, 50),
    p99: percentile(durations, 99),
  };
}

let system: TolkSystem | undefined;
const clients: HttpClient[] = [];
let exitCode = 0;
try {
  system = await startBenchTolk('slow_clients', config, config.BENCH_SLOW_PORT, (line) => console.log(line));
  // Separate clients: the other user's pool of connections is its own, as on separate machines.
  const setup = createHttpClient(system.gatewayUrl);
  const otherClient = createHttpClient(system.gatewayUrl);
  clients.push(setup, otherClient);
  const slowUser = await userWithProject(setup, 'slow');
  const otherUser = await userWithProject(setup, 'other');
  expectStatus(
    await otherClient.call('PUT', otherUser.sourcePath, {
      headers: otherUser.headers,
      body: { greeting: 'Hello' },
    }),
    200,
    'the first PUT of the source',
  );
  for (let n = 0; n < 20; n++)
    await otherClient.call('GET', otherUser.sourcePath, { headers: otherUser.headers });

  console.log(`(1) ${config.BENCH_SLOW_CALLS} source GET/PUT of the other user, alone ...`);
  const alone = await measureOtherUser(otherClient, otherUser);

  console.log(
    `(2) the same beside ${config.BENCH_SLOW_CLIENTS} slow uploads of one user, a byte every ${config.BENCH_SLOW_EVERY_MS} ms each ...`,
  );
  const slow = await startSlowUploads({
    url: `${system.gatewayUrl}${slowUser.sourcePath}`,
    headers: { ...slowUser.headers, 'content-type': 'application/json' },
    count: config.BENCH_SLOW_CLIENTS,
    everyMs: config.BENCH_SLOW_EVERY_MS,
    reopen: true,
  });
  let beside: Phase;
  try {
    beside = await measureOtherUser(otherClient, otherUser);
  } finally {
    slow.stop();
  }

  const row = (name: string, phase: Phase) =>
    `${name.padEnd(34)}${phase.p50.toFixed(1).padStart(10)}${phase.p99.toFixed(1).padStart(10)}` +
    `   ${phase.calls} calls${phase.timeouts > 0 ? `, ${phase.timeouts} over ${CALL_TIMEOUT_MS} ms` : ''}`;
  const ended = [...slow.outcomes].map(([outcome, count]) => `${outcome}: ${count}`).join(', ');
  console.log('');
  console.log(`${''.padEnd(34)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}`);
  console.log(row('other user, alone', alone));
  console.log(row('other user, beside slow uploads', beside));
  console.log(`p99 beside slow uploads / alone: ${(beside.p99 / alone.p99).toFixed(2)}×`);
  console.log(`slow uploads the gateway ended meanwhile: ${ended || 'none'}`);
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  for (const client of clients) client.close();
  await system?.stop();
}
process.exit(exitCode);
