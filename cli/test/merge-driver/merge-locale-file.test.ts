/**
 * Two sides' edits of a locale file merged key by key in the file's own format and layout
 * (DESIGN §17): each format's files, written here from their entries in the format's usual
 * layout, merged as git's merge driver merges them.
 */
import { describe, expect, it } from 'vitest';
import { formatNamed, type FormatName, type FormatOptions } from '../../src/formats/index.js';
import { mergeTexts } from '../../src/merge-driver/git.js';
import { mergeLocaleFile, type LocaleFileMerge } from '../../src/merge-driver/merge-locale-file.js';
import { localeFileSubject } from '../../src/merge-driver/subject.js';

/** A key of the file, its value (a target file's translation) and the comment above it. */
type Entry = { key: string; value: string; comment?: string };

/** A kind of locale file: its format, its locale (undefined: every locale) and its layout. */
type Layout = {
  format: FormatName;
  locale: string | undefined;
  path: string;
  options?: FormatOptions;
  file: (entries: readonly Entry[]) => string;
};

const entry = (key: string, value: string, comment?: string): Entry =>
  comment === undefined ? { key, value } : { key, value, comment };

const lines = (...parts: (string | false)[]) => parts.filter((part) => part !== false).join('\n');

const xcstringsEntry = ({ key, value, comment }: Entry) =>
  lines(
    `    ${JSON.stringify(key)} : {`,
    comment !== undefined && `      "comment" : ${JSON.stringify(comment)},`,
    '      "localizations" : {',
    '        "de" : {',
    '          "stringUnit" : {',
    '            "state" : "translated",',
    `            "value" : ${JSON.stringify(value)}`,
    '          }',
    '        }',
    '      }',
    '    }',
  );

const LAYOUTS: Record<string, Layout> = {
  'nested JSON (source)': {
    format: 'json',
    locale: 'en',
    path: 'locales/en.json',
    file: (entries) =>
      lines(
        '{',
        '  "home": {',
        entries.map(({ key, value }) => `    ${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(',\n'),
        '  }',
        '}',
        '',
      ),
  },
  'i18next JSON (target)': {
    format: 'i18next',
    locale: 'de',
    path: 'locales/de/common.json',
    file: (entries) =>
      lines(
        '{',
        [
          '  "items_one": "{{count}} Eintrag"',
          ...entries.map(({ key, value }) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`),
          '  "items_other": "{{count}} Einträge"',
        ].join(',\n'),
        '}',
        '',
      ),
  },
  'ARB (source)': {
    format: 'arb',
    locale: 'en',
    path: 'lib/l10n/app_en.arb',
    file: (entries) =>
      lines(
        '{',
        [
          '  "@@locale": "en"',
          ...entries.map(
            ({ key, value, comment }) =>
              `  ${JSON.stringify(key)}: ${JSON.stringify(value)}` +
              (comment === undefined
                ? ''
                : `,\n  "@${key}": {\n    "description": ${JSON.stringify(comment)}\n  }`),
          ),
        ].join(',\n'),
        '}',
        '',
      ),
  },
  'YAML (target)': {
    format: 'yaml',
    locale: 'de',
    path: 'locales/de.yml',
    file: (entries) =>
      lines(
        ...entries.flatMap(({ key, value, comment }) => [
          comment !== undefined && `# ${comment}`,
          `${key}: ${value}`,
        ]),
        '',
      ),
  },
  'Rails YAML (source)': {
    format: 'yaml',
    locale: 'en',
    path: 'config/locales/en.yml',
    options: { rails: true },
    file: (entries) =>
      lines(
        'en:',
        ...entries.flatMap(({ key, value, comment }) => [
          comment !== undefined && `  # ${comment}`,
          `  ${key}: "${value}"`,
        ]),
        '',
      ),
  },
  'properties (source)': {
    format: 'properties',
    locale: 'en',
    path: 'messages.properties',
    file: (entries) =>
      lines(
        '# Messages',
        ...entries.flatMap(({ key, value, comment }) => [
          comment !== undefined && `# ${comment}`,
          `${key}=${value}`,
        ]),
        '',
      ),
  },
  'POT (source)': {
    format: 'po',
    locale: 'en',
    path: 'po/messages.pot',
    file: (entries) =>
      lines(
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: app 1.0\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        ...entries.flatMap(({ key, comment }) => [
          '',
          comment !== undefined && `#. ${comment}`,
          `#: src/${key.toLowerCase()}.c:1`,
          `msgid "${key}"`,
          'msgstr ""',
        ]),
        '',
      ),
  },
  'PO (target)': {
    format: 'po',
    locale: 'de',
    path: 'po/de.po',
    file: (entries) =>
      lines(
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: app 1.0\\n"',
        '"Last-Translator: Anna <anna@example.com>\\n"',
        '"Language: de\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
        ...entries.flatMap(({ key, value, comment }) => [
          '',
          comment !== undefined && `#. ${comment}`,
          `msgid "${key}"`,
          `msgstr "${value}"`,
        ]),
        '',
      ),
  },
  'Android strings.xml (source)': {
    format: 'android',
    locale: 'en',
    path: 'app/src/main/res/values/strings.xml',
    file: (entries) =>
      lines(
        '<?xml version="1.0" encoding="utf-8"?>',
        '<resources>',
        '    <color name="brand">#ff0000</color>',
        ...entries.flatMap(({ key, value, comment }) => [
          comment !== undefined && `    <!-- ${comment} -->`,
          `    <string name="${key}">${value}</string>`,
        ]),
        '</resources>',
        '',
      ),
  },
  'Android strings.xml (target)': {
    format: 'android',
    locale: 'de',
    path: 'app/src/main/res/values-de/strings.xml',
    file: (entries) =>
      lines(
        '<?xml version="1.0" encoding="utf-8"?>',
        '<resources xmlns:tools="http://schemas.android.com/tools">',
        ...entries.map(({ key, value }) => `  <string name="${key}">${value}</string>`),
        '</resources>',
        '',
      ),
  },
  'Apple .strings (target)': {
    format: 'strings',
    locale: 'de',
    path: 'App/de.lproj/Localizable.strings',
    file: (entries) =>
      lines(
        ...entries.flatMap(({ key, value, comment }, index) => [
          index > 0 && '',
          comment !== undefined && `/* ${comment} */`,
          `"${key}" = "${value}";`,
        ]),
        '',
      ),
  },
  'Apple .stringsdict (target)': {
    format: 'stringsdict',
    locale: 'de',
    path: 'App/de.lproj/Localizable.stringsdict',
    file: (entries) =>
      lines(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
        '<plist version="1.0">',
        '<dict>',
        ...entries.flatMap(({ key, value }) => [
          `\t<key>${key}</key>`,
          '\t<dict>',
          '\t\t<key>NSStringLocalizedFormatKey</key>',
          '\t\t<string>%#@count@</string>',
          '\t\t<key>count</key>',
          '\t\t<dict>',
          '\t\t\t<key>NSStringFormatSpecTypeKey</key>',
          '\t\t\t<string>NSStringPluralRuleType</string>',
          '\t\t\t<key>NSStringFormatValueTypeKey</key>',
          '\t\t\t<string>d</string>',
          '\t\t\t<key>one</key>',
          `\t\t\t<string>%d ${value}</string>`,
          '\t\t\t<key>other</key>',
          `\t\t\t<string>%d ${value}e</string>`,
          '\t\t</dict>',
          '\t</dict>',
        ]),
        '</dict>',
        '</plist>',
        '',
      ),
  },
  'Xcode String Catalog (every locale)': {
    format: 'xcstrings',
    locale: undefined,
    path: 'App/Localizable.xcstrings',
    file: (entries) =>
      lines(
        '{',
        '  "sourceLanguage" : "en",',
        '  "strings" : {',
        // Xcode keeps its strings in order.
        [...entries]
          .sort((a, b) => a.key.localeCompare(b.key))
          .map(xcstringsEntry)
          .join(',\n'),
        '  },',
        '  "version" : "1.0"',
        '}',
      ),
  },
  'XLIFF 1.2 (source)': {
    format: 'xliff',
    locale: 'en',
    path: 'src/locale/messages.xlf',
    file: (entries) =>
      lines(
        '<?xml version="1.0" encoding="UTF-8" ?>',
        '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
        '  <file source-language="en" datatype="plaintext" original="ng2.template">',
        '    <body>',
        ...entries.flatMap(({ key, value, comment }) => [
          `      <trans-unit id="${key}" datatype="html">`,
          `        <source>${value}</source>`,
          comment !== undefined && `        <note priority="1" from="description">${comment}</note>`,
          '      </trans-unit>',
        ]),
        '    </body>',
        '  </file>',
        '</xliff>',
        '',
      ),
  },
  'XLIFF 1.2 (target)': {
    format: 'xliff',
    locale: 'de',
    path: 'src/locale/messages.de.xlf',
    file: (entries) =>
      lines(
        '<?xml version="1.0" encoding="UTF-8" ?>',
        '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
        '  <file source-language="en" target-language="de" datatype="plaintext" original="ng2.template">',
        '    <body>',
        ...entries.flatMap(({ key, value }) => [
          `      <trans-unit id="${key}" datatype="html">`,
          `        <source>${key} in English</source>`,
          `        <target>${value}</target>`,
          '      </trans-unit>',
        ]),
        '    </body>',
        '  </file>',
        '</xliff>',
        '',
      ),
  },
  'XLIFF 2.0 (target)': {
    format: 'xliff',
    locale: 'de',
    path: 'src/locale/messages.de.xlf',
    file: (entries) =>
      lines(
        '<?xml version="1.0" encoding="UTF-8" ?>',
        '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de">',
        '  <file id="ngi18n" original="ng.template">',
        ...entries.flatMap(({ key, value }) => [
          `    <unit id="${key}">`,
          '      <segment state="translated">',
          `        <source>${key} in English</source>`,
          `        <target>${value}</target>`,
          '      </segment>',
          '    </unit>',
        ]),
        '  </file>',
        '</xliff>',
        '',
      ),
  },
};

function merge(layout: Layout, base: string, ours: string, theirs: string): LocaleFileMerge {
  const subject = localeFileSubject({
    format: formatNamed(layout.format)!,
    formatOptions: layout.options ?? {},
    sourceLocale: 'en',
    targetLocales: ['de'],
    locale: layout.locale,
    path: layout.path,
  });
  return mergeLocaleFile(
    subject,
    { base: Buffer.from(base), ours: Buffer.from(ours), theirs: Buffer.from(theirs) },
    (mine, ancestor, other) => mergeTexts(mine, ancestor, other, 7, process.cwd()),
  );
}

function merged(result: LocaleFileMerge): string {
  expect(result.status, 'reason' in result ? result.reason : '').toBe('merged');
  return (result as { bytes: Buffer }).bytes.toString();
}

const FIRST = entry('First', 'Eins', 'The first one');
const LAST = entry('Last', 'Letzte');
const OURS = entry('Settings', 'Einstellungen', 'added on ours');
const THEIRS = entry('Profile', 'Profil', 'added on theirs');

describe('merging a locale file key by key, in every format', () => {
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    it(`when both sides add a key after the same key of a ${name} file, then both arrive there in its layout`, () => {
      const { file } = layout;
      const result = merged(
        merge(layout, file([FIRST, LAST]), file([FIRST, OURS, LAST]), file([FIRST, THEIRS, LAST])),
      );
      // Theirs lands where theirs put it, right after the key it follows there.
      expect([file([FIRST, THEIRS, OURS, LAST]), file([FIRST, OURS, THEIRS, LAST])]).toContain(result);
    });
  }

  for (const [name, layout] of Object.entries(LAYOUTS)) {
    it(`when one side changes a key of a ${name} file and the other deletes another, then both changes arrive`, () => {
      const { file } = layout;
      const changed = { ...FIRST, value: `${FIRST.value} neu` };
      const result = merged(
        merge(layout, file([FIRST, OURS, LAST]), file([changed, OURS, LAST]), file([FIRST, LAST])),
      );
      expect(result).toBe(file([changed, LAST]));
    });
  }
});

describe('merging a locale file key by key: which changes merge and which conflict', () => {
  const json = LAYOUTS['nested JSON (source)']!;
  const po = LAYOUTS['PO (target)']!;
  const android = LAYOUTS['Android strings.xml (source)']!;

  it('when both sides add the same key with the same value, then it is there once and nothing conflicts', () => {
    const { file } = json;
    const result = merged(
      merge(json, file([FIRST, LAST]), file([FIRST, OURS, LAST]), file([FIRST, OURS, LAST])),
    );
    expect(result).toBe(file([FIRST, OURS, LAST]));
    const other = merged(
      merge(json, file([FIRST, LAST]), file([FIRST, THEIRS, OURS, LAST]), file([FIRST, OURS, LAST])),
    );
    expect(other).toBe(file([FIRST, THEIRS, OURS, LAST]));
  });

  it('when one side deletes a key the other left as it was, then it is deleted with its comment', () => {
    const { file } = po;
    const result = merged(
      merge(po, file([FIRST, OURS, LAST]), file([FIRST, OURS, THEIRS, LAST]), file([OURS, LAST])),
    );
    expect(result).toBe(file([OURS, THEIRS, LAST]));
    expect(result).not.toContain('The first one');
  });

  it('when both sides change one key differently, then conflict markers stand around that entry alone and name it', () => {
    const { file } = json;
    const mine = { ...FIRST, value: 'Einer' };
    const other = { ...FIRST, value: 'Erster' };
    const result = merge(json, file([FIRST, LAST]), file([mine, OURS, LAST]), file([other, LAST, THEIRS]));
    expect(result).toMatchObject({ status: 'conflict', keys: ['home.First'] });
    expect((result as { bytes: Buffer }).bytes.toString()).toBe(
      [
        '{',
        '  "home": {',
        '<<<<<<< ours',
        '    "First": "Einer",',
        '=======',
        '    "First": "Erster",',
        '>>>>>>> theirs',
        '    "Settings": "Einstellungen",',
        '    "Last": "Letzte",',
        '    "Profile": "Profil"',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('when one side deletes a key the other changed, then it is a conflict naming the key', () => {
    const { file } = po;
    const changed = { ...LAST, value: 'Zuletzt' };
    const result = merge(po, file([FIRST, LAST]), file([FIRST, OURS]), file([FIRST, changed]));
    expect(result).toMatchObject({ status: 'conflict', keys: ['Last'] });
    // Ours has no entry there; theirs has its changed one.
    expect((result as { bytes: Buffer }).bytes.toString()).toBe(
      file([FIRST, OURS]).replace(
        '#. added on ours',
        [
          '<<<<<<< ours',
          '=======',
          'msgid "Last"',
          'msgstr "Zuletzt"',
          '',
          '>>>>>>> theirs',
          '#. added on ours',
        ].join('\n'),
      ),
    );
  });

  it('when both sides add one key with different values, then it is a conflict naming the key', () => {
    const { file } = android;
    const result = merge(
      android,
      file([FIRST, LAST]),
      file([FIRST, OURS, LAST]),
      file([FIRST, { ...OURS, value: 'Optionen' }, LAST]),
    );
    expect(result).toMatchObject({ status: 'conflict', keys: ['Settings'] });
  });

  it('when a translation of a catalog conflicts, then the key is named with its locale', () => {
    const catalog = LAYOUTS['Xcode String Catalog (every locale)']!;
    const { file } = catalog;
    const result = merge(
      catalog,
      file([FIRST, LAST]),
      file([{ ...FIRST, value: 'Einer' }, LAST]),
      file([{ ...FIRST, value: 'Erster' }, LAST]),
    );
    expect(result).toMatchObject({ status: 'conflict', keys: ['First (de)'] });
  });

  it("when one side changes a key's comment and the other adds a key, then both arrive", () => {
    const { file } = android;
    const recommented = { ...FIRST, comment: 'The very first one' };
    const result = merged(
      merge(android, file([FIRST, LAST]), file([FIRST, OURS, LAST]), file([recommented, LAST])),
    );
    expect(result).toBe(file([recommented, OURS, LAST]));
  });

  it('when both sides add a file (no common ancestor), then their keys merge as additions', () => {
    const { file } = json;
    const result = merged(merge(json, '', file([FIRST, OURS]), file([FIRST, THEIRS])));
    expect([file([FIRST, THEIRS, OURS]), file([FIRST, OURS, THEIRS])]).toContain(result);
  });

  it('when a side does not parse in its format, then it is left to the text merge, saying which and where', () => {
    const { file } = json;
    const result = merge(
      json,
      file([FIRST, LAST]),
      file([FIRST, OURS, LAST]),
      file([FIRST, LAST]).replace('}', '},'),
    );
    expect(result).toEqual({
      status: 'unmergeable',
      reason: expect.stringMatching(/^theirs does not parse as json \(line 6:/),
    });
  });

  it('when both sides change what the format does not read (a header), then it is left to the text merge, saying so', () => {
    const { file } = po;
    const base = file([FIRST, LAST]);
    const result = merge(
      po,
      base,
      file([FIRST, OURS, LAST]).replace('Anna <anna@example.com>', 'Ben <ben@example.com>'),
      file([FIRST, THEIRS, LAST]).replace('app 1.0', 'app 1.1'),
    );
    expect(result).toEqual({
      status: 'unmergeable',
      reason: expect.stringContaining('both sides change more of the file than its entries'),
    });
  });

  it('when one side changes what the format does not read, then the other side is written into it', () => {
    const { file } = android;
    const result = merged(
      merge(
        android,
        file([FIRST, LAST]),
        file([FIRST, OURS, LAST]),
        file([FIRST, LAST]).replace('#ff0000', '#00ff00'),
      ),
    );
    expect(result).toBe(file([FIRST, OURS, LAST]).replace('#ff0000', '#00ff00'));
  });
});
