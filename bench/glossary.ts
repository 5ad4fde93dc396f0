/**
 * `npm run bench:glossary`: what one member filling a glossary costs everyone else, measured in one
 * run on this machine through the real gateway and services (as child processes, as `npm start`
 * runs them) on Postgres, RabbitMQ and Redis. While a victim in another project reads its project
 * and its glossary one call after another, a member of another project:
 *   1. fills the glossary to its bound in bytes with entries at every field's cap (200 renderings
 *      of 1,000 characters), ten merge imports at a time, until they are refused;
 *   2. sends ten imports at once of the most renderings one import may carry (250,000, one
 *      character each: the slowest to check), naming 200 locales, then 1,000; then ten of four
 *      times as many, which are refused;
 *   3. reads the full glossary twenty at a time, page by page and without paging.
 * Printed per phase: the victim's p50, p99 and slowest call, project-service's resident memory
 * (its /metrics, every 100 ms) and its longest event-loop stall (prom-client's
 * nodejs_eventloop_lag_max_seconds), and what the member's requests answered.
 */
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { parseTargetLocale } from '@tolk/contracts';
import { startTolk, type TolkSystem } from './source-system.js';

const config = loadConfig(
  z.object({
    DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
    REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
    AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
    // Ports of the gateway and the four services: this one and the next four.
    BENCH_GLOSSARY_PORT: env.port(18150),
  }),
  process.env,
);

const PARALLEL_WRITES = 10;
const PARALLEL_READS = 20;
const say = (line = '') => process.stdout.write(`${line}\n`);

type Answer = { status: number; ms: number; body: unknown };

/** One exchange timed until the last byte of the answer. */
async function call(url: string, init: { method?: string; token: string; body?: unknown }): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined || typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, ms, body };
}

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) {
    throw new Error(
      `${what} answered ${answer.status}, expected ${status}: ${JSON.stringify(answer.body).slice(0, 300)}`,
    );
  }
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Locale codes that are their own canonical form: `count` of them, two letters then with regions. */
function localeCodes(count: number, withRegions: boolean): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const regions = withRegions ? ['AT', 'BE', 'CH', 'DE', 'FR', 'GB', 'IT', 'NL', 'PL', 'US'] : [''];
  const codes: string[] = [];
  for (const region of regions) {
    for (const a of letters) {
      for (const b of letters) {
        const code = region ? `${a}${b}-${region}` : `${a}${b}`;
        const parsed = parseTargetLocale(code);
        if (parsed.ok && parsed.locale === code) codes.push(code);
        if (codes.length === count) return codes;
      }
    }
  }
  return codes;
}

/**
 * The victim's loop, in a thread of its own: the member's side of the bench (building and
 * reading megabytes of JSON) must not hold up the clock of the victim's calls.
 */
const VICTIM = `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, token } = workerData;
let running = true;
const durations = [];
const failures = [];
parentPort.on('message', () => { running = false; });
(async () => {
  for (let turn = 0; running; turn++) {
    const started = performance.now();
    try {
      const response = await fetch(urls[turn % urls.length], { headers: { authorization: 'Bearer ' + token } });
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(String(response.status));
    } catch (error) {
      failures.push(error.name);
    }
    durations.push(performance.now() - started);
  }
  parentPort.postMessage({ durations, failures });
})();
`;

/** Samples project-service's resident memory and event-loop stalls while the victim's calls are timed. */
function observe(metricsUrl: string, victim: { urls: string[]; token: string }) {
  let rssMax = 0;
  let lagMax = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      try {
        const text = await (await fetch(metricsUrl)).text();
        const rss = /^process_resident_memory_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1];
        const lag = /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1];
        rssMax = Math.max(rssMax, Number(rss ?? 0));
        lagMax = Math.max(lagMax, Number(lag ?? 0));
      } catch {
        // the process is busy or restarting: the next sample tells
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const worker = new Worker(VICTIM, { eval: true, workerData: victim });
  const calls = new Promise<{ durations: number[]; failures: string[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return async () => {
    running = false;
    worker.postMessage('stop');
    const [{ durations, failures }] = await Promise.all([calls, sampler]);
    await worker.terminate();
    return { rssMax, lagMax, victimMs: durations, failures };
  };
}

let system: TolkSystem | undefined;
try {
  const port = config.BENCH_GLOSSARY_PORT;
  say(`starting Tolk on 127.0.0.1:${port}-${port + 4} ...`);
  system = await startTolk({
    databaseName: 'tolk_bench_glossary',
    adminDatabaseUrl: config.DATABASE_URL,
    amqpUrl: config.AMQP_URL,
    redisUrl: config.REDIS_URL,
    basePort: port,
    log: say,
    // Stopped with the rest (not process.exit, which would leave the other services running).
    onGiveUp: (name) => {
      console.error(`${name} keeps crashing; stopping.`);
      process.exitCode = 1;
      void system?.stop().finally(() => process.exit(1));
    },
  });
  const base = system.gatewayUrl;
  const metricsUrl = `http://127.0.0.1:${port + 2}/metrics`;
  const person = async (name: string) => {
    const signup = await call(`${base}/v1/auth/signup`, {
      method: 'POST',
      token: '',
      body: { email: `bench-glossary-${name}-${Date.now()}@example.com`, password: 'benchmark password' },
    });
    expectStatus(signup, 201, 'signup');
    const token = (signup.body as { accessToken: string }).accessToken;
    const project = await call(`${base}/v1/projects`, {
      method: 'POST',
      token,
      body: { name, sourceLocale: 'en' },
    });
    expectStatus(project, 201, 'POST /v1/projects');
    return { token, path: `${base}/v1/projects/${(project.body as { projectId: string }).projectId}` };
  };
  const member = await person('filler');
  const victim = await person('bystander');
  expectStatus(
    await call(`${victim.path}/glossary`, {
      method: 'PUT',
      token: victim.token,
      body: {
        entries: [
          { term: 'cart', translations: { de: 'Warenkorb' } },
          { term: 'Tolk', keepAsIs: true },
        ],
      },
    }),
    200,
    "the victim's glossary",
  );
  const victimCalls = { urls: [victim.path, `${victim.path}/glossary`], token: victim.token };

  const rows: string[] = [];
  async function phase(name: string, work: () => Promise<string>) {
    say(`${name} ...`);
    const stop = observe(metricsUrl, victimCalls);
    const started = performance.now();
    const outcome = await work();
    const seconds = (performance.now() - started) / 1000;
    const { rssMax, lagMax, victimMs, failures } = await stop();
    rows.push(
      `${name.padEnd(44)} ${seconds.toFixed(1).padStart(6)} s  victim p50 ${percentile(victimMs, 50).toFixed(0).padStart(5)} ms` +
        ` p99 ${percentile(victimMs, 99).toFixed(0).padStart(5)} ms max ${Math.max(...victimMs)
          .toFixed(0)
          .padStart(5)} ms` +
        ` (${victimMs.length} calls${failures.length ? `, ${failures.length} failed: ${[...new Set(failures)].join(' ')}` : ''})` +
        `  RSS ≤ ${(rssMax / 2 ** 20).toFixed(0).padStart(4)} MiB  stall ≤ ${(lagMax * 1000).toFixed(0).padStart(5)} ms\n` +
        `${''.padEnd(44)} ${outcome}`,
    );
  }
  const statuses = (answers: Answer[]) => {
    const counts = new Map<number, number>();
    for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
    return [...counts].map(([status, n]) => `${n}× ${status}`).join(', ');
  };

  await phase('0. the victim alone', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    return 'nothing else';
  });

  const capped = localeCodes(200, false);
  const bigEntry = (term: string) => ({
    term,
    translations: Object.fromEntries(capped.map((locale) => [locale, 'x'.repeat(1000)])),
  });
  await phase(`1. fill to the bound, ${PARALLEL_WRITES} merge imports at a time`, async () => {
    const answers: Answer[] = [];
    for (let round = 0; round < 3; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: PARALLEL_WRITES }, (_, i) =>
            call(`${member.path}/glossary?merge=true`, {
              method: 'PUT',
              token: member.token,
              body: { entries: [bigEntry(`big ${round}-${i}`)] },
            }),
          ),
        )),
      );
    }
    const page = await call(`${member.path}/glossary?limit=1`, { token: member.token });
    const { total, bytes } = page.body as { total?: number; bytes?: number };
    return `imports: ${statuses(answers)}; the glossary: ${total ?? '?'} entries, ${bytes ?? '?'} bytes`;
  });

  // The most one import may carry: 250,000 renderings, 1,000 locale codes; and four times that.
  for (const [what, entries, codes] of [
    ['1,250 × 200 locales', 1250, localeCodes(200, false)],
    ['1,250 × 200 of 1,000 locales', 1250, localeCodes(1000, true)],
    ['4,000 × 200 locales (refused)', 4000, localeCodes(200, false)],
  ] as const) {
    const imports = Array.from({ length: PARALLEL_WRITES }, (_, n) =>
      JSON.stringify({
        entries: Array.from({ length: entries }, (_, i) => ({
          term: `t${n}-${i}`,
          translations: Object.fromEntries(
            Array.from({ length: 200 }, (_, j) => [codes[(i * 200 + j) % codes.length]!, 'x']),
          ),
        })),
      }),
    );
    await phase(`2. ${PARALLEL_WRITES} imports at once of ${what}`, async () => {
      const started = performance.now();
      const answers = await Promise.all(
        imports.map((body) => call(`${member.path}/glossary`, { method: 'PUT', token: member.token, body })),
      );
      const slowest = (performance.now() - started) / 1000;
      return `imports: ${statuses(answers)}, all answered within ${slowest.toFixed(1)} s (body ${(imports[0]!.length / 2 ** 20).toFixed(1)} MiB each)`;
    });
  }

  const refill = await call(`${member.path}/glossary`, {
    method: 'PUT',
    token: member.token,
    body: { entries: Array.from({ length: 20 }, (_, i) => bigEntry(`big ${i}`)) },
  });
  expectStatus(refill, 200, 'refilling the glossary to its bound');
  await phase(`3. ${PARALLEL_READS} readers of the full glossary, paged`, async () => {
    let bytes = 0;
    const readers = Array.from({ length: PARALLEL_READS }, async () => {
      let cursor: string | null = '';
      let pages = 0;
      while (cursor !== null) {
        const answer = await call(`${member.path}/glossary?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, {
          token: member.token,
        });
        expectStatus(answer, 200, 'a page');
        const page = answer.body as { entries: unknown[]; nextCursor?: string | null };
        bytes += JSON.stringify(page).length;
        cursor = page.nextCursor ?? null;
        pages++;
      }
      return pages;
    });
    const pages = await Promise.all(readers);
    return `${pages.reduce((a, b) => a + b, 0)} pages, ${(bytes / 2 ** 20).toFixed(0)} MiB read`;
  });
  await phase(`4. ${PARALLEL_READS} readers of the full glossary, unpaged`, async () => {
    const answers = await Promise.all(
      Array.from({ length: PARALLEL_READS }, () => call(`${member.path}/glossary`, { token: member.token })),
    );
    const bytes = answers.reduce((sum, answer) => sum + JSON.stringify(answer.body).length, 0);
    return `${statuses(answers)}, ${(bytes / 2 ** 20).toFixed(0)} MiB read`;
  });

  say();
  for (const row of rows) say(row);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await system?.stop();
}
