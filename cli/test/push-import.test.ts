/**
 * Adoption is an import (DESIGN §15), end to end against the real system: the first `tolk push`
 * of a project uploads every translated value of the target files as a person's, so `tolk status`
 * right after shows the app as it is; `tolk push --import` later merges the files' values over
 * the server's. A locale the server refuses is named and the others go on (exit 6); a teammate's
 * upload in between (412) is merged with and the import uploaded again. The sync state records
 * the imported values, so `tolk translate` neither uploads them again nor writes over them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { request } from '@tolk/testing';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { startForwardingProxy } from './support/forwarding-proxy.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const SOURCE = { greeting: 'Hello {name}', pay: 'Pay {amount}', bye: 'Goodbye', later: 'See you later' };
const GERMAN = { greeting: 'Hallo {name}', pay: '{amount} zahlen', bye: 'Tschüss', later: '' };
// A person's translation with an error (the placeholder lost) and a key the source does not have.
const POLISH = { greeting: 'Cześć {name}', bye: 'Do widzenia', pay: 'Zapłać', gone: 'Stary tekst' };

/** Each PUT of a locale's translations that reached the proxy, and what the test does then. */
type Hook = (locale: string, n: number) => Promise<void>;

describe('the first push and push --import take the target files as a person’s translations', () => {
  let system: System;
  let model: ProviderStandIn;
  let proxy: Awaited<ReturnType<typeof startForwardingProxy>>;
  let onUpload: Hook = async () => {};
  const uploads = new Map<string, number>();

  beforeAll(async () => {
    // A small body limit of locale-service: a large locale is refused by the server itself.
    [system, model] = await Promise.all([
      startSystem({ sources: true, localeEnv: { LOCALE_MAX_BODY_BYTES: '4096' } }),
      startOpenAIStandIn(),
    ]);
    proxy = await startForwardingProxy(system.base, {
      before: async ({ method, path }) => {
        const locale = /\/locales\/([^/]+)\/translations$/.exec(path)?.[1];
        if (method !== 'PUT' || !locale) return;
        const n = (uploads.get(locale) ?? 0) + 1;
        uploads.set(locale, n);
        await onUpload(locale, n);
      },
    });
  });
  const made: CliHarness[] = [];
  afterEach(async () => {
    for (const cli of made.splice(0)) await cli.remove();
  });
  afterAll(async () => {
    await proxy?.close();
    await model?.close();
    await system?.close();
  });

  /** A user with an app: English source, German and Polish files, `tolk init` done, nothing pushed. */
  async function app(
    files: Record<string, unknown> = { 'locales/de.json': GERMAN, 'locales/pl.json': POLISH },
  ) {
    const { token } = await system.signUp();
    const cli: CliHarness = await createCliHarness(proxy.url);
    made.push(cli);
    const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
    await cli.writeJson('locales/en.json', SOURCE);
    for (const [path, content] of Object.entries(files)) await cli.writeJson(path, content);
    const init = await tolk('init', '--name', 'App', '--targets', 'de,pl', '--yes', '--json');
    expect(init.code, init.stderr).toBe(0);
    const projectId = init.json().projectId as string;
    onUpload = async () => {};
    uploads.clear();
    const stored = async (locale: string) => {
      const response = await system.call(
        'GET',
        `/v1/projects/${projectId}/locales/${locale}/translations`,
        token,
      );
      expect(response.status).toBe(200);
      return {
        values: JSON.parse(response.body.content as string) as Record<string, string>,
        provenance: response.body.provenance as Record<string, { by: string }>,
        etag: response.headers.get('etag')!,
      };
    };
    /** A teammate (the same user, another client) adds `values` to de's translations on the server. */
    const teammateAdds = async (values: Record<string, string>) => {
      const current = await stored('de');
      const put = await request(
        `${system.base}/v1/projects/${projectId}/locales/de/translations?sourceVersion=1`,
        {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'if-match': current.etag },
          body: { ...current.values, ...values },
        },
      );
      expect(put.status, put.text).toBe(200);
    };
    return { cli, tolk, stored, teammateAdds };
  }

  it('the first push imports every translated value of de and pl, and status shows them translated right after', async () => {
    const { cli, tolk, stored } = await app();
    const pushed = await tolk('push');
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toMatch(/^de: imported 3 translations\b/m);
    expect(pushed.stdout).toMatch(
      /^pl: imported 3 translations, 1 with errors, 0 with warnings, 1 key ignored \(not in the source: gone\)$/m,
    );

    const status = await tolk('status', '--json');
    expect(status.code, status.stderr).toBe(0);
    const counts = Object.fromEntries(
      (status.json().locales as { locale: string; translatedCount: number }[]).map((locale) => [
        locale.locale,
        locale.translatedCount,
      ]),
    );
    expect(counts).toEqual({ de: 3, pl: 3 });
    // A person's, each: the empty string is not translated and was not uploaded.
    const de = await stored('de');
    expect(de.values).toEqual({ greeting: 'Hallo {name}', pay: '{amount} zahlen', bye: 'Tschüss' });
    expect(Object.values(de.provenance).map((entry) => entry.by)).toEqual(['human', 'human', 'human']);

    // translate asks only for what is missing and leaves the imported values as they are.
    const translated = await tolk('translate', '--base-url', model.baseURL, '--model', 'stand-in', '--json');
    expect(translated.code, translated.stderr).toBe(0);
    const outcomes = translated.json().locales as { locale: string; requested: number }[];
    expect(outcomes.map((outcome) => [outcome.locale, outcome.requested])).toEqual([
      ['de', 1],
      ['pl', 1],
    ]);
    expect((await stored('de')).values).toMatchObject({
      greeting: 'Hallo {name}',
      later: '[de] See you later',
    });
    expect((await stored('de')).provenance['greeting']!.by).toBe('human');
    expect(await cli.readJson('locales/de.json')).toMatchObject({
      greeting: 'Hallo {name}',
      bye: 'Tschüss',
    });
    // Nothing of de was uploaded again by push: no edits.
    const again = await tolk('push', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().humanEdits).toEqual([]);
    expect(again.json().imported).toBeUndefined();
  });

  it('push --import later merges the files’ values over the server’s: the file wins, keys it lacks keep the server’s', async () => {
    const { cli, tolk, stored, teammateAdds } = await app({
      'locales/de.json': { greeting: 'Hallo {name}' },
    });
    expect((await tolk('push')).code).toBe(0);
    // A teammate's translation on the server that the file does not have.
    await teammateAdds({ bye: 'Auf Wiedersehen' });
    await cli.writeJson('locales/de.json', { greeting: 'Grüß dich {name}', pay: '{amount} bezahlen' });
    await cli.writeJson('locales/pl.json', { bye: 'Pa' });

    const imported = await tolk('push', '--import', '--json');
    expect(imported.code, imported.stderr).toBe(0);
    const locales = imported.json().imported.locales as {
      locale: string;
      imported: number;
      uploaded: boolean;
    }[];
    expect(locales.map((locale) => [locale.locale, locale.imported, locale.uploaded])).toEqual([
      ['de', 2, true],
      ['pl', 1, true],
    ]);
    expect((await stored('de')).values).toEqual({
      greeting: 'Grüß dich {name}',
      pay: '{amount} bezahlen',
      bye: 'Auf Wiedersehen',
    });
    expect((await stored('pl')).values).toEqual({ bye: 'Pa' });
  });

  it('a locale the server refuses is named with its message, the others are imported, and the exit is 6', async () => {
    const long = Object.fromEntries(
      Object.keys(SOURCE).map((key) => [key, 'ą'.repeat(900) + ` {name}{amount}`]),
    );
    const { tolk, stored } = await app({ 'locales/de.json': GERMAN, 'locales/pl.json': long });
    const pushed = await tolk('push');
    expect(pushed.code, pushed.stderr).toBe(6);
    expect(pushed.stderr).toMatch(/^pl: not imported: PAYLOAD_TOO_LARGE: /m);
    expect(pushed.stdout).toMatch(/^de: imported 3 translations\b/m);
    expect(Object.keys((await stored('de')).values)).toHaveLength(3);
    expect((await stored('pl')).values).toEqual({});
  });

  it('a locale of tolk.json that is not a target locale on the server is named and skipped', async () => {
    const { cli, tolk } = await app();
    const config = await cli.readJson('tolk.json');
    await cli.writeJson('tolk.json', { ...config, targetLocales: [...config.targetLocales, 'fr'] });
    await cli.writeJson('locales/fr.json', { bye: 'Au revoir' });
    const pushed = await tolk('push', '--json');
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain(
      'fr: not a target locale of the project on the server; its files were not imported',
    );
    expect(pushed.json().imported.skipped).toEqual(['fr']);
    expect((pushed.json().imported.locales as { locale: string }[]).map((locale) => locale.locale)).toEqual([
      'de',
      'pl',
    ]);
  });

  it('a teammate’s upload between the download and the import (412) is merged with, and the import uploaded again', async () => {
    const { cli, tolk, stored, teammateAdds } = await app({
      'locales/de.json': { greeting: 'Hallo {name}' },
    });
    expect((await tolk('push')).code).toBe(0);
    await cli.writeJson('locales/de.json', { greeting: 'Grüß dich {name}', pay: '{amount} zahlen' });
    uploads.clear();
    onUpload = async (locale, n) => {
      if (locale !== 'de' || n !== 1) return;
      await teammateAdds({ bye: 'Tschüss' });
    };
    const imported = await tolk('push', '--import');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      "de: the server's translations changed during the upload; merged 2 keys with them again",
    );
    expect(imported.stdout).toMatch(/^de: imported 2 translations\b/m);
    expect((await stored('de')).values).toEqual({
      greeting: 'Grüß dich {name}',
      pay: '{amount} zahlen',
      bye: 'Tschüss',
    });
  });
});
