/**
 * Uploads that race another client's, end to end against the real system: `tolk translate` and
 * `tolk push` upload a locale's translations with the revision of the download they merged with
 * (If-Match). When a teammate's upload lands in between — made here by a proxy in front of the
 * gateway, which lets the teammate upload for real right before the CLI's upload goes on — the
 * server refuses the CLI's (412), and the CLI downloads again, merges its own keys over the
 * newest and uploads once more, saying so. The teammate's values are kept; a second conflict is
 * an error, with nothing of the CLI's upload stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request } from '@tolk/testing';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { startForwardingProxy } from './support/forwarding-proxy.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const SOURCE = { greeting: 'Hello {name}', pay: 'Pay {amount}', bye: 'Goodbye' };

describe('uploads of translations that race another client’s', () => {
  let system: System;
  let openai: ProviderStandIn;
  let proxy: Awaited<ReturnType<typeof startForwardingProxy>>;
  let cli: CliHarness;
  let owner: { token: string };
  let teammate: { token: string };
  let projectId: string;
  /** What the teammate does when the CLI's n-th translations upload (1, 2, ...) reaches the proxy. */
  let onUpload: (n: number) => Promise<void>;
  let uploads: number;

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true, byok: true }), startOpenAIStandIn()]);
    proxy = await startForwardingProxy(system.base, {
      before: async ({ method, path }) => {
        if (method === 'PUT' && path.endsWith('/locales/de/translations')) await onUpload(++uploads);
      },
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await openai?.close();
    await system?.close();
  });

  // Each test: an owner running the CLI, through the proxy; a teammate on the gateway itself;
  // de translated by the model at source version 1.
  beforeEach(async () => {
    owner = await system.signUp();
    const member = await system.signUp();
    teammate = member;
    cli = await createCliHarness(proxy.url);
    onUpload = async () => {};
    uploads = 0;
    const init = await tolk('init', '--name', 'P', '--targets', 'de', '--yes', '--json');
    expect(init.code, init.stderr).toBe(0);
    projectId = init.json().projectId;
    const added = await system.call('POST', `/v1/projects/${projectId}/members`, owner.token, {
      email: member.email,
    });
    expect(added.status).toBe(201);
    await cli.writeJson('locales/en.json', SOURCE);
    expect((await tolk('push')).code).toBe(0);
    const first = await translate();
    expect(first.code, first.stderr).toBe(0);
    uploads = 0;
    return () => cli.remove();
  });

  const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: owner.token } });
  const translate = (...args: string[]) =>
    tolk('translate', '--base-url', openai.baseURL, '--model', 'stand-in-model', ...args);

  const translations = () => `/v1/projects/${projectId}/locales/de/translations`;

  /** The teammate downloads de, changes `changes` in it and uploads it, as made from `sourceVersion`. */
  async function teammateUploads(changes: Record<string, string>, sourceVersion: number) {
    const downloaded = await system.call('GET', translations(), teammate.token);
    expect(downloaded.status).toBe(200);
    const document = { ...JSON.parse(downloaded.body.content as string), ...changes };
    const uploaded = await request(`${system.base}${translations()}?sourceVersion=${sourceVersion}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${teammate.token}`,
        'if-match': downloaded.headers.get('etag')!,
      },
      body: document,
    });
    expect(uploaded.status, uploaded.text).toBe(200);
  }

  async function serverTranslations() {
    const response = await system.call('GET', translations(), owner.token);
    expect(response.status).toBe(200);
    return {
      content: JSON.parse(response.body.content as string) as Record<string, string>,
      provenance: response.body.provenance as Record<string, { by: string }>,
    };
  }

  it('when a teammate uploads while translate uploads, then translate merges its keys with theirs again and uploads, and says so', async () => {
    await cli.writeJson('locales/en.json', { ...SOURCE, greeting: 'Hi {name}', pay: 'Pay now {amount}' });
    expect((await tolk('push')).code).toBe(0);
    // The teammate translates one of the keys the model is translating, and edits another.
    onUpload = async (n) => {
      if (n === 1) await teammateUploads({ pay: 'Jetzt {amount} zahlen', bye: 'Tschüss!' }, 2);
    };

    const result = await translate('--json');
    expect(result.code, result.stderr).toBe(0);
    const stored = await serverTranslations();
    expect(stored.content).toEqual({
      greeting: '[de] Hi {name}',
      pay: 'Jetzt {amount} zahlen',
      bye: 'Tschüss!',
    });
    expect(stored.provenance).toMatchObject({
      greeting: { by: 'ai' },
      pay: { by: 'human' },
      bye: { by: 'human' },
    });
    expect(uploads).toBe(2);
    const [outcome] = result.json().locales;
    expect(outcome).toMatchObject({
      locale: 'de',
      uploaded: true,
      mergedAgain: { keys: 1 },
      keptHumanMeanwhile: ['pay'],
      error: null,
    });

    // The file is what was uploaded.
    expect(await cli.readJson('locales/de.json')).toEqual(stored.content);
  });

  it('when it happens without --json, then the summary names it', async () => {
    await cli.writeJson('locales/en.json', { ...SOURCE, greeting: 'Hi {name}' });
    expect((await tolk('push')).code).toBe(0);
    onUpload = async (n) => {
      if (n === 1) await teammateUploads({ bye: 'Tschüss!' }, 2);
    };
    const result = await translate();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      "de: the server's translations changed during the upload; merged 1 key with them again and uploaded",
    );
    expect((await serverTranslations()).content).toMatchObject({
      greeting: '[de] Hi {name}',
      bye: 'Tschüss!',
    });
  });

  it('when the server’s translations change again before the second upload, then translate fails with the conflict and stores nothing of its own', async () => {
    await cli.writeJson('locales/en.json', { ...SOURCE, greeting: 'Hi {name}' });
    expect((await tolk('push')).code).toBe(0);
    onUpload = async (n) => {
      if (n <= 2) await teammateUploads({ bye: `Tschüss ${n}` }, 2);
    };

    const result = await translate('--json');
    expect(result.code).toBe(4);
    expect(uploads).toBe(2);
    const [outcome] = result.json().locales;
    expect(outcome).toMatchObject({
      uploaded: false,
      error: {
        code: 'PRECONDITION_FAILED',
        message:
          "the server's translations of de changed again while the upload was merged with them a second time; " +
          'nothing of it was stored: run the command again',
      },
    });
    expect(result.stderr).toContain('error: PRECONDITION_FAILED: ');
    const stored = await serverTranslations();
    expect(stored.content).toEqual({
      greeting: '[de] Hello {name}',
      pay: '[de] Pay {amount}',
      bye: 'Tschüss 2',
    });
  });

  it('when a teammate uploads while push uploads local edits, then push merges the edits with theirs again and uploads', async () => {
    const de = await cli.readJson('locales/de.json');
    await cli.writeJson('locales/de.json', { ...de, bye: 'Auf Wiedersehen (von Hand)' });
    onUpload = async (n) => {
      if (n === 1) await teammateUploads({ pay: 'Zahle {amount} (vom Team)' }, 1);
    };

    const push = await tolk('push', '--json');
    expect(push.code, push.stderr).toBe(0);
    expect((await serverTranslations()).content).toEqual({
      greeting: '[de] Hello {name}',
      pay: 'Zahle {amount} (vom Team)',
      bye: 'Auf Wiedersehen (von Hand)',
    });
    expect(push.json().humanEdits).toEqual([
      { locale: 'de', keys: 1, sourceVersion: 1, uploaded: true, mergedAgain: { keys: 1 } },
    ]);

    // Without --json, the same is said in words.
    await cli.writeJson('locales/de.json', { ...de, bye: 'Bis bald (von Hand)' });
    onUpload = async (n) => {
      if (n === 3) await teammateUploads({ greeting: 'Hallo {name} (vom Team)' }, 1);
    };
    const again = await tolk('push');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      "de: the server's translations changed during the upload; merged 1 key with them again and uploaded\n" +
        "de: uploaded 1 edited translation as a person's (source version 1)",
    );
    expect((await serverTranslations()).content).toEqual({
      greeting: 'Hallo {name} (vom Team)',
      pay: 'Zahle {amount} (vom Team)',
      bye: 'Bis bald (von Hand)',
    });
  });
});
