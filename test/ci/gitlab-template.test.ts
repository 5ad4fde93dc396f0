/**
 * The GitLab CI template (ci/gitlab/tolk.gitlab-ci.yml → ci/tolk-ci.mjs): each run gets the
 * variables the template's job defines, with the project's CI/CD variables over them, as GitLab
 * merges them. `translate` runs the real CLI against the real system, git against a bare remote
 * reached through the HTTPS URL the script builds with TOLK_GITLAB_TOKEN (rewritten to the bare
 * repository by git's own url.insteadOf), and a local server speaking GitLab's merge requests API.
 * `check` runs the real `tolk check` on the translated files (with the translate scenarios); a
 * stand-in CLI shows the output written as the code-quality report and the exit code passed on.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runScript, useFakeCli } from './support/ci-world.js';
import { translateScenarios } from './support/translate-scenarios.js';

type Job = {
  image?: string;
  extends?: string;
  variables?: Record<string, string>;
  script?: string[];
  before_script?: string[];
  artifacts?: { when?: string; reports?: { codequality?: string } };
  rules?: Array<{ if?: string; when?: string }>;
};

const template = parse(
  await readFile(new URL('../../ci/gitlab/tolk.gitlab-ci.yml', import.meta.url), 'utf8'),
) as Record<string, Job> & { variables: Record<string, string> };
const scriptText = await readFile(new URL('../../ci/tolk-ci.mjs', import.meta.url), 'utf8');

/** A job's variables as GitLab merges them: the file's, the job's (through extends), the project's. */
function jobEnv(
  job: 'tolk:check' | 'tolk:translate',
  project: Record<string, string>,
): Record<string, string> {
  const own = template[job]!;
  return {
    ...template.variables,
    ...template[own.extends!]!.variables,
    ...own.variables,
    GITLAB_CI: 'true',
    ...project,
  };
}

describe('tolk.gitlab-ci.yml', () => {
  it('when read, then both jobs run the script with the platform and their mode', () => {
    for (const [job, mode] of [
      ['tolk:check', 'check'],
      ['tolk:translate', 'translate'],
    ] as const) {
      expect(template[job]!.extends).toBe('.tolk');
      expect(template[job]!.script).toEqual(['node /tmp/tolk-ci.mjs']);
      expect(jobEnv(job, {})).toMatchObject({ TOLK_CI_PLATFORM: 'gitlab', TOLK_CI_MODE: mode });
    }
    expect(template['.tolk']!.before_script!.join('\n')).toContain('--output /tmp/tolk-ci.mjs');
  });

  it("when its jobs run, then their image's Node is one the CLI supports", async () => {
    const cli = JSON.parse(await readFile(new URL('../../cli/package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    // `node:N` is the newest N.x: its major decides.
    const minimum = Number(/^>=(\d+)[.\d]*$/.exec(cli.engines.node)![1]);
    const major = Number(/^node:(\d+)$/.exec(template['.tolk']!.image!)![1]);
    expect(major).toBeGreaterThanOrEqual(minimum);
  });

  it('when the check job ends, then its report is the file the script writes, kept even when the check fails', () => {
    expect(template['tolk:check']!.artifacts).toEqual({
      when: 'always',
      reports: { codequality: 'gl-code-quality-report.json' },
    });
    expect(scriptText).toContain("'gl-code-quality-report.json'");
  });

  it('when the pipeline is for the translation branch, then the translate job is left out', () => {
    expect(template['tolk:translate']!.rules![0]).toEqual({
      if: '$CI_COMMIT_BRANCH == $TOLK_BRANCH',
      when: 'never',
    });
  });

  it('when its variables are read, then the script reads each (TOLK_API_URL the CLI, the TOLK_SCRIPT ones the before_script)', () => {
    const read = new Set([...scriptText.matchAll(/(?:setting|required)\('([A-Z0-9_]+)'/g)].map((m) => m[1]));
    const names = Object.keys({ ...jobEnv('tolk:check', {}), ...jobEnv('tolk:translate', {}) });
    const unread = names.filter(
      (name) =>
        name.startsWith('TOLK_') &&
        !read.has(name) &&
        !['TOLK_API_URL', 'TOLK_SCRIPT', 'TOLK_SCRIPT_URL'].includes(name),
    );
    expect(unread).toEqual([]);
  });
});

translateScenarios({
  kind: 'gitlab',
  list: '/api/v4/projects/42/merge_requests',
  update: 'PUT',
  env(world, checkout, { ref, inputs = {} }) {
    const token = world.forgeToken;
    const project: Record<string, string> = {
      CI_API_V4_URL: `${world.forge.url}/api/v4`,
      CI_PROJECT_ID: '42',
      CI_PROJECT_PATH: 'acme/app',
      CI_SERVER_URL: 'https://gitlab.test',
      CI_COMMIT_BRANCH: ref,
      CI_DEFAULT_BRANCH: 'main',
      CI_PROJECT_DIR: checkout,
      TOLK_GITLAB_TOKEN: token,
      ...world.tolkEnv,
      // The push goes to https://oauth2:<token>@gitlab.test/acme/app.git; git sends it to the bare
      // repository instead, so the URL the script builds is the one that reaches the remote.
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${world.remote}.insteadOf`,
      GIT_CONFIG_VALUE_0: `https://oauth2:${token}@gitlab.test/acme/app.git`,
    };
    if (inputs['provider'] !== undefined) project['TOLK_PROVIDER'] = inputs['provider'];
    if (inputs['branch'] !== undefined) project['TOLK_BRANCH'] = inputs['branch'];
    return jobEnv('tolk:translate', project);
  },
  opened: (request) => ({
    head: request.body.source_branch,
    base: request.body.target_branch,
    title: request.body.title,
    body: request.body.description,
  }),
  findQuery: (branch) => ({ source_branch: branch, target_branch: 'main', state: 'opened' }),
  checkEnv: (world, checkout) =>
    jobEnv('tolk:check', {
      CI_PROJECT_DIR: checkout,
      ...world.tolkEnv,
    }),
  // The code-quality report GitLab shows in the merge request.
  reported: async (_result, checkout) => {
    const report = JSON.parse(await readFile(join(checkout, 'gl-code-quality-report.json'), 'utf8')) as {
      severity: string;
      location: { path: string; lines: { begin: number } };
    }[];
    return report
      .filter((entry) => entry.severity !== 'info' && entry.severity !== 'minor')
      .map((entry) => ({ path: entry.location.path, line: entry.location.lines.begin }));
  },
});

describe('mode: check on gitlab', () => {
  const fake = useFakeCli();
  /** The check job with a stand-in CLI that prints `output`, exits `exit` and records its call in `record`. */
  const runCheck = (record: string, output: string, exit: number, variables: Record<string, string> = {}) =>
    runScript(
      fake.dir,
      jobEnv('tolk:check', {
        CI_PROJECT_DIR: fake.dir,
        TOLK_TOKEN: 'tolk_check_token',
        TOLK_CLI_VERSION: fake.cli,
        FAKE_RECORD: record,
        FAKE_OUTPUT: output,
        FAKE_EXIT: String(exit),
        ...variables,
      }),
    );

  for (const exit of [1, 0]) {
    it(`when tolk check exits ${exit}, then its report is written for GitLab and the job exits ${exit}`, async () => {
      const record = join(fake.dir, `record-${exit}.json`);
      const report = exit
        ? [
            {
              description: 'cart.title: missing translation',
              check_name: 'missing',
              fingerprint: 'f1',
              severity: 'major',
              location: { path: 'locales/de.json', lines: { begin: 3 } },
            },
          ]
        : [];
      const result = await runCheck(record, JSON.stringify(report), exit);
      expect(result.code).toBe(exit);
      expect(JSON.parse(await readFile(record, 'utf8'))).toEqual({
        args: ['check', '--format', 'gitlab'],
        cwd: fake.dir,
        token: 'tolk_check_token',
      });
      expect(JSON.parse(await readFile(join(fake.dir, 'gl-code-quality-report.json'), 'utf8'))).toEqual(
        report,
      );
      expect(result.stdout).toContain(
        `tolk check: exit ${exit}; code-quality report written to ${fake.dir}/gl-code-quality-report.json`,
      );
    });
  }

  it("when TOLK_CHECK_STRICT is 'true', then the job runs tolk check --strict and exits with its code", async () => {
    expect(jobEnv('tolk:check', {})).toMatchObject({ TOLK_CHECK_STRICT: 'false' });
    const record = join(fake.dir, 'record-strict.json');
    const result = await runCheck(record, '[]', 1, { TOLK_CHECK_STRICT: 'true' });
    expect(result.code).toBe(1);
    expect(JSON.parse(await readFile(record, 'utf8'))).toMatchObject({
      args: ['check', '--format', 'gitlab', '--strict'],
    });
  });

  it("when TOLK_CHECK_REQUIRE_TRANSLATIONS is 'true', then the job runs tolk check --require-translations; by default it does not; another value is exit 2", async () => {
    expect(jobEnv('tolk:check', {})).toMatchObject({ TOLK_CHECK_REQUIRE_TRANSLATIONS: 'false' });
    const record = join(fake.dir, 'record-require-translations.json');
    const argsWith = async (variables: Record<string, string>) => {
      expect((await runCheck(record, '[]', 0, variables)).code).toBe(0);
      return JSON.parse(await readFile(record, 'utf8')).args;
    };
    expect(await argsWith({ TOLK_CHECK_REQUIRE_TRANSLATIONS: 'true' })).toEqual([
      'check',
      '--format',
      'gitlab',
      '--require-translations',
    ]);
    expect(await argsWith({})).toEqual(['check', '--format', 'gitlab']);
    const wrong = await runCheck(record, '[]', 0, { TOLK_CHECK_REQUIRE_TRANSLATIONS: 'yes' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('error: require-translations must be true or false, got yes\n');
  });
});
