/**
 * `npm run bench:big-values`: what one member's big values cost everyone else, in `npm start`'s
 * embedded mode, where every service shares one process and one event loop (spawned as
 * bench:embedded spawns it, on a fresh data directory):
 *   1. another user's `GET …/locales/de` and `PUT …/source` of its own project, one after the
 *      other: p50 and p99, alone
 *   2-5. the same while a first user uploads, over and over, each kind of the worst the default
 *      limits allow in turn: three values of the worst shapes (a plural of 500 branches, selects
 *      nested 333 deep, 1,000 `{name}`, each 100,000 characters) and their translations; sources
 *      and translations of values at the length and brace limits filling the 10 MiB body; a
 *      source of 200,000 keys filling it and its translations; what the limits refuse (an 8 MB
 *      plural value, 1.5 million `{name}`)
 *   6. the same beside all of them, one after the other
 *      — each at least BENCH_BIG_VALUES_CALLS calls, and until one round of those uploads is done
 * and the ratio of each p99 to the first, with the longest event-loop stall of the Tolk process in each
 * phase (Node's `monitorEventLoopDelay` as its /metrics reports it: the largest delay since the
 * previous scrape, to 10 ms). A call slower than CALL_TIMEOUT_MS counts as that long, and after
 * MAX_TIMEOUTS of them the phase stops; an answer other than 200 is counted by its status. Everything on loopback. The exit code says whether the
 * run worked, not how the figures look.
 */
import { availableParallelism, loadavg } from 'node:os';
import { SERVICE_PORTS } from '@tolk/contracts';
import {
  bigValueDocuments,
  startBigValueUploads,
  type BigValueUploads,
  type UploadKind,
} from './big-value-uploads.js';
import { bigValuesBenchConfig } from './config.js';
import { percentile } from './percentile.js';
import {
  createHttpClient,
  expectStatus,
  startEmbeddedTolkSystem,
  timeCalls,
  type HttpClient,
} from './source-system.js';

const CALL_TIMEOUT_MS = 10_000;
const MAX_TIMEOUTS = 5;
const METRICS_URL = `http://127.0.0.1:${SERVICE_PORTS.locale}/metrics`;

const config = bigValuesBenchConfig();

/**
 * The Tolk process's longest event-loop delay since the previous call, in ms (every scrape of
 * /metrics starts the measure again).
 */
async function longestStallMs(): Promise<number> {
  const text = await (await fetch(METRICS_URL)).text();
  const line = /^nodejs_eventloop_lag_max_seconds\{[^}]*\} (\S+)$/m.exec(text);
  if (!line) throw new Error('no nodejs_eventloop_lag_max_seconds in the process metrics');
  return Number(line[1]) * 1000;
}

/** A user of its own with a project of its own that has `de` as a target locale. */
async function userWithProjects(client: HttpClient, name: string, count: number) {
  const signup = await client.call('POST', '/v1/auth/signup', {
    body: { email: `bench-big-${name}-${Date.now()}@example.com`, password: 'benchmark password' },
  });
  expectStatus(signup, 201, 'POST /v1/auth/signup');
  const headers = { authorization: `Bearer ${(signup.body as { accessToken: string }).accessToken}` };
  const projectIds: string[] = [];
  for (let n = 0; n < count; n++) {
    const created = await client.call('POST', '/v1/projects', {
      headers,
      body: { name: `${name} ${n}`, sourceLocale: 'en' },
    });
    expectStatus(created, 201, 'POST /v1/projects');
    const projectId = (created.body as { projectId: string }).projectId;
    const added = await client.call('POST', `/v1/projects/${projectId}/locales`, {
      headers,
      body: { locale: 'de' },
    });
    expectStatus(added, 201, 'POST …/locales');
    projectIds.push(projectId);
  }
  return { headers, projectIds };
}

type Phase = {
  calls: number;
  timeouts: number;
  failures: Map<number, number>;
  p50: number;
  p99: number;
  stallMs: number;
};

/** The other user's locale GETs and source PUTs, alternating, one after the other. */
async function measureOtherUser(
  client: HttpClient,
  user: { headers: Record<string, string>; projectId: string },
  until: () => boolean,
): Promise<Phase> {
  await longestStallMs();
  const failures = new Map<number, number>();
  const { durations, timeouts } = await timeCalls(client, {
    calls: config.BENCH_BIG_VALUES_CALLS,
    until,
    timeoutMs: CALL_TIMEOUT_MS,
    maxTimeouts: MAX_TIMEOUTS,
    request: (n) => {
      const put = n % 2 === 1;
      return {
        method: put ? 'PUT' : 'GET',
        path: `/v1/projects/${user.projectId}/${put ? 'source' : 'locales/de'}`,
        headers: user.headers,
        body: put ? { greeting: `Hello {name} ${n}`, farewell: 'Goodbye' } : undefined,
      };
    },
    // An answer other than 200 (a 504 when a service did not answer the gateway in time) is
    // counted, with how long it took.
    check: (answer) => {
      if (answer.status !== 200) failures.set(answer.status, (failures.get(answer.status) ?? 0) + 1);
    },
  });
  return {
    calls: durations.length,
    timeouts,
    failures,
    p50: percentile(durations, 50),
    p99: percentile(durations, 99),
    stallMs: await longestStallMs(),
  };
}

let system: Awaited<ReturnType<typeof startEmbeddedTolkSystem>> | undefined;
const clients: HttpClient[] = [];
let exitCode = 0;
try {
  console.log('building the documents ...');
  const documents = bigValueDocuments();
  console.log(
    `starting the embedded Tolk, gateway on 127.0.0.1:${config.BENCH_BIG_VALUES_PORT}, services on 8081-8086 ...`,
  );
  system = await startEmbeddedTolkSystem({
    port: config.BENCH_BIG_VALUES_PORT,
    // The stalls are read from locale-service's own /metrics; the gateway's is not needed.
    env: { METRICS_PORT: '0' },
    log: (line) => console.log(line),
    onExit: (how) => {
      console.error(`the embedded Tolk exited unexpectedly (${how}); stopping.`);
      process.exit(1);
    },
  });
  // Separate clients: the other user's pool of connections is its own, as on separate machines.
  const setup = createHttpClient(system.gatewayUrl);
  const otherClient = createHttpClient(system.gatewayUrl);
  clients.push(setup, otherClient);
  const big = await userWithProjects(setup, 'big', 3);
  const other = await userWithProjects(setup, 'other', 1);
  const otherUser = { headers: other.headers, projectId: other.projectIds[0]! };
  expectStatus(
    await otherClient.call('PUT', `/v1/projects/${otherUser.projectId}/source`, {
      headers: otherUser.headers,
      body: { greeting: 'Hello {name}' },
    }),
    200,
    'the first PUT of the source',
  );
  for (let n = 0; n < 20; n++) {
    await otherClient.call('GET', `/v1/projects/${otherUser.projectId}/locales/de`, {
      headers: otherUser.headers,
    });
  }

  console.log(`(1) ${config.BENCH_BIG_VALUES_CALLS} locale GET/source PUT of the other user, alone ...`);
  const alone = await measureOtherUser(otherClient, otherUser, () => true);

  const [many, huge, worst] = big.projectIds as [string, string, string];
  /** The other user beside the first one's uploads of `kinds`, over and over, until a round is done. */
  const beside = async (kinds?: readonly UploadKind[]) => {
    const uploads = startBigValueUploads({
      baseUrl: system!.gatewayUrl,
      headers: big.headers,
      projects: { many, huge, worst },
      documents,
      kinds,
    });
    try {
      const phase = await measureOtherUser(otherClient, otherUser, () => uploads.rounds() > 0);
      return { phase, uploads };
    } finally {
      await uploads.stop();
    }
  };
  const phases: { name: string; phase: Phase; uploads?: BigValueUploads }[] = [
    { name: 'other user, alone', phase: alone },
  ];
  const kindsOf: [string, UploadKind[] | undefined][] = [
    ['beside the worst values allowed', ['worst']],
    ['beside values at the limits', ['huge']],
    ['beside 200,000 keys', ['many']],
    ['beside values past the limits', ['refused']],
    ['beside all of them', undefined],
  ];
  for (const [n, [name, kinds]] of kindsOf.entries()) {
    console.log(`(${n + 2}) the same ${name} (one user uploading them over and over) ...`);
    phases.push({ name, ...(await beside(kinds)) });
  }

  const row = (name: string, phase: Phase) =>
    `${name.padEnd(36)}${phase.p50.toFixed(1).padStart(10)}${phase.p99.toFixed(1).padStart(10)}` +
    `${phase.stallMs.toFixed(0).padStart(14)}   ${phase.calls} calls` +
    (phase.timeouts > 0 ? `, ${phase.timeouts} over ${CALL_TIMEOUT_MS} ms` : '') +
    [...phase.failures].map(([status, count]) => `, ${count} answered ${status}`).join('');
  console.log('');
  console.log(
    `load average at the end: ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')} (${availableParallelism()} cores)`,
  );
  console.log(
    `${''.padEnd(36)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'longest stall'.padStart(14)}`,
  );
  for (const { name, phase } of phases) console.log(row(name, phase));
  for (const { name, phase, uploads } of phases.slice(1)) {
    console.log(
      `${name}: p99 ${(phase.p99 / alone.p99).toFixed(2)}× alone; uploads (${uploads!.rounds()} whole rounds): ` +
        [...uploads!.outcomes].map(([outcome, count]) => `${outcome} ×${count}`).join(', '),
    );
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  for (const client of clients) client.close();
  await system?.stop();
}
process.exit(exitCode);
