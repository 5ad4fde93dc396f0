/**
 * `npm run bench:import`: adoption is an import (DESIGN §15), measured in one run on this
 * machine. An i18next app of KEYS keys in NAMESPACES JSON files (`locales/{lng}/{ns}.json`: nested
 * sections, `{{name}}` interpolations, plural groups with each locale's own CLDR forms) and
 * LOCALES.length target locales, every key translated (about 1.5 million values), is
 * - (a) read through the CLI's formats alone: every file of every locale, as push reads them;
 * - (b) imported by the real `tolk push` (in-process; its first push) through the gateway into
 *   Tolk started as the other benches start it (gateway, services, Postgres, RabbitMQ, Redis);
 * - (c) checked by the real `tolk check` (in-process).
 * Targets: (b) ÷ (a) ≤ 3, (c) ÷ (a) ≤ 2. The exit code says whether the runs worked (every locale
 * imported with every value, check finished), not whether the targets were met.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { loadProjectConfig } from '../cli/src/config/project-config.js';
import { readLocalValues, readSourceFiles } from '../cli/src/files/file-sets.js';
import { namespaceFiles } from '../cli/src/files/namespace-files.js';
import { tolkInProcess } from './cli-in-process.js';
import { seededRandom } from './source-documents.js';
import {
  cpuBetween,
  createHttpClient,
  describeCpu,
  memoryLearned,
  ownCpuSeconds,
  startTolk,
  type HttpClient,
  type TolkSystem,
} from './source-system.js';

const config = loadConfig(
  z.object({
    DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
    REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
    AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
    // Ports of the gateway and the four services: this one and the next four.
    BENCH_IMPORT_PORT: env.port(18160),
    BENCH_IMPORT_KEYS: z.coerce.number().int().min(100).max(200_000).default(50_000),
  }),
  process.env,
);

const KEYS = config.BENCH_IMPORT_KEYS;
const NAMESPACES = 10;
// prettier-ignore
const LOCALES = [
  'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'nb', 'fi', 'pl', 'cs', 'sk', 'ru', 'uk',
  'ar', 'he', 'tr', 'el', 'hu', 'ro', 'bg', 'hr', 'lt', 'ja', 'ko', 'zh', 'vi', 'id', 'th',
];
const TARGETS = { importing: 3, checking: 2 };

const say = (line = '') => process.stdout.write(`${line}\n`);

const WORDS = (
  'account file invoice member project comment task report setting team message order ' +
  'payment device folder label review draft export schedule'
).split(' ');
const VERBS = 'save delete open share archive restore upload send edit rename'.split(' ');

/**
 * The app's namespaces: each a nested document of KEYS / NAMESPACES keys (sections of about
 * fifty), one key in fifty an i18next plural group; `text` writes a value in a locale.
 */
function generateApp() {
  const random = seededRandom(26);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  type Entry = { path: string[]; text: string; plural: boolean };
  const namespaces: { name: string; entries: Entry[] }[] = [];
  const perNamespace = Math.ceil(KEYS / NAMESPACES);
  let keys = 0;
  for (let n = 0; n < NAMESPACES; n++) {
    const entries: Entry[] = [];
    for (let i = 0; i < perNamespace && keys < KEYS; i++) {
      const section = `section${Math.floor(i / 50)}`;
      const roll = random();
      const noun = pick(WORDS);
      if (roll < 0.02 && keys + 2 <= KEYS) {
        entries.push({ path: [section, `${noun}Count${i}`], text: `{{count}} ${noun}`, plural: true });
        keys += 2;
        continue;
      }
      // As in a real app, nearly every text is said once: a key's own words make it its own.
      const own = `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`;
      const text =
        roll < 0.45
          ? `${pick(VERBS)} ${noun} ${own}`
          : roll < 0.8
            ? `The ${noun} of {{name}} was updated on {{date}} (${own}).`
            : `Could not ${pick(VERBS)} this ${noun} ${own}. Check your connection and try again; nothing was lost.`;
      entries.push({ path: [section, `${noun}${i}`], text, plural: false });
      keys++;
    }
    namespaces.push({ name: `ns${n}`, entries });
  }
  /** A namespace's file in `locale`: the source's text, or a translation of it, each plural in the locale's forms. */
  const document = (entries: readonly Entry[], locale: string | undefined) => {
    const root: Record<string, Record<string, string>> = {};
    const categories = new Intl.PluralRules(locale ?? 'en').resolvedOptions().pluralCategories;
    for (const entry of entries) {
      const section = (root[entry.path[0]!] ??= {});
      const text = locale ? `[${locale}] ${entry.text}` : entry.text;
      if (!entry.plural) section[entry.path[1]!] = text;
      else
        for (const category of categories) section[`${entry.path[1]}_${category}`] = `${text} (${category})`;
    }
    return root;
  };
  const texts = new Set(namespaces.flatMap((namespace) => namespace.entries.map((entry) => entry.text))).size;
  return { namespaces, document, keys, texts };
}

/** (a): every file of every locale read through its format, as push reads them. */
async function readAll(cwd: string): Promise<number> {
  const project = await loadProjectConfig(cwd);
  const { parts } = await readSourceFiles(project, await namespaceFiles(project, cwd), cwd);
  let values = 0;
  for (const locale of LOCALES) values += (await readLocalValues(parts, locale, cwd))?.values.size ?? 0;
  return values;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const row = (what: string, ms: number, reading: number, target: number) => {
  const r = ms / reading;
  say(
    `${what.padEnd(36)} ${seconds(ms).padStart(9)}   ${r.toFixed(2)}× reading ` +
      `(target ≤ ${target}×) ${r <= target ? 'met' : 'NOT met'}`,
  );
};

let system: TolkSystem | undefined;
let client: HttpClient | undefined;
let dir: string | undefined;
try {
  say(`starting Tolk on 127.0.0.1:${config.BENCH_IMPORT_PORT}-${config.BENCH_IMPORT_PORT + 4} ...`);
  system = await startTolk({
    databaseName: 'tolk_bench_import',
    adminDatabaseUrl: config.DATABASE_URL,
    amqpUrl: config.AMQP_URL,
    redisUrl: config.REDIS_URL,
    basePort: config.BENCH_IMPORT_PORT,
    log: say,
    onGiveUp: (name) => {
      console.error(`${name} keeps crashing; stopping.`);
      process.exit(1);
    },
  });
  client = createHttpClient(system.gatewayUrl);
  const signup = await client.call('POST', '/v1/auth/signup', {
    body: { email: `bench-import-${Date.now()}@example.com`, password: 'benchmark password' },
  });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}`);
  const token = (signup.body as { accessToken: string }).accessToken;

  dir = await mkdtemp(join(tmpdir(), 'tolk-bench-import-'));
  const cwd = join(dir, 'app');
  const environment = {
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    TOLK_API_URL: system.gatewayUrl,
    TOLK_TOKEN: token,
  };
  const cli = (args: string[]) => tolkInProcess(args, cwd, environment);

  const app = generateApp();
  let bytes = 0;
  for (const locale of ['en', ...LOCALES]) {
    await mkdir(join(cwd, 'locales', locale), { recursive: true });
    for (const { name, entries } of app.namespaces) {
      const text = `${JSON.stringify(app.document(entries, locale === 'en' ? undefined : locale), null, 2)}\n`;
      bytes += Buffer.byteLength(text);
      await writeFile(join(cwd, 'locales', locale, `${name}.json`), text);
    }
  }
  const files = [{ path: 'locales/{locale}/{namespace}.json', format: 'i18next' }];
  const init = await cli(['init', '--name', 'Bench', '--targets', LOCALES.join(','), '--yes', '--json']);
  if (init.code !== 0) throw new Error(`tolk init exited ${init.code}: ${init.stderr}`);
  const tolkJson = join(cwd, 'tolk.json');
  await writeFile(
    tolkJson,
    JSON.stringify({ ...JSON.parse(await readFile(tolkJson, 'utf8')), files }, null, 2),
  );
  say(
    `an i18next app: ${app.keys} keys (${app.texts} distinct texts) in ${NAMESPACES} namespaces, ${LOCALES.length} target locales, ` +
      `${NAMESPACES * (LOCALES.length + 1)} files, ${(bytes / 1024 / 1024).toFixed(0)} MiB`,
  );

  say('(a) reading every file through the CLI’s formats ...');
  const readingCpu = ownCpuSeconds();
  let started = performance.now();
  const values = await readAll(cwd);
  const reading = performance.now() - started;
  const readCpu = ownCpuSeconds() - readingCpu;
  say(`    ${values.toLocaleString('en')} translated values in ${seconds(reading)}`);

  say('(b) tolk push (the first: it imports every locale) ...');
  let cpu = await system.cpu!();
  started = performance.now();
  const pushed = await cli(['push', '--json']);
  const importing = performance.now() - started;
  // CPU seconds by process: what a loaded machine's wall-clock time cannot show.
  const pushCpu = cpuBetween(cpu, await system.cpu!());
  if (pushed.code !== 0) throw new Error(`tolk push exited ${pushed.code}:\n${pushed.stderr.slice(0, 4000)}`);
  const imported = (
    JSON.parse(pushed.stdout) as { imported: { locales: { locale: string; imported: number }[] } }
  ).imported.locales;
  const importedValues = imported.reduce((sum, locale) => sum + locale.imported, 0);
  say(
    `    ${imported.length} locales, ${importedValues.toLocaleString('en')} values imported in ${seconds(importing)}`,
  );
  if (imported.length !== LOCALES.length || importedValues !== values)
    throw new Error(
      `imported ${importedValues} of ${values} values, ${imported.length} of ${LOCALES.length} locales`,
    );

  // The memory learns an import's translations after it (DESIGN §13): how much longer that takes,
  // waited for before (c) so that check is not timed while it runs.
  cpu = await system.cpu!();
  say(
    `    the translation memory learned them ${seconds(await memoryLearned(system.databaseUrl!))} after the push`,
  );
  const learnCpu = cpuBetween(cpu, await system.cpu!());

  say('(c) tolk check ...');
  cpu = await system.cpu!();
  started = performance.now();
  const checked = await cli(['check', '--json']);
  const checking = performance.now() - started;
  const checkCpu = cpuBetween(cpu, await system.cpu!());
  if (checked.code > 1)
    throw new Error(`tolk check exited ${checked.code}:\n${checked.stderr.slice(0, 4000)}`);
  say(`    exit ${checked.code} in ${seconds(checking)}`);

  say();
  say(`${'(a) reading'.padEnd(36)} ${seconds(reading).padStart(9)}`);
  row('(b) tolk push, importing', importing, reading, TARGETS.importing);
  row('(c) tolk check', checking, reading, TARGETS.checking);
  say();
  say(`CPU seconds, reading:  ${readCpu.toFixed(1)} s`);
  say(`CPU seconds, push:     ${describeCpu(pushCpu)}`);
  say(`CPU seconds, learning: ${describeCpu(learnCpu)}`);
  say(`CPU seconds, check:    ${describeCpu(checkCpu)}`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  client?.close();
  await system?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}
