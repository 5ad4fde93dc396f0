/**
 * The `xcstrings` format (Xcode String Catalog). No Debian tool reads String Catalogs (Xcode and
 * `xcstringstool` are macOS only), so what is written is checked as JSON (JSON.parse) and for the
 * structure Xcode needs, and against catalogs laid out as Xcode writes them.
 */
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import { describe, expect, it } from 'vitest';
import { FormatError, formatNamed } from '../../src/formats/index.js';
import { xcstringsFormat } from '../../src/formats/xcstrings.js';
import { readWithFindings as readFileWithFindings } from './read-with-findings.js';

const unit = (indent: string, state: string, value: string) => [
  `${indent}"stringUnit" : {`,
  `${indent}  "state" : "${state}",`,
  `${indent}  "value" : ${JSON.stringify(value)}`,
  `${indent}}`,
];

const plural = (indent: string, forms: [string, string][]) => [
  `${indent}"variations" : {`,
  `${indent}  "plural" : {`,
  ...forms.flatMap(([category, value], index) => [
    `${indent}    "${category}" : {`,
    ...unit(`${indent}      `, 'translated', value),
    `${indent}    }${index < forms.length - 1 ? ',' : ''}`,
  ]),
  `${indent}  }`,
  `${indent}}`,
];

/**
 * A catalog as Xcode writes it: two spaces, `"key" : value`, keys in Xcode's order, an empty
 * object as `{` blank line `}`, no final newline. English source, German partly translated.
 */
const CATALOG = [
  '{',
  '  "sourceLanguage" : "en",',
  '  "strings" : {',
  '    "" : {',
  '',
  '    },',
  '    "%lld files" : {',
  '      "comment" : "Number of files in the selected folder",',
  '      "localizations" : {',
  '        "de" : {',
  ...plural('          ', [
    ['one', '%lld Datei'],
    ['other', '%lld Dateien'],
  ]),
  '        },',
  '        "en" : {',
  ...plural('          ', [
    ['one', '%lld file'],
    ['other', '%lld files'],
  ]),
  '        }',
  '      }',
  '    },',
  '    "Cancel" : {',
  '      "localizations" : {',
  '        "de" : {',
  ...unit('          ', 'needs_review', 'Abbrechen'),
  '        }',
  '      }',
  '    },',
  '    "Delete \\"%@\\"?" : {',
  '      "comment" : "Asks before a file is deleted",',
  '      "localizations" : {',
  '        "de" : {',
  ...unit('          ', 'new', ''),
  '        }',
  '      }',
  '    },',
  '    "Done" : {',
  '',
  '    },',
  '    "home.title" : {',
  '      "extractionState" : "manual",',
  '      "localizations" : {',
  '        "en" : {',
  ...unit('          ', 'translated', 'Welcome, %1$@!\nhttps://example.com/help'),
  '        }',
  '      }',
  '    },',
  '    "Rotate" : {',
  '      "localizations" : {',
  '        "en" : {',
  '          "variations" : {',
  '            "device" : {',
  '              "mac" : {',
  ...unit('                ', 'translated', 'Rotate the window'),
  '              },',
  '              "other" : {',
  ...unit('                ', 'translated', 'Rotate the device'),
  '              }',
  '            }',
  '          }',
  '        }',
  '      }',
  '    },',
  '    "Tolk" : {',
  '      "comment" : "The app\'s name",',
  '      "shouldTranslate" : false',
  '    }',
  '  },',
  '  "version" : "1.0"',
  '}',
].join('\n');

/** A value as Xcode lays it out: two spaces, `"key" : value`, an empty object as `{` blank line `}`. */
function xcodeLayout(value: unknown, indent = ''): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = `${indent}  `;
  const entries = Object.entries(value);
  if (entries.length === 0) return `{\n\n${indent}}`;
  const lines = entries.map(([key, item]) => `${inner}${JSON.stringify(key)} : ${xcodeLayout(item, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function readWithFindings(text: string, locale = 'en') {
  return readFileWithFindings(xcstringsFormat, text, { locale, path: 'App/Localizable.xcstrings' });
}

function read(text: string | Buffer, locale = 'en') {
  return xcstringsFormat.read({
    bytes: typeof text === 'string' ? Buffer.from(text) : text,
    locale,
    path: 'App/Localizable.xcstrings',
    options: {},
  });
}

/** `locale` written into `catalog` with `values` (the locale's own values in it when not given). */
function write(catalog: string, locale: string, values?: Record<string, string>) {
  const bytes = Buffer.from(catalog);
  const parsed = parseSourceDocument(read(bytes));
  const own = read(bytes, locale) as Record<string, string>;
  return xcstringsFormat
    .write({
      source: bytes,
      existing: bytes,
      sourceLocale: 'en',
      locale,
      valueOf: (key) => (values ?? own)[key],
      target: targetKeys(parsed, locale),
      options: {},
    })
    .toString('utf8');
}

function failure(run: () => unknown): FormatError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return error as FormatError;
  }
  throw new Error('expected a FormatError');
}

type Json = Record<string, any>;

/** The catalog's JSON with one locale's localizations taken out. */
function without(catalog: Json, locale: string): Json {
  const copy = structuredClone(catalog);
  for (const string of Object.values(copy.strings as Json)) {
    if (!string.localizations) continue;
    delete string.localizations[locale];
    if (Object.keys(string.localizations).length === 0) delete string.localizations;
  }
  return copy;
}

const PL = {
  '%lld files': '{count, plural, one {%lld plik} few {%lld pliki} many {%lld plików} other {%lld pliku}}',
  Cancel: 'Anuluj',
  'Delete "%@"?': 'Usunąć „%@”?',
  Done: 'Gotowe',
  'home.title': 'Witaj, %1$@!\nhttps://example.com/pomoc',
};

describe('xcstrings format', () => {
  it('when formats are looked up by name, then xcstrings is there, a format of one file for every locale', () => {
    expect(formatNamed('xcstrings')).toBe(xcstringsFormat);
    expect(xcstringsFormat.oneFileForAllLocales).toBe(true);
    expect(xcstringsFormat.extensions).toEqual(['.xcstrings']);
    expect(xcstringsFormat.readLocale('zh-Hans')).toBe('zh-Hans');
    expect(xcstringsFormat.spellLocale('pt-BR')).toBe('pt-BR');
  });

  it('when a catalog Xcode wrote is written back with its own values, then it is the same bytes', () => {
    expect(write(CATALOG, 'de')).toBe(CATALOG);
    // No final newline, as Xcode writes; one that is there stays.
    expect(CATALOG.endsWith('}')).toBe(true);
    expect(write(`${CATALOG}\n`, 'de')).toBe(`${CATALOG}\n`);
    // Line ends a Windows checkout gave it stay, in what is written too.
    const crlf = CATALOG.replaceAll('\n', '\r\n');
    expect(write(crlf, 'de')).toBe(crlf);
    expect(write(crlf, 'pl', PL)).toBe(write(CATALOG, 'pl', PL).replaceAll('\n', '\r\n'));
  });

  it('when the source is read, then comments are descriptions, plurals ICU, a key without a source localization is its own text, and "", shouldTranslate false and device variations are left out', () => {
    expect(read(CATALOG)).toEqual({
      '%lld files': '{count, plural, one {%lld file} other {%lld files}}',
      '@%lld files': { description: 'Number of files in the selected folder' },
      Cancel: 'Cancel',
      'Delete "%@"?': 'Delete "%@"?',
      '@Delete "%@"?': { description: 'Asks before a file is deleted' },
      Done: 'Done',
      'home.title': 'Welcome, %1$@!\nhttps://example.com/help',
    });
    // The server's rules take it: a key's dots are the server's own, as in every free-text format.
    const parsed = parseSourceDocument(read(CATALOG));
    expect(parsed.keys).toEqual(['%lld files', 'Cancel', 'Delete "%@"?', 'Done', 'home.title']);
  });

  it('when a target is read, then its values are its own (needs_review is a value, new is none), and nothing falls back to the source', () => {
    expect(read(CATALOG, 'de')).toEqual({
      '%lld files': '{count, plural, one {%lld Datei} other {%lld Dateien}}',
      Cancel: 'Abbrechen',
    });
    expect(read(CATALOG, 'pl')).toEqual({});
  });

  it('when pl is written into a catalog that has de, then pl gets its four plural forms and every other locale, key and field stays as it was', () => {
    const out = write(CATALOG, 'pl', PL);
    const json = JSON.parse(out) as Json;
    // Nothing but pl changed.
    expect(without(json, 'pl')).toEqual(JSON.parse(CATALOG));
    const strings = json.strings as Json;
    expect(Object.keys(strings)).toEqual(Object.keys(JSON.parse(CATALOG).strings));
    // What Xcode needs of a plural: variations.plural with the language's categories, each a unit.
    const files = strings['%lld files'].localizations;
    expect(Object.keys(files)).toEqual(['de', 'en', 'pl']);
    expect(Object.keys(files.pl.variations.plural)).toEqual(['few', 'many', 'one', 'other']);
    expect(files.pl.variations.plural).toEqual({
      few: { stringUnit: { state: 'translated', value: '%lld pliki' } },
      many: { stringUnit: { state: 'translated', value: '%lld plików' } },
      one: { stringUnit: { state: 'translated', value: '%lld plik' } },
      other: { stringUnit: { state: 'translated', value: '%lld pliku' } },
    });
    expect(strings.Cancel.localizations.pl).toEqual({ stringUnit: { state: 'translated', value: 'Anuluj' } });
    expect(strings['home.title'].localizations.pl.stringUnit.value).toBe(PL['home.title']);
    // A key Xcode keeps as its own text gets its localizations object.
    expect(strings.Done).toEqual({
      localizations: { pl: { stringUnit: { state: 'translated', value: 'Gotowe' } } },
    });
    // Left alone: "", the key not to translate, the device variations.
    expect(strings['']).toEqual({});
    expect(strings.Tolk).toEqual({ comment: "The app's name", shouldTranslate: false });
    expect(strings.Rotate.localizations.pl).toBeUndefined();
    // Read back, pl is what was written.
    expect(read(out, 'pl')).toEqual(PL);
    // In Xcode's layout: two spaces a level, `"key" : value`, no final newline.
    for (const line of out.split('\n')) expect(line).toMatch(/^( {2})*(\S.*)?$/);
    expect(out).toContain(
      '"pl" : {\n          "variations" : {\n            "plural" : {\n              "few" : {',
    );
    expect(out).not.toMatch(/"\s*:\S|\S:\s"/);
    expect(out.endsWith('}')).toBe(true);
    // Written again with the same values, nothing changes.
    expect(write(out, 'pl', PL)).toBe(out);
  });

  it('when a value the user marked needs_review is written unchanged, then it stays needs_review; a changed one is translated', () => {
    const same = JSON.parse(write(CATALOG, 'de', { Cancel: 'Abbrechen' })) as Json;
    expect(same.strings.Cancel.localizations.de.stringUnit).toEqual({
      state: 'needs_review',
      value: 'Abbrechen',
    });
    const changed = JSON.parse(write(CATALOG, 'de', { Cancel: 'Abbruch' })) as Json;
    expect(changed.strings.Cancel.localizations.de.stringUnit).toEqual({
      state: 'translated',
      value: 'Abbruch',
    });
    // A unit in state new is no translation: a value replaces it.
    const filled = JSON.parse(write(CATALOG, 'de', { 'Delete "%@"?': '„%@“ löschen?' })) as Json;
    expect(filled.strings['Delete "%@"?'].localizations.de.stringUnit).toEqual({
      state: 'translated',
      value: '„%@“ löschen?',
    });
  });

  it('when a key has no value for the target, then what the file holds for it stays', () => {
    const out = write(CATALOG, 'de', {});
    expect(out).toBe(CATALOG);
  });

  it('when a language has only other, then the plural is written with other alone; a new locale goes in its place among the others', () => {
    const out = JSON.parse(
      write(CATALOG, 'ja', {
        '%lld files': '{count, plural, other {%lld 個のファイル}}',
        Cancel: 'キャンセル',
      }),
    ) as Json;
    expect(out.strings['%lld files'].localizations.ja.variations.plural).toEqual({
      other: { stringUnit: { state: 'translated', value: '%lld 個のファイル' } },
    });
    const ar = JSON.parse(write(CATALOG, 'ar', { Cancel: 'إلغاء' })) as Json;
    expect(Object.keys(ar.strings.Cancel.localizations)).toEqual(['ar', 'de']);
    const zh = JSON.parse(write(CATALOG, 'zh-Hans', { Cancel: '取消' })) as Json;
    expect(Object.keys(zh.strings.Cancel.localizations)).toEqual(['de', 'zh-Hans']);
  });

  it('when a translation puts text around the plural, then the text goes into each form, and it reads back as the same message', () => {
    const message =
      '[pl] {count, plural, one {%lld plik} few {%lld pliki} many {%lld plików} other {%lld pliku}}';
    const out = JSON.parse(write(CATALOG, 'pl', { '%lld files': message })) as Json;
    expect(out.strings['%lld files'].localizations.pl.variations.plural.few).toEqual({
      stringUnit: { state: 'translated', value: '[pl] %lld pliki' },
    });
    expect(read(JSON.stringify(out, null, 2), 'pl')).toEqual({
      '%lld files':
        '{count, plural, one {[pl] %lld plik} few {[pl] %lld pliki} many {[pl] %lld plików} other {[pl] %lld pliku}}',
    });
    // Also in a language with one form only.
    const japanese = JSON.parse(
      write(CATALOG, 'ja', { '%lld files': '[ja] {count, plural, other {%lld files}}' }),
    ) as Json;
    expect(japanese.strings['%lld files'].localizations.ja.variations.plural.other.stringUnit.value).toBe(
      '[ja] %lld files',
    );
  });

  it("when a string has substitutions, then it reads as its format string with each plural in ICU and is written back with the target's categories", () => {
    const substitution = (argNum: number, forms: [string, string][]) => ({
      argNum,
      formatSpecifier: 'lld',
      variations: {
        plural: Object.fromEntries(
          forms.map(([category, value]) => [category, { stringUnit: { state: 'translated', value } }]),
        ),
      },
    });
    const catalog = xcodeLayout({
      sourceLanguage: 'en',
      strings: {
        '%lld photos in %lld albums': {
          localizations: {
            en: {
              stringUnit: { state: 'translated', value: '%#@photos@ in %#@albums@' },
              substitutions: {
                albums: substitution(2, [
                  ['one', '%arg album'],
                  ['other', '%arg albums'],
                ]),
                photos: substitution(1, [
                  ['one', '%arg photo'],
                  ['other', '%arg photos'],
                ]),
              },
            },
          },
        },
      },
      version: '1.0',
    });
    const message =
      '{photos, plural, one {%arg photo} other {%arg photos}} in {albums, plural, one {%arg album} other {%arg albums}}';
    expect(read(catalog)).toEqual({ '%lld photos in %lld albums': message });
    expect(write(catalog, 'de')).toBe(catalog);
    const polish =
      '{photos, plural, one {%arg zdjęcie} few {%arg zdjęcia} many {%arg zdjęć} other {%arg zdjęcia}} w {albums, plural, one {%arg albumie} few {%arg albumach} many {%arg albumach} other {%arg albumu}}';
    const out = write(catalog, 'pl', { '%lld photos in %lld albums': polish });
    const pl = (JSON.parse(out) as Json).strings['%lld photos in %lld albums'].localizations.pl;
    expect(pl.stringUnit).toEqual({ state: 'translated', value: '%#@photos@ w %#@albums@' });
    expect(Object.keys(pl.substitutions)).toEqual(['albums', 'photos']);
    expect(pl.substitutions.photos).toEqual({
      argNum: 1,
      formatSpecifier: 'lld',
      variations: {
        plural: {
          few: { stringUnit: { state: 'translated', value: '%arg zdjęcia' } },
          many: { stringUnit: { state: 'translated', value: '%arg zdjęć' } },
          one: { stringUnit: { state: 'translated', value: '%arg zdjęcie' } },
          other: { stringUnit: { state: 'translated', value: '%arg zdjęcia' } },
        },
      },
    });
    expect(Object.keys(pl.substitutions.albums.variations.plural)).toEqual(['few', 'many', 'one', 'other']);
    expect(read(out, 'pl')).toEqual({ '%lld photos in %lld albums': polish });
    expect(out).toBe(xcodeLayout(JSON.parse(out)));
  });

  it("when a catalog is laid out otherwise, then it is read the same and written in Xcode's layout", () => {
    const compact = JSON.stringify(JSON.parse(CATALOG), null, 4);
    expect(read(compact)).toEqual(read(CATALOG));
    const out = write(compact, 'de');
    expect(JSON.parse(out)).toEqual(JSON.parse(CATALOG));
    expect(out).toContain('  "sourceLanguage" : "en",');
  });

  it('when a catalog is of version 1.1 (Xcode 26), then it is read', () => {
    expect(read(CATALOG.replace('"version" : "1.0"', '"version" : "1.1"'))).toEqual(read(CATALOG));
  });

  it('when a catalog is of a version Tolk does not know, then a FormatError names it, the ones known and where', () => {
    const error = failure(() => read(CATALOG.replace('"version" : "1.0"', '"version" : "2.0"')));
    expect(error.message).toBe(
      `App/Localizable.xcstrings:${CATALOG.split('\n').indexOf('  "version" : "1.0"') + 1}:15: is a String Catalog of version "2.0", which Tolk does not know (supported: 1.0, 1.1); nothing was read from it`,
    );
    expect(failure(() => read('{"sourceLanguage":"en","strings":{}}')).message).toMatch(
      /no "version" \(supported: 1\.0, 1\.1\)/,
    );
  });

  it('when a catalog is broken, then a FormatError says where', () => {
    expect(failure(() => read('{\n  "sourceLanguage" : "en",\n  "strings" : {,\n}')).message).toMatch(
      /^App\/Localizable\.xcstrings:3:16: is not JSON/,
    );
    expect(failure(() => read('{"sourceLanguage":"en","version":"1.0"}')).message).toMatch(/"strings"/);
    expect(failure(() => read(Buffer.from([0x7b, 0xff, 0x7d]))).message).toMatch(/is not UTF-8/);
    const deep = failure(() =>
      read('{"strings":' + '{"a":'.repeat(100_000) + '{}' + '}'.repeat(100_000) + '}'),
    );
    expect(deep.reason).toBe('is nested deeper than 32 levels, more than a locale file may be');
  });

  it('when a key is given twice or cannot be a key, or a string is no object, then a finding says where and the rest is read', () => {
    const { document, findings } = readWithFindings(
      '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : {\n      "comment" : "first"\n    },\n    "a" : {},\n' +
        '    "@me" : {},\n    "odd" : 3,\n    "b" : {}\n  },\n  "version" : "1.0"\n}',
    );
    expect(document).toEqual({ a: 'a', b: 'b' });
    expect(findings.map((finding) => [finding.key, finding.kind, finding.line, finding.column])).toEqual([
      ['a', 'duplicate', 7, 5],
      [null, 'format', 9, 5],
      [null, 'format', 8, 5],
    ]);
    expect(findings[2]!.message).toMatch(/^the key "@me" cannot be a key/);
  });

  it('when a target plural has no other, then its forms are kept with an error finding; a unit in state new is no translation', () => {
    const catalog = JSON.stringify(
      {
        sourceLanguage: 'en',
        strings: {
          files: {
            localizations: {
              en: { variations: { plural: { one: unitOf('%lld file'), other: unitOf('%lld files') } } },
              pl: { variations: { plural: { one: unitOf('%lld plik'), few: unitOf('%lld pliki') } } },
            },
          },
          fresh: { localizations: { pl: { stringUnit: { state: 'new', value: 'fresh' } } } },
          review: {
            localizations: { pl: { stringUnit: { state: 'needs_review', value: 'Do przejrzenia' } } },
          },
        },
        version: '1.0',
      },
      null,
      2,
    );
    const { document, findings } = readWithFindings(catalog, 'pl');
    expect(document).toEqual({
      files: '{count, plural, one {%lld plik} few {%lld pliki}}',
      review: 'Do przejrzenia',
    });
    expect(findings).toMatchObject([
      { key: 'files', kind: 'plural', severity: 'error', line: 26, column: 23 },
    ]);
  });
});

function unitOf(value: string) {
  return { stringUnit: { state: 'translated', value } };
}
