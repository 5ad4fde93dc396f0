/**
 * `tolk translate` and `tolk pull` with plural forms (DESIGN §11), against the real system with
 * the stand-in model: each target locale gets its own CLDR forms of an i18next plural group (all
 * four in Polish, one/other in German, other alone in Japanese), ordinal groups their ordinal
 * forms, ICU plurals every category of the target; a group whose answer lacks a form is asked
 * again alone, and never written or uploaded while it lacks one.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { answers, startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const SOURCE = {
  cart: {
    title: 'Your cart',
    item_one: '{{count}} item',
    item_other: '{{count}} items',
    files: '{count, plural, one {# file} other {# files}}',
  },
  place_ordinal_one: '{{count}}st place',
  place_ordinal_two: '{{count}}nd place',
  place_ordinal_few: '{{count}}rd place',
  place_ordinal_other: '{{count}}th place',
};

describe('tolk translate with plural forms', () => {
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

  /** A project with `targets`, its source pushed; the stand-in's requests cleared. */
  async function project(targets: string) {
    const cli = await createCliHarness(system.base);
    projects.push(cli);
    const tolk = (args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
    const init = await tolk(['init', '--name', 'Plurals', '--targets', targets, '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    await cli.writeJson('locales/en.json', SOURCE);
    const push = await tolk(['push']);
    expect(push.code, push.stderr).toBe(0);
    openai.requests.length = 0;
    const translate = (...args: string[]) =>
      tolk(['translate', '--base-url', openai.baseURL, '--model', 'stand-in', '--concurrency', '1', ...args]);
    const stored = async (locale: string) =>
      (
        await system.call(
          'GET',
          `/v1/projects/${init.json().projectId}/locales/${locale}/translations`,
          token,
        )
      ).body.content as string;
    return { cli, tolk, translate, stored, projectId: init.json().projectId as string };
  }

  /** The file as `tolk` writes it: key order is part of what is checked. */
  const fileText = (document: unknown) => JSON.stringify(document, null, 2) + '\n';

  it('when the target is Polish, then the group gets all four forms in CLDR order at its place, the ICU plural every Polish category, and pull writes the same', async () => {
    const { cli, tolk, translate, stored } = await project('pl');

    const result = await translate('--json');

    expect(result.code, result.stderr).toBe(0);
    const polish = {
      cart: {
        title: '[pl] Your cart',
        item_one: '[pl:one] {{count}} item',
        item_few: '[pl:few] {{count}} items',
        item_many: '[pl:many] {{count}} items',
        item_other: '[pl:other] {{count}} items',
        files: '[pl] {count, plural, one {# file} few {# files} many {# files} other {# files}}',
      },
      place_ordinal_other: '[pl:other] {{count}}th place',
    };
    expect(await cli.readText('locales/pl.json')).toBe(fileText(polish));
    expect(result.json().locales).toEqual([
      expect.objectContaining({ locale: 'pl', requested: 7, translated: 7, failedKeys: [], uploaded: true }),
    ]);
    // The model saw every source form and was asked for the Polish forms by name, with examples.
    expect(openai.stringsReceived()).toEqual([
      {
        'cart.title': 'Your cart',
        'cart.item_one': '{{count}} item',
        'cart.item_other': '{{count}} items',
        'cart.files': SOURCE.cart.files,
        place_ordinal_one: '{{count}}st place',
        place_ordinal_two: '{{count}}nd place',
        place_ordinal_few: '{{count}}rd place',
        place_ordinal_other: '{{count}}th place',
      },
    ]);
    expect(openai.pluralsReceived()).toEqual([
      {
        'cart.item': ['cart.item_one', 'cart.item_few', 'cart.item_many', 'cart.item_other'],
        place_ordinal: ['place_ordinal_other'],
      },
    ]);
    expect(JSON.stringify(openai.requests[0]!.body)).toContain(
      'Plural categories of pl, each with a number that takes it: one (1), few (2), many (5), other (1.5).',
    );

    // The server holds the same, and counts the locale up to date by its own keys.
    expect(fileText(JSON.parse(await stored('pl')))).toBe(fileText(polish));
    expect((await tolk(['status', '--check'])).code).toBe(0);

    await rm(join(cli.cwd, 'locales/pl.json'));
    const pull = await tolk(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json().locales).toEqual([expect.objectContaining({ locale: 'pl', keyCount: 7 })]);
    expect(await cli.readText('locales/pl.json')).toBe(fileText(polish));
  });

  it('when the targets are German, Japanese and French, then each gets exactly its own cardinal and ordinal forms', async () => {
    const { cli, tolk, translate, stored } = await project('de,ja,fr');

    const result = await translate();

    expect(result.code, result.stderr).toBe(0);
    const expected = {
      de: {
        cart: {
          title: '[de] Your cart',
          item_one: '[de:one] {{count}} item',
          item_other: '[de:other] {{count}} items',
          files: '[de] {count, plural, one {# file} other {# files}}',
        },
        place_ordinal_other: '[de:other] {{count}}th place',
      },
      ja: {
        cart: {
          title: '[ja] Your cart',
          item_other: '[ja:other] {{count}} items',
          files: '[ja] {count, plural, other {# files}}',
        },
        place_ordinal_other: '[ja:other] {{count}}th place',
      },
      fr: {
        cart: {
          title: '[fr] Your cart',
          item_one: '[fr:one] {{count}} item',
          item_many: '[fr:many] {{count}} items',
          item_other: '[fr:other] {{count}} items',
          files: '[fr] {count, plural, one {# file} many {# files} other {# files}}',
        },
        place_ordinal_one: '[fr:one] {{count}}st place',
        place_ordinal_other: '[fr:other] {{count}}th place',
      },
    };
    for (const [locale, document] of Object.entries(expected)) {
      expect(await cli.readText(`locales/${locale}.json`), locale).toBe(fileText(document));
      expect(fileText(JSON.parse(await stored(locale))), locale).toBe(fileText(document));
    }
    expect(JSON.stringify(openai.requests.map((request) => request.body))).toContain(
      'Ordinal categories of fr (selectordinal, _ordinal_ keys): one (1), other (2).',
    );
    expect((await tolk(['status', '--check'])).code).toBe(0);
  });

  it('when the first answer lacks a form of a group, then only that group is asked again and the whole group is uploaded', async () => {
    const { cli, translate, stored } = await project('de');
    openai.script(answers.withoutPluralForm('one'));

    const result = await translate();

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'retrying: attempt 1 rejected for 1 key, e.g. cart.item_one: missing from the answer: the one form (de: one, other)',
    );
    expect(openai.stringsReceived()).toHaveLength(2);
    expect(openai.stringsReceived()[1]).toEqual({
      'cart.item_one': '{{count}} item',
      'cart.item_other': '{{count}} items',
    });
    expect(openai.pluralsReceived()[1]).toEqual({ 'cart.item': ['cart.item_one', 'cart.item_other'] });
    const german = {
      cart: {
        title: '[de] Your cart',
        item_one: '[de:one] {{count}} item',
        item_other: '[de:other] {{count}} items',
        files: '[de] {count, plural, one {# file} other {# files}}',
      },
      place_ordinal_other: '[de:other] {{count}}th place',
    };
    expect(await cli.readText('locales/de.json')).toBe(fileText(german));
    expect(JSON.parse(await stored('de'))).toEqual(german);
  });

  it('when every answer lacks a Polish form, then the group is reported and neither written nor uploaded, and the rest is, with the complete ICU plural', async () => {
    const { cli, translate, stored } = await project('pl');
    openai.answerAlways(answers.withoutPluralForm('few'));

    try {
      const result = await translate('--json');

      expect(result.code).toBe(4);
      expect(result.stderr).toContain(
        'cart.item_few: missing from the answer: the few form (pl: one, few, many, other)',
      );
      expect(result.json().locales[0]).toMatchObject({
        locale: 'pl',
        failedKeys: ['cart.item_one', 'cart.item_few', 'cart.item_many', 'cart.item_other'],
        uploaded: true,
      });
      // Three requests; the two retries ask for the group alone.
      const group = { 'cart.item_one': '{{count}} item', 'cart.item_other': '{{count}} items' };
      expect(openai.stringsReceived().slice(1)).toEqual([group, group]);
      const rest = {
        cart: {
          title: '[pl] Your cart',
          files: '[pl] {count, plural, one {# file} few {# files} many {# files} other {# files}}',
        },
        place_ordinal_other: '[pl:other] {{count}}th place',
      };
      expect(await cli.readText('locales/pl.json')).toBe(fileText(rest));
      expect(JSON.parse(await stored('pl'))).toEqual(rest);
    } finally {
      openai.answerAlways(undefined);
    }
  });

  it('when the project turns plural keys off, then keys ending in a category are translated one by one, as they are', async () => {
    const { cli, translate, stored, projectId } = await project('pl');
    const patched = await system.call('PATCH', `/v1/projects/${projectId}`, token, {
      settings: { i18nextPlurals: false },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);

    const result = await translate();

    expect(result.code, result.stderr).toBe(0);
    expect(openai.pluralsReceived()).toEqual([{}]);
    const polish = {
      cart: {
        title: '[pl] Your cart',
        item_one: '[pl] {{count}} item',
        item_other: '[pl] {{count}} items',
        files: '[pl] {count, plural, one {# file} few {# files} many {# files} other {# files}}',
      },
      place_ordinal_one: '[pl] {{count}}st place',
      place_ordinal_two: '[pl] {{count}}nd place',
      place_ordinal_few: '[pl] {{count}}rd place',
      place_ordinal_other: '[pl] {{count}}th place',
    };
    expect(await cli.readText('locales/pl.json')).toBe(fileText(polish));
    expect(JSON.parse(await stored('pl'))).toEqual(polish);
  });
});
