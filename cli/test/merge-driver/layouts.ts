/**
 * Locale files of every format, written from their entries in each format's usual layout: what
 * two branches' edits of a file look like to the merge driver's tests.
 */
import type { FormatName, FormatOptions } from '../../src/formats/index.js';

/** A key of the file, its value (a target file's translation) and the comment above it. */
export type Entry = { key: string; value: string; comment?: string };

/** A kind of locale file: its format, its locale (undefined: every locale) and its layout. */
export type Layout = {
  format: FormatName;
  locale: string | undefined;
  path: string;
  options?: FormatOptions;
  file: (entries: readonly Entry[]) => string;
};

const entry = (key: string, value: string, comment?: string): Entry =>
  comment === undefined ? { key, value } : { key, value, comment };

const lines = (...parts: (string | false)[]) => parts.filter((part) => part !== false).join('\n');

const XCODE_ORDER = new Intl.Collator('en', { numeric: true });

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

export const LAYOUTS: Record<string, Layout> = {
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
        // Xcode keeps its strings in order: case-insensitive, numbers by value.
        [...entries]
          .sort((a, b) => XCODE_ORDER.compare(a.key, b.key))
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

/** Two keys every file has, and two a branch adds. */
export const FIRST = entry('First', 'Eins', 'The first one');
export const LAST = entry('Last', 'Letzte');
export const SETTINGS = entry('Settings', 'Einstellungen', 'The settings page');
export const PROFILE = entry('Profile', 'Profil', 'The profile page');

/**
 * `text` as git's text merge leaves a conflict in it: its lines `ours` (or, where ours has none,
 * the place right before `before`) in conflict markers against `theirs`.
 */
export function conflicted(text: string, ours: string[], theirs: string[], before = ''): string {
  const markers = ['<<<<<<< ours', ...ours, '=======', ...theirs, '>>>>>>> theirs', ''].join('\n');
  const at = ours.length > 0 ? `${ours.join('\n')}\n` : before;
  if (!text.includes(at)) throw new Error(`no ${JSON.stringify(at)} in ${text}`);
  return text.replace(at, ours.length > 0 ? markers : markers + before);
}
