/**
 * `mode: translate` run after run, the same story on GitHub and GitLab: the first run opens the
 * request, a source change updates the same one, a run on its own branch or its own commit does
 * nothing, and a run with nothing to translate opens nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, type ScriptedAnswer } from '../../../cli/test/support/provider-stand-ins.js';
import {
  BOT_EMAIL,
  git,
  runScript,
  startCiWorld,
  type CiWorld,
  type ForgeRequest,
  type ScriptResult,
} from './ci-world.js';

export type Platform = {
  kind: 'github' | 'gitlab';
  /** The environment the workflow or pipeline gives the script for a run on `ref`. */
  env(
    world: CiWorld,
    checkout: string,
    run: { ref: string; inputs?: Record<string, string> },
  ): Record<string, string>;
  /** The path of the list of pull or merge requests. */
  list: string;
  update: 'PATCH' | 'PUT';
  /** What a create request asked for. */
  opened(request: ForgeRequest): { head: string; base: string; title: string; body: string };
  /** The query that looks for the open request of `branch`. */
  findQuery(branch: string): Record<string, string>;
  /** The environment of `mode: check` for a checkout, with the real CLI. */
  checkEnv(world: CiWorld, checkout: string): Record<string, string>;
  /** Where a check run said the problems are, read from what the platform reads. */
  reported(result: ScriptResult, checkout: string): Promise<{ path: string; line: number }[]>;
};

const BRANCH = 'tolk/translations';

export function translateScenarios(platform: Platform) {
  // Each run starts the CLI three times (its bundle, node without a loader): on a busy machine a
  // run takes several seconds, two in the test that changes the source.
  describe(`mode: translate on ${platform.kind}`, { timeout: 120_000 }, () => {
    let world: CiWorld;

    beforeAll(async () => {
      world = await startCiWorld(platform.kind);
    });
    afterAll(async () => {
      await world?.close();
    });

    async function run(ref: string, checkoutBranch = 'main', inputs: Record<string, string> = {}) {
      const checkout = await world.checkout(checkoutBranch);
      const before = { forge: world.forge.requests.length, model: world.openai.requests.length };
      const result = await runScript(checkout, platform.env(world, checkout, { ref, inputs }));
      return {
        ...result,
        checkout,
        forgeRequests: world.forge.requests.slice(before.forge),
        modelRequests: world.openai.requests.slice(before.model),
      };
    }

    const tokensOf = (requests: CiWorld['openai']['requests']) =>
      requests.reduce(
        (sum, request) => ({
          input: sum.input + (request.reply.usage?.inputTokens ?? 0),
          output: sum.output + (request.reply.usage?.outputTokens ?? 0),
        }),
        { input: 0, output: 0 },
      );

    it('when it runs on main for the first time, then the translations are pushed to the branch and one request is opened', async () => {
      const result = await run('main');
      expect(result.code, result.stderr).toBe(0);

      const main = await world.branchHead('main');
      const head = await world.branchHead(BRANCH);
      expect(await git(['rev-parse', `${head}^`], world.remote)).toBe(main);
      expect(await git(['log', '-1', '--format=%ae', head!], world.remote)).toBe(BOT_EMAIL);
      expect(JSON.parse(await world.fileOn(BRANCH, 'locales/de.json'))).toEqual({
        cart: { title: '[de] Your cart', pay: '[de] Pay {amount}' },
        home: { welcome: '[de] Welcome, {name}!' },
      });
      expect(JSON.parse(await world.fileOn(BRANCH, 'locales/fr.json')).cart.title).toBe('[fr] Your cart');

      expect(result.forgeRequests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET ${platform.list}`,
        `POST ${platform.list}`,
      ]);
      expect(result.forgeRequests[0]!.query).toMatchObject(platform.findQuery(BRANCH));
      const opened = platform.opened(result.forgeRequests[1]!);
      expect(opened).toMatchObject({ head: BRANCH, base: 'main', title: 'Translations from Tolk' });
      expect(opened.body).toContain('| de | 3 | 0 | 0 |');
      expect(opened.body).toContain('| fr | 3 | 0 | 0 |');
      const tokens = tokensOf(result.modelRequests);
      expect(tokens.input).toBeGreaterThan(0);
      expect(opened.body).toContain(
        `Cost of this run: ${tokens.input.toLocaleString('en-US')} input + ${tokens.output.toLocaleString('en-US')} output tokens (openai stand-in-model)`,
      );
      expect(opened.body).toContain('- `locales/de.json`');
      expect(opened.body).not.toContain(world.tolkEnv.TOLK_TOKEN);
    });

    it('when the source changes and it runs again, then the branch is rebuilt on the new main and the same request is updated', async () => {
      await world.changeSource((source) => {
        source.cart.empty = 'Your cart is empty';
      }, 'An empty cart');
      const result = await run('main');
      expect(result.code, result.stderr).toBe(0);

      // Only the new key reaches the model; the branch is the new main plus one commit.
      // ... asked into both locales with one request.
      expect(result.modelRequests.map((r) => [r.strings, r.locales])).toEqual([
        [{ 'cart.empty': 'Your cart is empty' }, ['de', 'fr']],
      ]);
      const main = await world.branchHead('main');
      expect(await git(['rev-list', '--count', `${main}..refs/heads/${BRANCH}`], world.remote)).toBe('1');
      expect(await git(['rev-parse', `refs/heads/${BRANCH}^`], world.remote)).toBe(main);
      const de = JSON.parse(await world.fileOn(BRANCH, 'locales/de.json'));
      expect(de.cart).toEqual({
        title: '[de] Your cart',
        pay: '[de] Pay {amount}',
        empty: '[de] Your cart is empty',
      });

      expect(result.forgeRequests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET ${platform.list}`,
        `${platform.update} ${platform.list}/1`,
      ]);
      expect(world.forge.opened).toHaveLength(1);
      expect(world.forge.opened[0]!.body).toContain('| de | 1 | 0 | 0 |');
    });

    it('when it runs again with nothing new, then the branch is not rewritten and the request stays as it is', async () => {
      const head = await world.branchHead(BRANCH);
      const description = world.forge.opened[0]!.body;
      const result = await run('main');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        `${BRANCH} already holds these translations on main: not pushed again.`,
      );
      expect(result.modelRequests).toEqual([]);
      expect(result.forgeRequests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${platform.list}`]);
      expect(await world.branchHead(BRANCH)).toBe(head);
      expect(world.forge.opened[0]!.body).toBe(description);
    });

    it('when it runs for the translation branch itself, then it does nothing and says so', async () => {
      const head = await world.branchHead(BRANCH);
      const result = await run(BRANCH, BRANCH);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        `Nothing to do: this run is for ${BRANCH}, the translation branch itself.`,
      );
      expect(result.forgeRequests).toEqual([]);
      expect(result.modelRequests).toEqual([]);
      expect(await world.branchHead(BRANCH)).toBe(head);
    });

    it('when the commit it runs for was made by the action, then it does nothing and says so', async () => {
      const result = await run('main', BRANCH);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        'Nothing to do: the commit this run is for was made by tolk-translations[bot].',
      );
      expect(result.forgeRequests).toEqual([]);
      expect(result.modelRequests).toEqual([]);
    });

    it('when the translations were merged and nothing is left to translate, then no request is opened or updated', async () => {
      await world.mergeTranslations(BRANCH);
      const head = await world.branchHead(BRANCH);
      const result = await run('main');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Nothing to commit: the target files are up to date with main');
      expect(result.modelRequests).toEqual([]);
      expect(result.forgeRequests).toEqual([]);
      expect(await world.branchHead(BRANCH)).toBe(head);
    });

    it('when the merged translations are checked with the real CLI, then the check passes; a lost placeholder fails it at its file and line', async () => {
      const clean = await world.checkout('main');
      const passed = await runScript(clean, platform.checkEnv(world, clean));
      expect(passed.code, `${passed.stdout}${passed.stderr}`).toBe(0);
      expect(await platform.reported(passed, clean)).toEqual([]);

      const broken = await world.checkout('main');
      const file = join(broken, 'locales', 'de.json');
      const german = JSON.parse(await readFile(file, 'utf8')) as { cart: { pay: string } };
      german.cart.pay = 'Bezahlen';
      const text = `${JSON.stringify(german, null, 2)}\n`;
      await writeFile(file, text);
      const failed = await runScript(broken, platform.checkEnv(world, broken));
      expect(failed.code, failed.stderr).toBe(1);
      const line = text.split('\n').findIndex((l) => l.includes('"pay"')) + 1;
      expect(await platform.reported(failed, broken)).toEqual([{ path: 'locales/de.json', line }]);
    });

    it('when the provider key is given without the provider, then it stops with exit 2 before any step', async () => {
      const result = await run('main', 'main', { provider: '' });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'error: provider-key is set without provider: name the provider the key is for\n',
      );
      expect(result.forgeRequests).toEqual([]);
    });

    it('when the model fails some keys, then the request carries the rest with a warning and the job fails with exit 4', async () => {
      await world.changeSource((source) => {
        source.home.bye = 'Goodbye';
      }, 'Goodbye');
      // The model answers German as asked, and French with something that is not a translation.
      const translated = answers.translated() as Extract<ScriptedAnswer, { translate: unknown }>;
      world.openai.answerAlways({
        translate: (asked, target, plurals) =>
          target === 'fr' ? 'not the JSON asked for' : translated.translate(asked, target, plurals),
      });
      try {
        const result = await run('main');
        expect(result.code).toBe(4);
        expect(result.forgeRequests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `GET ${platform.list}`,
          `${platform.update} ${platform.list}/1`,
        ]);
        const body = world.forge.opened[0]!.body;
        expect(body).toContain('| de | 1 | 0 | 0 |');
        expect(body).toContain('| fr | 0 | 0 | 1 |');
        expect(JSON.parse(await world.fileOn(BRANCH, 'locales/de.json')).home.bye).toBe('[de] Goodbye');
        expect(JSON.parse(await world.fileOn(BRANCH, 'locales/fr.json')).home.bye).toBeUndefined();
        expect(body).toContain(
          "⚠️ `tolk translate` exited with 4: some keys were not translated (see the job's log).",
        );
      } finally {
        world.openai.answerAlways(undefined);
      }
    });

    it('when a locale file on main does not parse, then the rest is translated, the request says so and the job exits 6', async () => {
      const broken = '{\n  "cart": {\n    "title": "Votre panier"\n  \n}\n';
      await world.commitFile('locales/fr.json', broken, 'A broken French file');
      await world.changeSource((source) => {
        source.home.later = 'See you later';
      }, 'See you later');
      const result = await run('main');
      expect(result.code, result.stderr).toBe(6);
      expect(result.stderr).toMatch(/error: INVALID_JSON: locales\/fr\.json:\d+:\d+: /);
      expect(JSON.parse(await world.fileOn(BRANCH, 'locales/de.json')).home.later).toBe('[de] See you later');
      expect(await world.fileOn(BRANCH, 'locales/fr.json')).toBe(broken.trimEnd());
      expect(world.forge.opened[0]!.body).toContain('⚠️ Some locale files could not be read');
    });

    it('when the platform refuses to open the request, then the exit is 3 with its message and no token is shown', async () => {
      await world.changeSource((source) => {
        source.home.hello = 'Hello';
      }, 'Hello');
      world.forge.refuse('POST', 403, 'Resource not accessible by integration');
      const result = await run('main', 'main', { branch: 'tolk/other' });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(
        `POST ${world.forge.url}${platform.list}: 403 Resource not accessible by integration`,
      );
      expect(result.stderr).not.toContain(world.forgeToken);
      // The branch was pushed before the request was refused: the next run opens it.
      expect(await world.branchHead('tolk/other')).toBeDefined();
    });
  });
}
