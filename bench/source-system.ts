/**
 * Tolk as the source benchmark runs it, in one of two modes:
 * - servers: identity-, project-, source- and locale-service and the gateway as child processes
 *   (supervised as `npm start` does) on ports of their own, against one freshly created database
 *   and the local Redis and RabbitMQ;
 * - embedded: `npm start`'s embedded mode, everything in one process on a fresh data directory;
 * and a keep-alive HTTP client that times each exchange until the last byte of the answer.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { SERVICE_PORTS } from '@tolk/contracts';
import { inheritedEnvironment } from '../scripts/config.js';
import { ROOT, supervise, waitForHealthy } from '../scripts/processes.js';
import {
  assertEmbeddedPortsFree,
  isFree,
  spawnEmbeddedTolk,
  type EmbeddedStart,
  type EmbeddedTolkProcess,
} from './embedded-process.js';
import { deleteQueues, inspectServiceQueues } from './service-queues.js';

/** The queues the services consume with fixed names; shared with `npm start` on the same broker. */
const SERVICE_QUEUES = ['source-service', 'locale-service'];

/** Settings that would change the limits under test; the bench runs with the defaults. */
const LIMIT_VARIABLES = [
  'MAX_BODY_BYTES',
  'SOURCE_MAX_BODY_BYTES',
  'SOURCE_MAX_KEYS',
  'SOURCE_MAX_DEPTH',
  'SOURCE_MAX_KEY_LENGTH',
];

async function recreateDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export type TolkSystem = {
  gatewayUrl: string;
  /** The run's database (absent for the embedded process, which keeps its own). */
  databaseUrl?: string;
  sourceServiceUrl: string;
  /** What the gateway signs principals with, for calls straight to a service. */
  internalSecret: string;
  /** CPU seconds each process has used so far (see cpuSeconds); absent for the embedded process. */
  cpu?: () => Promise<CpuSeconds>;
  stop(): Promise<void>;
};

/** CPU seconds by process: each service, the gateway, `postgres` (the run's backends). */
export type CpuSeconds = Record<string, number>;

/** Clock ticks a second of /proc/PID/stat's times (USER_HZ, 100 on Linux everywhere). */
const TICKS = 100;

/** User and system CPU seconds of process `pid` (Linux: /proc), 0 when it is gone or not readable. */
async function processCpu(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds by process of a running system (`cpu`): its node processes and the Postgres
 * backends connected to its database now; differences of two show what a step cost each, which
 * a loaded machine shows truer than wall-clock time. Backends that ended in between are missed.
 */
async function cpuOf(
  processes: readonly { name: string; pid: number | undefined }[],
  databaseUrl: string,
): Promise<CpuSeconds> {
  const seconds: CpuSeconds = {};
  for (const { name, pid } of processes) seconds[name] = pid === undefined ? 0 : await processCpu(pid);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    let postgres = 0;
    for (const { pid } of rows) postgres += await processCpu(pid);
    seconds['postgres'] = postgres;
  } finally {
    await db.end();
  }
  return seconds;
}

/** What each process used between two snapshots, and the bench's own process. */
export function cpuBetween(before: CpuSeconds, after: CpuSeconds): CpuSeconds {
  const spent: CpuSeconds = {};
  for (const [name, value] of Object.entries(after)) spent[name] = Math.max(0, value - (before[name] ?? 0));
  return spent;
}

/** The bench process's own CPU seconds (the in-process CLI's). */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** `cli 12.3 s, locale-service 20.1 s, …` of what `cpuBetween` gave. */
export function describeCpu(spent: CpuSeconds): string {
  return Object.entries(spent)
    .filter(([, value]) => value >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, value]) => `${name} ${value.toFixed(1)} s`)
    .join(', ');
}

/**
 * Starts the services, then the gateway in front of them, and waits until all answer /healthz.
 * `onGiveUp` is called when one keeps crashing. `stop` ends every process and removes the queues
 * the run created; the database stays for inspection (it is recreated by the next run).
 */
export async function startTolk(options: {
  databaseName: string;
  adminDatabaseUrl: string;
  amqpUrl: string;
  redisUrl: string;
  basePort: number;
  log: (line: string) => void;
  onGiveUp: (name: string) => void;
}): Promise<TolkSystem> {
  const { amqpUrl, basePort, log } = options;
  const ports = {
    gateway: basePort,
    identity: basePort + 1,
    project: basePort + 2,
    source: basePort + 3,
    locale: basePort + 4,
  };
  const busy = [];
  for (const port of Object.values(ports)) if (!(await isFree(port))) busy.push(port);
  if (busy.length > 0) {
    throw new Error(
      `port(s) ${busy.join(', ')} in use; set BENCH_SOURCE_PORT to the first of five free ones`,
    );
  }
  const createdQueues = await inspectServiceQueues(amqpUrl, SERVICE_QUEUES, log);
  const runId = randomBytes(6).toString('hex');
  // The gateway's own queue is named per run, so it can be removed without touching anyone's.
  const gatewayQueue = `bench-source.gateway.membership-cache.${runId}`;
  createdQueues.push(gatewayQueue);

  const databaseUrl = await recreateDatabase(options.adminDatabaseUrl, options.databaseName);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const internalSecret = randomBytes(32).toString('base64url');
  const common: NodeJS.ProcessEnv = {
    ...inheritedEnvironment(),
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    INTERNAL_JWT_SECRET: internalSecret,
    DATABASE_URL: databaseUrl,
    AMQP_URL: amqpUrl,
  };
  for (const name of LIMIT_VARIABLES) delete common[name];
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const services = [
    {
      name: 'identity-service',
      port: ports.identity,
      env: { JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    },
    { name: 'project-service', port: ports.project, env: { IDENTITY_SERVICE_URL: url(ports.identity) } },
    {
      name: 'source-service',
      port: ports.source,
      env: { PROJECT_SERVICE_URL: url(ports.project), IDENTITY_SERVICE_URL: url(ports.identity) },
    },
    {
      name: 'locale-service',
      port: ports.locale,
      env: {
        PROJECT_SERVICE_URL: url(ports.project),
        SOURCE_SERVICE_URL: url(ports.source),
        IDENTITY_SERVICE_URL: url(ports.identity),
      },
    },
  ];
  const gateway = {
    name: 'gateway',
    port: ports.gateway,
    env: {
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      REDIS_URL: options.redisUrl,
      IDENTITY_SERVICE_URL: url(ports.identity),
      PROJECT_SERVICE_URL: url(ports.project),
      SOURCE_SERVICE_URL: url(ports.source),
      LOCALE_SERVICE_URL: url(ports.locale),
      // Keys and queue of this run only, so nothing mixes with another gateway's on the same servers.
      RATE_LIMIT_KEY_PREFIX: `tolk-bench-source:${runId}`,
      MEMBERSHIP_CACHE_KEY_PREFIX: `tolk-bench-source:${runId}:membership`,
      MEMBERSHIP_EVENTS_QUEUE: gatewayQueue,
      // No metrics server: its fixed port would keep two benches from running side by side.
      METRICS_PORT: '0',
      // The bench polls in a tight loop: the limits are set out of its way.
      RATE_LIMIT_PER_USER: '100000000',
      RATE_LIMIT_PER_IP: '100000000',
    },
  };

  const running: ReturnType<typeof supervise>[] = [];
  const start = (spec: { name: string; port: number; env: NodeJS.ProcessEnv }) => {
    const entry =
      spec.name === 'gateway'
        ? path.join(ROOT, 'gateway/src/start.ts')
        : path.join(ROOT, 'services', spec.name, 'src/start.ts');
    running.push(
      supervise(
        { name: spec.name, entry, port: spec.port, env: { ...common, ...spec.env } },
        running.length,
        () => options.onGiveUp(spec.name),
      ),
    );
  };
  const stop = async () => {
    await Promise.all(running.map((p) => p.stop()));
    await deleteQueues(amqpUrl, createdQueues, log).catch((err: unknown) =>
      log(`could not remove the bench's queues: ${(err as Error).message}`),
    );
  };

  try {
    for (const service of services) start(service);
    await Promise.all(services.map((s) => waitForHealthy(`${url(s.port)}/healthz`, 60_000)));
    start(gateway);
    await waitForHealthy(`${url(gateway.port)}/healthz`, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    gatewayUrl: url(ports.gateway),
    databaseUrl,
    sourceServiceUrl: url(ports.source),
    internalSecret,
    cpu: async () => ({
      ...(await cpuOf(running, databaseUrl)),
      'bench (the CLI)': ownCpuSeconds(),
    }),
    stop,
  };
}

/**
 * startTolk as a bench run starts it: on database `tolk_bench_<name>` of the configured
 * servers, logging to `log`; a service that keeps crashing ends the run.
 */
export function startBenchTolk(
  name: string,
  servers: { DATABASE_URL: string; AMQP_URL: string; REDIS_URL: string },
  basePort: number,
  log: (line: string) => void,
): Promise<TolkSystem> {
  log(`starting Tolk on 127.0.0.1:${basePort}-${basePort + 4} ...`);
  return startTolk({
    databaseName: `tolk_bench_${name}`,
    adminDatabaseUrl: servers.DATABASE_URL,
    amqpUrl: servers.AMQP_URL,
    redisUrl: servers.REDIS_URL,
    basePort,
    log,
    onGiveUp: (service) => {
      console.error(`${service} keeps crashing; stopping.`);
      process.exit(1);
    },
  });
}

/**
 * Starts the embedded Tolk as `npm start` does with none of DATABASE_URL, AMQP_URL and REDIS_URL
 * set (bench/embedded-process.ts), the gateway on `port`: once on an empty data directory to
 * create the database, then again on it, as every later `npm start` runs — a first start's process
 * keeps the memory PGlite's initdb took (bench:embedded shows both). `onExit` is called if the
 * second exits before `stop`, which also removes the data directory.
 */
export async function startEmbeddedTolkSystem(options: {
  port: number;
  log: (line: string) => void;
  onExit: (how: string) => void;
  /** Settings of its own. */
  env?: Record<string, string>;
}): Promise<TolkSystem & { pid: number; start: EmbeddedStart }> {
  await assertEmbeddedPortsFree(options.port);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tolk-bench-source-'));
  // Given to it rather than generated, so the bench can sign principals for source-service.
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const internalSecret = randomBytes(32).toString('base64url');
  const spawnTolk = (onExit?: (how: string) => void) =>
    spawnEmbeddedTolk({
      dataDir,
      port: options.port,
      env: {
        JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        INTERNAL_JWT_SECRET: internalSecret,
        ...options.env,
      },
      onWarning: (line) => options.log(`tolk: ${line}`),
      onExit,
    });
  let tolk: EmbeddedTolkProcess | undefined;
  const stop = async () => {
    await tolk?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    tolk = spawnTolk();
    await tolk.ready(120_000);
    await tolk.stop();
    tolk = spawnTolk(options.onExit);
    const start = await tolk.ready(120_000);
    return {
      gatewayUrl: tolk.url,
      sourceServiceUrl: `http://127.0.0.1:${SERVICE_PORTS.source}`,
      internalSecret,
      pid: tolk.pid,
      start,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

export type Answer = { status: number; body: unknown; ms: number };

/** Throws, naming the call and the start of its body, unless `answer` has `status`. */
export function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) {
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    throw new Error(`${what} answered ${answer.status}, expected ${status}: ${body.slice(0, 500)}`);
  }
}

/**
 * Requests over one pool of kept-alive connections; `ms` runs from sending the request to the
 * last byte of the answer. JSON is parsed after the clock stops.
 */
export function createHttpClient(baseUrl: string, options: { maxSockets?: number } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 4 });
  const base = new URL(baseUrl);

  return {
    call(
      method: string,
      target: string,
      options: {
        headers?: Record<string, string>;
        body?: Buffer | Record<string, unknown>;
        /** Gives up on the exchange (the promise rejects with an AbortError). */
        signal?: AbortSignal;
      } = {},
    ): Promise<Answer> {
      const body = Buffer.isBuffer(options.body)
        ? options.body
        : options.body === undefined
          ? undefined
          : Buffer.from(JSON.stringify(options.body));
      const headers: http.OutgoingHttpHeaders = { ...options.headers };
      if (body) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = body.length;
      }
      return new Promise((resolve, reject) => {
        const started = performance.now();
        const request = http.request(
          {
            agent,
            host: base.hostname,
            port: base.port,
            method,
            path: target,
            headers,
            signal: options.signal,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.once('error', reject);
            response.once('end', () => {
              const ms = performance.now() - started;
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown = text;
              try {
                parsed = text === '' ? undefined : JSON.parse(text);
              } catch {
                // not JSON: kept as text for the error message
              }
              resolve({ status: response.statusCode ?? 0, body: parsed, ms });
            });
          },
        );
        request.once('error', reject);
        request.end(body);
      });
    },
    close(): void {
      agent.destroy();
    },
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

/**
 * Another user's calls, one after the other, timed: `request(n)` is the n-th, made at least
 * `calls` times and until `until()` says so. A call slower than `timeoutMs` counts as that long,
 * and after `maxTimeouts` of them the calls stop; `check` sees every answer.
 */
export async function timeCalls(
  client: HttpClient,
  options: {
    calls: number;
    until?: () => boolean;
    timeoutMs: number;
    maxTimeouts: number;
    request: (n: number) => {
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: Record<string, unknown>;
    };
    check: (answer: Answer, what: string) => void;
  },
): Promise<{ durations: number[]; timeouts: number }> {
  const { calls, until = () => true, timeoutMs, maxTimeouts } = options;
  const durations: number[] = [];
  let timeouts = 0;
  for (let n = 0; (n < calls || !until()) && timeouts < maxTimeouts; n++) {
    const { method, path, headers, body } = options.request(n);
    const started = performance.now();
    try {
      const answer = await client.call(method, path, {
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      options.check(answer, `${method} ${path}`);
      durations.push(answer.ms);
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
      timeouts++;
      durations.push(Math.max(timeoutMs, performance.now() - started));
    }
  }
  return { durations, timeouts };
}

/** Waits until no upload's lessons are left for the memory to learn; ms from the push's end. */
export async function memoryLearned(databaseUrl: string): Promise<number> {
  const started = performance.now();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (;;) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM locales.memory_pending`);
      if (rows[0]!.n === 0) return performance.now() - started;
      await sleep(100);
    }
  } finally {
    await db.end();
  }
}
