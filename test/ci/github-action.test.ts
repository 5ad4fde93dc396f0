/**
 * The GitHub Action (action.yml → ci/tolk-ci.mjs): the environment each run gets is the one
 * action.yml's step builds from its inputs, so the wiring is tested with the script. `translate`
 * runs the real CLI against the real system, git against a bare remote and a local server
 * speaking GitHub's pulls API; `check` runs the real `tolk check` on the translated files (with
 * the translate scenarios), and a stand-in CLI shows the exit code passed on as it is.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROVIDERS } from '../../cli/src/ai/create-model.js';
import { runScript, useFakeCli } from './support/ci-world.js';
import { translateScenarios } from './support/translate-scenarios.js';

type Action = {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: {
    using: string;
    steps: Array<{
      id?: string;
      if?: string;
      run?: string;
      uses?: string;
      with?: Record<string, unknown>;
      env?: Record<string, string>;
    }>;
  };
};

const actionText = await readFile(new URL('../../action.yml', import.meta.url), 'utf8');
const action = parse(actionText) as Action;
const scriptText = await readFile(new URL('../../ci/tolk-ci.mjs', import.meta.url), 'utf8');
/** The step that runs the script (the steps before it set up Node). */
const tolkStep = action.runs.steps.find((step) => step.id === 'tolk')!;

/** The step's environment for these inputs, as the runner expands `${{ inputs.x }}`. */
function actionEnv(inputs: Record<string, string>, githubToken: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(tolkStep.env!)) {
    env[name] = String(value).replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, input: string) => {
      const given = inputs[input] ?? action.inputs[input]?.default ?? '';
      return given.replace(/\$\{\{\s*github\.token\s*\}\}/, githubToken);
    });
  }
  return env;
}

/** The workflows a document shows: its YAML blocks that use this action, parsed. */
async function workflowsIn(document: string) {
  const text = await readFile(new URL(`../../${document}`, import.meta.url), 'utf8');
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .filter((block) => block.includes('uses: OWNER/tolk@'))
    .map(
      (block) =>
        parse(block) as {
          jobs: Record<string, { steps: { uses: string; with?: Record<string, string> }[] }>;
        },
    );
}

describe('the workflow the READMEs give', () => {
  it('when it is copied, then each step of this action gives declared inputs, the required ones included, and both READMEs show the same', async () => {
    const [workflow, ...others] = await workflowsIn('README.md');
    expect(others).toEqual([]);
    expect(await workflowsIn('ci/README.md')).toEqual([workflow]);
    const required = Object.entries(action.inputs)
      .filter(([, input]) => input.required)
      .map(([name]) => name);
    const steps = Object.values(workflow!.jobs).flatMap((job) =>
      job.steps.filter((step) => step.uses.startsWith('OWNER/tolk@')),
    );
    expect(steps.map((step) => step.with?.['mode'])).toEqual(['check', 'translate']);
    for (const step of steps) {
      const given = Object.keys(step.with ?? {});
      expect(given.filter((name) => !(name in action.inputs))).toEqual([]);
      expect(required.filter((name) => !given.includes(name))).toEqual([]);
    }
  });
});

describe('action.yml', () => {
  const used = (text: string) => [...text.matchAll(/inputs\.([\w-]+)/g)].map((match) => match[1]!);

  it('when its steps are read, then every input they use is declared and every declared input is used', () => {
    const inSteps = new Set(used(JSON.stringify(action.runs.steps)));
    expect([...inSteps].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it('when its step runs, then it is a composite step running the script with variables the script reads', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.at(-1)).toBe(tolkStep);
    expect(tolkStep.run).toBe('node "$GITHUB_ACTION_PATH/ci/tolk-ci.mjs"');
    const read = new Set([...scriptText.matchAll(/(?:setting|required)\('([A-Z0-9_]+)'/g)].map((m) => m[1]));
    // The CLI reads TOLK_API_URL and TOLK_TOKEN itself; the script passes its environment on.
    const unread = Object.keys(tolkStep.env!).filter(
      (name) => !read.has(name) && !['TOLK_API_URL', 'TOLK_TOKEN'].includes(name),
    );
    expect(unread).toEqual([]);
  });

  it("when the runner's Node is older than 22.12 or missing, then Node 24 is set up before the script runs, else the runner's stays", async () => {
    const [check, setup] = action.runs.steps;
    expect(setup).toEqual({
      if: `steps.${check!.id}.outputs.setup == 'true'`,
      uses: expect.stringMatching(/^actions\/setup-node@v\d+$/),
      with: { 'node-version': 24 },
    });
    const dir = await mkdtemp(join(tmpdir(), 'tolk-action-node-'));
    try {
      const outputFile = join(dir, 'output');
      // A Node 22 too old for the CLI: this one, saying it is 22.11.0.
      await writeFile(
        join(dir, 'node'),
        `#!/bin/sh\nexec "${process.execPath}" --import 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"22.11.0"})' "$@"\n`,
      );
      await chmod(join(dir, 'node'), 0o755);
      const setupOn = async (path: string) => {
        await promisify(execFile)('/bin/bash', ['-c', check!.run!], {
          env: { PATH: path, GITHUB_OUTPUT: outputFile },
        });
        const output = await readFile(outputFile, 'utf8');
        await rm(outputFile);
        return output;
      };
      const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
      const old = major < 22 || (major === 22 && minor < 12);
      expect(await setupOn(dirname(process.execPath))).toBe(`setup=${old}\n`);
      expect(await setupOn(dir)).toBe('setup=true\n');
      expect(await setupOn(join(dir, 'nowhere'))).toBe('setup=true\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('when the script names the variable of each provider key, then it is the one the CLI reads', () => {
    // The script runs without the CLI's sources beside it, so it keeps its own copy of the table.
    const table = /const PROVIDER_KEY_VARIABLES = \{([^}]*)\}/.exec(scriptText)![1]!;
    const named = Object.fromEntries([...table.matchAll(/(\w+): '(\w+)'/g)].map((m) => [m[1], m[2]]));
    expect(named).toEqual(Object.fromEntries(PROVIDERS.map((p) => [p.name, p.envVar])));
  });

  it('when its outputs are read, then each is one the script writes', () => {
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.value).toBe(`\${{ steps.tolk.outputs.${name} }}`);
      expect(scriptText).toMatch(new RegExp(`'?${name}'?: `));
    }
  });
});

translateScenarios({
  kind: 'github',
  list: '/repos/acme/app/pulls',
  update: 'PATCH',
  env(world, checkout, { ref, inputs = {} }) {
    return {
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_REF: `refs/heads/${ref}`,
      GITHUB_API_URL: world.forge.url,
      GITHUB_OUTPUT: join(checkout, '..', `${checkout.split('/').pop()}.output`),
      ...actionEnv(
        {
          mode: 'translate',
          'api-url': world.tolkEnv.TOLK_API_URL,
          token: world.tolkEnv.TOLK_TOKEN,
          provider: world.tolkEnv.TOLK_PROVIDER,
          'provider-key': world.tolkEnv.TOLK_PROVIDER_KEY,
          model: world.tolkEnv.TOLK_MODEL,
          'provider-url': world.tolkEnv.TOLK_PROVIDER_URL,
          'cli-version': world.tolkEnv.TOLK_CLI_VERSION,
          ...inputs,
        },
        world.forgeToken,
      ),
    };
  },
  opened: (request) => ({
    head: request.body.head,
    base: request.body.base,
    title: request.body.title,
    body: request.body.body,
  }),
  findQuery: (branch) => ({ head: `acme:${branch}`, state: 'open' }),
  checkEnv: (world) => ({
    GITHUB_ACTIONS: 'true',
    ...actionEnv(
      {
        mode: 'check',
        'api-url': world.tolkEnv.TOLK_API_URL,
        token: world.tolkEnv.TOLK_TOKEN,
        'cli-version': world.tolkEnv.TOLK_CLI_VERSION,
      },
      world.forgeToken,
    ),
  }),
  // The workflow commands GitHub turns into annotations.
  reported: async (result) =>
    [...result.stdout.matchAll(/^::error file=([^,]+),line=(\d+)/gm)].map((match) => ({
      path: match[1]!,
      line: Number(match[2]),
    })),
});

describe('mode: check on github', () => {
  const fake = useFakeCli();

  for (const exit of [1, 0]) {
    it(`when tolk check exits ${exit}, then the step runs it with --format github and exits ${exit}`, async () => {
      const record = join(fake.dir, `record-${exit}.json`);
      const annotation = '::error file=locales/de.json,line=3::cart.title: missing translation\n';
      const result = await runScript(fake.dir, {
        GITHUB_ACTIONS: 'true',
        FAKE_RECORD: record,
        FAKE_OUTPUT: exit ? annotation : '',
        FAKE_EXIT: String(exit),
        ...actionEnv({ token: 'tolk_check_token', 'cli-version': fake.cli, 'working-directory': '.' }, 'ghs'),
      });
      expect(result.code).toBe(exit);
      expect(JSON.parse(await readFile(record, 'utf8'))).toEqual({
        args: ['check', '--format', 'github'],
        cwd: fake.dir,
        token: 'tolk_check_token',
      });
      // The annotations reach the log as the CLI wrote them, where GitHub reads them.
      expect(result.stdout).toBe(`$ tolk check --format github\n${exit ? annotation : ''}`);
    });
  }

  it('when strict is true, then the step runs tolk check --strict and exits with its code; another value than true or false is exit 2', async () => {
    const record = join(fake.dir, 'record-strict.json');
    const result = await runScript(fake.dir, {
      GITHUB_ACTIONS: 'true',
      FAKE_RECORD: record,
      FAKE_OUTPUT: '::warning file=locales/de.json,line=2::ok: the same text as the source (en)\n',
      FAKE_EXIT: '1',
      ...actionEnv({ token: 'tolk_check_token', 'cli-version': fake.cli, strict: 'true' }, 'ghs'),
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(await readFile(record, 'utf8'))).toMatchObject({
      args: ['check', '--format', 'github', '--strict'],
    });
    const wrong = await runScript(
      fake.dir,
      actionEnv({ token: 't', 'cli-version': fake.cli, strict: 'yes' }, 'ghs'),
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('error: strict must be true or false, got yes\n');
  });

  it('when require-translations is true, then the step runs tolk check --require-translations; by default it does not; another value than true or false is exit 2', async () => {
    expect(action.inputs['require-translations']?.default).toBe('false');
    const record = join(fake.dir, 'record-require-translations.json');
    const run = (inputs: Record<string, string>) =>
      runScript(fake.dir, {
        GITHUB_ACTIONS: 'true',
        FAKE_RECORD: record,
        FAKE_OUTPUT: '',
        FAKE_EXIT: '0',
        ...actionEnv({ token: 'tolk_check_token', 'cli-version': fake.cli, ...inputs }, 'ghs'),
      });
    expect((await run({ 'require-translations': 'true', strict: 'true' })).code).toBe(0);
    expect(JSON.parse(await readFile(record, 'utf8'))).toMatchObject({
      args: ['check', '--format', 'github', '--strict', '--require-translations'],
    });
    expect((await run({})).code).toBe(0);
    expect(JSON.parse(await readFile(record, 'utf8'))).toMatchObject({
      args: ['check', '--format', 'github'],
    });
    const wrong = await run({ 'require-translations': 'yes' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('error: require-translations must be true or false, got yes\n');
  });

  it('when the mode is neither check nor translate, then the exit is 2 and says which are known', async () => {
    const result = await runScript(
      fake.dir,
      actionEnv({ mode: 'sync', token: 't', 'cli-version': fake.cli }, 'ghs'),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: mode must be check or translate, got sync\n');
  });
});
