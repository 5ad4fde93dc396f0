import { describe, expect, it } from 'vitest';
import type { GlossaryEntry } from '@tolk/contracts';
import { formatGlossaryCsv, parseGlossaryCsv } from '../../src/glossary/glossary-csv.js';

const parse = (text: string) => parseGlossaryCsv(Buffer.from(text), 'g.csv');

describe('parseGlossaryCsv', () => {
  it('when a quoted cell spans lines and blank lines come between, then a later problem names the line it starts on', () => {
    const csv =
      'term,case_sensitive,keep_as_is,note,DE\n\n' +
      'cart,,,"a note\non two lines",Warenkorb\n\n' +
      'checkout,perhaps,,,\n';
    expect(() => parse(csv)).toThrow('g.csv:6:2: case_sensitive is "perhaps"; use true or false');
  });

  it('when the header spells columns in another case and a locale in another case, then they are read canonically', () => {
    expect(parse('\ufeffTERM,Case_Sensitive,keep_as_is,Note,pt-br\r\ncart,YES,0,,carrinho\r\n')).toEqual([
      {
        term: 'cart',
        caseSensitive: true,
        keepAsIs: false,
        note: null,
        translations: { 'pt-BR': 'carrinho' },
      },
    ]);
  });

  it('when a locale has two columns, then the second is named', () => {
    expect(() => parse('term,case_sensitive,keep_as_is,note,de,DE\n')).toThrow(
      'g.csv:1:6: header column 6: locale de has a column already',
    );
  });
});

describe('formatGlossaryCsv', () => {
  it("when entries have renderings beyond the project's locales, then those columns follow, and cells are quoted as CSV needs", () => {
    const entry: GlossaryEntry = {
      entryId: 'gle_1',
      term: 'say "hi", twice',
      caseSensitive: false,
      keepAsIs: false,
      note: null,
      translations: { ja: 'こんにちは', de: 'Hallo' },
      createdAt: 0,
      updatedAt: 0,
    };
    const csv = formatGlossaryCsv([entry], ['fr', 'de']);
    expect(csv).toBe(
      'term,case_sensitive,keep_as_is,note,fr,de,ja\n"say ""hi"", twice",false,false,,,Hallo,こんにちは\n',
    );
    expect(parse(csv)).toEqual([
      {
        term: 'say "hi", twice',
        caseSensitive: false,
        keepAsIs: false,
        note: null,
        translations: { de: 'Hallo', ja: 'こんにちは' },
      },
    ]);
  });
});
