/**
 * Fixing is a choice (DESIGN §15), end to end through the CLI against the real system, with the
 * stand-in model recording what it is sent: a person's translation with findings is never sent
 * to the model by `tolk translate` (nor `--force`); `--fix` sends the keys with errors,
 * `--fix=warnings` those with warnings too, each with the person's text as the reference and
 * what was found in it; an answer is stored only if it passes every rule, and the summary says
 * how many keys were fixed per locale.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { CliHarness } from './support/cli-harness.js';
import { useModelProject } from './support/model-project.js';
import { answers, type ProviderStandIn } from './support/provider-stand-ins.js';

const SOURCE = { greeting: 'Hello {name}', pay: 'Pay {amount}', bye: 'Goodbye and see you soon' };
const MODEL = 'openai:stand-in-model';

describe('tolk translate --fix', () => {
  const project = useModelProject('Fix', SOURCE);
  const { tolk, translate, keysAsked, downloaded } = project;
  let openai: ProviderStandIn;
  let cli: CliHarness;

  // Each test: translated by the model, then `bye` copied from the source by hand and pushed (a
  // person's translation with a copy warning).
  beforeEach(async () => {
    ({ openai, cli } = project);
    const first = await translate();
    expect(first.code, first.stdout + first.stderr).toBe(0);
    await cli.writeJson('locales/de.json', {
      ...(await cli.readJson('locales/de.json')),
      bye: SOURCE.bye,
    });
    const push = await tolk('push', '--json');
    expect(push.code, push.stderr).toBe(0);
    expect(push.json().humanEdits).toEqual([{ locale: 'de', keys: 1, sourceVersion: 1, uploaded: true }]);
    openai.requests.length = 0;
  });

  const provenance = async () => (await downloaded()).provenance;

  /** Edits `pay` in de.json by hand, losing its placeholder (an error), without uploading it. */
  const breakPay = async () =>
    cli.writeJson('locales/de.json', { ...(await cli.readJson('locales/de.json')), pay: 'Jetzt zahlen' });

  it('when translate runs without --fix, then a person’s translation with findings is never sent to the model', async () => {
    await breakPay();
    for (const args of [[], ['--force']]) {
      openai.requests.length = 0;
      const result = await translate(...args, '--json');
      expect(result.code, result.stderr).toBe(0);
      expect(keysAsked()).not.toContain('bye');
      expect(result.json().locales[0]).toMatchObject({ toFix: 0, fixed: 0 });
    }
    expect((await cli.readJson('locales/de.json')).bye).toBe(SOURCE.bye);
    expect((await provenance()).bye).toMatchObject({ by: 'human' });
  });

  it('when --fix runs, then only the key with an error goes to the model, with the person’s text and its finding, and the fixed answer is stored', async () => {
    await breakPay();
    const result = await translate('--fix', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ pay: 'Pay {amount}' }]);
    const prompt = JSON.stringify(openai.requests[0]!.body);
    expect(prompt).toContain("A person's translations of these texts, with what was found wrong in them");
    expect(prompt).toContain(JSON.stringify(JSON.stringify({ 1: 'Jetzt zahlen' })).slice(1, -1));
    expect(prompt).toContain('- 1: placeholders differ from the source: lost {amount}');
    expect(result.json().locales[0]).toMatchObject({ locale: 'de', toFix: 1, fixed: 1, humanReferences: 0 });
    expect((await cli.readJson('locales/de.json')).pay).toBe('[de] Pay {amount}');
    expect((await cli.readJson('locales/de.json')).bye).toBe(SOURCE.bye);
    const read = await provenance();
    expect(read.pay).toMatchObject({ by: 'ai', model: MODEL });
    expect(read.bye).toMatchObject({ by: 'human' });

    const people = await translate('--fix');
    expect(people.code, people.stderr).toBe(0);
    expect(people.stdout).toContain(
      'Every locale is up to date with source version 1 and no translation has errors to fix; nothing to translate.',
    );
  });

  it('when a person’s broken translation is on the server, then --fix sends it with the server’s finding', async () => {
    await breakPay();
    expect((await tolk('push')).code).toBe(0);
    expect((await provenance()).pay).toMatchObject({ by: 'human' });
    openai.requests.length = 0;
    const result = await translate('--fix');
    expect(result.code, result.stderr).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ pay: 'Pay {amount}' }]);
    expect(JSON.stringify(openai.requests[0]!.body)).toContain('lost {amount}');
    expect(result.stdout).toContain('de: fixed 1 of 1 key with errors');
    expect((await provenance()).pay).toMatchObject({ by: 'ai', model: MODEL });
  });

  it('when --fix=warnings runs, then the copy of the source goes to the model too and the summary says how many were fixed', async () => {
    // A locale behind on a new key, with nothing to fix: only the new key is asked.
    await project.cli.writeJson('locales/en.json', { ...SOURCE, thanks: 'Thank you very much' });
    expect((await tolk('push')).code).toBe(0);
    const errorsOnly = await translate('--fix');
    expect(errorsOnly.code, errorsOnly.stderr).toBe(0);
    expect(keysAsked()).toEqual(['thanks']);
    expect(errorsOnly.stdout).toContain('No translation has errors to fix.');
    openai.requests.length = 0;

    const result = await translate('--fix=warnings');
    expect(result.code, result.stderr).toBe(0);
    expect(openai.stringsReceived()).toEqual([{ bye: SOURCE.bye }]);
    expect(JSON.stringify(openai.requests[0]!.body)).toContain('the same text as the source (en)');
    expect(result.stdout).toContain('de: fixed 1 of 1 key with errors or warnings');
    expect((await cli.readJson('locales/de.json')).bye).toBe(`[de] ${SOURCE.bye}`);
    expect((await provenance()).bye).toMatchObject({ by: 'ai', model: MODEL });
  });

  it('when no answer passes every rule, then the person’s text is kept and the summary says it was not fixed', async () => {
    openai.answerAlways(answers.withValue('bye', 42));
    const result = await translate('--fix=warnings');
    expect(result.code).toBe(4);
    expect(openai.requests).toHaveLength(3);
    expect(result.stdout).toContain(
      'de: fixed 0 of 1 key with errors or warnings (the others keep their text: no answer passed every rule)',
    );
    expect((await cli.readJson('locales/de.json')).bye).toBe(SOURCE.bye);
    expect((await provenance()).bye).toMatchObject({ by: 'human' });
  });
});
