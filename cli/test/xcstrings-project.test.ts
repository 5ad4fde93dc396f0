/**
 * An iOS app whose strings are an Xcode String Catalog (one file of every locale), end to end
 * against the real system with the stand-in model: `tolk init` finds the catalog, push uploads
 * its source language, translate writes German and Polish into the same file (Polish plurals with
 * their four forms), pull changes nothing and keeps a hand edit (exit 5); a catalog of a version
 * Tolk does not know is refused before anything is uploaded.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pluralCategories } from '@tolk/locale-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import {
  fakeTranslation,
  startOpenAIStandIn,
  type ProviderStandIn,
  type TranslateFn,
} from './support/provider-stand-ins.js';

const stringUnit = (value: string) => ({ stringUnit: { state: 'translated', value } });

/** The catalog as Xcode writes it: two spaces, `"key" : value`, keys in its order, no final newline. */
function xcode(value: unknown, indent = ''): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = `${indent}  `;
  const entries = Object.entries(value);
  if (entries.length === 0) return `{\n\n${indent}}`;
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)} : ${xcode(item, inner)}`).join(',\n')}\n${indent}}`;
}

const CATALOG = {
  sourceLanguage: 'en',
  strings: {
    '': {},
    '%lld photos': {
      comment: 'How many photos the album holds',
      localizations: {
        en: {
          variations: {
            plural: { one: stringUnit('%lld photo'), other: stringUnit('%lld photos') },
          },
        },
      },
    },
    'Delete "%@"?': {
      comment: 'Asks before an album is deleted',
    },
    'settings.title': {
      extractionState: 'manual',
      localizations: { en: stringUnit('Settings') },
    },
    Snapshot: {
      comment: 'The app’s name',
      shouldTranslate: false,
    },
  },
  version: '1.0',
};

/**
 * Answers as a model does: each plural message with the target's categories, `[<locale>]` at the
 * start of each branch; everything else as the stand-in translates it.
 */
const translator: TranslateFn = (asked, target) =>
  Object.fromEntries(
    Object.entries(asked).map(([key, text]) => {
      const translated = fakeTranslation(text, target);
      const plural = /^\[[^\]]+\] (\{count, plural, .*\})$/.exec(translated);
      return [
        key,
        plural ? plural[1]!.replace(/(zero|one|two|few|many|other) \{/g, `$1 {[${target}] `) : translated,
      ];
    }),
  );

describe('an iOS app with a String Catalog', () => {
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

  async function app(catalog: string) {
    const cli = await createCliHarness(system.base);
    projects.push(cli);
    await writeFile(join(cli.cwd, 'Localizable.xcstrings'), catalog);
    const tolk = (args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
    const serverSource = async (projectId: string) => {
      const response = await system.call('GET', `/v1/projects/${projectId}/source`, token);
      return response.status === 404
        ? { version: 0 }
        : {
            version: response.body.version as number,
            document: JSON.parse(response.body.content as string) as Record<string, unknown>,
          };
    };
    const text = () => readFile(join(cli.cwd, 'Localizable.xcstrings'), 'utf8');
    return { cli, tolk, serverSource, text };
  }

  it('when tolk init finds the catalog, then push, translate into de and pl, pull and status work on the one file, and a hand edit survives pull', async () => {
    const { cli, tolk, serverSource, text } = await app(xcode(CATALOG));
    openai.answerAlways({ translate: translator });
    try {
      const init = await tolk(['init', '--name', 'Snapshot', '--targets', 'de,pl', '--yes', '--json']);
      expect(init.code, init.stderr).toBe(0);
      const projectId = init.json().projectId as string;
      const config = await cli.readJson('tolk.json');
      expect(config.sourceLocale).toBe('en');
      expect(config.targetLocales).toEqual(['de', 'pl']);
      expect(config.files).toEqual([{ path: 'Localizable.xcstrings', format: 'xcstrings' }]);

      const push = await tolk(['push', '--json']);
      expect(push.code, push.stderr).toBe(0);
      expect(await serverSource(projectId)).toEqual({
        version: 1,
        document: {
          '%lld photos': '{count, plural, one {%lld photo} other {%lld photos}}',
          '@%lld photos': { description: 'How many photos the album holds' },
          'Delete "%@"?': 'Delete "%@"?',
          '@Delete "%@"?': { description: 'Asks before an album is deleted' },
          'settings.title': 'Settings',
        },
      });

      // Both locales at once: each is written into the file without losing the other.
      const translated = await tolk([
        'translate',
        '--base-url',
        openai.baseURL,
        '--model',
        'stand-in',
        '--concurrency',
        '4',
        '--json',
      ]);
      expect(translated.code, translated.stderr).toBe(0);
      const after = await text();
      const json = JSON.parse(after) as {
        sourceLanguage: string;
        version: string;
        strings: Record<string, any>;
      };
      const photos = json.strings['%lld photos'].localizations;
      expect(Object.keys(photos)).toEqual(['de', 'en', 'pl']);
      expect(photos.en).toEqual(CATALOG.strings['%lld photos'].localizations.en);
      expect(Object.keys(photos.pl.variations.plural)).toEqual([...pluralCategories('pl')].sort());
      expect(Object.keys(photos.pl.variations.plural)).toEqual(['few', 'many', 'one', 'other']);
      expect(photos.pl.variations.plural.few).toEqual(stringUnit('[pl] %lld photos'));
      expect(photos.pl.variations.plural.one).toEqual(stringUnit('[pl] %lld photo'));
      expect(photos.de.variations.plural).toEqual({
        one: stringUnit('[de] %lld photo'),
        other: stringUnit('[de] %lld photos'),
      });
      // A key that is its own text gets localizations; the comment stays.
      expect(json.strings['Delete "%@"?']).toEqual({
        comment: 'Asks before an album is deleted',
        localizations: { de: stringUnit('[de] Delete "%@"?'), pl: stringUnit('[pl] Delete "%@"?') },
      });
      expect(json.strings['settings.title'].localizations).toEqual({
        de: stringUnit('[de] Settings'),
        en: stringUnit('Settings'),
        pl: stringUnit('[pl] Settings'),
      });
      // Not to be translated, and the empty key: as they were.
      expect(json.strings.Snapshot).toEqual(CATALOG.strings.Snapshot);
      expect(json.strings['']).toEqual({});
      expect(json.sourceLanguage).toBe('en');
      expect(json.version).toBe('1.0');
      // Still Xcode's layout, so Xcode opening it changes nothing.
      expect(after).toBe(xcode(json));
      expect((await tolk(['status', '--check'])).code).toBe(0);

      // The model was never asked for the key not to translate.
      const asked = openai.stringsReceived().flatMap((strings) => Object.keys(strings));
      expect(asked).not.toContain('Snapshot');

      // pull: the file already holds what the server has.
      const pull = await tolk(['pull', '--json']);
      expect(pull.code, pull.stderr).toBe(0);
      expect(await text()).toBe(after);

      // A Polish value edited by hand, never uploaded: pull keeps it, names it, exits 5.
      const edited = after.replace('"value" : "[pl] Settings"', '"value" : "Ustawienia"');
      expect(edited).not.toBe(after);
      await writeFile(join(cli.cwd, 'Localizable.xcstrings'), edited);
      const keep = await tolk(['pull']);
      expect(keep.code, keep.stderr).toBe(5);
      expect(keep.stderr).toContain(
        "pl: kept your local value of 1 key that differs from the server's and was never uploaded: settings.title",
      );
      expect(await text()).toBe(edited);
    } finally {
      openai.answerAlways(undefined);
    }
  });

  it('when the model puts text around a plural, then each form holds the whole sentence, and pull finds the file as the server has it', async () => {
    const { tolk, text } = await app(xcode(CATALOG));
    const init = await tolk(['init', '--name', 'Snapshot', '--targets', 'pl,ja', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    expect((await tolk(['push'])).code).toBe(0);
    // The stand-in's own answer: `[pl] {count, plural, ...}`, its prefix outside the plural.
    const translated = await tolk(['translate', '--base-url', openai.baseURL, '--model', 'stand-in']);
    expect(translated.code, translated.stderr).toBe(0);
    const after = await text();
    const photos = (JSON.parse(after) as Record<string, any>).strings['%lld photos'].localizations;
    expect(Object.keys(photos.pl.variations.plural)).toEqual(['few', 'many', 'one', 'other']);
    expect(Object.keys(photos.ja.variations.plural)).toEqual(['other']);
    expect(photos.ja.variations.plural.other.stringUnit.value).toBe('[ja] %lld photos');
    expect(photos.pl.variations.plural.few.stringUnit.value).toBe('[pl] %lld photos');
    const pull = await tolk(['pull']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await text()).toBe(after);
    expect((await tolk(['status', '--check'])).code).toBe(0);
  });

  it('when the catalog is of a version Tolk does not know, in another source language, or tolk.json names it wrongly, then push exits 2 saying so and the server keeps its source', async () => {
    const { cli, tolk, serverSource } = await app(xcode(CATALOG));
    const init = await tolk(['init', '--name', 'Snapshot', '--targets', 'de', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const projectId = init.json().projectId as string;
    expect((await tolk(['push'])).code).toBe(0);
    const before = await serverSource(projectId);
    expect(before.version).toBe(1);

    const future = xcode({
      ...CATALOG,
      strings: { ...CATALOG.strings, 'New string': {} },
      version: '2.0',
    });
    await writeFile(join(cli.cwd, 'Localizable.xcstrings'), future);
    const push = await tolk(['push']);
    expect(push.code).toBe(2);
    const line = future.split('\n').indexOf('  "version" : "2.0"') + 1;
    expect(push.stderr).toContain(
      `Localizable.xcstrings:${line}:15: is a String Catalog of version "2.0", which Tolk does not know (supported: 1.0, 1.1)`,
    );
    expect(await serverSource(projectId)).toEqual(before);

    // A catalog in another source language than the project's: nothing is read as its source.
    await writeFile(join(cli.cwd, 'Localizable.xcstrings'), xcode({ ...CATALOG, sourceLanguage: 'de' }));
    const german = await tolk(['push']);
    expect(german.code).toBe(2);
    expect(german.stderr).toContain(
      "Localizable.xcstrings says its strings are written in de; the project's source locale is en",
    );
    expect(await serverSource(projectId)).toEqual(before);

    // tolk.json: a catalog holds every locale, so its path names none, and it is its own source.
    await writeFile(join(cli.cwd, 'Localizable.xcstrings'), xcode(CATALOG));
    const config = await cli.readJson('tolk.json');
    for (const [files, message] of [
      [
        [{ path: '{locale}.xcstrings', format: 'xcstrings' }],
        'files.0.path must not contain {locale}: one xcstrings file holds every locale',
      ],
      [
        [{ path: 'Localizable.xcstrings', format: 'xcstrings', source: 'Localizable.xcstrings' }],
        'files.0.source is for a file set of one file per locale; one xcstrings file holds every locale, its source too',
      ],
      [[{ path: 'Localizable.xcstrings', format: 'strings' }], 'files.0.path must contain {locale}'],
    ] as const) {
      await cli.writeJson('tolk.json', { ...config, files });
      const refused = await tolk(['push']);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(message);
      expect(await serverSource(projectId)).toEqual(before);
    }
  });
});
