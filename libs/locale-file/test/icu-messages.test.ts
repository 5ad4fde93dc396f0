import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { findIcuProblems } from '@tolk/locale-file';

const FILES = '{count, plural, one {# file} other {# files}}';
const PLACE = '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}';

function problemsOf(source: string, translation: string, locale: string) {
  return findIcuProblems({ keys: ['k'], values: [source] }, new Map([['k', translation]]), locale);
}

/** Numbers every accepted translation is formatted for, by the runtime apps use. */
const NUMBERS = [0, 1, 2, 3, 5, 11, 22, 101, 1.5];

/** Good translations: the rules hold, and intl-messageformat formats them for every number. */
const ACCEPTED: [string, string, string][] = [
  ['pl', FILES, '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}'],
  ['ru', FILES, '{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}'],
  ['uk', FILES, '{count, plural, one {# файл} few {# файли} many {# файлів} other {# файлу}}'],
  ['cs', FILES, '{count, plural, one {# soubor} few {# soubory} many {# souboru} other {# souborů}}'],
  [
    'ar',
    FILES,
    '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}',
  ],
  [
    'cy',
    FILES,
    '{count, plural, zero {# ffeiliau} one {# ffeil} two {# ffeil} few {# ffeil} many {# ffeil} other {# ffeil}}',
  ],
  ['fr', FILES, '{count, plural, one {# fichier} many {# de fichiers} other {# fichiers}}'],
  ['pt', FILES, '{count, plural, one {# arquivo} many {# de arquivos} other {# arquivos}}'],
  ['pt-PT', FILES, '{count, plural, one {# ficheiro} many {# de ficheiros} other {# ficheiros}}'],
  ['de', FILES, '{count, plural, =0 {keine Dateien} one {# Datei} other {# Dateien}}'],
  // A category German never uses is accepted.
  ['de', FILES, '{count, plural, one {# Datei} few {# Dateien} other {# Dateien}}'],
  ['ja', FILES, '{count}個のファイル'],
  ['ja', FILES, '{count, plural, other {#個のファイル}}'],
  ['zh-Hant', FILES, '{count} 個檔案'],
  ['en', PLACE, '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}'],
  ['cy', PLACE, '{n, selectordinal, zero {#fed} one {#af} two {#il} few {#ydd} many {#ed} other {#fed}}'],
  ['fr', PLACE, '{n, selectordinal, one {#er} other {#e}}'],
  ['pl', PLACE, '{n}.'],
  [
    'pl',
    '{gender, select, female {She has {count, plural, one {# file} other {# files}}} other {They have {count, plural, one {# file} other {# files}}}}',
    '{gender, select, female {Ona ma {count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}} other {Mają {count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}}}',
  ],
  ['pl', 'Read the <a href="/terms">terms</a>', 'Przeczytaj <a href="/warunki">warunki</a>'],
  ['pl', '{{count}} items', '{{count}} elementów'],
];

describe('findIcuProblems', () => {
  it.each(ACCEPTED)(
    'when a %s translation holds every category, then it is accepted and formats for every number',
    (locale, source, translation) => {
      expect(problemsOf(source, translation, locale)).toEqual([]);
      if (source.includes('{{')) return;
      const format = new IntlMessageFormat(translation, locale, undefined, { ignoreTag: true });
      for (const n of NUMBERS) {
        const text = format.format({ count: n, n, gender: 'female' });
        expect(typeof text === 'string' && text.length > 0, `${locale} ${n}`).toBe(true);
      }
    },
  );

  it('when an accepted Polish plural is formatted, then each number gets its own Polish form', () => {
    const polish = '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}';
    const format = new IntlMessageFormat(polish, 'pl');
    expect(NUMBERS.map((count) => format.format({ count }))).toEqual([
      '0 plików',
      '1 plik',
      '2 pliki',
      '3 pliki',
      '5 plików',
      '11 plików',
      '22 pliki',
      '101 plików',
      '1,5 pliku',
    ]);
  });

  it('when a Polish plural has only the English categories, then it lacks few and many, named', () => {
    const problems = problemsOf(FILES, '{count, plural, one {# plik} other {# pliki}}', 'pl');
    expect(problems).toEqual([
      {
        key: 'k',
        kind: 'plural-categories',
        gaps: [{ argument: 'count', type: 'cardinal', missing: ['few', 'many'] }],
        message: '{count, plural} lacks few, many (pl: one, few, many, other)',
      },
    ]);
  });

  it.each([
    ['ar', '{count, plural, one {ملف} other {# ملف}}', ['zero', 'two', 'few', 'many']],
    ['cy', '{count, plural, one {# ffeil} other {# ffeil}}', ['zero', 'two', 'few', 'many']],
    ['ru', '{count, plural, one {# файл} few {# файла} other {# файлов}}', ['many']],
    ['cs', '{count, plural, one {# soubor} few {# soubory} other {# souborů}}', ['many']],
    ['fr', '{count, plural, one {# fichier} other {# fichiers}}', ['many']],
    ['pt-PT', '{count, plural, one {# ficheiro} other {# ficheiros}}', ['many']],
    // An exact selector is extra: it does not stand in for a category.
    ['uk', '{count, plural, =1 {# файл} few {# файли} many {# файлів} other {# файлу}}', ['one']],
  ])('when a %s plural lacks categories, then they are named', (locale, translation, missing) => {
    const [problem] = problemsOf(FILES, translation, locale);
    expect(problem).toMatchObject({ kind: 'plural-categories', gaps: [{ argument: 'count', missing }] });
  });

  it('when the plural is dropped in a language with more than other, then every category is missing', () => {
    expect(problemsOf(FILES, '{count} plików', 'pl')).toMatchObject([
      { gaps: [{ argument: 'count', missing: ['one', 'few', 'many', 'other'] }] },
    ]);
  });

  it('when an ordinal comes back as a cardinal plural or lacks ordinal categories, then the selectordinal is named', () => {
    expect(problemsOf(PLACE, '{n, plural, one {#st} other {#th}}', 'en')).toMatchObject([
      {
        gaps: [{ argument: 'n', type: 'ordinal', missing: ['one', 'two', 'few', 'other'] }],
        message: expect.stringContaining('{n, selectordinal} lacks one, two, few, other (en ordinals'),
      },
    ]);
    expect(problemsOf(PLACE, '{n, selectordinal, one {#st} other {#th}}', 'en')).toMatchObject([
      { gaps: [{ missing: ['two', 'few'] }] },
    ]);
    expect(problemsOf(PLACE, '{n, selectordinal, few {#-й} other {#-й}}', 'uk')).toEqual([]);
  });

  it('when one branch of a select lacks categories the other branch has, then the gap is named', () => {
    const source =
      '{g, select, female {{count, plural, one {#} other {#}}} other {{count, plural, one {#} other {#}}}}';
    const translation =
      '{g, select, female {{count, plural, one {#} few {#} many {#} other {#}}} other {{count, plural, one {#} other {#}}}}';
    expect(problemsOf(source, translation, 'pl')).toMatchObject([{ gaps: [{ missing: ['few', 'many'] }] }]);
  });

  it.each([
    ['an unclosed argument', 'Witaj {name', 'EXPECT_ARGUMENT_CLOSING_BRACE'],
    [
      'a plural without other',
      '{count, plural, one {# plik} few {# pliki} many {# plików}}',
      'MISSING_OTHER_CLAUSE',
    ],
    ['a select without other', '{g, select, female {ona}}', 'MISSING_OTHER_CLAUSE'],
    ['i18next braces', 'Witaj {{name}}', 'MALFORMED_ARGUMENT'],
  ])(
    'when the translation has %s where the source parses, then it is refused with the parser’s error',
    (_what, translation, error) => {
      const source = translation.includes('select')
        ? '{g, select, female {she} other {they}}'
        : translation.includes('plural')
          ? FILES
          : 'Hello {name}';
      const [problem] = problemsOf(source, translation, 'pl');
      expect(problem).toMatchObject({ kind: 'icu-syntax', error: expect.stringContaining(error) });
      expect(problem?.message).toMatch(
        /^does not parse as an ICU message, as its source does \(.+ at character \d+\)$/,
      );
    },
  );

  it('when a plain source text is translated with a stray brace, then the translation must parse too', () => {
    expect(problemsOf('Save', 'Speichern {', 'de')).toMatchObject([{ kind: 'icu-syntax' }]);
    expect(problemsOf('Save', 'Speichern }', 'de')).toEqual([]);
  });

  it('when the source does not parse as ICU, then its translation is not held to ICU rules', () => {
    expect(problemsOf('{{count}} items {', '{{count}} elementów {', 'pl')).toEqual([]);
  });

  it('when the translation is the source itself, then the target’s categories are still required', () => {
    expect(problemsOf(FILES, FILES, 'pl')).toMatchObject([{ gaps: [{ missing: ['few', 'many'] }] }]);
    expect(problemsOf(FILES, FILES, 'de')).toEqual([]);
  });

  it('when several keys are checked, then problems come in source order and untranslated keys are skipped', () => {
    const source = { keys: ['a', 'b', 'c', 'd'], values: [FILES, 'Hi {name}', FILES, FILES] };
    const translations = {
      keys: ['d', 'b', 'a'],
      values: ['{count, plural, other {#}}', 'Cześć {name', FILES],
    };
    expect(findIcuProblems(source, translations, 'pl').map((p) => [p.key, p.kind])).toEqual([
      ['a', 'plural-categories'],
      ['b', 'icu-syntax'],
      ['d', 'plural-categories'],
    ]);
  });

  it('when one source version is checked again and again, then each check holds its own translations and locale', () => {
    const source = { keys: ['files', 'hi'], values: [FILES, 'Hi {name}'] };
    const polish = '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}';
    expect(findIcuProblems(source, new Map([['files', FILES]]), 'de')).toEqual([]);
    expect(findIcuProblems(source, new Map([['files', FILES]]), 'pl')).toMatchObject([{ key: 'files' }]);
    expect(findIcuProblems(source, new Map([['files', polish]]), 'pl')).toEqual([]);
    expect(findIcuProblems(source, new Map([['hi', 'Cześć {name']]), 'pl')).toMatchObject([
      { key: 'hi', kind: 'icu-syntax' },
    ]);
    expect(findIcuProblems(source, new Map([['hi', 'Cześć {name}']]), 'pl')).toEqual([]);
  });
});

describe('a plain-text source', () => {
  it("lets its translation use i18next's {{count}}, and still holds ICU syntax to parse", () => {
    const source = { keys: ['item_one', 'title'], values: ['One item', 'Cart'] };
    expect(findIcuProblems(source, new Map([['item_one', '{{count}} предмет']]), 'ru')).toEqual([]);
    expect(findIcuProblems(source, new Map([['title', 'Korb {oops']]), 'de').map((p) => p.key)).toEqual([
      'title',
    ]);
  });
});
