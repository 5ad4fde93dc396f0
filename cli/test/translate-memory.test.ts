/**
 * `tolk translate` with translation memory (DESIGN §13): a text translated before is filled
 * without the model, in this project and in the user's other projects, never from another user's;
 * similar texts' translations reach the prompt as examples. Real system; the stand-in model
 * records what it is sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { realServers } from '@tolk/testing';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

describe('tolk translate with translation memory', () => {
  let system: System;
  let openai: ProviderStandIn;
  let user: { email: string; token: string; userId: string };

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true }), startOpenAIStandIn()]);
    user = await system.signUp();
  });
  afterAll(async () => {
    await openai?.close();
    await system?.close();
  });
  beforeEach(() => {
    openai.requests.length = 0;
  });

  /** A project of `token`'s user with de, its source pushed. */
  async function project(token: string, source: Record<string, unknown>): Promise<CliHarness> {
    const cli = await createCliHarness(system.base);
    const init = await cli.tolk(['init', '--name', 'P', '--targets', 'de', '--yes', '--json'], {
      env: { TOLK_TOKEN: token },
    });
    expect(init.code, init.stderr).toBe(0);
    await cli.writeJson('locales/en.json', source);
    const push = await cli.tolk(['push'], { env: { TOLK_TOKEN: token } });
    expect(push.code, push.stderr).toBe(0);
    return cli;
  }

  const translate = (cli: CliHarness, token: string, ...args: string[]) =>
    cli.tolk(['translate', '--base-url', openai.baseURL, '--model', 'm', '--concurrency', '1', ...args], {
      env: { TOLK_TOKEN: token },
    });

  it('when a new key has a text translated before, then it is filled from memory and the model is asked only the rest', async () => {
    const cli = await project(user.token, { save: 'Save changes', cancel: 'Cancel' });
    expect((await translate(cli, user.token)).code).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ save: 'Save changes', cancel: 'Cancel' }]);
    openai.requests.length = 0;

    await cli.writeJson('locales/en.json', {
      save: 'Save changes',
      cancel: 'Cancel',
      toolbar: { save: 'Save changes' },
      help: 'Help',
    });
    expect((await cli.tolk(['push'], { env: { TOLK_TOKEN: user.token } })).code).toBe(0);
    const result = await translate(cli, user.token, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ help: 'Help' }]);
    expect(result.json().memory).toEqual({ keys: 1, tokensSavedEstimate: expect.any(Number) });
    expect(result.json().memory.tokensSavedEstimate).toBeGreaterThan(0);
    expect(await cli.readJson('locales/de.json')).toEqual({
      save: '[de] Save changes',
      cancel: '[de] Cancel',
      toolbar: { save: '[de] Save changes' },
      help: '[de] Help',
    });
    // The upload says which keys memory filled.
    const { projectId } = await cli.readJson('tolk.json');
    const stored = await system.call('GET', `/v1/projects/${projectId}/locales/de/translations`, user.token);
    expect(stored.body.provenance['toolbar.save']).toEqual({ by: 'memory', at: expect.any(Number) });
    expect(stored.body.provenance['help']).toMatchObject({ by: 'ai', model: expect.stringContaining('m') });
    await cli.remove();
  });

  it("when the user's other project holds the texts, then a translate costs no model call; another user's project is asked", async () => {
    const text = `Archive this conversation`;
    const first = await project(user.token, { archive: text });
    expect((await translate(first, user.token)).code).toBe(0);
    openai.requests.length = 0;

    const second = await project(user.token, { actions: { archive: text } });
    const result = await translate(second, user.token);
    expect(result.code, result.stderr).toBe(0);
    expect(openai.requests).toHaveLength(0);
    expect(result.stdout).toContain(
      'Translated 1 key into 1 locale, 0 of them by the model: 0 input + 0 output tokens',
    );
    expect(result.stdout).toContain('1 key came from translation memory, without the model');
    expect(await second.readJson('locales/de.json')).toEqual({ actions: { archive: `[de] ${text}` } });

    const stranger = await system.signUp();
    const theirs = await project(stranger.token, { archive: text });
    expect((await translate(theirs, stranger.token)).code).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ archive: text }]);
    await Promise.all([first.remove(), second.remove(), theirs.remove()]);
  });

  it('when one short text is like several translated before, then the prompt shows only the most similar: examples stay shorter than the text they help with', async () => {
    const earlier = {
      a: 'Delete this file permanently',
      b: 'Delete this folder permanently',
      c: 'Delete this album permanently',
    };
    const cli = await project(user.token, earlier);
    expect((await translate(cli, user.token)).code).toBe(0);
    openai.requests.length = 0;

    await cli.writeJson('locales/en.json', { ...earlier, d: 'Delete this file permanently now' });
    expect((await cli.tolk(['push'], { env: { TOLK_TOKEN: user.token } })).code).toBe(0);
    expect((await translate(cli, user.token)).code).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ d: 'Delete this file permanently now' }]);
    const prompt = JSON.stringify(openai.requests[0]!.body);
    expect(prompt).toContain('Delete this file permanently');
    expect(prompt).not.toContain('Delete this folder permanently');
    expect(prompt).not.toContain('Delete this album permanently');
    await cli.remove();
  });

  it('when a text is like one translated before, then the prompt shows that translation as an example; --no-memory asks for everything', async () => {
    const cli = await project(user.token, { one: 'Delete this file permanently' });
    expect((await translate(cli, user.token)).code).toBe(0);
    openai.requests.length = 0;

    await cli.writeJson('locales/en.json', {
      one: 'Delete this file permanently',
      two: 'Delete these files permanently',
    });
    expect((await cli.tolk(['push'], { env: { TOLK_TOKEN: user.token } })).code).toBe(0);
    expect((await translate(cli, user.token)).code).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ two: 'Delete these files permanently' }]);
    const prompt = JSON.stringify(openai.requests[0]!.body);
    expect(prompt).toContain('Earlier translations of similar texts');
    expect(prompt).toContain(
      JSON.stringify(
        JSON.stringify(['Delete this file permanently', '[de] Delete this file permanently']),
      ).slice(1, -1),
    );

    openai.requests.length = 0;
    const forced = await translate(cli, user.token, '--force', '--no-memory');
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.stringify(openai.requests.map((r) => r.body))).not.toContain('Earlier translations');
    await cli.remove();
  });
});

// PGlite has no statement_timeout: there a search is never given up.
describe.skipIf(!realServers().postgres)(
  'tolk translate when the server gives a similarity search up',
  () => {
    let system: System;
    let openai: ProviderStandIn;

    beforeAll(async () => {
      // A budget of 1 ms: the searches below walk thousands of similar texts, so they are given up for real.
      [system, openai] = await Promise.all([
        startSystem({ sources: true, localeEnv: { MEMORY_NEAR_TIMEOUT_MS: '1' } }),
        startOpenAIStandIn(),
      ]);
    });
    afterAll(async () => {
      await openai?.close();
      await system?.close();
    });

    it('when the near-match search takes too long, then the batch goes without examples and the progress, summary and --json say why', async () => {
      // Someone's memory of 5,000 texts like ours, in another locale: each search walks them all.
      const other = await system.signUp();
      const created = await system.call('POST', '/v1/projects', other.token, {
        name: 'Big',
        sourceLocale: 'en',
      });
      const path = `/v1/projects/${created.body.projectId}`;
      expect((await system.call('POST', `${path}/locales`, other.token, { locale: 'fr' })).status).toBe(201);
      const texts = Array.from(
        { length: 5000 },
        (_, i) => `Delete the file number ${i} from the shared folder`,
      );
      const put = await system.call(
        'PUT',
        `${path}/source`,
        other.token,
        Object.fromEntries(texts.map((text, i) => [`k${i}`, text])),
      );
      expect(put.status).toBe(200);
      await expect
        .poll(async () => (await system.call('GET', `${path}/locales/fr`, other.token)).body.sourceVersion)
        .toBe(put.body.version);
      const fr = await system.call(
        'PUT',
        `${path}/locales/fr/translations?sourceVersion=${put.body.version}`,
        other.token,
        Object.fromEntries(texts.map((text, i) => [`k${i}`, `[fr] ${text}`])),
      );
      expect(fr.status, JSON.stringify(fr.body)).toBe(200);

      const user = await system.signUp();
      const cli = await createCliHarness(system.base);
      const env = { TOLK_TOKEN: user.token };
      expect(
        (await cli.tolk(['init', '--name', 'P', '--targets', 'de', '--yes', '--json'], { env })).code,
      ).toBe(0);
      const source = Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [
          `k${i}`,
          `Delete the file number ${i} of the shared folder now`,
        ]),
      );
      await cli.writeJson('locales/en.json', source);
      expect((await cli.tolk(['push'], { env })).code).toBe(0);

      const result = await cli.tolk(
        ['translate', '--base-url', openai.baseURL, '--model', 'm', '--concurrency', '1', '--json'],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(openai.stringsReceived()).toEqual([source]);
      expect(JSON.stringify(openai.requests[0]!.body)).not.toContain('Earlier translations');
      expect(result.json().locales[0].memoryExamplesSkipped).toEqual([1]);
      expect(result.stderr).toContain(
        'de: batch 1/1: no examples from translation memory (its similarity search took too long)',
      );
      expect(result.stderr).toContain(
        "de: batch 1 of 1 went to the model without examples from translation memory: the server's similarity search took too long",
      );
      await cli.remove();
    });
  },
);
