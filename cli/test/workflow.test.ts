/**
 * The whole loop a developer runs, against the real system (gateway, identity-, project-, source-,
 * locale-, token- and byok-service on real Postgres, RabbitMQ and Redis) with a local stand-in
 * speaking the provider's real wire protocol in place of the model:
 * init → push → status --check (1) → translate → status --check (0) → change one value → push →
 * translate (only that key reaches the model) → pull.
 */
import { readFile, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import {
  startAnthropicStandIn,
  startOpenAIStandIn,
  type ProviderStandIn,
} from './support/provider-stand-ins.js';

const SOURCE = {
  cart: {
    title: 'Your cart',
    '@title': { description: 'Heading of the cart page', maxLength: 30 },
    pay: 'Pay {amount}',
    items: '{count, plural, one {# item} other {# items}}',
  },
  home: { welcome: 'Welcome, <b>{name}</b>!' },
  'flat.key': 'A flat key with a dot',
  steps: ['Sign up', 'Pay'],
};

describe('tolk init → push → status → translate → pull', () => {
  let system: System;
  let cli: CliHarness;
  let openai: ProviderStandIn;
  let token: string;

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true, byok: true }), startOpenAIStandIn()]);
    cli = await createCliHarness(system.base);
    token = (await system.signUp()).token;
  });
  afterAll(async () => {
    await cli?.remove();
    await openai?.close();
    await system?.close();
  });

  const tolk = (args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
  const translateArgs = ['--base-url', () => openai.baseURL, '--model', 'stand-in-model'] as const;
  const translate = (...args: string[]) =>
    tolk(['translate', ...translateArgs.map((arg) => (typeof arg === 'function' ? arg() : arg)), ...args]);

  it('when a project goes through the whole loop, then each step does exactly its part', async () => {
    // init
    const init = await tolk([
      'init',
      '--name',
      'Shop',
      '--source',
      'en',
      '--targets',
      'de,fr',
      '--files',
      'locales/{locale}.json',
      '--yes',
    ]);
    expect(init.code, init.stderr).toBe(0);
    const config = await cli.readJson('tolk.json');
    expect(config).toEqual({
      apiUrl: system.base,
      projectId: expect.any(String),
      sourceLocale: 'en',
      targetLocales: ['de', 'fr'],
      files: 'locales/{locale}.json',
    });
    const locales = await system.call('GET', `/v1/projects/${config.projectId}/locales`, token);
    expect(locales.body.locales.map((l: { locale: string }) => l.locale)).toEqual(['de', 'fr']);

    // push
    await cli.writeJson('locales/en.json', SOURCE);
    const push = await tolk(['push']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain('source version is now 1, 7 keys');
    for (const key of [
      'cart.title',
      'cart.pay',
      'cart.items',
      'home.welcome',
      'flat.key',
      'steps.0',
      'steps.1',
    ]) {
      expect(push.stdout).toContain(`+ ${key}`);
    }

    // status: behind
    const behind = await tolk(['status', '--check']);
    expect(behind.code).toBe(1);
    expect(behind.stdout).toMatch(/de\s+behind\s+7\s+0/);
    const behindJson = await tolk(['status', '--json']);
    expect(behindJson.code).toBe(0);
    expect(behindJson.json()).toMatchObject({
      sourceVersion: 1,
      upToDate: false,
      locales: [
        { locale: 'de', status: 'behind', missingCount: 7 },
        { locale: 'fr', status: 'behind', missingCount: 7 },
      ],
    });

    // translate everything
    const first = await translate('--json');
    expect(first.code, first.stderr).toBe(0);
    const summary = first.json();
    expect(summary).toMatchObject({
      keys: 14,
      provider: 'openai',
      model: 'stand-in-model',
      locales: [
        { locale: 'de', requested: 7, translated: 7, failedKeys: [], uploaded: true, status: 'up_to_date' },
        { locale: 'fr', requested: 7, translated: 7, failedKeys: [], uploaded: true, status: 'up_to_date' },
      ],
    });
    expect(summary.usage.inputTokens).toBeGreaterThan(0);
    expect(summary.usage.outputTokens).toBeGreaterThan(0);
    // A source this small is one batch for every locale: one request asks it into both at once.
    const asked = openai.stringsReceived();
    expect(asked).toHaveLength(1);
    expect(openai.requests[0]!.locales).toEqual(['de', 'fr']);
    expect(Object.keys(asked[0]!).sort()).toEqual(Object.keys(flatten(SOURCE)).sort());
    // The annotation reached the model as context, and the request was authenticated-free (no key set).
    expect(JSON.stringify(openai.requests[0]!.body)).toContain('Heading of the cart page');

    // The target file has the source's nesting and key order, the annotations left out.
    const de = await cli.readText('locales/de.json');
    expect(JSON.parse(de)).toEqual({
      cart: {
        title: '[de] Your cart',
        pay: '[de] Pay {amount}',
        items: '[de] {count, plural, one {# item} other {# items}}',
      },
      home: { welcome: '[de] Welcome, <b>{name}</b>!' },
      'flat.key': '[de] A flat key with a dot',
      steps: ['[de] Sign up', '[de] Pay'],
    });
    expect(Object.keys(JSON.parse(de).cart)).toEqual(['title', 'pay', 'items']);
    expect(de.endsWith('}\n')).toBe(true);
    // French plurals have a `many` (1,000,000 de …) that English lacks: the answer check asks for it.
    expect((await cli.readJson('locales/fr.json')).cart.items).toBe(
      '[fr] {count, plural, one {# item} many {# items} other {# items}}',
    );

    // status: up to date
    const upToDate = await tolk(['status', '--check']);
    expect(upToDate.code, upToDate.stdout + upToDate.stderr).toBe(0);
    expect(upToDate.stdout).toMatch(/de\s+up to date/);

    // nothing more to do
    const again = await translate();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to translate');
    expect(openai.stringsReceived()).toHaveLength(1);

    // change one source value: only that key goes to the model
    await cli.writeJson('locales/en.json', { ...SOURCE, cart: { ...SOURCE.cart, title: 'Your basket' } });
    const dryRun = await tolk(['push', '--dry-run', '--json']);
    expect(dryRun.code).toBe(0);
    expect(dryRun.json()).toMatchObject({
      dryRun: true,
      version: 2,
      diff: { added: [], modified: ['cart.title'], deleted: [] },
    });
    expect((await tolk(['status', '--check'])).code).toBe(0);
    const push2 = await tolk(['push']);
    expect(push2.code).toBe(0);
    expect(push2.stdout).toContain('~ cart.title');
    expect((await tolk(['status', '--check'])).code).toBe(1);

    const second = await translate();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/Translated 2 keys into 2 locales with openai stand-in-model/);
    expect(openai.stringsReceived().slice(1)).toEqual([{ 'cart.title': 'Your basket' }]);
    expect(openai.requests[1]!.locales).toEqual(['de', 'fr']);
    const deAfter = await cli.readJson('locales/de.json');
    expect(deAfter.cart.title).toBe('[de] Your basket');
    expect(deAfter.cart.pay).toBe('[de] Pay {amount}');
    expect((await tolk(['status', '--check'])).code).toBe(0);

    // pull writes the server's translations into the files
    await rm(join(cli.cwd, 'locales/de.json'));
    await rm(join(cli.cwd, 'locales/fr.json'));
    const pull = await tolk(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json()).toEqual({
      locales: [
        { locale: 'de', file: join('locales', 'de.json'), keyCount: 7, syncedVersion: 2 },
        { locale: 'fr', file: join('locales', 'fr.json'), keyCount: 7, syncedVersion: 2 },
      ],
    });
    expect(await cli.readJson('locales/de.json')).toEqual(deAfter);
    expect((await cli.readJson('locales/fr.json')).steps).toEqual(['[fr] Sign up', '[fr] Pay']);

    // pull again with nothing to change: no byte written, the files' times stay (DESIGN §16)
    const files = ['locales/de.json', 'locales/fr.json'].map((file) => join(cli.cwd, file));
    const longAgo = new Date('2026-01-01T00:00:00Z');
    for (const file of files) await utimes(file, longAgo, longAgo);
    const before = await Promise.all(files.map((file) => readFile(file)));
    const unchanged = await tolk(['pull']);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    for (const [at, file] of files.entries()) {
      expect((await stat(file)).mtime).toEqual(longAgo);
      expect(await readFile(file)).toEqual(before[at]);
    }
  });

  it('when the source is an ARB file with @@locale, then translate and pull write each target’s @@locale in its place', async () => {
    const project = await createCliHarness(system.base);
    try {
      const run = (args: string[]) => project.tolk(args, { env: { TOLK_TOKEN: token } });
      const files = 'lib/l10n/app_{locale}.arb';
      const init = await run([
        'init',
        '--name',
        'Flutter',
        '--targets',
        'de,pt-BR',
        '--files',
        files,
        '--yes',
      ]);
      expect(init.code, init.stderr).toBe(0);
      await project.writeJson('lib/l10n/app_en.arb', {
        '@@locale': 'en',
        hello: 'Hello {name}',
        '@hello': { description: 'Greeting', placeholders: { name: { type: 'String' } } },
        bye: 'Bye',
      });
      expect((await run(['push'])).code).toBe(0);
      const translated = await run(['translate', '--base-url', openai.baseURL, '--model', 'stand-in-model']);
      expect(translated.code, translated.stderr).toBe(0);

      const expected = (locale: string) =>
        JSON.stringify(
          { '@@locale': locale, hello: `[${locale}] Hello {name}`, bye: `[${locale}] Bye` },
          null,
          2,
        ) + '\n';
      expect(await project.readText('lib/l10n/app_de.arb')).toBe(expected('de'));
      expect(await project.readText('lib/l10n/app_pt-BR.arb')).toBe(expected('pt-BR'));

      await rm(join(project.cwd, 'lib/l10n/app_de.arb'));
      await rm(join(project.cwd, 'lib/l10n/app_pt-BR.arb'));
      const pull = await run(['pull', '--json']);
      expect(pull.code, pull.stderr).toBe(0);
      expect(pull.json().locales.map((l: { keyCount: number }) => l.keyCount)).toEqual([2, 2]);
      expect(await project.readText('lib/l10n/app_de.arb')).toBe(expected('de'));
      expect(await project.readText('lib/l10n/app_pt-BR.arb')).toBe(expected('pt-BR'));
      expect((await run(['status', '--check'])).code).toBe(0);
    } finally {
      await project.remove();
    }
  });

  it('when the provider is Anthropic, then translate speaks the Messages API with the key from the environment', async () => {
    const anthropic = await startAnthropicStandIn();
    const project = await createCliHarness(system.base);
    // A user of its own: the memory of the other tests' projects would answer for the model.
    const own = (await system.signUp()).token;
    try {
      const run = (args: string[]) =>
        project.tolk(args, { env: { TOLK_TOKEN: own, ANTHROPIC_API_KEY: 'sk-ant-test-key-123' } });
      expect((await run(['init', '--name', 'Docs', '--targets', 'pt-br', '--yes'])).code).toBe(0);
      await project.writeJson('locales/en.json', { hello: 'Hello {name}', bye: 'Bye' });
      expect((await run(['push'])).code).toBe(0);
      const result = await run(['translate', '--provider', 'anthropic', '--base-url', anthropic.baseURL]);
      expect(result.code, result.stderr).toBe(0);
      expect(anthropic.requests).toHaveLength(1);
      expect(anthropic.requests[0]!.path).toBe('/v1/messages');
      expect(anthropic.requests[0]!.headers['x-api-key']).toBe('sk-ant-test-key-123');
      expect(anthropic.stringsReceived()).toEqual([{ hello: 'Hello {name}', bye: 'Bye' }]);
      expect(await project.readJson('locales/pt-BR.json')).toEqual({
        hello: '[pt-BR] Hello {name}',
        bye: '[pt-BR] Bye',
      });
      expect((await run(['status', '--check'])).code).toBe(0);
    } finally {
      await project.remove();
      await anthropic.close();
    }
  });
});

function flatten(value: unknown, prefix = '', into: Record<string, string> = {}): Record<string, string> {
  if (typeof value === 'string') into[prefix] = value;
  else if (value && typeof value === 'object') {
    for (const [name, child] of Object.entries(value)) {
      if (!name.startsWith('@')) flatten(child, prefix ? `${prefix}.${name}` : name, into);
    }
  }
  return into;
}
