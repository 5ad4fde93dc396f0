/**
 * `node --conditions=tolk-source --import tsx bench/source-upload-profile.ts [--uploads N]`:
 * where a changed upload of the 50,000-key source costs, in CPU time rather than wall time, so
 * the figures hold on a machine shared with other work. source-service runs in this process
 * against a database of its own on the local Postgres (DATABASE_URL as bench:source, created and
 * dropped here); this process also sends the uploads over loopback HTTP (no gateway). For each
 * changed upload (1 % of the values edited, a new version) and beside it for the floor
 * (JSON.parse + parseSourceDocument of the same bytes, in a process of its own as bench:source
 * measures it, so that the service's heap does not weigh on it), it records:
 * - main-thread CPU time (from /proc schedstat: what the event loop spent) and process CPU time
 *   (process.cpuUsage: also zlib on the thread pool and V8's helper threads);
 * - garbage collections by kind, their count and total pause, and the bytes allocated (from
 *   v8.GCProfiler: heap used before each collection minus after the one before).
 * `--edit renames` moves 1 % of the keys to new names instead (each a rename, DESIGN §13), and
 * `--edit replacements` moves them with their texts reworded (deleted and added, nothing carried).
 * Add `--cpu-prof` to node's flags to see where the time goes.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import pg from 'pg';
import { createInProcessBus } from '@tolk/bus';
import { PRINCIPAL_HEADER } from '@tolk/contracts';
import { createPgDb } from '@tolk/db';
import { createPrincipalSigner } from '@tolk/http';
import { parseSourceDocument } from '@tolk/locale-file';
import { createLogger } from '@tolk/logger';
import { openService } from '@tolk/service';
import { sourceService } from '@tolk/source-service';
import { sourceBenchConfig } from './config.js';
import { editValues, generateSource, renameKeys } from './source-documents.js';

const KEYS = 50_000;
const SECRET = 'source-upload-profile-secret-long-enough';
const { values: flags } = parseArgs({
  options: {
    uploads: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    'floor-process': { type: 'boolean', default: false },
    edit: { type: 'string', default: 'values' },
  },
});
const uploads = Number(flags.uploads);
const EDITS = ['values', 'renames', 'replacements'] as const;
const edit = EDITS.find((e) => e === flags.edit);
if (!edit) throw new Error(`--edit is one of ${EDITS.join(', ')}, not ${flags.edit}`);
const warmup = Number(flags.warmup);

/** Nanoseconds this thread (the event loop) has run, from the scheduler's own accounting. */
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
function threadCpuNs(): number {
  return Number(readFileSync(schedstat, 'utf8').split(' ')[0]);
}

type Sample = {
  wallMs: number;
  threadMs: number;
  processMs: number;
  gc: Record<string, { count: number; ms: number }>;
  allocatedMiB: number;
};

type GcStats = { cost: number; gcType: string; beforeGC: HeapStats; afterGC: HeapStats };
type HeapStats = { heapStatistics: { usedHeapSize: number } };

/** Runs `work` once and what it cost. */
async function measure(work: () => Promise<void> | void): Promise<Sample> {
  const profiler = new v8.GCProfiler();
  const usedBefore = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  const cpu = process.cpuUsage();
  const thread = threadCpuNs();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const threadMs = (threadCpuNs() - thread) / 1e6;
  const used = process.cpuUsage(cpu);
  const usedAfter = v8.getHeapStatistics().used_heap_size;
  const stats = (profiler.stop() as unknown as { statistics: GcStats[] }).statistics;
  const gc: Sample['gc'] = {};
  let allocated = 0;
  let from = usedBefore;
  for (const event of stats) {
    const kind = (gc[event.gcType] ??= { count: 0, ms: 0 });
    kind.count++;
    kind.ms += event.cost / 1000;
    allocated += event.beforeGC.heapStatistics.usedHeapSize - from;
    from = event.afterGC.heapStatistics.usedHeapSize;
  }
  allocated += usedAfter - from;
  return {
    wallMs,
    threadMs,
    processMs: (used.user + used.system) / 1000,
    gc,
    allocatedMiB: allocated / (1024 * 1024),
  };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const fixed = (value: number, digits = 1) => value.toFixed(digits).padStart(7);

function put(agent: http.Agent, url: URL, body: Buffer, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'PUT',
      agent,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': body.length },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200) resolve(text);
        else reject(new Error(`PUT answered ${res.statusCode}: ${text.slice(0, 300)}`));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The first upload and every changed one after it, made before anything is measured (every process
 * makes the same), so that making them leaves no garbage in the heap while uploads are measured.
 */
function createBodies(): { first: Buffer; changed: Buffer[] } {
  const source = generateSource({ keys: KEYS, seed: 1, style: 'realistic' });
  const first = source.toBuffer();
  const changed = Array.from({ length: warmup + uploads }, (_, i) => {
    if (edit === 'values') editValues(source, i, 100, i + 2);
    else renameKeys(source, i, 100, i + 2, edit === 'replacements');
    return source.toBuffer();
  });
  return { first, changed };
}

if (flags['floor-process']) {
  // The floor's process: measures the `index`th body when asked.
  const bodies = createBodies();
  process.on('message', (index: number) => {
    const text = bodies.changed[index]!.toString('utf8');
    void measure(() => {
      if (parseSourceDocument(JSON.parse(text)).keys.length !== KEYS) throw new Error('not parsed');
    }).then((sample) => process.send!(sample));
  });
} else {
  await profileUploads();
}

async function profileUploads(): Promise<void> {
  const floorProcess = fork(process.argv[1]!, ['--floor-process', ...process.argv.slice(2)], {
    execArgv: process.execArgv.filter((flag) => !flag.startsWith('--cpu-prof')),
  });
  const floorOf = (index: number) =>
    new Promise<Sample>((resolve) => {
      floorProcess.once('message', (sample) => resolve(sample as Sample));
      floorProcess.send(index);
    });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const adminUrl = sourceBenchConfig().DATABASE_URL;
  const databaseName = `tolk_upload_profile_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;

  const db = createPgDb({ url: databaseUrl.toString(), schema: sourceService.schema, max: 4 });
  let server: http.Server | undefined;
  // identity- and project-service as an upload asks them just before it commits: the profile's
  // user exists and is a member of its project.
  const senders = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/internal/users/lookup') {
      res.end(JSON.stringify({ users: [{ userId: 'profile', email: 'profile@example.com', name: null }] }));
    } else if (req.url?.endsWith('/members/profile')) {
      res.end(JSON.stringify({ role: 'owner' }));
    } else res.writeHead(404).end('{}');
  });
  senders.listen(0, '127.0.0.1');
  await new Promise((resolve) => senders.once('listening', resolve));
  const sendersUrl = `http://127.0.0.1:${(senders.address() as AddressInfo).port}`;
  try {
    const logger = createLogger({ name: 'source-service', level: 'silent' });
    const bus = createInProcessBus({ logger });
    const service = await openService(sourceService, {
      env: {
        DATABASE_URL: databaseUrl.toString(),
        AMQP_URL: 'amqp://127.0.0.1:9',
        INTERNAL_JWT_SECRET: SECRET,
        PROJECT_SERVICE_URL: sendersUrl,
        IDENTITY_SERVICE_URL: sendersUrl,
      },
      db,
      bus,
      logger,
    });
    const { app } = service;
    // The project, known as every source-service learns of one: from its ProjectCreated.
    const projectId = '00000000-0000-4000-8000-000000000001';
    await service.consume();
    await bus.publish({
      id: randomUUID(),
      type: 'ProjectCreated',
      occurredAt: Date.now(),
      producer: 'project-service',
      data: { projectId, name: 'profile', sourceLocale: 'en', ownerId: 'profile' },
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const url = new URL(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/projects/${projectId}/source`,
    );
    const headers = {
      [PRINCIPAL_HEADER]: await createPrincipalSigner(SECRET, 3600)({ kind: 'user', userId: 'profile' }),
    };

    const bodies = createBodies();
    await put(agent, url, bodies.first, headers);
    const changed: Sample[] = [];
    const floor: Sample[] = [];
    for (let i = 0; i < warmup + uploads; i++) {
      const version = i + 2;
      const body = bodies.changed[i]!;
      const floorSample = await floorOf(i);
      const sample = await measure(async () => {
        const answer = JSON.parse(await put(agent, url, body, headers)) as { version: number };
        if (answer.version !== version) throw new Error(`got version ${answer.version}, not ${version}`);
      });
      if (i < warmup) continue;
      changed.push(sample);
      floor.push(floorSample);
    }

    const report = (name: string, samples: Sample[]) => {
      const kinds = [...new Set(samples.flatMap((s) => Object.keys(s.gc)))].sort();
      const gc = kinds
        .map((kind) => {
          const count = samples.reduce((n, s) => n + (s.gc[kind]?.count ?? 0), 0) / samples.length;
          const ms = samples.reduce((n, s) => n + (s.gc[kind]?.ms ?? 0), 0) / samples.length;
          return `${kind} ${count.toFixed(1)}× ${ms.toFixed(1)} ms`;
        })
        .join(', ');
      console.log(
        `${name.padEnd(16)} thread ${fixed(mean(samples.map((s) => s.threadMs)))} ms` +
          `  process ${fixed(median(samples.map((s) => s.processMs)))} ms` +
          `  wall ${fixed(median(samples.map((s) => s.wallMs)))} ms` +
          `  allocated ${fixed(median(samples.map((s) => s.allocatedMiB)))} MiB` +
          `  gc/upload (mean): ${gc || 'none'}`,
      );
    };
    console.log(
      `${uploads} changed uploads (1 % ${edit}) of ${KEYS} keys (${warmup} warm-up), per upload: thread CPU the mean ` +
        '(the scheduler counts it in ticks), the rest medians',
    );
    report('floor', floor);
    report('changed upload', changed);
    const ratio = (pick: (s: Sample) => number, average: (values: number[]) => number) =>
      (average(changed.map(pick)) / average(floor.map(pick))).toFixed(2);
    // Process CPU also paired with the floor measured beside each upload: steadier under load.
    const paired = median(changed.map((s, i) => s.processMs / floor[i]!.processMs)).toFixed(2);
    console.log(
      `ratio to the floor: thread ${ratio((s) => s.threadMs, mean)}×, process ` +
        `${ratio((s) => s.processMs, median)}× (paired ${paired}×), wall ${ratio((s) => s.wallMs, median)}×`,
    );
  } finally {
    agent.destroy();
    floorProcess.kill();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await new Promise((resolve) => senders.close(resolve));
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  }
}
