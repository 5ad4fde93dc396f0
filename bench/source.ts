/**
 * `npm run bench:source [-- --json]`: what uploading a source costs, measured in one run on this
 * machine through the real gateway, services, Postgres, RabbitMQ and Redis:
 *   1. in one process, JSON.parse + parseSourceDocument of a 50,000-key (~3 MB) source: the floor
 *   2. PUT .../source of it with 1 % of the values changed (a new version): target ≤ 3× (1)
 *   3. PUT .../source of it unchanged (no new version): target ≤ 0.5× (2)
 *   4. from a changed PUT of a 200-key source returning to its two target locales showing
 *      `behind` at the new version (GET .../locales through the gateway, back to back):
 *      target p99 ≤ 50 ms
 *   5. a 200,000-key source within the default limits (10 MiB, 200,000 keys)
 *   6. PUT of the 50,000-key source with 1 % of its keys renamed (same texts: renames detected,
 *      DESIGN §13) against the same upload with those keys' texts reworded too (as many keys
 *      deleted and added, nothing to carry over): target ≤ 1.2× — what detecting renames costs
 * (2) and (3) are also sent straight to source-service, interleaved with those through the
 * gateway, so the gateway's share can be told from the service's.
 * `BENCH_SOURCE_MODE=embedded` runs the same against `npm start`'s embedded mode (one process,
 * PGlite, in-process bus; no servers needed) and samples that process's resident memory meanwhile.
 * The exit code says whether the run worked, not whether the targets were met. With `--json`,
 * the figures go to stdout as one JSON line (the last), the progress to stderr.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { PRINCIPAL_HEADER } from '@tolk/contracts';
import { createPrincipalSigner } from '@tolk/http';
import { parseSourceDocument } from '@tolk/locale-file';
import { sourceBenchConfig } from './config.js';
import { editValues, generateSource, renameKeys, type GeneratedSource } from './source-documents.js';
import { readMemory, sampleMemory } from './embedded-process.js';
import { percentile } from './percentile.js';
import { formatReport, type Report } from './source-report.js';
import {
  createHttpClient,
  startEmbeddedTolkSystem,
  startTolk,
  type Answer,
  type HttpClient,
  type TolkSystem,
  expectStatus,
} from './source-system.js';

const MIB = 1024 * 1024;
const DEFAULT_MAX_BODY_BYTES = 10 * MIB;
const DEFAULT_MAX_KEYS = 200_000;
const LARGE_KEYS = 50_000;
const SMALL_KEYS = 200;
// Languages with English's plural categories (one, other), so the source itself is a complete
// translation of its ICU plurals (DESIGN §11: French would also need `many`).
const TARGET_LOCALES = ['de', 'nl'];
const EVENT_TIMEOUT_MS = 15_000;
const TARGETS = { changedVsParse: 3, identicalVsChanged: 0.5, propagationP99Ms: 50, renamedVsReplaced: 1.2 };
const MEMORY_SAMPLE_EVERY_MS = 200;

const config = sourceBenchConfig();
const { values: flags } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const json = flags.json === true;
/** Progress and the table; stderr when stdout carries the JSON document. */
const say = (line = '') => (json ? process.stderr : process.stdout).write(`${line}\n`);
const repetitions = config.BENCH_SOURCE_REPETITIONS;
const warmup = config.BENCH_SOURCE_WARMUP;

// ---- statistics ----

const median = (samples: readonly number[]) => percentile(samples, 50);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const mib = (kib: number) => round(kib / 1024, 0);
const summary = (samples: readonly number[]) => ({
  medianMs: round(median(samples)),
  minMs: round(Math.min(...samples)),
  maxMs: round(Math.max(...samples)),
});

// ---- the API ----

type UploadBody = {
  version: number;
  keyCount: number;
  diff: { added: string[]; modified: string[]; deleted: string[] };
};
type LocaleBody = { locale: string; status: string; sourceVersion: number; syncedVersion: number };

/** The calls the bench makes, as one caller: `headers` carry its credentials. */
function createApi(client: HttpClient, headers: Record<string, string>) {
  return {
    async createProject(name: string): Promise<string> {
      const created = await client.call('POST', '/v1/projects', {
        headers,
        body: { name, sourceLocale: 'en' },
      });
      expectStatus(created, 201, `POST /v1/projects (${name})`);
      const projectId = (created.body as { projectId: string }).projectId;
      for (const locale of TARGET_LOCALES) {
        const target = `/v1/projects/${projectId}/locales`;
        expectStatus(await client.call('POST', target, { headers, body: { locale } }), 201, `POST ${target}`);
      }
      return projectId;
    },

    async upload(projectId: string, body: Buffer): Promise<Answer & { body: UploadBody }> {
      const answer = await client.call('PUT', `/v1/projects/${projectId}/source`, { headers, body });
      expectStatus(answer, 200, `PUT /v1/projects/${projectId}/source`);
      return answer as Answer & { body: UploadBody };
    },

    async translate(projectId: string, locale: string, version: number, body: Buffer): Promise<LocaleBody> {
      const target = `/v1/projects/${projectId}/locales/${locale}/translations?sourceVersion=${version}`;
      const answer = await client.call('PUT', target, { headers, body });
      expectStatus(answer, 200, `PUT ${target}`);
      return answer.body as LocaleBody;
    },

    async versions(projectId: string): Promise<{ version: number; renamed: number }[]> {
      const answer = await client.call('GET', `/v1/projects/${projectId}/source/versions`, { headers });
      expectStatus(answer, 200, `GET /v1/projects/${projectId}/source/versions`);
      return (answer.body as { versions: { version: number; renamed: number }[] }).versions;
    },

    async locales(projectId: string): Promise<Answer & { locales: LocaleBody[] }> {
      const answer = await client.call('GET', `/v1/projects/${projectId}/locales`, { headers });
      expectStatus(answer, 200, `GET /v1/projects/${projectId}/locales`);
      return { ...answer, locales: (answer.body as { locales: LocaleBody[] }).locales };
    },
  };
}

type Api = ReturnType<typeof createApi>;

/**
 * Polls the locales until every one is `behind` at `version`; `pauseMs` 0 polls back to back.
 * The state became visible while the answering poll was in flight: between `sentAt` and `seenAt`.
 */
async function waitUntilBehind(api: Api, projectId: string, version: number, pauseMs: number) {
  const deadline = performance.now() + EVENT_TIMEOUT_MS;
  const pollMs: number[] = [];
  for (;;) {
    const answer = await api.locales(projectId);
    const seenAt = performance.now();
    pollMs.push(answer.ms);
    if (answer.locales.every((l) => l.status === 'behind' && l.sourceVersion === version)) {
      return { sentAt: seenAt - answer.ms, seenAt, pollMs };
    }
    if (seenAt > deadline) {
      throw new Error(
        `the locales of project ${projectId} did not show source version ${version} within ` +
          `${EVENT_TIMEOUT_MS} ms (last: ${JSON.stringify(answer.locales)}). Another consumer of the ` +
          'locale-service queue on this broker would take such events.',
      );
    }
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

function expectVersion(answer: { body: UploadBody }, version: number, modified: number, what: string) {
  const { version: got, diff } = answer.body;
  if (got !== version || diff.modified.length !== modified || diff.added.length + diff.deleted.length > 0) {
    throw new Error(
      `${what}: expected version ${version} with ${modified} modified keys, got version ${got} ` +
        `(${diff.added.length} added, ${diff.modified.length} modified, ${diff.deleted.length} deleted)`,
    );
  }
}

// ---- the measurements ----

/**
 * (1) The floor: what any server must do with the bytes, timed in this process. One sample is
 * taken beside every upload of (2) and (3), so the floor and the uploads are measured under the
 * same load of this 2-core-class machine rather than minutes apart.
 */
function parseOnce(text: string): number {
  const started = performance.now();
  const parsed = parseSourceDocument(JSON.parse(text));
  const ms = performance.now() - started;
  if (parsed.keys.length !== LARGE_KEYS) throw new Error(`parsed ${parsed.keys.length} keys`);
  return ms;
}

/**
 * (2) and (3), through the gateway and straight to source-service in turn. Every changed upload
 * edits a different 1 % of the values of the version before. After each, the run waits (untimed)
 * for the locales to take the new version in, so the work its event causes does not overlap the
 * next upload.
 */
async function measureLargeUploads(gateway: Api, direct: Api, source: GeneratedSource) {
  const projectId = await gateway.createProject('Bench 50k');
  let version = (await gateway.upload(projectId, source.toBuffer())).body.version;
  await waitUntilBehind(gateway, projectId, version, 5);
  const routes = [
    { api: gateway, changed: [] as number[], identical: [] as number[] },
    { api: direct, changed: [] as number[], identical: [] as number[] },
  ];
  const parse: number[] = [];

  let body = source.toBuffer();
  let edit = 0;
  for (let i = 0; i < warmup + repetitions; i++) {
    for (const route of routes) {
      const modified = editValues(source, edit++, 100, version + 1);
      body = source.toBuffer();
      const floor = parseOnce(body.toString('utf8'));
      const answer = await route.api.upload(projectId, body);
      expectVersion(answer, version + 1, modified, `changed upload ${edit}`);
      version = answer.body.version;
      if (i >= warmup) {
        route.changed.push(answer.ms);
        parse.push(floor);
      }
      await waitUntilBehind(gateway, projectId, version, 5);
    }
  }
  for (let i = 0; i < warmup + repetitions; i++) {
    for (const route of routes) {
      const floor = parseOnce(body.toString('utf8'));
      const answer = await route.api.upload(projectId, body);
      expectVersion(answer, version, 0, `identical upload ${i + 1}`);
      if (i >= warmup) {
        route.identical.push(answer.ms);
        parse.push(floor);
      }
    }
  }
  const [viaGateway, straight] = routes as [(typeof routes)[0], (typeof routes)[0]];
  return { bytes: body.length, viaGateway, straight, parse };
}

/**
 * (4) Each round first brings both locales up to date (complete translations of the current
 * version), then uploads a changed source and polls until both show `behind` at the new version.
 */
async function measurePropagation(api: Api) {
  const source = generateSource({ keys: SMALL_KEYS, seed: 4, style: 'realistic' });
  const projectId = await api.createProject('Bench propagation');
  let version = (await api.upload(projectId, source.toBuffer())).body.version;

  const seen: number[] = [];
  const sent: number[] = [];
  const polls: number[] = [];
  const pollMs: number[] = [];
  const uploadMs: number[] = [];
  const rounds = config.BENCH_SOURCE_PROPAGATIONS;
  for (let i = 0; i < warmup + rounds; i++) {
    // The source itself is a complete translation: the same keys, placeholders and plural categories.
    const translation = source.toBuffer();
    for (const locale of TARGET_LOCALES) {
      const state = await api.translate(projectId, locale, version, translation);
      if (state.status !== 'up_to_date' || state.sourceVersion !== version) {
        throw new Error(`${locale} after its translations: ${JSON.stringify(state)}`);
      }
    }
    const modified = editValues(source, i, 100, version + 1);
    const answer = await api.upload(projectId, source.toBuffer());
    const returnedAt = performance.now();
    expectVersion(answer, version + 1, modified, `small changed upload ${i + 1}`);
    version = answer.body.version;
    const visible = await waitUntilBehind(api, projectId, version, 0);
    if (i < warmup) continue;
    seen.push(visible.seenAt - returnedAt);
    sent.push(Math.max(0, visible.sentAt - returnedAt));
    polls.push(visible.pollMs.length);
    pollMs.push(...visible.pollMs);
    uploadMs.push(answer.ms);
  }
  return { seen, sent, polls, pollMs, uploadMs, rounds };
}

/**
 * (5) The largest source the default limits take. A realistic 200,000-key file is larger than
 * 10 MiB (measured, not assumed); one with short values and no indentation is used then.
 */
async function measureLargest(api: Api) {
  let source = generateSource({ keys: DEFAULT_MAX_KEYS, seed: 5, style: 'realistic' });
  const realisticBytes = source.toBuffer().length;
  const compact = realisticBytes > DEFAULT_MAX_BODY_BYTES;
  if (compact) source = generateSource({ keys: DEFAULT_MAX_KEYS, seed: 5, style: 'compact' });
  const body = source.toBuffer();
  const projectId = await api.createProject('Bench 200k');
  const first = await api.upload(projectId, body);
  if (first.body.keyCount !== DEFAULT_MAX_KEYS) {
    throw new Error(`the 200,000-key upload stored ${first.body.keyCount} keys`);
  }
  await waitUntilBehind(api, projectId, first.body.version, 5);
  const modified = editValues(source, 0, 100, first.body.version + 1);
  const changed = await api.upload(projectId, source.toBuffer());
  expectVersion(changed, first.body.version + 1, modified, 'changed 200,000-key upload');
  return { bytes: body.length, realisticBytes, compact, first, changed };
}

/**
 * (6) Renames against replacements, through the gateway, interleaved: each round moves a
 * different 1 % of the keys to new names, once with their texts reworded (nothing carried over)
 * and once with their texts kept (every one a rename). The version history then has to name
 * each rename, or the run fails.
 */
async function measureRenames(api: Api, source: GeneratedSource) {
  const projectId = await api.createProject('Bench renames');
  let version = (await api.upload(projectId, source.toBuffer())).body.version;
  await waitUntilBehind(api, projectId, version, 5);
  const replaced: number[] = [];
  const renamed: number[] = [];
  const renameVersions: number[] = [];
  let round = 0;
  for (let i = 0; i < warmup + repetitions; i++) {
    for (const reworded of [true, false]) {
      const moved = renameKeys(source, round++, 100, version + 1, reworded);
      const answer = await api.upload(projectId, source.toBuffer());
      const { diff } = answer.body;
      if (
        answer.body.version !== version + 1 ||
        diff.added.length !== moved ||
        diff.deleted.length !== moved
      ) {
        throw new Error(
          `upload with ${moved} keys moved: expected version ${version + 1} with ${moved} added and deleted, ` +
            `got version ${answer.body.version} (${diff.added.length} added, ${diff.deleted.length} deleted)`,
        );
      }
      version = answer.body.version;
      if (!reworded) renameVersions.push(version);
      if (i >= warmup) (reworded ? replaced : renamed).push(answer.ms);
      await waitUntilBehind(api, projectId, version, 5);
    }
  }
  const history = await api.versions(projectId);
  for (const wanted of renameVersions) {
    const entry = history.find((v) => v.version === wanted);
    if (entry?.renamed !== source.keyCount / 100) {
      throw new Error(`version ${wanted} names ${entry?.renamed} renames, expected ${source.keyCount / 100}`);
    }
  }
  return { replaced, renamed, moved: source.keyCount / 100 };
}

// ---- the run ----

let system: TolkSystem | undefined;
const clients: HttpClient[] = [];
let memorySampler: ReturnType<typeof sampleMemory> | undefined;
let exitCode: number | undefined;
let stopped: Promise<void> | undefined;

/** Stops everything once; the first reason to stop gives the exit code. */
async function shutDown(code: number): Promise<never> {
  exitCode ??= code;
  stopped ??= (async () => {
    memorySampler?.stop();
    for (const client of clients) client.close();
    await system?.stop();
  })();
  await stopped;
  process.exit(exitCode);
}
process.once('SIGINT', () => void shutDown(130));
process.once('SIGTERM', () => void shutDown(143));

try {
  say('generating the 50,000-key source ...');
  const large = generateSource({ keys: LARGE_KEYS, seed: 1, style: 'realistic' });

  let embedded: Awaited<ReturnType<typeof startEmbeddedTolkSystem>> | undefined;
  if (config.BENCH_SOURCE_MODE === 'embedded') {
    say(
      `starting the embedded Tolk, gateway on 127.0.0.1:${config.BENCH_SOURCE_PORT}, services on 8081-8086 ...`,
    );
    embedded = await startEmbeddedTolkSystem({
      port: config.BENCH_SOURCE_PORT,
      log: say,
      onExit: (how) => {
        if (exitCode === undefined) {
          console.error(`the embedded Tolk exited unexpectedly (${how}); stopping.`);
        }
        void shutDown(1);
      },
    });
    system = embedded;
  } else {
    say(`starting Tolk on 127.0.0.1:${config.BENCH_SOURCE_PORT}-${config.BENCH_SOURCE_PORT + 4} ...`);
    system = await startTolk({
      databaseName: 'tolk_bench_source',
      adminDatabaseUrl: config.DATABASE_URL,
      amqpUrl: config.AMQP_URL,
      redisUrl: config.REDIS_URL,
      basePort: config.BENCH_SOURCE_PORT,
      log: say,
      onGiveUp: (name) => {
        console.error(`${name} keeps crashing; stopping.`);
        void shutDown(1);
      },
    });
  }
  const viaGateway = createHttpClient(system.gatewayUrl);
  const toSourceService = createHttpClient(system.sourceServiceUrl);
  clients.push(viaGateway, toSourceService);
  const signup = await viaGateway.call('POST', '/v1/auth/signup', {
    body: { email: `bench-source-${Date.now()}@example.com`, password: 'benchmark password' },
  });
  expectStatus(signup, 201, 'POST /v1/auth/signup');
  const { accessToken, user } = signup.body as { accessToken: string; user: { userId: string } };
  const gateway = createApi(viaGateway, { authorization: `Bearer ${accessToken}` });
  // What the gateway would forward for this user, signed as it signs it.
  const principal = await createPrincipalSigner(
    system.internalSecret,
    3600,
  )({ kind: 'user', userId: user.userId });
  const direct = createApi(toSourceService, { [PRINCIPAL_HEADER]: principal });
  // The embedded process's memory, idle now and sampled from (1) to the end of (5).
  const idle = embedded ? readMemory(embedded.pid) : undefined;
  if (embedded) memorySampler = sampleMemory(embedded.pid, MEMORY_SAMPLE_EVERY_MS);

  say(
    `(1)(2)(3) PUT of the 50,000-key source, ${warmup} warm-up + ${repetitions} each way, ` +
      'JSON.parse + parseSourceDocument in process beside each ...',
  );
  const uploads = await measureLargeUploads(gateway, direct, large);
  const parse = uploads.parse;
  say(
    `(4) ${config.BENCH_SOURCE_PROPAGATIONS} changed uploads of a ${SMALL_KEYS}-key source, polling the locales ...`,
  );
  const propagation = await measurePropagation(gateway);
  say('(5) the 200,000-key source ...');
  const largest = await measureLargest(gateway);
  say(
    `(6) PUT of a 50,000-key source with 1 % of its keys renamed, against reworded, ${warmup} warm-up + ${repetitions} each ...`,
  );
  const renames = await measureRenames(
    gateway,
    generateSource({ keys: LARGE_KEYS, seed: 6, style: 'realistic' }),
  );
  const rss = memorySampler?.stop() ?? [];
  const highWater = embedded ? readMemory(embedded.pid) : undefined;
  const memory =
    idle && highWater && rss.length > 0
      ? {
          everyMs: MEMORY_SAMPLE_EVERY_MS,
          samples: rss.length,
          idleMiB: mib(idle.rssKiB),
          medianMiB: mib(median(rss)),
          peakMiB: mib(Math.max(...rss)),
          highWaterMiB: mib(highWater.highWaterKiB),
        }
      : undefined;

  const parseMs = median(parse);
  const changedMs = median(uploads.viaGateway.changed);
  const identicalMs = median(uploads.viaGateway.identical);
  const p99 = percentile(propagation.seen, 99);
  const renamedMs = median(renames.renamed);
  const replacedMs = median(renames.replaced);
  const report: Report = {
    machine: {
      cpus: os.cpus().length,
      node: process.version,
      loadAverage: os.loadavg().map((l) => round(l)),
    },
    mode: config.BENCH_SOURCE_MODE,
    ...(embedded && { embedded: { readyMs: round(embedded.start.readyMs, 0), ...(memory && { memory }) } }),
    source: { keys: LARGE_KEYS, bytes: uploads.bytes, repetitions, warmup },
    parse: summary(parse),
    changedUpload: {
      ...summary(uploads.viaGateway.changed),
      ratioToParse: round(changedMs / parseMs),
      target: TARGETS.changedVsParse,
      pass: changedMs / parseMs <= TARGETS.changedVsParse,
      direct: summary(uploads.straight.changed),
    },
    identicalUpload: {
      ...summary(uploads.viaGateway.identical),
      ratioToChanged: round(identicalMs / changedMs),
      ratioToParse: round(identicalMs / parseMs),
      target: TARGETS.identicalVsChanged,
      pass: identicalMs / changedMs <= TARGETS.identicalVsChanged,
      direct: summary(uploads.straight.identical),
    },
    propagation: {
      polled: 'GET /v1/projects/{id}/locales through the gateway, back to back',
      keys: SMALL_KEYS,
      locales: TARGET_LOCALES.length,
      uploads: propagation.rounds,
      p50Ms: round(percentile(propagation.seen, 50)),
      p95Ms: round(percentile(propagation.seen, 95)),
      p99Ms: round(p99),
      maxMs: round(Math.max(...propagation.seen)),
      lowerBound: {
        p50Ms: round(percentile(propagation.sent, 50)),
        p95Ms: round(percentile(propagation.sent, 95)),
        p99Ms: round(percentile(propagation.sent, 99)),
      },
      pollsMedian: median(propagation.polls),
      pollMedianMs: round(median(propagation.pollMs)),
      uploadMedianMs: round(median(propagation.uploadMs)),
      target: TARGETS.propagationP99Ms,
      pass: p99 <= TARGETS.propagationP99Ms,
    },
    largest: {
      keys: DEFAULT_MAX_KEYS,
      bytes: largest.bytes,
      compact: largest.compact,
      realisticBytes: largest.realisticBytes,
      firstUpload: { status: largest.first.status, ms: round(largest.first.ms, 0) },
      changedUpload: { status: largest.changed.status, ms: round(largest.changed.ms, 0) },
    },
    renames: {
      moved: renames.moved,
      replaced: summary(renames.replaced),
      renamed: {
        ...summary(renames.renamed),
        ratioToReplaced: round(renamedMs / replacedMs),
        ratioToChanged: round(renamedMs / changedMs),
        target: TARGETS.renamedVsReplaced,
        pass: renamedMs / replacedMs <= TARGETS.renamedVsReplaced,
      },
    },
  };
  if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else say(formatReport(report));
  await shutDown(0);
} catch (err) {
  // After an interruption, requests in flight fail as a matter of course.
  if (exitCode === undefined) {
    console.error(`\nbench:source failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  await shutDown(1);
}
