/**
 * `npm run bench:embedded`: how the embedded mode (`npm start` with none of DATABASE_URL,
 * AMQP_URL and REDIS_URL set) starts on this machine, measured on a fresh temporary data
 * directory with the real launcher, spawned as `node scripts/start.ts`:
 *   - cold start: from spawning node to the gateway's /healthz answering 200 and /readyz "ready"
 *     on an empty data directory (PGlite's initdb, every migration, the development secrets):
 *     target ≤ 5 s
 *   - warm start: the same after stopping it with SIGINT, on the same data directory, 3 times:
 *     min and median, target ≤ 5 s (on the median)
 *   - resident memory (VmRSS) of that node process when idle after each start, and its peak
 *   - whether the data survives: a user signed up after the cold start logs in after each restart
 * The services take their usual ports (8081-8086), which must be free; the gateway a free one.
 * The exit code says whether the run worked (data kept included), not whether the targets were met.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  assertEmbeddedPortsFree,
  directoryBytes,
  freePort,
  readMemory,
  spawnEmbeddedTolk,
  type EmbeddedStart,
  type EmbeddedTolkProcess,
  type Memory,
} from './embedded-process.js';

const TARGET_MS = 5000;
const WARM_STARTS = 3;
const START_TIMEOUT_MS = 120_000;
/** After ready, before the idle memory is read: what the start left behind has settled. */
const IDLE_AFTER_MS = 2000;
const PASSWORD = 'benchmark password';

type Start = EmbeddedStart & { label: string; idle: Memory | undefined; stopMs: number; killed: boolean };

const MIB = 1024;
const mib = (kib: number | undefined) => (kib === undefined ? 'n/a' : (kib / MIB).toFixed(0));
const ms = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(0));
const verdict = (value: number) => (value <= TARGET_MS ? 'PASS' : 'MISS');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1]!;
}

async function call(url: string, target: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as unknown };
}

const warnings: string[] = [];
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tolk-bench-embedded-'));
let running: EmbeddedTolkProcess | undefined;
let exitCode: number | undefined;
let stopped: Promise<void> | undefined;

/** Stops Tolk and removes the data directory once; the first reason to stop gives the exit code. */
async function shutDown(code: number): Promise<never> {
  exitCode ??= code;
  stopped ??= (async () => {
    await running?.stop();
    await rm(dataDir, { recursive: true, force: true });
  })();
  await stopped;
  process.exit(exitCode);
}
process.once('SIGINT', () => void shutDown(130));
process.once('SIGTERM', () => void shutDown(143));

/** Starts Tolk on the data directory, waits until ready, reads its idle memory; leaves it running. */
async function start(port: number, label: string) {
  console.log(`${label} ...`);
  running = spawnEmbeddedTolk({
    dataDir,
    port,
    onWarning: (line) => {
      warnings.push(`${label}: ${line}`);
      console.log(`  tolk: ${line}`);
    },
    onExit: (how) => {
      if (exitCode === undefined) console.error(`the embedded Tolk exited unexpectedly (${how})`);
      void shutDown(1);
    },
  });
  const tolk = running;
  const timing = await tolk.ready(START_TIMEOUT_MS);
  await new Promise((resolve) => setTimeout(resolve, IDLE_AFTER_MS));
  const idle = readMemory(tolk.pid);
  return {
    tolk,
    async stop(): Promise<Start> {
      const { ms: stopMs, killed } = await tolk.stop();
      running = undefined;
      return { ...timing, label, idle, stopMs, killed };
    },
  };
}

function row(columns: string[]): string {
  const [label = '', ...figures] = columns;
  const widths = [12, 13, 11, 11, 9];
  return `${label.padEnd(34)}${figures.map((f, i) => f.padStart(widths[i] ?? 10)).join('')}`.trimEnd();
}

try {
  const port = await freePort();
  await assertEmbeddedPortsFree(port);
  const loadBefore = load();
  const email = `bench-embedded-${Date.now()}@example.com`;

  const cold = await start(port, 'cold start, empty data directory');
  const signup = await call(cold.tolk.url, '/v1/auth/signup', { email, password: PASSWORD });
  if (signup.status !== 201) throw new Error(`POST /v1/auth/signup answered ${signup.status}`);
  const dataBytes = await directoryBytes(dataDir);
  const starts = [await cold.stop()];

  const logins: number[] = [];
  for (let i = 1; i <= WARM_STARTS; i++) {
    const warm = await start(port, `warm start ${i}`);
    logins.push((await call(warm.tolk.url, '/v1/auth/login', { email, password: PASSWORD })).status);
    starts.push(await warm.stop());
  }
  const coldStart = starts[0]!;
  const warmReady = starts.slice(1).map((s) => s.readyMs);
  const warmMedian = median(warmReady);
  const kept = logins.every((status) => status === 200);

  console.log(
    [
      '',
      `Embedded Tolk: node scripts/start.ts with none of DATABASE_URL, AMQP_URL, REDIS_URL; gateway on port ${port}, services on 8081-8086`,
      `machine: ${os.cpus().length} CPUs, Node ${process.version}, load average ${loadBefore} (at the start), ${load()} (at the end)`,
      '',
      row(['', 'ready ms', '"started in"', 'RSS idle', 'RSS peak', 'stop ms']),
      row(['', '', 'ms', 'MiB', 'MiB', '']),
      ...starts.map((s) =>
        row([
          s.label,
          ms(s.readyMs),
          ms(s.reportedMs),
          mib(s.idle?.rssKiB),
          mib(s.idle?.highWaterKiB),
          `${ms(s.stopMs)}${s.killed ? ' (killed)' : ''}`,
        ]),
      ),
      '',
      `cold start: ${ms(coldStart.readyMs)} ms (healthy at ${ms(coldStart.healthyMs)} ms)` +
        `   target ≤ ${TARGET_MS} ms   ${verdict(coldStart.readyMs)}`,
      `warm start: min ${ms(Math.min(...warmReady))} ms, median ${ms(warmMedian)} ms of ${WARM_STARTS}` +
        `   target ≤ ${TARGET_MS} ms (median)   ${verdict(warmMedian)}`,
      `data kept across restarts: ${kept ? 'yes' : 'NO'} — ${email} signed up after the cold start; ` +
        `log-in after each warm start answered ${logins.join(', ')}`,
      `data directory after the cold start and one signup: ${(dataBytes / 1e6).toFixed(1)} MB`,
      `Tolk's output at warn and above: ${warnings.length === 0 ? 'none' : `${warnings.length} line(s), above`}`,
      '',
      'ready: from spawning node to GET /healthz answering 200 and GET /readyz "ready" (polled every 20 ms).',
      '"started in": what the launcher reports itself — PGlite opened, migrations run, every server listening;',
      '  the rest of "ready" is loading node, tsx and the modules. RSS idle: VmRSS of the node process running',
      `  Tolk ${IDLE_AFTER_MS / 1000} s after ready; RSS peak: its VmHWM then, the high-water mark of the start.`,
      'stop: from SIGINT to the process exiting.',
      '',
    ].join('\n'),
  );
  await shutDown(kept ? 0 : 1);
} catch (err) {
  if (exitCode === undefined) {
    console.error(`\nbench:embedded failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  await shutDown(1);
}
