/**
 * `npm run bench:translate`: what a translation run costs (DESIGN §14), measured in one run on
 * this machine: the real `tolk translate` (in-process) against Tolk started as the other benches
 * start it (gateway, services, Postgres, RabbitMQ, Redis), and a stand-in model speaking OpenAI's
 * Chat Completions (the CLI's `--base-url` endpoint) that answers correct translations (the
 * stand-in of the CLI's tests: `[<locale>] text`, placeholders kept, ICU plurals and i18next
 * plural groups with the target's categories) after a realistic latency:
 * BENCH_TRANSLATE_REQUEST_MS (300) a request plus BENCH_TRANSLATE_TOKEN_MS (10) an output token.
 *
 * The source: 2,000 keys (bench/source-documents.ts, realistic: nested sections, ICU plurals,
 * `{name}` placeholders, ARB `@key` annotations) of which PLURAL_GROUPS i18next plural groups
 * (`…_one` / `…_other`), translated into LOCALES at the CLI's concurrency
 * (BENCH_TRANSLATE_CONCURRENCY, default the CLI's 4).
 *
 * Tokens are counted with o200k (gpt-tokenizer), each text on its own:
 * - input tokens: per request, the system and user messages' texts plus the response format's
 *   JSON schema, if any (providers bill it as part of the prompt);
 * - output tokens: per request, the answer's text;
 * - the input floor: for each target locale, for each key the run asks of the model (run 1:
 *   every source key), its source text plus its context note as the CLI words it (contextNotes:
 *   its own and its groups' `@` annotations), each counted once per locale; a plural group counts
 *   its source forms;
 * - the output floor: for each target locale, the translations the run wrote for those keys
 *   (a plural group's target forms), each text alone, no key, no JSON;
 * - the ideal wall time: the stand-in's latencies summed over every request, divided by the
 *   concurrency; the wall time runs from the start of `tolk translate` to its end (uploads too).
 * Targets: input ≤ 2× its floor, output ≤ 1.25× its floor, wall ≤ 1.3× ideal; then 1 % of the
 * source's texts change and a second run's tokens (input + output) ÷ the first's ≤ 2 %.
 * The exit code says whether the runs worked, not whether the targets were met.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { parseSourceDocument } from '@tolk/locale-file';
import { contextNotes } from '../cli/src/translate/batches.js';
import { startOpenAIStandIn, type ProviderStandIn } from '../cli/test/support/provider-stand-ins.js';
import { tolkInProcess } from './cli-in-process.js';
import { editValues, generateSource } from './source-documents.js';
import { createHttpClient, startTolk, type HttpClient, type TolkSystem } from './source-system.js';

const config = loadConfig(
  z.object({
    DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
    REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
    AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
    // Ports of the gateway and the four services: this one and the next four.
    BENCH_TRANSLATE_PORT: env.port(18130),
    BENCH_TRANSLATE_REQUEST_MS: z.coerce.number().min(0).max(60_000).default(300),
    BENCH_TRANSLATE_TOKEN_MS: z.coerce.number().min(0).max(1_000).default(10),
    BENCH_TRANSLATE_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  }),
  process.env,
);

const KEYS = 2_000;
const PLURAL_GROUPS = 60;
const LOCALES = ['de', 'fr', 'es', 'pl', 'ja'];
const TARGETS = { input: 2, output: 1.25, wall: 1.3, rerun: 0.02 };

const say = (line = '') => process.stdout.write(`${line}\n`);

type Leaves = Map<string, string>;

/** The leaves of a document by dotted key, annotations left out. */
function leavesOf(document: unknown, prefix = '', into: Leaves = new Map()): Leaves {
  if (typeof document !== 'object' || document === null) return into;
  for (const [key, value] of Object.entries(document)) {
    if (key.startsWith('@')) continue;
    if (typeof value === 'string') into.set(`${prefix}${key}`, value);
    else leavesOf(value, `${prefix}${key}.`, into);
  }
  return into;
}

/**
 * The generated source with PLURAL_GROUPS i18next plural groups in place of as many pairs of
 * keys, spread over the file, so that it still has KEYS keys.
 */
function buildSource() {
  const generated = generateSource({ keys: KEYS - PLURAL_GROUPS * 2, seed: 19, style: 'realistic' });
  const document = () => {
    const root = JSON.parse(generated.toBuffer().toString('utf8')) as Record<string, unknown>;
    const containers: Record<string, unknown>[] = [];
    const visit = (node: Record<string, unknown>) => {
      for (const value of Object.values(node)) {
        if (typeof value !== 'object' || value === null) continue;
        const child = value as Record<string, unknown>;
        if (Object.values(child).some((v) => typeof v === 'string')) containers.push(child);
        else visit(child);
      }
    };
    visit(root);
    const nouns = ['file', 'member', 'invoice', 'comment', 'task', 'project'];
    for (let i = 0; i < PLURAL_GROUPS; i++) {
      const container = containers[Math.floor((i * containers.length) / PLURAL_GROUPS)]!;
      const noun = nouns[i % nouns.length]!;
      container[`${noun}Count_one`] = `{{count}} ${noun} selected`;
      container[`${noun}Count_other`] = `{{count}} ${noun}s selected`;
    }
    return root;
  };
  return { generated, document };
}

type ModelStats = {
  requests: number;
  inputTokens: number;
  schemaTokens: number;
  outputTokens: number;
  modelMs: number;
};

/**
 * The stand-in model: OpenAI's Chat Completions in front of the tests' stand-in, which translates;
 * this one counts tokens with o200k, answers with them as the usage, and holds each answer back
 * for the latency a model would take to write it.
 */
async function startModel(standIn: ProviderStandIn) {
  const stats: ModelStats = { requests: 0, inputTokens: 0, schemaTokens: 0, outputTokens: 0, modelMs: 0 };
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await read(req);
    const answer = await fetch(`${standIn.url}${req.url}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: raw,
    });
    const body = (await answer.json()) as {
      choices?: { message: { content: string } }[];
      usage?: Record<string, number>;
    };
    const content = body.choices?.[0]?.message.content;
    if (!answer.ok || content === undefined) {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    const request = JSON.parse(raw) as {
      messages: { content: string | { type: string; text?: string }[] }[];
      response_format?: unknown;
    };
    const texts = request.messages.flatMap((m) =>
      typeof m.content === 'string' ? [m.content] : m.content.flatMap((p) => (p.text ? [p.text] : [])),
    );
    const schemaTokens = request.response_format ? countTokens(JSON.stringify(request.response_format)) : 0;
    const inputTokens = texts.reduce((sum, text) => sum + countTokens(text), 0) + schemaTokens;
    const outputTokens = countTokens(content);
    const ms = config.BENCH_TRANSLATE_REQUEST_MS + config.BENCH_TRANSLATE_TOKEN_MS * outputTokens;
    stats.requests++;
    stats.inputTokens += inputTokens;
    stats.schemaTokens += schemaTokens;
    stats.outputTokens += outputTokens;
    stats.modelMs += ms;
    body.usage = {
      prompt_tokens: inputTokens,
      completion_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    };
    await new Promise((resolve) => setTimeout(resolve, ms));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    /** The counts since the last call. */
    take(): ModelStats {
      const taken = { ...stats };
      Object.assign(stats, { requests: 0, inputTokens: 0, schemaTokens: 0, outputTokens: 0, modelMs: 0 });
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `tolk <args>` in-process in `cwd`; an exit other than 0 is an error with its output. */
async function tolk(args: string[], cwd: string, environment: Record<string, string>) {
  const { code, stdout, stderr } = await tolkInProcess(args, cwd, environment);
  if (code !== 0)
    throw new Error(`tolk ${args.join(' ')} exited ${code}:\n${stderr}\n${stdout}`.slice(0, 4000));
  return stdout;
}

/** The floors of one run: the keys asked, their source texts and notes in, their translations out. */
async function floors(cwd: string, document: unknown, asked: ReadonlySet<string> | undefined) {
  const source = leavesOf(document);
  const notes = contextNotes(parseSourceDocument(document), [...source.keys()]);
  const groupOf = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
  const wanted = (key: string) => !asked || asked.has(key) || asked.has(groupOf(key));
  let input = 0;
  for (const [key, text] of source)
    if (wanted(key)) input += countTokens(text) + countTokens(notes[key] ?? '');
  let output = 0;
  for (const locale of LOCALES) {
    const target = leavesOf(JSON.parse(await readFile(join(cwd, 'locales', `${locale}.json`), 'utf8')));
    for (const [key, text] of target) if (wanted(key)) output += countTokens(text);
  }
  return { input: input * LOCALES.length, output };
}

const ratio = (value: number, floor: number) => value / floor;
const row = (what: string, value: string, r: number, target: number, unit = '×') =>
  say(
    `${what.padEnd(44)} ${value.padStart(22)}   ${r.toFixed(r < 0.1 ? 4 : 2)}${unit} ` +
      `(target ≤ ${target}${unit}) ${r <= target ? 'met' : 'NOT met'}`,
  );

let system: TolkSystem | undefined;
let client: HttpClient | undefined;
let standIn: ProviderStandIn | undefined;
let model: Awaited<ReturnType<typeof startModel>> | undefined;
let dir: string | undefined;
try {
  say(
    `stand-in model: ${config.BENCH_TRANSLATE_REQUEST_MS} ms a request + ${config.BENCH_TRANSLATE_TOKEN_MS} ms an output token; ` +
      `tokens counted with o200k; concurrency ${config.BENCH_TRANSLATE_CONCURRENCY}`,
  );
  say(`starting Tolk on 127.0.0.1:${config.BENCH_TRANSLATE_PORT}-${config.BENCH_TRANSLATE_PORT + 4} ...`);
  system = await startTolk({
    databaseName: 'tolk_bench_translate',
    adminDatabaseUrl: config.DATABASE_URL,
    amqpUrl: config.AMQP_URL,
    redisUrl: config.REDIS_URL,
    basePort: config.BENCH_TRANSLATE_PORT,
    log: say,
    onGiveUp: (name) => {
      console.error(`${name} keeps crashing; stopping.`);
      process.exit(1);
    },
  });
  standIn = await startOpenAIStandIn();
  model = await startModel(standIn);
  client = createHttpClient(system.gatewayUrl);
  const signup = await client.call('POST', '/v1/auth/signup', {
    body: { email: `bench-translate-${Date.now()}@example.com`, password: 'benchmark password' },
  });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}`);
  const token = (signup.body as { accessToken: string }).accessToken;

  dir = await mkdtemp(join(tmpdir(), 'tolk-bench-translate-'));
  const cwd = join(dir, 'app');
  await mkdir(join(cwd, 'locales'), { recursive: true });
  const environment = {
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    TOLK_API_URL: system.gatewayUrl,
    TOLK_TOKEN: token,
  };
  const cli = (args: string[]) => tolk(args, cwd, environment);
  const { generated, document } = buildSource();
  await cli(['init', '--name', 'Bench', '--targets', LOCALES.join(','), '--yes', '--json']);
  const writeSource = async () => {
    const doc = document();
    await writeFile(join(cwd, 'locales', 'en.json'), `${JSON.stringify(doc, null, 2)}\n`);
    await cli(['push']);
    return doc;
  };
  const translate = async () => {
    const started = performance.now();
    const out = await cli([
      'translate',
      '--base-url',
      model!.baseURL,
      '--model',
      'stand-in',
      '--concurrency',
      String(config.BENCH_TRANSLATE_CONCURRENCY),
      '--json',
    ]);
    const wallMs = performance.now() - started;
    const summary = JSON.parse(out) as { keys: number; locales: { failedKeys: string[] }[] };
    const failed = summary.locales.flatMap((locale) => locale.failedKeys);
    if (failed.length > 0) throw new Error(`keys not translated: ${failed.slice(0, 10).join(', ')}`);
    return { wallMs, keys: summary.keys, stats: model!.take() };
  };

  const firstDocument = await writeSource();
  say(
    `(1) translating ${leavesOf(firstDocument).size} keys (${PLURAL_GROUPS} plural groups) into ${LOCALES.join(', ')} ...`,
  );
  const first = await translate();
  const firstFloor = await floors(cwd, firstDocument, undefined);

  const changed = editValues(generated, 3, 100, 2);
  const secondDocument = await writeSource();
  const before = leavesOf(firstDocument);
  const changedKeys = new Set(
    [...leavesOf(secondDocument)].filter(([k, v]) => before.get(k) !== v).map(([k]) => k),
  );
  say(`(2) ${changed} texts changed (1 %); translating again ...`);
  const second = await translate();

  const ideal = first.stats.modelMs / config.BENCH_TRANSLATE_CONCURRENCY;
  const tokens = (s: ModelStats) => s.inputTokens + s.outputTokens;
  say();
  say(
    `run 1: ${first.keys} keys written, ${first.stats.requests} requests; input floor ${firstFloor.input} tokens, ` +
      `output floor ${firstFloor.output} tokens; ${first.stats.schemaTokens} of the input tokens were JSON schemas`,
  );
  row(
    '(1) input tokens ÷ floor',
    `${first.stats.inputTokens}`,
    ratio(first.stats.inputTokens, firstFloor.input),
    TARGETS.input,
  );
  row(
    '    output tokens ÷ floor',
    `${first.stats.outputTokens}`,
    ratio(first.stats.outputTokens, firstFloor.output),
    TARGETS.output,
  );
  row(
    '    wall time ÷ ideal',
    `${(first.wallMs / 1000).toFixed(1)} s / ${(ideal / 1000).toFixed(1)} s`,
    ratio(first.wallMs, ideal),
    TARGETS.wall,
  );
  const secondFloor = await floors(cwd, secondDocument, changedKeys);
  say(
    `run 2: ${second.keys} keys written, ${second.stats.requests} requests, ${second.stats.inputTokens} input + ` +
      `${second.stats.outputTokens} output tokens (floors ${secondFloor.input} in, ${secondFloor.output} out), ` +
      `${(second.wallMs / 1000).toFixed(1)} s`,
  );
  row(
    "(2) after 1 % changed: tokens ÷ run 1's",
    `${tokens(second.stats)} / ${tokens(first.stats)}`,
    ratio(tokens(second.stats), tokens(first.stats)) * 100,
    TARGETS.rerun * 100,
    '%',
  );
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  client?.close();
  await model?.close();
  await standIn?.close();
  await system?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}
