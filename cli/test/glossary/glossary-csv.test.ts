import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  glossaryEntryInputSchema,
  glossaryTermKey,
  type GlossaryEntry,
  type GlossaryEntryInput,
} from '@tolk/contracts';
import {
  formatGlossaryCsv,
  fromSpreadsheetCell,
  parseGlossaryCsv,
  toSpreadsheetCell,
} from '../../src/glossary/glossary-csv.js';

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

/** OWASP's CSV injection rule: a cell starting with one of these is run as a formula. */
const FORMULA = /^[=+\-@\t\r]/;

/** Every cell of a CSV as a spreadsheet reads it: the text between the quotes, quotes undone. */
const cellsOf = (csv: string) => (parseCsv(csv) as string[][]).flat();

describe('spreadsheet-safe cells', () => {
  it('when terms, notes and renderings start like formulas, then each cell is quoted and starts with a quote mark, and reads back as it was', () => {
    const entries: GlossaryEntryInput[] = [
      {
        term: "=cmd|' /C calc'!A0",
        caseSensitive: false,
        keepAsIs: false,
        note: '@SUM(1+1)*cmd|x',
        translations: { de: '+HYPERLINK("http://example.com","x")', fr: '-2+3' },
      },
      { term: "'=already quoted", caseSensitive: false, keepAsIs: false, note: "'plain", translations: {} },
    ];

    const csv = formatGlossaryCsv(entries, ['de', 'fr']);

    expect(csv).toBe(
      'term,case_sensitive,keep_as_is,note,de,fr\n' +
        `"'=cmd|' /C calc'!A0",false,false,"'@SUM(1+1)*cmd|x","'+HYPERLINK(""http://example.com"",""x"")","'-2+3"\n` +
        `"''=already quoted",false,false,'plain,,\n`,
    );
    expect(cellsOf(csv).filter((cell) => FORMULA.test(cell))).toEqual([]);
    expect(parse(csv)).toEqual(entries);
  });

  it('when any string is made a cell, then it never starts like a formula and reads back exactly', () => {
    const tricky = fc.string({
      unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', '\n', ' ', 'a', '"', ','),
      maxLength: 8,
    });
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string({ unit: 'binary' })), (value) => {
        const cell = toSpreadsheetCell(value);
        return !FORMULA.test(cell) && fromSpreadsheetCell(cell) === value;
      }),
      { numRuns: 2000 },
    );
  });

  it('when any glossary is exported and imported, then every entry comes back exactly and no cell starts like a formula', () => {
    const text = fc.string({
      unit: fc.constantFrom("'", '=', '+', '-', '@', ' ', 'a', 'B', '"', ',', ';', '|', 'é'),
      minLength: 1,
      maxLength: 6,
    });
    const noteText = fc.string({
      unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\n', ' ', 'a', '"', ','),
      maxLength: 6,
    });
    const entry = fc
      .record({
        term: text,
        caseSensitive: fc.boolean(),
        keepAsIs: fc.boolean(),
        note: fc.option(noteText, { nil: null }),
        translations: fc.dictionary(fc.constantFrom('de', 'fr', 'pt-BR'), text, { maxKeys: 3 }),
      })
      .map((raw) => glossaryEntryInputSchema.safeParse(raw))
      .filter((result) => result.success)
      .map((result) => result.data!);
    const glossary = fc.uniqueArray(entry, { maxLength: 8, selector: (e) => glossaryTermKey(e.term) });
    fc.assert(
      fc.property(glossary, (entries) => {
        const csv = formatGlossaryCsv(entries, ['de', 'fr']);
        expect(cellsOf(csv).filter((cell) => FORMULA.test(cell))).toEqual([]);
        expect(parse(csv)).toEqual(entries);
      }),
      { numRuns: 300 },
    );
  });
});
