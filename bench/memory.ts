/**
 * `npm run bench:memory`: what translation memory costs (DESIGN §13), measured in one run on this
 * machine through the real gateway, services, Postgres, RabbitMQ and Redis, with a project of
 * 50,000 source keys translated into 5 locales (250,000 remembered translations):
 *   1. POST .../locales/de/memory of 2,000 of its texts (identical texts only): target p50 ≤ 50 ms
 *   2. near matches (pg_trgm, up to 3 a text) of 100 texts, the most one lookup may ask for
 *   3. one translate batch's lookup, as `tolk translate` sends it: near matches of the 10 longest
 *      texts of a batch of BATCH_KEYS (the longest, where wording varies most)
 *   with, for 2 and 3, how many lookups' near-match search the server gave up (`nearTimedOut`)
 *   4. a translation upload that remembers 50,000 translations (and the memory learning them,
 *      after the upload) against the same upload unchanged (nothing new to remember)
 * Ratios are printed against the target where there is one. The exit code says whether the run
 * worked, not whether the targets were met.
 */
import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { MAX_MEMORY_NEAR_TEXTS } from '@tolk/contracts';
import { generateSource, translationOf } from './source-documents.js';
import {
  createHttpClient,
  expectStatus,
  memoryLearned,
  startBenchTolk,
  type Answer,
  type HttpClient,
  type TolkSystem,
} from './source-system.js';

const config = loadConfig(
  z.object({
    DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
    REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
    AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
    // Ports of the gateway and the four services: this one and the next four.
    BENCH_MEMORY_PORT: env.port(18110),
    BENCH_MEMORY_REPETITIONS: z.coerce.number().int().min(3).max(200).default(21),
  }),
  process.env,
);

const KEYS = 50_000;
const LOOKUP_TEXTS = 2_000;
const BATCH_TEXTS = 10;
/** Keys of a translate batch at most (cli/src/translate/batches.ts). */
const BATCH_KEYS = 200;
const NEAR_TEXTS = MAX_MEMORY_NEAR_TEXTS;
// Languages with English's plural categories, so that a prefixed source is a valid translation.
const LOCALES = ['de', 'nl', 'sv', 'da', 'nb'];
const TARGET_EXACT_MS = 50;

const say = (line = '') => process.stdout.write(`${line}\n`);

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The leaves of a document: its source texts. */
function textsOf(document: unknown, into: string[] = []): string[] {
  if (typeof document === 'string') into.push(document);
  else if (typeof document === 'object' && document !== null) {
    for (const [key, value] of Object.entries(document)) if (!key.startsWith('@')) textsOf(value, into);
  }
  return into;
}

async function timed(client: HttpClient, headers: Record<string, string>, path: string, body: object) {
  const samples: number[] = [];
  let answer: Answer | undefined;
  // Lookups whose near-match search the server gave up (it took longer than it allows).
  let timedOut = 0;
  for (let i = 0; i < config.BENCH_MEMORY_REPETITIONS + 2; i++) {
    answer = await client.call('POST', path, { headers, body: body as Record<string, unknown> });
    expectStatus(answer, 200, `POST ${path}`);
    if (i < 2) continue;
    samples.push(answer.ms);
    if ((answer.body as { nearTimedOut?: boolean }).nearTimedOut) timedOut++;
  }
  return { samples, answer: answer!, timedOut };
}

let system: TolkSystem | undefined;
let client: HttpClient | undefined;
try {
  system = await startBenchTolk('memory', config, config.BENCH_MEMORY_PORT, say);
  client = createHttpClient(system.gatewayUrl);
  const signup = await client.call('POST', '/v1/auth/signup', {
    body: { email: `bench-memory-${Date.now()}@example.com`, password: 'benchmark password' },
  });
  expectStatus(signup, 201, 'POST /v1/auth/signup');
  const headers = { authorization: `Bearer ${(signup.body as { accessToken: string }).accessToken}` };
  const created = await client.call('POST', '/v1/projects', {
    headers,
    body: { name: 'Memory', sourceLocale: 'en' },
  });
  expectStatus(created, 201, 'POST /v1/projects');
  const projectId = (created.body as { projectId: string }).projectId;
  for (const locale of LOCALES) {
    const added = await client.call('POST', `/v1/projects/${projectId}/locales`, {
      headers,
      body: { locale },
    });
    expectStatus(added, 201, `POST .../locales (${locale})`);
  }

  say(
    `uploading a ${KEYS.toLocaleString('en')}-key source and its translation into ${LOCALES.join(', ')} ...`,
  );
  const source = generateSource({ keys: KEYS, seed: 42, style: 'realistic' });
  const sourceBuffer = source.toBuffer();
  const put = await client.call('PUT', `/v1/projects/${projectId}/source`, { headers, body: sourceBuffer });
  expectStatus(put, 200, 'PUT .../source');
  const version = (put.body as { version: number }).version;
  const document = JSON.parse(sourceBuffer.toString('utf8')) as unknown;
  // Translations are accepted for a version once locale-service has heard of it (SourceChanged).
  for (let heard = false; !heard;) {
    const locales = await client.call('GET', `/v1/projects/${projectId}/locales`, { headers });
    expectStatus(locales, 200, 'GET .../locales');
    heard = (locales.body as { locales: { sourceVersion: number }[] }).locales.every(
      (locale) => locale.sourceVersion === version,
    );
    if (!heard) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const uploadMs: number[] = [];
  const learnedMs: number[] = [];
  const unchangedMs: number[] = [];
  for (const locale of LOCALES) {
    const path = `/v1/projects/${projectId}/locales/${locale}/translations?sourceVersion=${version}`;
    const body = Buffer.from(JSON.stringify(translationOf(document, locale)));
    const answer = await client.call('PUT', path, { headers, body });
    expectStatus(answer, 200, `PUT ${path}`);
    uploadMs.push(answer.ms);
    learnedMs.push(await memoryLearned(system.databaseUrl!));
    const again = await client.call('PUT', path, { headers, body });
    expectStatus(again, 200, `PUT ${path} (unchanged)`);
    unchangedMs.push(again.ms);
  }

  const texts = [...new Set(textsOf(document))];
  const step = Math.floor(texts.length / LOOKUP_TEXTS);
  const asked = Array.from({ length: LOOKUP_TEXTS }, (_, i) => texts[i * step]!);
  const memoryPath = `/v1/projects/${projectId}/locales/de/memory`;

  say(`(1) exact lookup of ${LOOKUP_TEXTS} texts, ${config.BENCH_MEMORY_REPETITIONS} times ...`);
  const exact = await timed(client, headers, memoryPath, { texts: asked });
  const found = (exact.answer.body as { matches: { exact: unknown }[] }).matches.filter(
    (m) => m.exact,
  ).length;
  say(`(2) near matches (3 a text) of ${NEAR_TEXTS} texts, the most one lookup may ask for ...`);
  const near = await timed(client, headers, memoryPath, { texts: asked.slice(0, NEAR_TEXTS), near: 3 });
  say(`(3) one batch's lookup: the ${BATCH_TEXTS} longest of ${BATCH_KEYS} texts with near matches ...`);
  const longest = asked
    .slice(0, BATCH_KEYS)
    .sort((a, b) => b.length - a.length)
    .slice(0, BATCH_TEXTS);
  const batch = await timed(client, headers, memoryPath, { texts: longest, near: 3 });

  const p50 = (samples: number[]) => percentile(samples, 50);
  const row = (what: string, ms: number, target?: number) =>
    say(
      `${what.padEnd(62)} ${ms.toFixed(1).padStart(9)} ms` +
        (target ? `   ${(ms / target).toFixed(2)}× target (≤ ${target} ms)` : ''),
    );
  say();
  say(
    `memory: ${(KEYS * LOCALES.length).toLocaleString('en')} translations remembered; ${found}/${LOOKUP_TEXTS} texts found`,
  );
  row(`(1) exact lookup, ${LOOKUP_TEXTS} texts, p50`, p50(exact.samples), TARGET_EXACT_MS);
  row(`    p95`, percentile(exact.samples, 95));
  const gaveUp = (run: { samples: number[]; timedOut: number }) =>
    say(`    near-match search given up (over its time budget): ${run.timedOut} of ${run.samples.length}`);
  row(`(2) near matches (3 a text), ${NEAR_TEXTS} texts, p50`, p50(near.samples));
  gaveUp(near);
  row(`(3) one batch: its ${BATCH_TEXTS} longest texts, near matches, p50`, p50(batch.samples));
  gaveUp(batch);
  row(`(4) translation upload remembering ${KEYS.toLocaleString('en')} translations, median`, p50(uploadMs));
  row(`    the memory learning them after the upload, median`, p50(learnedMs));
  row(`    the same upload unchanged (nothing to remember), median`, p50(unchangedMs));
  say(`    ratio: ${(p50(uploadMs) / p50(unchangedMs)).toFixed(2)}×`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  client?.close();
  await system?.stop();
}
