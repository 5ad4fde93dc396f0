#!/usr/bin/env node
/**
 * Tolk in CI, for the GitHub Action (action.yml) and the GitLab CI template
 * (ci/gitlab/tolk.gitlab-ci.yml): one script, two platforms, configured by environment variables
 * (see ci/README.md). Plain Node with no dependencies (≥ 20 for this script, ≥ 22.12 for the CLI),
 * so a runner needs nothing but node, git and the CLI that `npx` fetches.
 *
 * - check: `tolk check` with annotations for the platform; its exit code is the job's.
 * - translate: `tolk push`, `tolk translate --json`, `tolk pull`; when target files changed, one
 *   commit on top of the base branch, force-pushed to the translation branch (rebuilt each run so
 *   it never drifts from the base), and one pull request (GitHub) or merge request (GitLab)
 *   opened or updated with what changed and what it cost.
 *
 * Exit codes: the CLI's own (2 usage, 3 authentication, 4 network, …) when a step of it fails;
 * 2 for a bad setting of this script; 3 when GitHub or GitLab refuses the token; 4 when git or
 * their API fails otherwise.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

const CLI_PACKAGE = '@tolk/cli';
/** Who the translation commits are by: the guard against running on them again reads it back. */
const BOT = { name: 'tolk-translations[bot]', email: 'tolk-translations[bot]@users.noreply.github.com' };
const TITLE = 'Translations from Tolk';
/** The variable each provider's key is read from by the CLI (cli/README.md, "Providers and keys"). */
const PROVIDER_KEY_VARIABLES = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
  mistral: 'MISTRAL_API_KEY',
  deepseek: 'DEEPSEEK_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
};

class Failure extends Error {
  /** @param {string} message @param {number} exitCode */
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

const env = process.env;
/** Secrets never to print, whatever git or an API echoes back. */
const secrets = [env.TOLK_TOKEN, env.TOLK_PROVIDER_KEY, env.TOLK_GITHUB_TOKEN, env.TOLK_GITLAB_TOKEN].filter(
  (value) => value && value.length >= 4,
);
const mask = (text) => secrets.reduce((masked, secret) => masked.split(secret).join('***'), String(text));
const say = (line) => process.stdout.write(mask(line) + '\n');

function setting(name, fallback) {
  const value = env[name]?.trim();
  return value ? value : fallback;
}

function required(name, why) {
  const value = setting(name);
  if (!value) throw new Failure(`${name} is not set: ${why}`, 2);
  return value;
}

function platformOf() {
  const chosen = setting('TOLK_CI_PLATFORM') ?? (env.GITHUB_ACTIONS === 'true' ? 'github' : undefined);
  const platform = chosen ?? (env.GITLAB_CI === 'true' ? 'gitlab' : undefined);
  if (platform !== 'github' && platform !== 'gitlab') {
    throw new Failure(
      `TOLK_CI_PLATFORM must be github or gitlab, got ${platform ?? 'nothing (neither GITHUB_ACTIONS nor GITLAB_CI is set)'}`,
      2,
    );
  }
  return platform;
}

/** Runs a command; resolves with its exit code and what it wrote (also shown, unless quiet). */
function execute(command, args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (options.echoStdout) process.stdout.write(mask(chunk));
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (!options.quiet) process.stderr.write(mask(chunk));
    });
    child.on('error', (error) => reject(new Failure(`could not run ${command}: ${error.message}`, 4)));
    child.on('close', (code, signal) => resolvePromise({ code: code ?? (signal ? 130 : 1), stdout, stderr }));
  });
}

/** git's output, trimmed unless `raw` (porcelain status starts with a space). */
async function git(args, cwd, raw = false) {
  const result = await execute('git', args, { cwd, quiet: true });
  if (result.code !== 0) {
    throw new Failure(
      `git ${args[0]} failed (exit ${result.code}): ${result.stderr.trim() || result.stdout.trim()}`,
      4,
    );
  }
  return raw ? result.stdout : result.stdout.trim();
}

/**
 * The CLI: `cli-version` is a version of the published package, run with `npx --yes`, or a path
 * to a CLI's bin script (a checkout of Tolk, or a stand-in), run with node.
 */
function cliCommand(version) {
  if (version.includes('/') || version.endsWith('.js') || version.endsWith('.mjs')) {
    return { command: process.execPath, prefix: [resolve(version)] };
  }
  return { command: 'npx', prefix: ['--yes', `${CLI_PACKAGE}@${version}`] };
}

function cliEnvironment() {
  const cliEnv = { ...env };
  const provider = setting('TOLK_PROVIDER');
  const key = setting('TOLK_PROVIDER_KEY');
  if (provider && !(provider in PROVIDER_KEY_VARIABLES)) {
    throw new Failure(
      `provider must be one of ${Object.keys(PROVIDER_KEY_VARIABLES).join(', ')}, got ${provider}`,
      2,
    );
  }
  if (key && !provider) {
    throw new Failure('provider-key is set without provider: name the provider the key is for', 2);
  }
  if (key) cliEnv[PROVIDER_KEY_VARIABLES[provider]] = key;
  // The CLI reads TOLK_TOKEN and TOLK_API_URL itself; the provider key only under its own name.
  delete cliEnv.TOLK_PROVIDER_KEY;
  return cliEnv;
}

function makeTolk(workdir) {
  const { command, prefix } = cliCommand(setting('TOLK_CLI_VERSION', 'latest'));
  const cliEnv = cliEnvironment();
  return async (args, options = {}) => {
    say(`$ tolk ${args.join(' ')}`);
    return execute(command, [...prefix, ...args], {
      cwd: workdir,
      env: cliEnv,
      echoStdout: !options.capture,
    });
  };
}

// ---------------------------------------------------------------------------------------------
// check

/** A `true` or `false` input of check: its flag of `tolk check` when true. */
function flagArgs(value, input, flag) {
  if (value !== 'true' && value !== 'false')
    throw new Failure(`${input} must be true or false, got ${value}`, 2);
  return value === 'true' ? [flag] : [];
}

/**
 * `strict` / TOLK_CHECK_STRICT: `true` fails the check on warnings too (`tolk check --strict`).
 * `require-translations` / TOLK_CHECK_REQUIRE_TRANSLATIONS: `true` fails it on a missing translation
 * of a key new or changed against the server's main source too (`--require-translations`), for a
 * team that translates in the pull request; else such a key is pending, a notice.
 */
function checkFlags() {
  return [
    ...flagArgs(setting('TOLK_CHECK_STRICT', 'false'), 'strict', '--strict'),
    ...flagArgs(
      setting('TOLK_CHECK_REQUIRE_TRANSLATIONS', 'false'),
      'require-translations',
      '--require-translations',
    ),
  ];
}

async function check(platform, workdir) {
  const tolk = makeTolk(workdir);
  const flags = checkFlags();
  if (platform === 'github') {
    const result = await tolk(['check', '--format', 'github', ...flags]);
    return result.code;
  }
  // GitLab shows the code-quality report of the job (artifacts: reports: codequality).
  const report = resolve(setting('CI_PROJECT_DIR', process.cwd()), 'gl-code-quality-report.json');
  const result = await tolk(['check', '--format', 'gitlab', ...flags], { capture: true });
  // An empty file is not a report GitLab can read (a CLI without `check` prints nothing on stdout).
  writeFileSync(report, result.stdout.trim() ? result.stdout : '[]\n');
  say(`tolk check: exit ${result.code}; code-quality report written to ${report}`);
  return result.code;
}

// ---------------------------------------------------------------------------------------------
// translate

/** The branch the pipeline runs for, when it runs for a branch. */
function triggeringBranch(platform) {
  if (platform === 'github') {
    if (setting('GITHUB_HEAD_REF')) return setting('GITHUB_HEAD_REF');
    const ref = setting('GITHUB_REF', '');
    return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
  }
  return setting('CI_MERGE_REQUEST_SOURCE_BRANCH_NAME') ?? setting('CI_COMMIT_BRANCH');
}

async function baseBranch(platform, forge) {
  const chosen = setting('TOLK_BASE');
  if (chosen) return chosen;
  if (platform === 'gitlab') {
    return (
      setting('CI_COMMIT_BRANCH') ?? required('CI_DEFAULT_BRANCH', 'the base branch is not known: set base')
    );
  }
  const ref = setting('GITHUB_REF', '');
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  const eventPath = setting('GITHUB_EVENT_PATH');
  if (eventPath && existsSync(eventPath)) {
    const event = JSON.parse(readFileSync(eventPath, 'utf8'));
    if (typeof event?.repository?.default_branch === 'string') return event.repository.default_branch;
  }
  return forge.defaultBranch();
}

async function api(method, url, headers, body) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    throw new Failure(`${method} ${url}: ${error.cause?.message ?? error.message}`, 4);
  }
  const text = await response.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const message = parsed?.message ?? parsed?.error ?? text.slice(0, 300);
    const hint =
      response.status === 403 && url.includes('/pulls')
        ? ' (on GitHub, allow Actions to create pull requests: Settings → Actions → General → Workflow permissions)'
        : '';
    throw new Failure(
      `${method} ${url}: ${response.status} ${typeof message === 'string' ? message : JSON.stringify(message)}${hint}`,
      response.status === 401 || response.status === 403 ? 3 : 4,
    );
  }
  return parsed;
}

function github() {
  const repository = required('GITHUB_REPOSITORY', 'the repository (owner/name) is not known');
  const token = required('TOLK_GITHUB_TOKEN', 'a token that may open pull requests is needed (github-token)');
  const root = `${setting('GITHUB_API_URL', 'https://api.github.com').replace(/\/$/, '')}/repos/${repository}`;
  const headers = {
    accept: 'application/vnd.github+json',
    authorization: `Bearer ${token}`,
    'x-github-api-version': '2022-11-28',
    'user-agent': 'tolk-ci',
  };
  const owner = repository.split('/')[0];
  return {
    noun: 'pull request',
    pushRemote: async () => setting('TOLK_GIT_REMOTE', 'origin'),
    async defaultBranch() {
      return (await api('GET', root, headers)).default_branch;
    },
    async find(branch) {
      const query = new URLSearchParams({ head: `${owner}:${branch}`, state: 'open' });
      const [open] = await api('GET', `${root}/pulls?${query}`, headers);
      return open ? { number: open.number, url: open.html_url } : undefined;
    },
    async open({ branch, base, body }) {
      const created = await api('POST', `${root}/pulls`, headers, { title: TITLE, head: branch, base, body });
      return { number: created.number, url: created.html_url };
    },
    async update(existing, { base, body }) {
      const updated = await api('PATCH', `${root}/pulls/${existing.number}`, headers, {
        title: TITLE,
        base,
        body,
      });
      return { number: updated.number, url: updated.html_url };
    },
  };
}

function gitlab() {
  const project = required('CI_PROJECT_ID', 'the project is not known');
  const token = required('TOLK_GITLAB_TOKEN', 'a token with the api and write_repository scopes is needed');
  const root = `${required('CI_API_V4_URL', 'the GitLab API is not known')}/projects/${encodeURIComponent(project)}`;
  const headers = { 'private-token': token, 'user-agent': 'tolk-ci' };
  return {
    noun: 'merge request',
    /** The job's own clone cannot push (CI_JOB_TOKEN): push over HTTPS with the template's token. */
    async pushRemote() {
      if (setting('TOLK_GIT_REMOTE')) return setting('TOLK_GIT_REMOTE');
      const server = new URL(required('CI_SERVER_URL', 'the GitLab server is not known'));
      const path = required('CI_PROJECT_PATH', 'the project path is not known');
      return `${server.protocol}//oauth2:${encodeURIComponent(token)}@${server.host}${server.pathname.replace(/\/$/, '')}/${path}.git`;
    },
    async defaultBranch() {
      return required('CI_DEFAULT_BRANCH', 'the default branch is not known');
    },
    async find(branch, base) {
      const query = new URLSearchParams({ source_branch: branch, target_branch: base, state: 'opened' });
      const [open] = await api('GET', `${root}/merge_requests?${query}`, headers);
      return open ? { number: open.iid, url: open.web_url } : undefined;
    },
    async open({ branch, base, body }) {
      const created = await api('POST', `${root}/merge_requests`, headers, {
        source_branch: branch,
        target_branch: base,
        title: TITLE,
        description: body,
        remove_source_branch: true,
      });
      return { number: created.iid, url: created.web_url };
    },
    async update(existing, { base, body }) {
      const updated = await api('PUT', `${root}/merge_requests/${existing.number}`, headers, {
        title: TITLE,
        description: body,
        target_branch: base,
      });
      return { number: updated.iid, url: updated.web_url };
    },
  };
}

const number = (value) => new Intl.NumberFormat('en-US').format(value);

/** What the pull or merge request says: what this run translated, what it cost, which files. */
function describe({ summary, files, base, baseCommit, pullCode, translateCode, unreadFiles }) {
  const lines = [
    `Tolk translated \`${base}\` at ${baseCommit.slice(0, 12)}: \`tolk push\`, \`tolk translate\`, \`tolk pull\`.`,
    '',
  ];
  const locales = summary?.locales ?? [];
  if (locales.length > 0) {
    lines.push('| locale | keys translated | from memory | not translated |', '| --- | ---: | ---: | ---: |');
    for (const locale of locales) {
      lines.push(
        `| ${locale.locale} | ${number(locale.translated)} | ${number(locale.fromMemory)} | ${number(locale.failedKeys?.length ?? 0)} |`,
      );
    }
    lines.push('');
  } else {
    lines.push(
      'This run had nothing new to translate; the files below bring the server’s translations in.',
      '',
    );
  }
  if (summary) {
    const model = summary.provider ? ` (${summary.provider} ${summary.model})` : '';
    lines.push(
      `Cost of this run: ${number(summary.usage.inputTokens)} input + ${number(summary.usage.outputTokens)} output tokens${model}` +
        (summary.memory?.keys
          ? `; ${number(summary.memory.keys)} keys from translation memory saved about ${number(summary.memory.tokensSavedEstimate)} tokens.`
          : '.'),
      '',
    );
  }
  if (unreadFiles) {
    lines.push(
      '⚠️ Some locale files could not be read (they do not parse, or are not text); they were left as they are and the rest was translated: fix them (see the job’s log) and run again.',
      '',
    );
  }
  if (translateCode !== 0 && translateCode !== 6) {
    lines.push(
      `⚠️ \`tolk translate\` exited with ${translateCode}: some keys were not translated (see the job's log).`,
      '',
    );
  }
  if (pullCode === 5) {
    lines.push(
      '⚠️ `tolk pull` kept local values that differ from the server’s and were never uploaded (see the job’s log).',
      '',
    );
  }
  lines.push('Files:', ...files.map((file) => `- \`${file}\``), '');
  lines.push(
    `The branch is rebuilt from \`${base}\` on every run, so commits pushed to it are replaced: ` +
      'change translations in Tolk or in the base branch.',
  );
  return lines.join('\n');
}

function setOutputs(outputs) {
  const file = setting('GITHUB_OUTPUT');
  if (!file) return;
  appendFileSync(
    file,
    Object.entries(outputs)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  );
}

function summarize(text) {
  const file = setting('GITHUB_STEP_SUMMARY');
  if (file) appendFileSync(file, text + '\n');
}

/**
 * Whether the translation branch on the remote is already this commit's content on the same base
 * commit: then pushing again would only rewrite it (and notify everyone watching the request).
 */
async function sameAsPushed(remote, branch, baseCommit, workdir) {
  const listed = await git(['ls-remote', remote, `refs/heads/${branch}`], workdir);
  if (!listed) return false;
  await git(['fetch', '--quiet', '--no-tags', remote, `refs/heads/${branch}`], workdir);
  const [tree, parent] = (await git(['rev-parse', 'FETCH_HEAD^{tree}', 'FETCH_HEAD^'], workdir)).split('\n');
  return tree === (await git(['rev-parse', 'HEAD^{tree}'], workdir)) && parent === baseCommit;
}

async function translate(platform, workdir) {
  const branch = setting('TOLK_BRANCH', 'tolk/translations');
  const trigger = triggeringBranch(platform);
  if (trigger === branch) {
    say(`Nothing to do: this run is for ${branch}, the translation branch itself.`);
    setOutputs({ changed: 'false' });
    return 0;
  }
  const author = await git(['log', '-1', '--format=%ae'], workdir);
  if (author === BOT.email) {
    say(`Nothing to do: the commit this run is for was made by ${BOT.name}.`);
    setOutputs({ changed: 'false' });
    return 0;
  }
  const forge = platform === 'github' ? github() : gitlab();
  const base = await baseBranch(platform, forge);

  // Translate on top of the base branch's newest commit, so the branch is that plus one commit.
  await git(['fetch', '--quiet', '--no-tags', 'origin', `refs/heads/${base}`], workdir);
  const baseCommit = await git(['rev-parse', 'FETCH_HEAD'], workdir);
  if (baseCommit !== (await git(['rev-parse', 'HEAD'], workdir))) {
    if ((await git(['status', '--porcelain'], workdir)) !== '') {
      throw new Failure(
        `the checkout has changes and is not at ${base}'s newest commit; check out ${base}`,
        2,
      );
    }
    say(`Checking out ${base} at ${baseCommit.slice(0, 12)}.`);
    await git(['checkout', '--quiet', '--detach', baseCommit], workdir);
  }

  const tolk = makeTolk(workdir);
  const pushed = await tolk(['push']);
  // 6: a locale file could not be read; it is left as it is and everything else goes on.
  if (pushed.code !== 0 && pushed.code !== 6)
    throw new Failure(`tolk push failed (exit ${pushed.code})`, pushed.code);

  const translateArgs = ['translate', '--json'];
  if (setting('TOLK_PROVIDER')) translateArgs.push('--provider', setting('TOLK_PROVIDER'));
  if (setting('TOLK_MODEL')) translateArgs.push('--model', setting('TOLK_MODEL'));
  if (setting('TOLK_PROVIDER_URL')) translateArgs.push('--base-url', setting('TOLK_PROVIDER_URL'));
  const translated = await tolk(translateArgs, { capture: true });
  let summary;
  try {
    summary = JSON.parse(translated.stdout);
  } catch {
    summary = undefined;
  }
  // Keys that failed leave the rest uploaded: those still make a pull request, and the job fails.
  if (
    translated.code !== 0 &&
    translated.code !== 6 &&
    !(translated.code === 4 && summary?.locales?.length)
  ) {
    throw new Failure(`tolk translate failed (exit ${translated.code})`, translated.code);
  }
  if (summary) {
    say(
      `Translated ${summary.keys} keys: ${summary.usage.inputTokens} input + ${summary.usage.outputTokens} output tokens.`,
    );
  }

  const pulled = await tolk(['pull']);
  if (pulled.code !== 0 && pulled.code !== 5 && pulled.code !== 6)
    throw new Failure(`tolk pull failed (exit ${pulled.code})`, pulled.code);
  const unreadFiles = [pushed.code, translated.code, pulled.code].includes(6);
  // The request is made with what was done; the job still says what was not.
  const runCode = translated.code || (unreadFiles ? 6 : 0);

  // What the CLI changed in the working directory (paths from the repository's root): the target
  // files and .tolk/state.json.
  const status = await git(
    ['status', '--porcelain', '-z', '--untracked-files=all', '--', '.'],
    workdir,
    true,
  );
  const files = status
    .split('\0')
    .filter(Boolean)
    .map((line) => line.slice(3));
  if (!files.some((file) => !file.split('/').includes('.tolk'))) {
    say(`Nothing to commit: the target files are up to date with ${base}; no ${forge.noun}.`);
    setOutputs({ changed: 'false' });
    return runCode;
  }

  await git(['checkout', '--quiet', '-B', branch], workdir);
  await git(['add', '--all', '--', '.'], workdir);
  const locales = (summary?.locales ?? [])
    .filter((locale) => locale.translated > 0)
    .map((locale) => locale.locale);
  const message =
    locales.length > 0 ? `Translations from Tolk: ${locales.join(', ')}` : 'Translations from Tolk';
  await git(
    [
      '-c',
      `user.name=${BOT.name}`,
      '-c',
      `user.email=${BOT.email}`,
      'commit',
      '--quiet',
      '--no-verify',
      '-m',
      message,
    ],
    workdir,
  );
  const remote = await forge.pushRemote();
  const unchanged = await sameAsPushed(remote, branch, baseCommit, workdir);
  if (unchanged) {
    say(`${branch} already holds these translations on ${base}: not pushed again.`);
  } else {
    await git(['push', '--quiet', '--force', remote, `HEAD:refs/heads/${branch}`], workdir);
    say(`Pushed ${files.length} changed file${files.length === 1 ? '' : 's'} to ${branch}.`);
  }

  const body = describe({
    summary,
    files: [...files].sort(),
    base,
    baseCommit,
    pullCode: pulled.code,
    translateCode: translated.code,
    unreadFiles,
  });
  const existing = await forge.find(branch, base);
  if (unchanged && existing) {
    // Its description still tells what the run that made these translations did and cost.
    say(`The ${forge.noun} ${existing.url ?? `#${existing.number}`} stays as it is.`);
    setOutputs({
      changed: 'false',
      'pull-request-number': existing.number,
      'pull-request-url': existing.url ?? '',
    });
    return runCode;
  }
  const request = existing
    ? await forge.update(existing, { base, body })
    : await forge.open({ branch, base, body });
  say(`${existing ? 'Updated' : 'Opened'} ${forge.noun} ${request.url ?? `#${request.number}`}.`);
  setOutputs({
    changed: 'true',
    'pull-request-number': request.number,
    'pull-request-url': request.url ?? '',
  });
  summarize(
    `Tolk: ${existing ? 'updated' : 'opened'} ${forge.noun} ${request.url ?? `#${request.number}`}\n\n${body}`,
  );
  return runCode;
}

async function main() {
  const mode = setting('TOLK_CI_MODE', 'check');
  if (mode !== 'check' && mode !== 'translate')
    throw new Failure(`mode must be check or translate, got ${mode}`, 2);
  const platform = platformOf();
  const directory = setting('TOLK_WORKING_DIRECTORY', '.');
  const workdir = isAbsolute(directory) ? directory : resolve(process.cwd(), directory);
  if (!existsSync(workdir)) throw new Failure(`working-directory ${directory} does not exist`, 2);
  cliEnvironment(); // a bad provider setting stops the run before any step
  return mode === 'check' ? check(platform, workdir) : translate(platform, workdir);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(
      `error: ${mask(error instanceof Failure ? error.message : (error?.stack ?? error))}\n`,
    );
    process.exit(error instanceof Failure ? error.exitCode : 1);
  },
);
