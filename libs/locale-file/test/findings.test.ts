import { describe, expect, it } from 'vitest';
import {
  isSameInEveryLanguage,
  judgeTranslation,
  judgeTranslations,
  markupProblem,
  targetKeys,
  worstSeverity,
} from '@tolk/locale-file';

const FILES = '{count, plural, one {# file} other {# files}}';

function judge(source: string, value: string, locale: string, sourceLocale = 'en') {
  return judgeTranslation('k', value, source, { locale, sourceLocale }).map(({ kind, severity }) => ({
    kind,
    severity,
  }));
}

describe('judgeTranslation', () => {
  it('when a Polish plural lacks many (other covers it), then it is a plural warning', () => {
    const [finding, ...rest] = judgeTranslation(
      'k',
      '{count, plural, one {# plik} few {# pliki} other {# pliku}}',
      FILES,
      { locale: 'pl', sourceLocale: 'en' },
    );
    expect(rest).toEqual([]);
    expect(finding).toEqual({
      key: 'k',
      kind: 'plural',
      severity: 'warning',
      message: '{count, plural} lacks many (pl: one, few, many, other)',
    });
  });

  it('when an Arabic plural lacks zero, then it is a warning', () => {
    const value = '{count, plural, one {ملف} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}';
    expect(judge(FILES, value, 'ar')).toEqual([{ kind: 'plural', severity: 'warning' }]);
  });

  it('when a plural has no other, then it is an ICU error', () => {
    expect(judge(FILES, '{count, plural, one {# Datei}}', 'de')).toEqual([
      { kind: 'icu', severity: 'error' },
    ]);
  });

  it('when a select has no other, then it is an ICU error', () => {
    const source = '{g, select, female {She} other {They}}';
    expect(judge(source, '{g, select, female {Sie}}', 'de')).toEqual([{ kind: 'icu', severity: 'error' }]);
  });

  it('when a message does not parse where its source does, then it is an ICU error and placeholders are not judged', () => {
    const findings = judgeTranslation('k', 'Hallo {name', 'Hello {name}', { locale: 'de' });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'icu', severity: 'error' });
    expect(findings[0]!.message).toMatch(/does not parse as an ICU message/);
  });

  it('when a form the locale never uses is there, then it is a plural warning naming it', () => {
    const findings = judgeTranslation(
      'k',
      '{count, plural, one {# plik} two {# pliki} few {# pliki} many {# plików} other {# pliku}}',
      FILES,
      { locale: 'pl' },
    );
    expect(findings).toEqual([
      {
        key: 'k',
        kind: 'plural',
        severity: 'warning',
        message: '{count, plural} has two, which pl never uses (pl: one, few, many, other)',
      },
    ]);
  });

  it('when a placeholder is lost or added, then it is a placeholder error', () => {
    expect(judge('Hello {name}', 'Hallo', 'de')).toEqual([{ kind: 'placeholder', severity: 'error' }]);
    const [added] = judgeTranslation('k', 'Hallo {name} %s', 'Hello {name}', { locale: 'de' });
    expect(added).toMatchObject({
      kind: 'placeholder',
      message: 'placeholders differ from the source: added %s',
    });
  });

  it('when tags are lost or unbalanced, then it is a markup error', () => {
    expect(judge('Read the <b>terms</b>', 'Lies die Bedingungen', 'de')).toEqual([
      { kind: 'markup', severity: 'error' },
    ]);
    const [unbalanced] = judgeTranslation('k', 'Lies </b>die<b> Bedingungen', 'Read the <b>terms</b>', {
      locale: 'de',
    });
    expect(unbalanced).toMatchObject({
      kind: 'markup',
      message: 'unbalanced markup: </b> closes no open tag',
    });
  });

  it('when a source with words is copied to another language, then it is a copy warning', () => {
    expect(judge('Save the file', 'Save the file', 'de')).toEqual([{ kind: 'copy', severity: 'warning' }]);
  });

  it.each([
    ['numbers and placeholders', '{count} / {total}'],
    ['an address', 'https://tolk.example/help'],
  ])('when %s is copied, then it is no finding', (_, text) => {
    expect(judge(text, text, 'de')).toEqual([]);
  });

  it.each([
    ['one word', 'OK'],
    ['a name and a placeholder', 'Tolk {version}'],
  ])('when %s is copied, then it is the copy warning a person may intend', (_, text) => {
    expect(judge(text, text, 'de')).toEqual([{ kind: 'copy', severity: 'warning' }]);
  });

  it('when the copy is of the same language (en-GB from en), then it is no finding', () => {
    expect(judge('Save the file', 'Save the file', 'en-GB')).toEqual([]);
  });

  it('when the value is a model answer, then a copy and a category never used are no findings, a gap still is', () => {
    const options = { locale: 'pl', sourceLocale: 'en', byModel: () => true };
    expect(judgeTranslation('k', 'Save the file', 'Save the file', options)).toEqual([]);
    const unused = '{count, plural, one {# plik} two {#} few {# pliki} many {# plików} other {# pliku}}';
    expect(judgeTranslation('k', unused, FILES, options)).toEqual([]);
    const gap = judgeTranslation('k', '{count, plural, one {# plik} other {# pliku}}', FILES, options);
    expect(gap).toMatchObject([{ kind: 'plural', severity: 'warning' }]);
  });

  it('when a good translation is judged, then there is nothing', () => {
    expect(
      judge(FILES, '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}', 'pl'),
    ).toEqual([]);
    expect(judge('Read the <b>terms</b>, {name}', 'Lies die <b>Bedingungen</b>, {name}', 'de')).toEqual([]);
  });
});

describe('judgeTranslations', () => {
  it('when a locale has i18next plural forms, then each form is judged against its group', () => {
    const source = {
      keys: ['title', 'item_one', 'item_other'],
      values: ['My files', 'One item', '{{count}} items'],
    };
    const target = targetKeys(source, 'pl', { i18nextPlurals: true });
    const translations = new Map([
      ['title', 'My files'],
      ['item_one', 'Jeden element'],
      ['item_few', '{{count}} elementy'],
      ['item_many', '{{count}} elementów'],
      ['item_other', '{{count}} elementu {{extra}}'],
    ]);
    const findings = judgeTranslations(source, translations, { locale: 'pl', sourceLocale: 'en', target });
    expect(findings.map(({ key, kind }) => [key, kind])).toEqual([
      ['title', 'copy'],
      ['item_other', 'placeholder'],
    ]);
  });

  it('when judged in ranges, then the findings are those of judging all at once', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    const source = { keys, values: keys.map((k) => `Hello {name} number ${k}`) };
    const translations = new Map(keys.map((k, i) => [k, i % 3 === 0 ? 'Hallo' : `Hallo {name} ${k}`]));
    const all = judgeTranslations(source, translations, { locale: 'de' });
    const sliced = [0, 10, 20, 30].flatMap((start) =>
      judgeTranslations(source, translations, { locale: 'de' }, { start, end: start + 10 }),
    );
    expect(sliced).toEqual(all);
    expect(all).toHaveLength(14);
  });
});

describe('worstSeverity', () => {
  it('when a key has an error and a warning, then its worst is the error', () => {
    const findings = judgeTranslations(
      { keys: ['a', 'b'], values: ['Hello {name}, see <b>this</b>', 'Save the file'] },
      new Map([
        ['a', 'Hallo, siehe this'],
        ['b', 'Save the file'],
      ]),
      { locale: 'de', sourceLocale: 'en' },
    );
    const of = (key: string) => findings.filter((finding) => finding.key === key);
    expect(of('a').map((f) => f.kind)).toEqual(['placeholder', 'markup']);
    expect(worstSeverity(of('a'))).toBe('error');
    expect(worstSeverity(of('b'))).toBe('warning');
    expect(worstSeverity([])).toBeUndefined();
  });
});

describe('isSameInEveryLanguage and markupProblem', () => {
  it('when a text has a word, then it is not the same in every language; without one it is', () => {
    expect(isSameInEveryLanguage('Save file')).toBe(false);
    expect(isSameInEveryLanguage('<b>OK</b> {n}')).toBe(false);
    expect(isSameInEveryLanguage('<b>42</b> {n} %d%%')).toBe(true);
  });

  it('when tags nest in order, then there is no markup problem', () => {
    expect(markupProblem('<b><i>x</i></b><br>')).toBeUndefined();
    expect(markupProblem('<b><i>x</b></i>')).toBe('</b> closes <i>');
  });
});
