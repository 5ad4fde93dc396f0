/**
 * A person's translations are kept (DESIGN §13), end to end through the CLI against the real
 * system, with the stand-in model recording what it is sent: `tolk push` uploads a hand edit of
 * a target file as `human`; `translate --force` does not send it to the model, `--overwrite-human`
 * does; when its source changes it reaches the model with the person's text as the reference;
 * what the model wrote reads back through the API as `ai` with the model.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { useModelProject } from './support/model-project.js';
import type { ProviderStandIn } from './support/provider-stand-ins.js';

const SOURCE = { greeting: 'Hello {name}', pay: 'Pay {amount}', bye: 'Goodbye' };
const MODEL = 'openai:stand-in-model';

describe('provenance: a person’s translations are kept', () => {
  const project = useModelProject('P', SOURCE);
  const { tolk, translate, keysAsked, downloaded } = project;
  let system: System;
  let openai: ProviderStandIn;
  let token: string;
  let cli: CliHarness;
  let projectId: string;
  beforeEach(() => {
    ({ system, openai, token, cli, projectId } = project);
  });

  const provenance = async () => (await downloaded()).provenance;
  const storedContent = async () => JSON.parse((await downloaded()).content) as Record<string, string>;

  /** `tolk push --json` with one edit of de.json the push refuses: exit 2, the error named. */
  async function expectEditRefused(code: string, message: string) {
    const push = await tolk('push', '--json');
    expect(push.code).toBe(2);
    expect(push.json().humanEdits).toEqual([
      {
        locale: 'de',
        keys: 1,
        sourceVersion: 1,
        uploaded: false,
        error: { code, message: expect.stringContaining(message) },
      },
    ]);
    return push;
  }

  /** Translates everything, then edits `bye` in de.json by hand and pushes it. */
  async function translatedWithHumanEdit() {
    const first = await translate();
    expect(first.code, first.stderr).toBe(0);
    const de = await cli.readJson('locales/de.json');
    await cli.writeJson('locales/de.json', { ...de, bye: 'Tschüss (von Hand)' });
    const push = await tolk('push', '--json');
    expect(push.code, push.stderr).toBe(0);
    expect(push.json().humanEdits).toEqual([{ locale: 'de', keys: 1, sourceVersion: 1, uploaded: true }]);
    openai.requests.length = 0;
  }

  it('when translate runs, then what the model wrote reads back as ai with the model', async () => {
    const before = Date.now();
    const result = await translate();
    expect(result.code, result.stderr).toBe(0);
    const read = await provenance();
    expect(Object.keys(read)).toEqual(['greeting', 'pay', 'bye']);
    for (const key of ['greeting', 'pay', 'bye']) {
      expect(read[key]).toEqual({ by: 'ai', model: MODEL, at: expect.any(Number) });
      expect(read[key]!.at).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  it('when a hand edit is pushed, then push says so and the server has it as human, the rest still ai', async () => {
    const first = await translate();
    expect(first.code, first.stderr).toBe(0);
    const de = await cli.readJson('locales/de.json');
    await cli.writeJson('locales/de.json', { ...de, bye: 'Tschüss (von Hand)' });
    const push = await tolk('push');
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain("de: uploaded 1 edited translation as a person's (source version 1)");
    const read = await provenance();
    expect(read.bye).toEqual({ by: 'human', at: expect.any(Number) });
    expect(read.greeting).toMatchObject({ by: 'ai', model: MODEL });
    // Synced now: a second push uploads nothing.
    const again = await tolk('push', '--json');
    expect(again.json().humanEdits).toEqual([]);
  });

  it('when translate --force runs after a pushed hand edit, then the model is not sent that key and the edit survives', async () => {
    await translatedWithHumanEdit();
    const forced = await translate('--force', '--json');
    expect(forced.code, forced.stderr).toBe(0);
    expect(keysAsked().sort()).toEqual(['greeting', 'pay']);
    expect(forced.json().locales[0]).toMatchObject({ locale: 'de', requested: 2, keptHuman: 1 });
    expect(forced.stderr).toContain('de: kept 1 translation by a person');
    expect((await cli.readJson('locales/de.json')).bye).toBe('Tschüss (von Hand)');
    const read = await provenance();
    expect(read.bye).toEqual({ by: 'human', at: expect.any(Number) });
    expect(read.pay).toMatchObject({ by: 'ai', model: MODEL });
  });

  it('when translate --overwrite-human runs, then the hand edit is sent to the model and replaced', async () => {
    await translatedWithHumanEdit();
    const overwrite = await translate('--overwrite-human');
    expect(overwrite.code, overwrite.stderr).toBe(0);
    expect(keysAsked().sort()).toEqual(['bye', 'greeting', 'pay']);
    expect((await cli.readJson('locales/de.json')).bye).toBe('[de] Goodbye');
    expect((await provenance()).bye).toMatchObject({ by: 'ai', model: MODEL });
  });

  it('when the source of a hand-edited key changes, then it reaches the model with the old human text as reference', async () => {
    await translatedWithHumanEdit();
    await cli.writeJson('locales/en.json', { ...SOURCE, bye: 'Goodbye for now' });
    expect((await tolk('push')).code).toBe(0);
    const result = await translate('--json');
    expect(result.code, result.stderr).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ bye: 'Goodbye for now' }]);
    expect(result.json().locales[0]).toMatchObject({ humanReferences: 1, keptHuman: 0 });
    const message = JSON.stringify(openai.requests[0]!.body);
    expect(message).toContain("A person's translations of these texts");
    expect(message).toContain(JSON.stringify(JSON.stringify({ 1: 'Tschüss (von Hand)' })).slice(1, -1));
    expect((await provenance()).bye).toMatchObject({ by: 'ai', model: MODEL });
  });

  it('when a plural group has a form a person wrote, then --force asks the group with it as reference and keeps it', async () => {
    await cli.writeJson('locales/en.json', {
      ...SOURCE,
      item_one: '{{count}} item',
      item_other: '{{count}} items',
    });
    expect((await tolk('push')).code).toBe(0);
    expect((await translate()).code).toBe(0);
    const de = await cli.readJson('locales/de.json');
    await cli.writeJson('locales/de.json', { ...de, item_one: '{{count}} Stück' });
    expect((await tolk('push')).code).toBe(0);
    openai.requests.length = 0;

    const forced = await translate('--force', '--json');
    expect(forced.code, forced.stderr).toBe(0);
    const group = openai.requests.find((request) => request.strings && 'item_one' in request.strings)!;
    // The group's reference, by its id: the form a person wrote under its category.
    expect(JSON.stringify(group.body)).toContain(
      JSON.stringify(JSON.stringify({ one: '{{count}} Stück' })).slice(1, -1),
    );
    expect(forced.json().locales[0]).toMatchObject({ keptHuman: 1, humanReferences: 1 });
    const after = await cli.readJson('locales/de.json');
    expect(after.item_one).toBe('{{count}} Stück');
    expect(after.item_other).toBe('[de:other] {{count}} items');
    const read = await provenance();
    expect(read.item_one).toEqual({ by: 'human', at: expect.any(Number) });
    expect(read.item_other).toMatchObject({ by: 'ai', model: MODEL });
  });

  it('when a key was never changed by hand, then it is not sent with a reference', async () => {
    await translate();
    await cli.writeJson('locales/en.json', { ...SOURCE, pay: 'Pay {amount} now' });
    expect((await tolk('push')).code).toBe(0);
    openai.requests.length = 0;
    expect((await translate()).code).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ pay: 'Pay {amount} now' }]);
    expect(JSON.stringify(openai.requests[0]!.body)).not.toContain("A person's translations of these texts");
  });

  it('when a target file is already translated and there is no sync record, then its values the server lacks are kept as human', async () => {
    await cli.writeJson('locales/de.json', { greeting: 'Hallo {name}', bye: 'Tschüss' });
    const result = await translate('--json');
    expect(result.code, result.stderr).toBe(0);
    expect(keysAsked()).toEqual(['pay']);
    expect(await cli.readJson('locales/de.json')).toEqual({
      greeting: 'Hallo {name}',
      pay: '[de] Pay {amount}',
      bye: 'Tschüss',
    });
    const read = await provenance();
    expect(read.greeting).toEqual({ by: 'human', at: expect.any(Number) });
    expect(read.bye).toEqual({ by: 'human', at: expect.any(Number) });
    expect(read.pay).toMatchObject({ by: 'ai', model: MODEL });
  });

  it('when a teammate pulls into a fresh checkout and edits a target file, then push uploads the edit as human', async () => {
    expect((await translate()).code).toBe(0);
    const teammate = await createCliHarness(system.base);
    try {
      await teammate.writeJson('tolk.json', await cli.readJson('tolk.json'));
      await teammate.writeJson('locales/en.json', SOURCE);
      const env = { env: { TOLK_TOKEN: token } };
      expect((await teammate.tolk(['pull'], env)).code).toBe(0);
      const de = await teammate.readJson('locales/de.json');
      await teammate.writeJson('locales/de.json', { ...de, pay: 'Jetzt {amount} zahlen' });
      const push = await teammate.tolk(['push', '--json'], env);
      expect(push.code, push.stderr).toBe(0);
      expect(push.json().humanEdits).toEqual([{ locale: 'de', keys: 1, sourceVersion: 1, uploaded: true }]);
      const read = await provenance();
      expect(read.pay).toEqual({ by: 'human', at: expect.any(Number) });
      expect(read.bye).toMatchObject({ by: 'ai', model: MODEL });
    } finally {
      await teammate.remove();
    }
  });

  it('when the server has translations of a newer source than the edited file, then push reports CONFLICT for the locale and stores nothing of it', async () => {
    expect((await translate()).code).toBe(0);
    // Elsewhere: a new source version, translated.
    const newer = { ...SOURCE, extra: 'More' };
    expect((await system.call('PUT', `/v1/projects/${projectId}/source`, token, newer)).status).toBe(200);
    const translations = `/v1/projects/${projectId}/locales/de/translations?sourceVersion=2`;
    const stored = { greeting: 'Hallo {name}', pay: 'Zahle {amount}', bye: 'Tschüss', extra: 'Mehr' };
    expect((await system.call('PUT', translations, token, stored)).status).toBe(200);

    const de = await cli.readJson('locales/de.json');
    await cli.writeJson('locales/de.json', { ...de, bye: 'Servus' });
    await expectEditRefused('CONFLICT', 'source version 2');
    const read = await provenance();
    expect(read.bye).toEqual({ by: 'human', at: expect.any(Number) });
    expect((await storedContent()).bye).toBe('Tschüss');

    // As the message says: pull keeps the edit, and push uploads it then.
    expect((await tolk('pull')).code).toBe(5);
    expect((await cli.readJson('locales/de.json')).bye).toBe('Servus');
    const again = await tolk('push', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().humanEdits).toEqual([{ locale: 'de', keys: 1, sourceVersion: 2, uploaded: true }]);
    expect((await storedContent()).bye).toBe('Servus');
  });

  it('when push --dry-run finds a hand edit, then it says so and uploads nothing', async () => {
    await translate();
    const de = await cli.readJson('locales/de.json');
    await cli.writeJson('locales/de.json', { ...de, pay: 'Jetzt {amount} zahlen' });
    const dryRun = await tolk('push', '--dry-run', '--json');
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.json().humanEdits).toEqual([{ locale: 'de', keys: 1, sourceVersion: 1, uploaded: false }]);
    expect((await provenance()).pay).toMatchObject({ by: 'ai' });
  });

  it('when a pushed hand edit breaks the placeholders, then it is stored as a person’s with its error finding (DESIGN §15), and translate keeps it', async () => {
    await translate();
    const de = await cli.readJson('locales/de.json');
    await cli.writeJson('locales/de.json', { ...de, pay: 'Jetzt zahlen' });
    const push = await tolk('push', '--json');
    expect(push.code, push.stderr).toBe(0);
    expect(push.json().humanEdits).toEqual([{ locale: 'de', keys: 1, sourceVersion: 1, uploaded: true }]);
    expect((await provenance()).pay).toEqual({ by: 'human', at: expect.any(Number) });
    expect((await storedContent()).pay).toBe('Jetzt zahlen');
    const locale = await system.call('GET', `/v1/projects/${projectId}/locales/de`, token);
    expect(locale.body).toMatchObject({
      errorCount: 1,
      findings: [{ key: 'pay', kind: 'placeholder', severity: 'error' }],
    });
    openai.requests.length = 0;
    expect((await translate('--force')).code).toBe(0);
    expect(keysAsked()).not.toContain('pay');
    expect((await cli.readJson('locales/de.json')).pay).toBe('Jetzt zahlen');
  });
});
