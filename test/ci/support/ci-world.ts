/**
 * What ci/tolk-ci.mjs meets on a runner, made of real parts: the real Tolk system, the real CLI
 * (bundled from its sources as the world starts, so a test never runs a stale bundle), git with a
 * bare repository as the remote and a fresh clone as each run's checkout, the OpenAI stand-in in
 * place of the model, and a local server speaking the GitHub or GitLab REST calls the script
 * makes, recording them.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { startSystem, type System } from '../../e2e/system.js';
import { bundleCli } from '../../../cli/test/support/bundled-cli.js';
import { createCliHarness, type CliHarness } from '../../../cli/test/support/cli-harness.js';
import { startOpenAIStandIn, type ProviderStandIn } from '../../../cli/test/support/provider-stand-ins.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const SCRIPT = join(root, 'ci', 'tolk-ci.mjs');
export const BOT_EMAIL = 'tolk-translations[bot]@users.noreply.github.com';

export async function git(args: string[], cwd: string): Promise<string> {
  const { stdout } = await promisify(execFile)('git', args, { cwd });
  return stdout.trim();
}

export type ScriptResult = { code: number | null; stdout: string; stderr: string };

/** Runs the script as the runner does: a child process with only the environment given. */
export function runScript(cwd: string, env: Record<string, string>): Promise<ScriptResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: cwd, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A stand-in for the CLI, for `mode: check` only (the real `tolk check` is tested in cli/): it
 * records how it was called in FAKE_RECORD, prints FAKE_OUTPUT and exits with FAKE_EXIT.
 */
async function writeFakeCli(dir: string): Promise<string> {
  const file = join(dir, 'fake-tolk.mjs');
  await writeFile(
    file,
    `import { writeFileSync } from 'node:fs';
const call = { args: process.argv.slice(2), cwd: process.cwd(), token: process.env.TOLK_TOKEN };
writeFileSync(process.env.FAKE_RECORD, JSON.stringify(call));
process.stdout.write(process.env.FAKE_OUTPUT);
process.exit(Number(process.env.FAKE_EXIT));
`,
  );
  return file;
}

/** A temporary directory with the CLI stand-in in it, for the tests of a describe block. */
export function useFakeCli() {
  const fake = { dir: '', cli: '' };
  beforeAll(async () => {
    fake.dir = await mkdtemp(join(tmpdir(), 'tolk-ci-check-'));
    fake.cli = await writeFakeCli(fake.dir);
  });
  afterAll(async () => {
    await rm(fake.dir, { recursive: true, force: true });
  });
  return fake;
}

export type ForgeRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: any;
};

type Request = { number: number; head: string; base: string; title: string; body: string; state: string };

/**
 * GitHub's pulls API (`/repos/acme/app/pulls`) or GitLab's merge requests API
 * (`/api/v4/projects/42/merge_requests`), answering as they do: the token checked, a request
 * opened only for a branch the remote has (as both do), one list of open requests.
 */
export async function startForgeStandIn(
  kind: 'github' | 'gitlab',
  options: { token: string; branchExists: (branch: string) => Promise<boolean> },
) {
  const requests: ForgeRequest[] = [];
  const opened: Request[] = [];
  const refusals: Array<{ method: string; status: number; message: string }> = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://forge');
      const entry: ForgeRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(entry);
      const answer = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      void handle(entry, answer).catch((error: Error) => answer(500, { message: error.message }));
    });
  });

  async function handle(request: ForgeRequest, answer: (status: number, value: unknown) => void) {
    const authorized =
      kind === 'github'
        ? request.headers.authorization === `Bearer ${options.token}`
        : request.headers['private-token'] === options.token;
    if (!authorized)
      return answer(401, { message: kind === 'github' ? 'Bad credentials' : '401 Unauthorized' });
    const refusal = refusals.find((r) => r.method === request.method);
    if (refusal) return answer(refusal.status, { message: refusal.message });
    const shown = (r: Request) =>
      kind === 'github'
        ? { number: r.number, html_url: `https://github.test/acme/app/pull/${r.number}`, state: r.state }
        : {
            iid: r.number,
            web_url: `https://gitlab.test/acme/app/-/merge_requests/${r.number}`,
            state: r.state,
          };
    const list = kind === 'github' ? '/repos/acme/app/pulls' : '/api/v4/projects/42/merge_requests';
    const one = new RegExp(`^${list}/(\\d+)$`);
    if (request.method === 'GET' && request.path === list) {
      const head =
        kind === 'github' ? request.query['head']?.replace(/^acme:/, '') : request.query['source_branch'];
      const state = request.query['state'];
      return answer(200, opened.filter((r) => r.head === head && r.state === state).map(shown));
    }
    if (request.method === 'POST' && request.path === list) {
      const head = kind === 'github' ? request.body.head : request.body.source_branch;
      if (!(await options.branchExists(head)))
        return answer(422, { message: `Validation Failed: no branch ${head}` });
      const created: Request = {
        number: opened.length + 1,
        head,
        base: kind === 'github' ? request.body.base : request.body.target_branch,
        title: request.body.title,
        body: kind === 'github' ? request.body.body : request.body.description,
        state: kind === 'github' ? 'open' : 'opened',
      };
      opened.push(created);
      return answer(201, shown(created));
    }
    const match = one.exec(request.path);
    if (match && request.method === (kind === 'github' ? 'PATCH' : 'PUT')) {
      const existing = opened.find((r) => r.number === Number(match[1]));
      if (!existing) return answer(404, { message: 'Not Found' });
      existing.title = request.body.title;
      existing.body = kind === 'github' ? request.body.body : request.body.description;
      return answer(200, shown(existing));
    }
    return answer(404, { message: 'Not Found' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    opened,
    /** Answers every `method` request with this status and message from now on. */
    refuse(method: string, status: number, message: string) {
      refusals.push({ method, status, message });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type ForgeStandIn = Awaited<ReturnType<typeof startForgeStandIn>>;

export const SOURCE = {
  cart: { title: 'Your cart', pay: 'Pay {amount}' },
  home: { welcome: 'Welcome, {name}!' },
};

/**
 * A Tolk project (en → de, fr) whose app lives in a git repository: `seed` is the developer's
 * clone, `remote` the bare repository both push to, `checkout()` a fresh clone like a runner's.
 */
export async function startCiWorld(kind: 'github' | 'gitlab') {
  const forgeToken = kind === 'github' ? 'ghs_test_token' : 'glpat-test-token';
  const [system, openai, bundle] = await Promise.all([
    startSystem({ sources: true, tokens: true }),
    startOpenAIStandIn(),
    bundleCli('tolk-ci-'),
  ]);
  const dir = await mkdtemp(join(tmpdir(), 'tolk-ci-'));
  const remote = join(dir, 'remote.git');
  await mkdir(remote);
  await git(['init', '--quiet', '--bare', '--initial-branch=main'], remote);
  const forge = await startForgeStandIn(kind, {
    token: forgeToken,
    branchExists: async (branch) => (await branchHead(branch)) !== undefined,
  });

  const cli: CliHarness = await createCliHarness(system.base);
  const seed = cli.cwd;
  const user = await system.signUp();
  const init = await cli.tolk(
    [
      'init',
      '--name',
      'App',
      '--source',
      'en',
      '--targets',
      'de,fr',
      '--files',
      'locales/{locale}.json',
      '--yes',
    ],
    { env: { TOLK_TOKEN: user.token } },
  );
  if (init.code !== 0) throw new Error(`tolk init failed: ${init.stderr}`);
  const { projectId } = await cli.readJson<{ projectId: string }>('tolk.json');
  const created = await system.call('POST', `/v1/projects/${projectId}/tokens`, user.token, {
    label: 'ci',
    permissions: 'read_write',
  });
  if (created.status !== 201) throw new Error(`token: ${created.status}`);
  const projectToken = (created.body as { token: string }).token;

  await cli.writeJson('locales/en.json', SOURCE);
  await git(['init', '--quiet', '--initial-branch=main'], seed);
  await git(['config', 'user.name', 'Dev'], seed);
  await git(['config', 'user.email', 'dev@example.com'], seed);
  await git(['remote', 'add', 'origin', remote], seed);
  await commitAll(seed, 'The app');
  await git(['push', '--quiet', 'origin', 'main'], seed);

  async function commitAll(cwd: string, message: string) {
    await git(['add', '--all'], cwd);
    await git(['commit', '--quiet', '-m', message], cwd);
  }

  /** The remote's commit of `branch`, or undefined when it has no such branch. */
  async function branchHead(branch: string): Promise<string | undefined> {
    try {
      return await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], remote);
    } catch {
      return undefined;
    }
  }

  let clones = 0;
  return {
    system,
    openai,
    forge,
    forgeToken,
    remote,
    seed,
    projectId,
    /** What every run passes: the Tolk server and token, the provider, the CLI. */
    tolkEnv: {
      TOLK_API_URL: system.base,
      TOLK_TOKEN: projectToken,
      TOLK_PROVIDER: 'openai',
      TOLK_PROVIDER_KEY: 'sk-test-provider-key',
      TOLK_MODEL: 'stand-in-model',
      TOLK_PROVIDER_URL: openai.baseURL,
      TOLK_CLI_VERSION: bundle.file,
    },
    branchHead,
    /** A fresh clone of `branch`, as a runner checks out the commit it runs for. */
    async checkout(branch = 'main'): Promise<string> {
      const clone = join(dir, `checkout-${++clones}`);
      await git(['clone', '--quiet', '--branch', branch, remote, clone], dir);
      return clone;
    },
    /** The developer changes the source and pushes it to main. */
    async changeSource(change: (source: any) => void, message: string) {
      const source = await cli.readJson('locales/en.json');
      change(source);
      await cli.writeJson('locales/en.json', source);
      await commitAll(seed, message);
      await git(['push', '--quiet', 'origin', 'main'], seed);
    },
    /** The developer commits a file as it is to main (a broken one, say) and pushes it. */
    async commitFile(path: string, content: string, message: string) {
      await mkdir(dirname(join(seed, path)), { recursive: true });
      await writeFile(join(seed, path), content);
      await commitAll(seed, message);
      await git(['push', '--quiet', 'origin', 'main'], seed);
    },
    /** The translation branch squash-merged into main by the developer. */
    async mergeTranslations(branch: string) {
      await git(['fetch', '--quiet', 'origin', branch], seed);
      await git(['checkout', '--quiet', 'FETCH_HEAD', '--', '.'], seed);
      await commitAll(seed, 'Merge the translations');
      await git(['push', '--quiet', 'origin', 'main'], seed);
    },
    /** A file of `branch` on the remote. */
    async fileOn(branch: string, path: string): Promise<string> {
      return git(['show', `refs/heads/${branch}:${path}`], remote);
    },
    async writeFileIn(dirPath: string, path: string, content: string) {
      await mkdir(dirname(join(dirPath, path)), { recursive: true });
      await writeFile(join(dirPath, path), content);
    },
    readFile: (path: string) => readFile(path, 'utf8'),
    async close() {
      await forge.close();
      await openai.close();
      await cli.remove();
      await rm(dir, { recursive: true, force: true });
      await rm(bundle.dir, { recursive: true, force: true });
      await system.close();
    },
  };
}

export type CiWorld = Awaited<ReturnType<typeof startCiWorld>>;

export type { System, ProviderStandIn };
