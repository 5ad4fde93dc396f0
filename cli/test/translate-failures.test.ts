/**
 * `tolk translate` when the model or the provider misbehaves, and where the provider key comes
 * from: a bad answer is retried and never uploaded, a 429 is retried, a key stored in the
 * dashboard while the CLI waits is found. Real system; stand-ins speak the providers' protocols.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { settled } from '@tolk/testing';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { createTerminal, flow } from './support/terminal.js';
import {
  answers,
  startAnthropicStandIn,
  startOpenAIStandIn,
  type ProviderStandIn,
} from './support/provider-stand-ins.js';

const SOURCE = { greeting: 'Hello {name}', pay: 'Pay {amount}', bye: 'Goodbye' };

describe('tolk translate when things go wrong', () => {
  let system: System;
  let openai: ProviderStandIn;
  let anthropic: ProviderStandIn;
  let user: { email: string; token: string; userId: string };
  let cli: CliHarness;
  let projectId: string;

  beforeAll(async () => {
    [system, openai, anthropic] = await Promise.all([
      startSystem({ sources: true, tokens: true, byok: true }),
      startOpenAIStandIn(),
      startAnthropicStandIn(),
    ]);
  });
  afterAll(async () => {
    await openai?.close();
    await anthropic?.close();
    await system?.close();
  });

  // Each test: a user and a project of its own with de behind on every key (another project of
  // the same user would fill the keys from translation memory, without the model).
  beforeEach(async () => {
    user = await system.signUp();
    cli = await createCliHarness(system.base);
    const init = await cli.tolk(['init', '--name', 'P', '--targets', 'de', '--yes', '--json'], {
      env: { TOLK_TOKEN: user.token },
    });
    expect(init.code, init.stderr).toBe(0);
    projectId = init.json().projectId;
    await cli.writeJson('locales/en.json', SOURCE);
    expect((await cli.tolk(['push'], { env: { TOLK_TOKEN: user.token } })).code).toBe(0);
    openai.requests.length = 0;
    anthropic.requests.length = 0;
    return () => cli.remove();
  });

  const translateWithOpenAI = (env: Record<string, string> = {}, ...args: string[]) =>
    cli.tolk(['translate', '--base-url', openai.baseURL, '--model', 'm', '--concurrency', '1', ...args], {
      env: { TOLK_TOKEN: user.token, ...env },
    });
  const serverTranslations = async () =>
    JSON.parse(
      (await system.call('GET', `/v1/projects/${projectId}/locales/de/translations`, user.token)).body
        .content,
    );

  it('when the model drops a placeholder once, then only that key is asked again and everything is uploaded', async () => {
    openai.script(answers.dropPlaceholder('pay'));
    const result = await translateWithOpenAI();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('retrying: attempt 1 rejected for 1 key, e.g. pay');
    expect(openai.stringsReceived()).toEqual([SOURCE, { pay: 'Pay {amount}' }]);
    expect(await serverTranslations()).toEqual({
      greeting: '[de] Hello {name}',
      pay: '[de] Pay {amount}',
      bye: '[de] Goodbye',
    });
  });

  it('when the model keeps dropping a placeholder, then the key is reported, never uploaded, and translate exits 4', async () => {
    openai.script(
      answers.dropPlaceholder('pay'),
      answers.dropPlaceholder('pay'),
      answers.dropPlaceholder('pay'),
    );
    const result = await translateWithOpenAI({}, '--json');
    expect(result.code).toBe(4);
    expect(openai.stringsReceived()).toEqual([SOURCE, { pay: 'Pay {amount}' }, { pay: 'Pay {amount}' }]);
    expect(result.stderr).toContain('de: 1 keys not translated (pay); nothing of them was uploaded');
    expect(result.stderr).toContain('pay: placeholders differ from the source: lost {amount}');
    const summary = result.json();
    expect(summary.locales[0]).toMatchObject({
      locale: 'de',
      failedKeys: ['pay'],
      translated: 2,
      uploaded: true,
    });
    // The good keys are stored; the bad answer is nowhere, neither on the server nor in the file.
    expect(await serverTranslations()).toEqual({ greeting: '[de] Hello {name}', bye: '[de] Goodbye' });
    expect(await cli.readJson('locales/de.json')).toEqual({
      greeting: '[de] Hello {name}',
      bye: '[de] Goodbye',
    });
    const locale = await system.call('GET', `/v1/projects/${projectId}/locales/de`, user.token);
    expect(locale.body).toMatchObject({ status: 'behind', missing: ['pay'] });
    // The next run asks for exactly the key that is left.
    const retry = await translateWithOpenAI();
    expect(retry.code).toBe(0);
    expect(openai.stringsReceived().at(-1)).toEqual({ pay: 'Pay {amount}' });
  });

  it('when the provider answers 429, then the request is retried and the translation goes through', async () => {
    openai.script(answers.rateLimited(0));
    const result = await translateWithOpenAI();
    expect(result.code, result.stderr).toBe(0);
    expect(openai.requests.map((request) => request.reply.status)).toEqual([429, 200]);
    expect(await serverTranslations()).toMatchObject({ bye: '[de] Goodbye' });
  });

  it('when the provider refuses the key, then translate exits 3 with the provider error and uploads nothing', async () => {
    anthropic.script({ status: 401, message: 'invalid x-api-key' });
    const result = await cli.tolk(['translate', '--provider', 'anthropic', '--base-url', anthropic.baseURL], {
      env: { TOLK_TOKEN: user.token, ANTHROPIC_API_KEY: 'sk-ant-wrong-key' },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('PROVIDER_UNAUTHORIZED');
    expect(result.stderr).toContain('invalid x-api-key');
    expect(await serverTranslations()).toEqual({});
  });

  it('when the key is in neither the environment nor Tolk, then translate shows the key page and finds a key added meanwhile', async () => {
    let stderr = '';
    const running = cli.tolk(['translate', '--provider', 'anthropic', '--base-url', anthropic.baseURL], {
      env: { TOLK_TOKEN: user.token, TOLK_KEY_WAIT_SECONDS: '30' },
      onOutput: (_stdout, err) => (stderr = err),
    });
    await expect.poll(() => stderr, settled).toContain('Waiting for the key');
    expect(stderr).toContain(`${system.base}/keys?provider=anthropic`);
    const stored = await system.call('PUT', '/v1/user/byok/anthropic', user.token, {
      apiKey: 'sk-ant-from-dashboard',
    });
    expect(stored.status).toBe(200);

    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Found your anthropic key');
    expect(anthropic.requests[0]!.headers['x-api-key']).toBe('sk-ant-from-dashboard');
    await system.call('DELETE', '/v1/user/byok/anthropic', user.token);
  });

  it('when there is no key and nobody at a terminal to add one, then translate exits 3 at once naming the variable and the page', async () => {
    const result = await cli.tolk(['translate', '--provider', 'mistral'], {
      env: { TOLK_TOKEN: user.token },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('NO_PROVIDER_KEY');
    expect(result.stderr).toContain('MISTRAL_API_KEY');
    expect(result.stderr).toContain(`${system.base}/keys?provider=mistral`);
  });

  it('when CI runs with a read_write project token and the key in the environment, then translate needs no login', async () => {
    const created = await system.call('POST', `/v1/projects/${projectId}/tokens`, user.token, {
      label: 'ci',
      permissions: 'read_write',
    });
    const result = await cli.tolk(['translate', '--base-url', openai.baseURL, '--model', 'm'], {
      env: { TOLK_TOKEN: created.body.token, OPENAI_API_KEY: 'sk-ci-key' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(openai.requests[0]!.headers['authorization']).toBe('Bearer sk-ci-key');
    const check = await cli.tolk(['status', '--check'], { env: { TOLK_TOKEN: created.body.token } });
    expect(check.code).toBe(0);
  });

  it('when a project token has no key to read, then translate says to set the variable (exit 3)', async () => {
    const created = await system.call('POST', `/v1/projects/${projectId}/tokens`, user.token, {
      label: 'ci',
      permissions: 'read_write',
    });
    const result = await cli.tolk(['translate', '--provider', 'anthropic'], {
      env: { TOLK_TOKEN: created.body.token },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('set ANTHROPIC_API_KEY');
  });

  it('when stdout is a narrow terminal, then the progress line is redrawn in place and a wrapped problem line leaves nothing behind', async () => {
    openai.script(answers.dropPlaceholder('pay'));
    const result = await cli.tolk(['translate', '--base-url', openai.baseURL, '--model', 'm'], {
      env: { TOLK_TOKEN: user.token },
      columns: 40,
    });
    expect(result.code, result.stderr).toBe(0);
    // The problem was on screen for a while, on more rows than one.
    expect(flow([result.stdout])).toContain('retrying:attempt1rejectedfor1key,e.g.pay');

    const terminal = createTerminal({ columns: 40 });
    terminal.sink.write(result.stdout);
    const screen = await terminal.screen();
    terminal.dispose();
    expect(screen.filter((row) => row.startsWith('de '))).toEqual([`de  ${'█'.repeat(24)}  3/3 keys`]);
    expect(flow(screen)).toMatch(
      /^de█{24}3\/3keysuploaded,uptodateTranslated3keysinto1localewithopenaim:\d+input\+\d+outputtokens,[\d.]+s\.$/,
    );
  });
});
