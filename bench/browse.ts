/**
 * `npm run bench:browse`: what the translation browser (`GET /v1/projects/{p}/keys`) costs one
 * user and everyone else, measured in one run through the real gateway in front of the real
 * services (as bench:source starts them), on Postgres, RabbitMQ and Redis, with a project of
 * 20,000 source keys in 10 target locales (translated from an earlier version: some keys
 * missing, some outdated):
 *   1. another user's `GET …/locales` of a project of their own, one after the other, alone
 *   2. BENCH_BROWSE_READERS (20) browser reads at once, each a page at its own offset, for
 *      BENCH_BROWSE_ROUNDS rounds (the first after a new source version, nothing computed yet),
 *      the other user's reads beside them
 *   3. the same with a search (`q`) and a state filter, which look at every key
 * For each: the browser reads' p50 and p99, the other user's p50 and p99, and the longest the
 * locale-service's event loop was held (prom-client's `nodejs_eventloop_lag_max_seconds`, read
 * from its /metrics before and after, which resets it); and the locale-service's resident
 * memory at the end. The exit code says whether the run worked, not how the figures look.
 */
import { browseBenchConfig } from './config.js';
import { percentile } from './percentile.js';
import { editValues, generateSource, translationOf } from './source-documents.js';
import {
  createHttpClient,
  startBenchTolk,
  type Answer,
  type HttpClient,
  type TolkSystem,
  expectStatus,
} from './source-system.js';

const config = browseBenchConfig();

// Languages with English's plural categories, so that a prefixed source is a valid translation.
const LOCALES = ['de', 'nl', 'sv', 'da', 'nb', 'fi', 'et', 'el', 'hu', 'bg'];
/** The browser's page size (the dashboard's). */
const PAGE = 50;
/** A call slower than this counts as this long (the gateway's upstream timeout is 30 s). */
const CALL_TIMEOUT_MS = 60_000;

const say = (line = '') => process.stdout.write(`${line}\n`);

async function signUp(client: HttpClient, name: string) {
  const signup = await client.call('POST', '/v1/auth/signup', {
    body: { email: `bench-browse-${name}-${Date.now()}@example.com`, password: 'benchmark password' },
  });
  expectStatus(signup, 201, 'POST /v1/auth/signup');
  return { authorization: `Bearer ${(signup.body as { accessToken: string }).accessToken}` };
}

async function projectWith(client: HttpClient, headers: Record<string, string>, locales: string[]) {
  const created = await client.call('POST', '/v1/projects', {
    headers,
    body: { name: 'Browse', sourceLocale: 'en' },
  });
  expectStatus(created, 201, 'POST /v1/projects');
  const path = `/v1/projects/${(created.body as { projectId: string }).projectId}`;
  for (const locale of locales) {
    expectStatus(
      await client.call('POST', `${path}/locales`, { headers, body: { locale } }),
      201,
      `POST ${path}/locales (${locale})`,
    );
  }
  return path;
}

/** Uploads `body` as the source; waits until every locale has heard of its version. */
async function putSource(client: HttpClient, headers: Record<string, string>, path: string, body: Buffer) {
  const put = await client.call('PUT', `${path}/source`, { headers, body });
  expectStatus(put, 200, `PUT ${path}/source`);
  const version = (put.body as { version: number }).version;
  for (;;) {
    const locales = await client.call('GET', `${path}/locales`, { headers });
    expectStatus(locales, 200, `GET ${path}/locales`);
    const heard = (locales.body as { locales: { sourceVersion: number }[] }).locales;
    if (heard.every((locale) => locale.sourceVersion === version)) return version;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A gauge of locale-service's /metrics (prom-client's process metrics). */
async function gauge(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  if (!line) throw new Error(`${metricsUrl} has no ${name}`);
  return Number(line.split(' ').at(-1));
}

/** The longest the locale-service's event loop was held since the last read, in ms. */
async function eventLoopStallMs(metricsUrl: string): Promise<number> {
  return (await gauge(metricsUrl, 'nodejs_eventloop_lag_max_seconds')) * 1000;
}

type Timings = { p50: number; p99: number; count: number; failed: number };

function timings(samples: number[], failed = 0): Timings {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), count: samples.length, failed };
}

/** Calls `call` one after the other until `stop` says so; each call's time. */
function repeatUntil(stop: () => boolean, call: () => Promise<Answer>): Promise<number[]> {
  return (async () => {
    const samples: number[] = [];
    while (!stop()) {
      const answer = await call();
      expectStatus(answer, 200, 'the other user’s GET …/locales');
      samples.push(answer.ms);
    }
    return samples;
  })();
}

let system: TolkSystem | undefined;
const clients: HttpClient[] = [];
try {
  system = await startBenchTolk('browse', config, config.BENCH_BROWSE_PORT, say);
  const metricsUrl = `http://127.0.0.1:${config.BENCH_BROWSE_PORT + 4}/metrics`;
  // Separate pools: the readers' connections are their own, as the other user's are.
  const setup = createHttpClient(system.gatewayUrl);
  const readers = createHttpClient(system.gatewayUrl, { maxSockets: config.BENCH_BROWSE_READERS });
  const other = createHttpClient(system.gatewayUrl);
  clients.push(setup, readers, other);

  const keys = config.BENCH_BROWSE_KEYS;
  say(
    `uploading a ${keys.toLocaleString('en')}-key source and its translation into ${LOCALES.join(', ')} ...`,
  );
  const browser = await signUp(setup, 'reader');
  const project = await projectWith(setup, browser, LOCALES);
  const source = generateSource({ keys, seed: 7, style: 'realistic' });
  const first = await putSource(setup, browser, project, source.toBuffer());
  const document = JSON.parse(source.toBuffer().toString('utf8')) as unknown;
  for (const [i, locale] of LOCALES.entries()) {
    // About one key in 20 left untranslated, a different one in each locale.
    let n = i;
    const translation = translationOf(document, locale, () => n++ % 20 !== 0);
    const path = `${project}/locales/${locale}/translations?sourceVersion=${first}`;
    expectStatus(
      await setup.call('PUT', path, { headers: browser, body: Buffer.from(JSON.stringify(translation)) }),
      200,
      `PUT ${path}`,
    );
  }

  const otherUser = await signUp(setup, 'other');
  const otherProject = await projectWith(setup, otherUser, ['de']);
  await putSource(setup, otherUser, otherProject, Buffer.from(JSON.stringify({ greeting: 'Hello' })));
  const otherRead = () => other.call('GET', `${otherProject}/locales`, { headers: otherUser });
  for (let n = 0; n < 20; n++) await otherRead();

  say('(1) the other user’s GET …/locales, alone ...');
  await eventLoopStallMs(metricsUrl);
  let stopAlone = false;
  const aloneRun = repeatUntil(() => stopAlone, otherRead);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  stopAlone = true;
  const alone = timings(await aloneRun);
  const aloneStall = await eventLoopStallMs(metricsUrl);

  /** Rounds of the readers at once, the other user reading beside them; each round after a new source version. */
  async function phase(query: (reader: number) => string) {
    const reads: number[] = [];
    let failed = 0;
    let done = false;
    await eventLoopStallMs(metricsUrl);
    const beside = repeatUntil(() => done, otherRead);
    try {
      for (let round = 0; round < config.BENCH_BROWSE_ROUNDS; round++) {
        const answers = await Promise.all(
          Array.from({ length: config.BENCH_BROWSE_READERS }, (_, reader) =>
            readers
              .call('GET', `${project}/keys?${query(reader)}`, {
                headers: browser,
                signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
              })
              .catch((error: unknown) => {
                if ((error as Error).name !== 'AbortError') throw error;
                return { status: 0, body: 'timed out', ms: CALL_TIMEOUT_MS };
              }),
          ),
        );
        for (const answer of answers) {
          if (answer.status !== 200) failed++;
          reads.push(answer.ms);
        }
      }
    } finally {
      done = true;
    }
    const otherTimings = timings(await beside);
    return { reads: timings(reads, failed), other: otherTimings, stall: await eventLoopStallMs(metricsUrl) };
  }

  // A new source version: whatever a browse computed of the previous one serves no more.
  editValues(source, 3, 25, 1);
  await putSource(setup, browser, project, source.toBuffer());
  say(
    `(2) ${config.BENCH_BROWSE_READERS} browser reads at once, ${config.BENCH_BROWSE_ROUNDS} rounds, the other user beside them ...`,
  );
  const pages = await phase((reader) => `offset=${reader * PAGE}&limit=${PAGE}`);
  editValues(source, 4, 25, 2);
  await putSource(setup, browser, project, source.toBuffer());
  say('(3) the same, each read a search and a state filter over every key ...');
  const searches = await phase(
    (reader) =>
      `q=${['this', 'file', 'team', 'enter'][reader % 4]}&status=${reader % 2 ? 'outdated' : 'missing'}`,
  );

  const ms = (value: number) => value.toFixed(0).padStart(8);
  const row = (name: string, t: Timings) =>
    `${name.padEnd(46)}${ms(t.p50)}${ms(t.p99)}   ${t.count} calls${t.failed ? `, ${t.failed} not 200` : ''}`;
  say();
  say(
    `${keys.toLocaleString('en')} keys × ${LOCALES.length} locales; ${config.BENCH_BROWSE_READERS} reads at once, ${config.BENCH_BROWSE_ROUNDS} rounds`,
  );
  say(`${''.padEnd(46)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}`);
  say(row('other user’s GET …/locales, alone', alone));
  say(`    longest event-loop stall of locale-service: ${aloneStall.toFixed(0)} ms`);
  say(row('(2) browser pages', pages.reads));
  say(row('    other user’s GET …/locales beside them', pages.other));
  say(`    longest event-loop stall of locale-service: ${pages.stall.toFixed(0)} ms`);
  say(row('(3) browser searches (q and status)', searches.reads));
  say(row('    other user’s GET …/locales beside them', searches.other));
  say(`    longest event-loop stall of locale-service: ${searches.stall.toFixed(0)} ms`);
  const resident = await gauge(metricsUrl, 'process_resident_memory_bytes');
  say(`locale-service's resident memory at the end: ${(resident / 2 ** 20).toFixed(0)} MiB`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const client of clients) client.close();
  await system?.stop();
}
