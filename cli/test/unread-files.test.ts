/**
 * A file is judged by its entries (DESIGN §15), end to end against the real system with the model
 * stand-in: for each format, a target file that does not parse is an error of that file alone,
 * named at its line and column. `tolk check` reports it and checks the rest; `translate` and
 * `pull` go on for the other locale, leave the file as it is, and exit 6 (partly failed); nothing
 * the server had of that locale is lost.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSetProject, systemWithModel } from './support/file-set-project.js';

/** One app of a format: its file set, files, a Polish file that does not parse and where. */
type Fixture = {
  format: string;
  /** The file sets of tolk.json. */
  files: unknown;
  /** Path → content, for en (the source), de and pl, all good. */
  good: Record<string, string>;
  /** The source with one more key ("Cancel"), to make every locale behind. */
  sourceWithCancel: [path: string, content: string];
  /** The Polish file, and what it becomes: it does not parse at `line`:`column`. */
  broken: { path: string; content: string; line: number; column: number };
  /** Where the German translation of "Cancel" ends up. */
  deFile: string;
  /** The error code of the broken file (the old single JSON file keeps its own). */
  code?: string;
};

const xliff = (target: string | undefined, units: [string, string, string?][]) =>
  [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
    `  <file source-language="en"${target ? ` target-language="${target}"` : ''} datatype="plaintext" original="ng2.template">`,
    '    <body>',
    ...units.flatMap(([id, source, translation]) => [
      `      <trans-unit id="${id}">`,
      `        <source>${source}</source>`,
      ...(translation === undefined ? [] : [`        <target state="translated">${translation}</target>`]),
      '      </trans-unit>',
    ]),
    '    </body>',
    '  </file>',
    '</xliff>',
    '',
  ].join('\n');

const android = (strings: [string, string][]) =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<resources>',
    ...strings.map(([name, value]) => `    <string name="${name}">${value}</string>`),
    '</resources>',
    '',
  ].join('\n');

const plist = (entries: [string, Record<string, string>][]) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    ...entries.flatMap(([key, forms]) => [
      `\t<key>${key}</key>`,
      '\t<dict>',
      '\t\t<key>NSStringLocalizedFormatKey</key>',
      '\t\t<string>%#@n@</string>',
      '\t\t<key>n</key>',
      '\t\t<dict>',
      '\t\t\t<key>NSStringFormatSpecTypeKey</key>',
      '\t\t\t<string>NSStringPluralRuleType</string>',
      '\t\t\t<key>NSStringFormatValueTypeKey</key>',
      '\t\t\t<string>d</string>',
      ...Object.entries(forms).flatMap(([category, text]) => [
        `\t\t\t<key>${category}</key>`,
        `\t\t\t<string>${text}</string>`,
      ]),
      '\t\t</dict>',
      '\t</dict>',
    ]),
    '</dict>',
    '</plist>',
    '',
  ].join('\n');

const POLISH_FILES = { one: '%d plik', few: '%d pliki', many: '%d plików', other: '%d pliku' };

const catalog = (strings: Record<string, Record<string, string>>) =>
  JSON.stringify(
    {
      sourceLanguage: 'en',
      strings: Object.fromEntries(
        Object.entries(strings).map(([key, byLocale]) => [
          key,
          {
            localizations: Object.fromEntries(
              Object.entries(byLocale).map(([locale, value]) => [
                locale,
                { stringUnit: { state: 'translated', value } },
              ]),
            ),
          },
        ]),
      ),
      version: '1.0',
    },
    null,
    2,
  ).replaceAll('": ', '" : ');

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

const FIXTURES: Fixture[] = [
  {
    // The old form of tolk.json: one JSON file per locale.
    format: 'json',
    files: 'locales/{locale}.json',
    good: {
      'locales/en.json': json({ title: 'Title', save: 'Save' }),
      'locales/de.json': json({ title: 'Titel', save: 'Speichern' }),
      'locales/pl.json': json({ title: 'Tytuł', save: 'Zapisz' }),
    },
    sourceWithCancel: ['locales/en.json', json({ title: 'Title', save: 'Save', cancel: 'Cancel' })],
    broken: {
      path: 'locales/pl.json',
      content: '{\n  "title": "Tytuł",\n  "save" "Zapisz"\n}\n',
      line: 3,
      column: 10,
    },
    deFile: 'locales/de.json',
    code: 'INVALID_JSON',
  },
  {
    format: 'i18next',
    files: [{ path: 'locales/{locale}/{namespace}.json', format: 'i18next' }],
    good: {
      'locales/en/common.json': json({ title: 'Title', save: 'Save' }),
      'locales/de/common.json': json({ title: 'Titel', save: 'Speichern' }),
      'locales/pl/common.json': json({ title: 'Tytuł', save: 'Zapisz' }),
    },
    sourceWithCancel: ['locales/en/common.json', json({ title: 'Title', save: 'Save', cancel: 'Cancel' })],
    broken: {
      path: 'locales/pl/common.json',
      content: '{\n  "title": "Tytuł",\n  "save": "Zapisz",\n}\n',
      line: 4,
      column: 1,
    },
    deFile: 'locales/de/common.json',
  },
  {
    format: 'arb',
    files: [{ path: 'lib/l10n/app_{locale}.arb', format: 'arb' }],
    good: {
      'lib/l10n/app_en.arb': json({ '@@locale': 'en', title: 'Title', save: 'Save' }),
      'lib/l10n/app_de.arb': json({ '@@locale': 'de', title: 'Titel', save: 'Speichern' }),
      'lib/l10n/app_pl.arb': json({ '@@locale': 'pl', title: 'Tytuł', save: 'Zapisz' }),
    },
    sourceWithCancel: [
      'lib/l10n/app_en.arb',
      json({ '@@locale': 'en', title: 'Title', save: 'Save', cancel: 'Cancel' }),
    ],
    broken: {
      path: 'lib/l10n/app_pl.arb',
      content: '{\n  "@@locale": "pl",\n  "title": "Tytuł"\n  "save": "Zapisz"\n}\n',
      line: 4,
      column: 3,
    },
    deFile: 'lib/l10n/app_de.arb',
  },
  {
    format: 'yaml',
    files: [{ path: 'config/locales/{locale}.yml', format: 'yaml', rails: true }],
    good: {
      'config/locales/en.yml': 'en:\n  title: Title\n  save: Save\n',
      'config/locales/de.yml': 'de:\n  title: Titel\n  save: Speichern\n',
      'config/locales/pl.yml': 'pl:\n  title: Tytuł\n  save: Zapisz\n',
    },
    sourceWithCancel: ['config/locales/en.yml', 'en:\n  title: Title\n  save: Save\n  cancel: Cancel\n'],
    broken: {
      path: 'config/locales/pl.yml',
      content: 'pl:\n  title: Tytuł\n  save: "Zapisz\n',
      line: 4,
      column: 1,
    },
    deFile: 'config/locales/de.yml',
  },
  {
    format: 'properties',
    files: [
      {
        path: 'src/messages_{locale}.properties',
        format: 'properties',
        source: 'src/messages.properties',
      },
    ],
    good: {
      'src/messages.properties': 'title=Title\nsave=Save\n',
      'src/messages_de.properties': 'title=Titel\nsave=Speichern\n',
      'src/messages_pl.properties': 'title=Tytuł\nsave=Zapisz\n',
    },
    sourceWithCancel: ['src/messages.properties', 'title=Title\nsave=Save\ncancel=Cancel\n'],
    broken: {
      path: 'src/messages_pl.properties',
      content: '# Polish\ntitle=Tytuł\nsave=Zapisz \\u12G4\n',
      line: 3,
      column: 13,
    },
    deFile: 'src/messages_de.properties',
  },
  {
    format: 'po',
    files: [{ path: 'po/{locale}.po', format: 'po', source: 'po/messages.pot' }],
    good: {
      'po/messages.pot': 'msgid ""\nmsgstr ""\n\nmsgid "Title"\nmsgstr ""\n\nmsgid "Save"\nmsgstr ""\n',
      'po/de.po':
        'msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "Title"\nmsgstr "Titel"\n\nmsgid "Save"\nmsgstr "Speichern"\n',
      'po/pl.po':
        'msgid ""\nmsgstr ""\n"Language: pl\\n"\n\nmsgid "Title"\nmsgstr "Tytuł"\n\nmsgid "Save"\nmsgstr "Zapisz"\n',
    },
    sourceWithCancel: [
      'po/messages.pot',
      'msgid ""\nmsgstr ""\n\nmsgid "Title"\nmsgstr ""\n\nmsgid "Save"\nmsgstr ""\n\nmsgid "Cancel"\nmsgstr ""\n',
    ],
    broken: {
      path: 'po/pl.po',
      content:
        'msgid ""\nmsgstr ""\n"Language: pl\\n"\n\nmsgid "Title"\nmsgstr "Tytuł"\n\nmsgid "Save\nmsgstr "Zapisz"\n',
      line: 8,
      column: 1,
    },
    deFile: 'po/de.po',
  },
  {
    format: 'strings',
    files: [{ path: 'App/{locale}.lproj/Localizable.strings', format: 'strings' }],
    good: {
      'App/en.lproj/Localizable.strings': '"title" = "Title";\n"save" = "Save";\n',
      'App/de.lproj/Localizable.strings': '"title" = "Titel";\n"save" = "Speichern";\n',
      'App/pl.lproj/Localizable.strings': '"title" = "Tytuł";\n"save" = "Zapisz";\n',
    },
    sourceWithCancel: [
      'App/en.lproj/Localizable.strings',
      '"title" = "Title";\n"save" = "Save";\n"cancel" = "Cancel";\n',
    ],
    broken: {
      path: 'App/pl.lproj/Localizable.strings',
      content: '"title" = "Tytuł";\n"save" = "Zapisz"\n',
      line: 3,
      column: 1,
    },
    deFile: 'App/de.lproj/Localizable.strings',
  },
  {
    format: 'stringsdict',
    files: [{ path: 'App/{locale}.lproj/Localizable.stringsdict', format: 'stringsdict' }],
    good: {
      'App/en.lproj/Localizable.stringsdict': plist([['files', { one: '%d file', other: '%d files' }]]),
      'App/de.lproj/Localizable.stringsdict': plist([['files', { one: '%d Datei', other: '%d Dateien' }]]),
      'App/pl.lproj/Localizable.stringsdict': plist([['files', POLISH_FILES]]),
    },
    sourceWithCancel: [
      'App/en.lproj/Localizable.stringsdict',
      plist([
        ['files', { one: '%d file', other: '%d files' }],
        ['cancel', { one: '%d cancel', other: '%d cancels' }],
      ]),
    ],
    broken: {
      path: 'App/pl.lproj/Localizable.stringsdict',
      content: plist([['files', POLISH_FILES]]).replace('<string>%#@n@</string>', '<string>%#@n@</strin>'),
      line: 8,
      column: 11,
    },
    deFile: 'App/de.lproj/Localizable.stringsdict',
  },
  {
    format: 'xliff',
    files: [{ path: 'src/locale/messages.{locale}.xlf', format: 'xliff', source: 'src/locale/messages.xlf' }],
    good: {
      'src/locale/messages.xlf': xliff(undefined, [
        ['title', 'Title'],
        ['save', 'Save'],
      ]),
      'src/locale/messages.de.xlf': xliff('de', [
        ['title', 'Title', 'Titel'],
        ['save', 'Save', 'Speichern'],
      ]),
      'src/locale/messages.pl.xlf': xliff('pl', [
        ['title', 'Title', 'Tytuł'],
        ['save', 'Save', 'Zapisz'],
      ]),
    },
    sourceWithCancel: [
      'src/locale/messages.xlf',
      xliff(undefined, [
        ['title', 'Title'],
        ['save', 'Save'],
        ['cancel', 'Cancel'],
      ]),
    ],
    broken: {
      path: 'src/locale/messages.pl.xlf',
      content: xliff('pl', [
        ['title', 'Title', 'Tytuł'],
        ['save', 'Save', 'Zapisz'],
      ]).replace('Tytuł</target>', 'Tytuł</targe>'),
      line: 7,
      column: 48,
    },
    deFile: 'src/locale/messages.de.xlf',
  },
  {
    format: 'android',
    files: [{ path: 'res/values-{locale}/strings.xml', format: 'android', source: 'res/values/strings.xml' }],
    good: {
      'res/values/strings.xml': android([
        ['title', 'Title'],
        ['save', 'Save'],
      ]),
      'res/values-de/strings.xml': android([
        ['title', 'Titel'],
        ['save', 'Speichern'],
      ]),
      'res/values-pl/strings.xml': android([
        ['title', 'Tytuł'],
        ['save', 'Zapisz'],
      ]),
    },
    sourceWithCancel: [
      'res/values/strings.xml',
      android([
        ['title', 'Title'],
        ['save', 'Save'],
        ['cancel', 'Cancel'],
      ]),
    ],
    broken: {
      path: 'res/values-pl/strings.xml',
      content: android([
        ['title', 'Tytuł'],
        ['save', 'Zapisz'],
      ]).replace('Zapisz</string>', 'Zapisz</strin>'),
      line: 4,
      column: 25,
    },
    deFile: 'res/values-de/strings.xml',
  },
];

describe('a target file that does not parse is an error of that file alone', () => {
  const world = systemWithModel();

  const project = (fixture: Fixture) =>
    fileSetProject({
      ...world,
      targets: ['de', 'pl'],
      files: fixture.files,
      contents: fixture.good,
    });

  it.each(FIXTURES.map((fixture) => [fixture.format, fixture] as const))(
    '%s: check names it at its line and column, translate and pull go on for de and leave pl as it is, exit 6, and the server keeps pl',
    async (_, fixture) => {
      const { cli, tolk, translate, write, stored: storedOf, remove } = await project(fixture);
      try {
        expect((await tolk('push')).code).toBe(0);
        const first = await translate();
        expect(first.code, first.stderr).toBe(0);
        const stored = async () => (await storedOf('pl')).values;
        const polishBefore = await stored();
        expect(Object.keys(polishBefore).length).toBeGreaterThan(0);

        await write(fixture.broken.path, fixture.broken.content);
        await write(...fixture.sourceWithCancel);
        const place = `${fixture.broken.path}:${fixture.broken.line}:${fixture.broken.column}`;
        const code = fixture.code ?? 'INVALID_FILE';
        // The source goes up; of pl's file, which push reads for edits, nothing.
        const push = await tolk('push', '--json');
        expect(push.code, push.stderr).toBe(6);
        expect(push.json()).toMatchObject({ version: 2 });
        expect(push.stderr).toContain(`error: ${code}: ${place}: `);
        expect(push.stderr).toContain('its edits were not uploaded');

        const check = await tolk('check', '--json');
        expect(check.code, check.stderr).toBe(6);
        const findings = check.json().findings as { file: string; kind: string; locale: string }[];
        expect(findings).toContainEqual(
          expect.objectContaining({
            file: fixture.broken.path,
            line: fixture.broken.line,
            column: fixture.broken.column,
            locale: 'pl',
            key: null,
            kind: 'unreadable',
            severity: 'error',
          }),
        );
        // pl's keys are not reported one by one; de's file is checked (its new key is missing).
        expect(findings.filter((finding) => finding.locale === 'pl')).toHaveLength(1);
        expect(findings).toContainEqual(expect.objectContaining({ locale: 'de', kind: 'missing' }));

        const translated = await translate('--json');
        expect(translated.code, translated.stderr).toBe(6);
        expect(translated.stderr).toContain(`error: ${code}: ${place}: `);
        expect(translated.json().unreadFiles).toEqual([
          expect.objectContaining({ file: fixture.broken.path, locale: 'pl', code }),
        ]);
        expect(await readFile(join(cli.cwd, fixture.deFile), 'utf8')).toContain('[de] ');
        expect(await readFile(join(cli.cwd, fixture.broken.path), 'utf8')).toBe(fixture.broken.content);
        expect(await stored()).toEqual(polishBefore);

        const pull = await tolk('pull');
        expect(pull.code, pull.stderr).toBe(6);
        expect(pull.stderr).toContain(`error: ${code}: ${place}: `);
        expect(pull.stdout).toContain('de: wrote');
        expect(pull.stdout).not.toContain('pl: wrote');
        expect(await readFile(join(cli.cwd, fixture.broken.path), 'utf8')).toBe(fixture.broken.content);
        expect(await stored()).toEqual(polishBefore);
      } finally {
        await remove();
      }
    },
  );

  it('xcstrings: a catalog that does not parse is named at its line and column, and the other file set goes on', async () => {
    const fixture: Fixture = {
      format: 'xcstrings',
      files: [
        { path: 'App/Localizable.xcstrings', format: 'xcstrings', namespace: 'app' },
        { path: 'web/{locale}.json', format: 'json', namespace: 'web' },
      ],
      good: {
        'App/Localizable.xcstrings': catalog({ Title: { en: 'Title', de: 'Titel', pl: 'Tytuł' } }),
        'web/en.json': json({ save: 'Save' }),
        'web/de.json': json({ save: 'Speichern' }),
        'web/pl.json': json({ save: 'Zapisz' }),
      },
      sourceWithCancel: ['web/en.json', json({ save: 'Save', cancel: 'Cancel' })],
      broken: { path: 'App/Localizable.xcstrings', content: '', line: 6, column: 58 },
      deFile: 'web/de.json',
    };
    const { cli, tolk, translate, write, remove } = await project(fixture);
    try {
      expect((await tolk('push')).code).toBe(0);
      expect((await translate()).code).toBe(0);
      const broken = (await readFile(join(cli.cwd, fixture.broken.path), 'utf8')).replace(
        '"state" : "translated",\n',
        '"state" : "translated"\n',
      );
      await write(fixture.broken.path, broken);
      const line = broken.split('\n').findIndex((text) => text.endsWith('"state" : "translated"')) + 2;
      await write(...fixture.sourceWithCancel);

      const check = await tolk('check', '--json');
      expect(check.code, check.stderr).toBe(6);
      expect(check.json().findings).toContainEqual(
        expect.objectContaining({ file: fixture.broken.path, line, kind: 'unreadable', key: null }),
      );
      // A source of the project is all its files: push uploads none while one is unreadable.
      const push = await tolk('push');
      expect(push.code).toBe(2);
      expect(push.stderr).toContain(`error: INVALID_FILE: ${fixture.broken.path}:${line}:`);

      const translated = await translate();
      expect(translated.code, translated.stderr).toBe(6);
      expect(await readFile(join(cli.cwd, fixture.broken.path), 'utf8')).toBe(broken);
      const pull = await tolk('pull');
      expect(pull.code, pull.stderr).toBe(6);
      expect(await readFile(join(cli.cwd, fixture.broken.path), 'utf8')).toBe(broken);
      expect(await readFile(join(cli.cwd, 'web/de.json'), 'utf8')).toContain('Speichern');
    } finally {
      await remove();
    }
  });
});
