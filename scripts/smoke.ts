/**
 * `npm run smoke`: Tolk as someone meets it first, in well under a minute, on whatever Node runs
 * it (CI runs it on the machine's own Node, the tests on Node 24). `npm start` with no servers
 * set, on an empty data directory, answers /healthz and then /readyz; the README's walkthrough
 * then runs against it with `tolk` as npm publishes it (the bundle, built from this clone's
 * sources into a temporary folder: started through tsx each step would take three times the
 * CPU), each step a process of its own as typed in a terminal: sign up, `tolk login` (the code
 * approved with the account's token, as the README says for a machine without a browser), init,
 * push, status, translate with the tests' stand-in model, status --check, check, pull. Exits 1 at
 * the first step that does not do its part.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { assertEmbeddedPortsFree, freePort, spawnEmbeddedTolk } from '../bench/embedded-process.js';
import { startOpenAIStandIn } from '../cli/test/support/provider-stand-ins.js';
import { inheritedEnvironment } from './config.js';
import { ROOT } from './processes.js';

const READY_WITHIN_MS = 60_000;
const STEP_WITHIN_MS = 30_000;
const SOURCE = {
  cart: {
    title: 'Your cart',
    pay: 'Pay {amount}',
    items_one: '{{count}} item',
    items_other: '{{count}} items',
  },
  '@@locale': 'en',
};

type Run = { code: number | null; stdout: string; stderr: string };

const startedAt = performance.now();
const since = () => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
const work = await mkdtemp(path.join(tmpdir(), 'tolk-smoke-'));
// The bundle's npm imports resolve from cli/node_modules and above, so it is written under cli/;
// not as cli/dist/tolk.js, which bin/tolk.js would run from then on in place of the sources.
const bundleDir = path.join(ROOT, 'cli', 'dist', path.basename(work));
const bundle = path.join(bundleDir, 'tolk.js');
const app = path.join(work, 'shop');
const port = await freePort();
await assertEmbeddedPortsFree(port);
const model = await startOpenAIStandIn();
// Built while Tolk starts: undefined once built, else what went wrong.
const bundling = promisify(execFile)(process.execPath, [
  path.join(ROOT, 'cli', 'scripts', 'bundle.mjs'),
  '--outfile',
  bundle,
]).then(
  () => undefined,
  (error: Error) => error.message,
);
const warnings: string[] = [];
const tolkServer = spawnEmbeddedTolk({
  dataDir: path.join(work, 'data'),
  port,
  viaNpm: true,
  onWarning: (line) => warnings.push(line),
});

// The CLI sees a person's environment, less anything that would sign it in or pick a provider.
const cliEnv: NodeJS.ProcessEnv = { ...inheritedEnvironment(), HOME: path.join(work, 'home') };
for (const name of Object.keys(cliEnv))
  if (/^(TOLK_|XDG_CONFIG_HOME$)|_API_KEY$/.test(name)) delete cliEnv[name];

/** `tolk <args>` in the app's folder; `onStdout` sees its output as it comes. */
function tolk(args: string[], onStdout?: (stdout: string) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], {
      cwd: app,
      env: cliEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: STEP_WITHIN_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      onStdout?.(stdout);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs one step; a step returns what is wrong with what it saw, or nothing. */
async function step(name: string, run: () => Promise<string | undefined>): Promise<void> {
  const stepStart = performance.now();
  const wrong = await run();
  if (wrong !== undefined) throw new Error(`${name}: ${wrong}`);
  console.log(`ok  ${name} (${(performance.now() - stepStart).toFixed(0)} ms)`);
}

const exitedWith = (run: Run, code: number) =>
  run.code === code ? undefined : `exit ${run.code}, not ${code}\n${run.stdout}${run.stderr}`;

async function post(target: string, body: unknown, token?: string) {
  const response = await fetch(`${tolkServer.url}${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => undefined)) as Record<string, unknown>,
  };
}

let failed = false;
try {
  await step('npm start: /healthz, then /readyz', async () => {
    const start = await tolkServer.ready(READY_WITHIN_MS);
    console.log(
      `    healthy after ${start.healthyMs.toFixed(0)} ms, ready after ${start.readyMs.toFixed(0)} ms`,
    );
    return undefined;
  });

  await step('the CLI bundled', () => bundling);

  let token = '';
  await step('sign up', async () => {
    const signup = await post('/v1/auth/signup', {
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    token = String(signup.body['accessToken']);
    return signup.status === 201 ? undefined : `status ${signup.status}: ${JSON.stringify(signup.body)}`;
  });

  await mkdir(path.join(app, 'locales'), { recursive: true });
  await step('tolk login, the code approved', async () => {
    let approval: Promise<{ status: number }> | undefined;
    const login = await tolk(['login', '--api', tolkServer.url, '--no-browser'], (stdout) => {
      const userCode = /^ {4}(\S+)$/m.exec(stdout)?.[1];
      if (userCode && !approval) approval = post('/v1/auth/device/approve', { userCode }, token);
    });
    const approved = await approval;
    if (approved?.status !== 204) return `approving answered ${approved?.status}`;
    return exitedWith(login, 0) ?? (login.stdout.includes('Logged in') ? undefined : login.stdout);
  });

  await step('tolk init', async () => {
    const args = 'init --name Shop --source en --targets de,pl --files locales/{locale}.json';
    return exitedWith(await tolk(args.split(' ')), 0);
  });
  await writeFile(path.join(app, 'locales', 'en.json'), JSON.stringify(SOURCE));
  await step('tolk push', async () => {
    const push = await tolk(['push']);
    return (
      exitedWith(push, 0) ??
      (push.stdout.includes('source version is now 1, 4 keys') ? undefined : push.stdout)
    );
  });
  await step('tolk status: behind', async () => {
    const status = await tolk(['status']);
    return exitedWith(status, 0) ?? (/pl\s+behind\s+6\b/.test(status.stdout) ? undefined : status.stdout);
  });
  await step('tolk translate (the stand-in model)', async () => {
    const translate = await tolk(['translate', '--base-url', model.baseURL, '--model', 'stand-in']);
    const polish = await readFile(path.join(app, 'locales', 'pl.json'), 'utf8').catch(() => '');
    return exitedWith(translate, 0) ?? (polish.includes('[pl:few] {{count}} items') ? undefined : polish);
  });
  await step('tolk status --check: up to date', async () => exitedWith(await tolk(['status', '--check']), 0));
  await step('tolk check', async () => exitedWith(await tolk(['check']), 0));
  await rm(path.join(app, 'locales', 'de.json'));
  await step('tolk pull', async () => {
    const pull = await tolk(['pull']);
    const german = await readFile(path.join(app, 'locales', 'de.json'), 'utf8').catch(() => '');
    return exitedWith(pull, 0) ?? (german.includes('[de] Your cart') ? undefined : german);
  });
} catch (error) {
  failed = true;
  console.error(`FAILED ${(error as Error).message}`);
} finally {
  const stopped = await tolkServer.stop();
  await model.close();
  await bundling;
  await rm(work, { recursive: true, force: true });
  await rm(bundleDir, { recursive: true, force: true });
  if (stopped.killed) {
    failed = true;
    console.error('FAILED Ctrl-C did not stop npm start: it was killed');
  }
  for (const line of warnings) console.log(`    Tolk said: ${line}`);
}
console.log(`smoke ${failed ? 'failed' : 'passed'} on Node ${process.version} in ${since()}`);
process.exitCode = failed ? 1 : 0;
