/**
 * Key rules (DESIGN §13) end to end through the CLI, against the real system with the stand-in
 * model recording what it is sent: a human-only key never reaches the model and stays missing;
 * a never-translated key is in the target with the source text and counted translated; an
 * excluded key is absent from targets (translate and pull) and from the counts.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const SOURCE = {
  title: 'Your cart',
  brand: { name: 'Tolk' },
  footer: { url: 'https://tolk.dev', note: 'Made in Lisbon' },
  legal: { terms: 'Terms of use' },
  debug: { id: 'Build {id}' },
};

const RULES = {
  humanOnly: ['legal.*'],
  neverTranslate: ['brand.name', '**.url'],
  exclude: ['debug.**'],
};

const GERMAN = {
  title: '[de] Your cart',
  brand: { name: 'Tolk' },
  footer: { url: 'https://tolk.dev', note: '[de] Made in Lisbon' },
};

/** The file as `tolk` writes it: key order is part of what is checked. */
const fileText = (document: unknown) => JSON.stringify(document, null, 2) + '\n';

describe('tolk translate, pull and status with key rules', () => {
  let system: System;
  let openai: ProviderStandIn;
  let token: string;
  const projects: CliHarness[] = [];

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true }), startOpenAIStandIn()]);
    token = (await system.signUp()).token;
  });
  afterAll(async () => {
    for (const project of projects) await project.remove();
    await openai?.close();
    await system?.close();
  });

  /** A project targeting German with the rules set and the source pushed; the stand-in's requests cleared. */
  async function project() {
    const cli = await createCliHarness(system.base);
    projects.push(cli);
    const tolk = (args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
    const init = await tolk(['init', '--name', 'Rules', '--targets', 'de', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const projectId = init.json().projectId as string;
    const patched = await system.call('PATCH', `/v1/projects/${projectId}`, token, {
      settings: { keyRules: RULES },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await cli.writeJson('locales/en.json', SOURCE);
    const push = await tolk(['push']);
    expect(push.code, push.stderr).toBe(0);
    openai.requests.length = 0;
    const translate = (...args: string[]) =>
      tolk(['translate', '--base-url', openai.baseURL, '--model', 'stand-in', '--concurrency', '1', ...args]);
    const locale = async () =>
      (await system.call('GET', `/v1/projects/${projectId}/locales/de`, token)).body as Record<
        string,
        unknown
      >;
    return { cli, tolk, translate, locale, projectId };
  }

  it('when translating, then the model gets neither human-only, never-translated nor excluded keys, and the target and counts follow the rules', async () => {
    const { cli, translate, locale } = await project();
    // A local value of an excluded key (an older file) does not survive into the target.
    await cli.writeJson('locales/de.json', { debug: { id: 'Version {id}' } });

    const result = await translate('--json');

    expect(result.code, result.stderr).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ title: 'Your cart', 'footer.note': 'Made in Lisbon' }]);
    expect(await cli.readText('locales/de.json')).toBe(fileText(GERMAN));
    expect(result.json().locales).toEqual([
      expect.objectContaining({
        locale: 'de',
        requested: 2,
        translated: 2,
        leftForPeople: ['legal.terms'],
        uploaded: true,
        status: 'behind',
      }),
    ]);
    expect(result.stderr).toContain('de: 1 key left for people (humanOnly key rules): legal.terms');

    expect(await locale()).toMatchObject({
      keyCount: 5,
      translatedCount: 4,
      missingCount: 1,
      missing: ['legal.terms'],
      outdated: [],
    });
  });

  it('when translating with --force, then the human-only key still never reaches the model', async () => {
    const { translate } = await project();
    expect((await translate()).code).toBe(0);
    openai.requests.length = 0;

    const forced = await translate('--force', '--json');

    expect(forced.code, forced.stderr).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ title: 'Your cart', 'footer.note': 'Made in Lisbon' }]);
    expect(forced.json().locales[0].leftForPeople).toEqual(['legal.terms']);
  });

  it('when a person translates the human-only key, then it is kept and the locale is up to date with nothing sent to the model', async () => {
    const { cli, tolk, translate, locale } = await project();
    expect((await translate()).code).toBe(0);
    await cli.writeJson('locales/de.json', { ...GERMAN, legal: { terms: 'Nutzungsbedingungen' } });
    openai.requests.length = 0;

    const again = await translate('--json');

    expect(again.code, again.stderr).toBe(0);
    expect(openai.requests).toHaveLength(0);
    expect(again.json().locales).toEqual([
      expect.objectContaining({ locale: 'de', leftForPeople: [], status: 'up_to_date' }),
    ]);
    expect(await locale()).toMatchObject({ keyCount: 5, translatedCount: 5, missingCount: 0 });
    expect((await tolk(['status', '--check'])).code).toBe(0);

    // Up to date: a local value of an excluded or never-translated key is no local work to upload.
    const human = { ...GERMAN, legal: { terms: 'Nutzungsbedingungen' } };
    await cli.writeJson('locales/de.json', {
      ...human,
      brand: { name: 'Tolk GmbH' },
      debug: { id: 'x {id}' },
    });
    const idle = await translate();
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stderr).not.toContain('uploading your local value');
    expect(idle.stdout).toContain('Every locale is up to date');
  });

  it('when pulling, then the excluded key is left out, the never-translated ones carry the source text, and a local edit of one is not kept', async () => {
    const { cli, tolk, translate } = await project();
    expect((await translate()).code).toBe(0);
    await rm(join(cli.cwd, 'locales/de.json'));

    const pull = await tolk(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await cli.readText('locales/de.json')).toBe(fileText(GERMAN));

    await cli.writeJson('locales/de.json', {
      ...GERMAN,
      brand: { name: 'Tolk GmbH' },
      debug: { id: 'Version {id}' },
    });
    const again = await tolk(['pull', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(await cli.readText('locales/de.json')).toBe(fileText(GERMAN));
  });

  it('when asking for the status, then the counts leave the excluded key out and the rules are named', async () => {
    const { tolk, translate } = await project();
    expect((await translate()).code).toBe(0);

    const status = await tolk(['status', '--json']);

    expect(status.code, status.stderr).toBe(0);
    expect(status.json().locales).toEqual([
      expect.objectContaining({ locale: 'de', keyCount: 5, translatedCount: 4, missingCount: 1 }),
    ]);
    expect(status.json().keyRules).toEqual(RULES);
    const text = await tolk(['status']);
    expect(text.stdout).toContain(
      'Key rules: 1 human-only pattern (legal.*), 2 never translated (brand.name, **.url), 1 excluded (debug.**)',
    );
  });
});
