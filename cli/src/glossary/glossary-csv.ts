import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  MAX_GLOSSARY_ENTRIES,
  glossaryEntryInputSchema,
  glossaryTermKey,
  parseTargetLocale,
  type GlossaryEntry,
  type GlossaryEntryInput,
} from '@tolk/contracts';
import { FormatError } from '../formats/format.js';
import { decodeUtf8 } from '../formats/utf8.js';

/** The columns every glossary CSV starts with; one column per locale code follows. */
export const GLOSSARY_CSV_COLUMNS = ['term', 'case_sensitive', 'keep_as_is', 'note'] as const;

const HEADER_HINT = `the header is ${GLOSSARY_CSV_COLUMNS.join(',')} followed by one column per locale code (de,fr,pt-BR...)`;

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0', '']);

/**
 * Which column an entry's field came from (1-based), for messages; the translations as a whole
 * (none allowed for a term kept as is) are the first locale column that has one.
 */
function columnOf(
  path: readonly PropertyKey[],
  localeColumns: ReadonlyMap<string, number>,
  record: string[],
) {
  const [field, locale] = path;
  if (field === 'translations') {
    if (typeof locale === 'string') return localeColumns.get(locale) ?? 1;
    const filled = [...localeColumns.values()].find((column) => record[column - 1]?.trim());
    return filled ?? 1;
  }
  const index = ['term', 'caseSensitive', 'keepAsIs', 'note'].indexOf(String(field));
  return index >= 0 ? index + 1 : 1;
}

type Row = { record: string[]; info: { lines: number }; raw: string };

/**
 * A cell a spreadsheet would run as a formula (OWASP's CSV injection rule: it starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return) — or such a cell already escaped, with `'`s before it.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A value as a cell spreadsheets show as text: one that starts like a formula gets a `'` before
 * it (which Excel, LibreOffice and Google Sheets read as "this is text"), and is quoted. A value
 * that already starts with `'`s and then a formula character gets one `'` more, so that
 * fromSpreadsheetCell gives back exactly the value, whatever it is.
 */
export function toSpreadsheetCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The value of a cell toSpreadsheetCell wrote: one `'` less where it added one. */
export function fromSpreadsheetCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

/**
 * The line a record starts on: csv-parse counts the line it ends on, and a quoted cell may hold
 * line breaks; its raw text (blank lines skipped before it included) says how many.
 */
function startLine(row: Row): number {
  const text = row.raw.replace(/^(?:\r?\n)+/, '').replace(/\r?\n$/, '');
  return row.info.lines - (text.split('\n').length - 1);
}

/**
 * A glossary CSV as `tolk glossary import` reads it: UTF-8 (a byte order mark is fine), a header
 * of `term,case_sensitive,keep_as_is,note,<locale>...`, one entry per row. Booleans are
 * true/false (also yes/no, 1/0; empty is false); an empty locale cell is no rendering. A cell
 * that starts with `'` and a formula character loses that `'`, as exported (toSpreadsheetCell). Every
 * problem is a FormatError naming the line and column: bytes that are not UTF-8, a missing or
 * wrong header column, a row of another length, an entry the API would refuse, a term twice.
 */
export function parseGlossaryCsv(bytes: Buffer, path: string): GlossaryEntryInput[] {
  const text = decodeUtf8(bytes, path, 'save the glossary as UTF-8 CSV');
  let rows: Row[];
  try {
    rows = parse(text, { bom: true, info: true, raw: true, skip_empty_lines: true }) as unknown as Row[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines ?? 1;
      throw new FormatError(path, `is not valid CSV: ${error.message}`, { line, column: 1 });
    }
    throw error;
  }
  const [header, ...body] = rows;
  if (!header) throw new FormatError(path, `has no header; ${HEADER_HINT}`, { line: 1, column: 1 });
  const line = startLine(header);
  GLOSSARY_CSV_COLUMNS.forEach((expected, index) => {
    const found = header.record[index]?.trim();
    if (found?.toLowerCase() === expected) return;
    const what = found === undefined ? 'is missing' : `is ${JSON.stringify(found)}`;
    throw new FormatError(path, `header column ${index + 1} ${what}, expected ${expected}; ${HEADER_HINT}`, {
      line,
      column: index + 1,
    });
  });
  const localeColumns = new Map<string, number>();
  const locales = header.record.slice(GLOSSARY_CSV_COLUMNS.length).map((name, offset) => {
    const column = GLOSSARY_CSV_COLUMNS.length + offset + 1;
    const parsed = parseTargetLocale(name.trim());
    if (!parsed.ok) {
      throw new FormatError(path, `header column ${column} should be a locale code: ${parsed.problem}`, {
        line,
        column,
      });
    }
    if (localeColumns.has(parsed.locale)) {
      throw new FormatError(path, `header column ${column}: locale ${parsed.locale} has a column already`, {
        line,
        column,
      });
    }
    localeColumns.set(parsed.locale, column);
    return parsed.locale;
  });

  if (body.length > MAX_GLOSSARY_ENTRIES) {
    throw new FormatError(
      path,
      `has ${body.length.toLocaleString('en-US')} entries; a project's glossary holds at most ` +
        `${MAX_GLOSSARY_ENTRIES.toLocaleString('en-US')}`,
    );
  }

  const linesByTerm = new Map<string, number[]>();
  const entries = body.map((row) => {
    const record = row.record.map(fromSpreadsheetCell);
    const info = { lines: startLine(row) };
    const flag = (index: number) => {
      const value = record[index]!.trim().toLowerCase();
      if (TRUE.has(value)) return true;
      if (FALSE.has(value)) return false;
      throw new FormatError(
        path,
        `${GLOSSARY_CSV_COLUMNS[index]} is ${JSON.stringify(record[index])}; use true or false`,
        { line: info.lines, column: index + 1 },
      );
    };
    const translations = Object.fromEntries(
      locales.map((locale, offset) => [locale, record[GLOSSARY_CSV_COLUMNS.length + offset]!]),
    );
    const result = glossaryEntryInputSchema.safeParse({
      term: record[0],
      caseSensitive: flag(1),
      keepAsIs: flag(2),
      note: record[3],
      translations,
    });
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const field = issue.path.length > 0 ? issue.path.join('.') : 'entry';
      throw new FormatError(path, `${field}: ${issue.message}`, {
        line: info.lines,
        column: columnOf(issue.path, localeColumns, record),
      });
    }
    const key = glossaryTermKey(result.data.term);
    linesByTerm.set(key, [...(linesByTerm.get(key) ?? []), info.lines]);
    return result.data;
  });

  const repeated = [...linesByTerm.values()].filter((lines) => lines.length > 1);
  if (repeated.length > 0) {
    const named = repeated
      .slice(0, 20)
      .map((lines) => `lines ${lines.join(', ')}`)
      .join('; ');
    throw new FormatError(
      path,
      `a term appears more than once (terms are compared ignoring case): ${named}`,
      { line: repeated[0]![1]!, column: 1 },
    );
  }
  return entries;
}

/**
 * The glossary as CSV: the header, then one row per entry; a column per locale of `locales` (the
 * project's targets), then any other locale an entry has a rendering for. Cells are safe to open
 * in a spreadsheet (toSpreadsheetCell) and parseGlossaryCsv reads them back as they were.
 */
export function formatGlossaryCsv(
  entries: readonly Pick<GlossaryEntry, 'term' | 'caseSensitive' | 'keepAsIs' | 'note' | 'translations'>[],
  locales: readonly string[],
): string {
  const extra = new Set(entries.flatMap((entry) => Object.keys(entry.translations)));
  for (const locale of locales) extra.delete(locale);
  const columns = [...locales, ...[...extra].sort()];
  const rows = entries.map((entry) =>
    [
      entry.term,
      String(entry.caseSensitive),
      String(entry.keepAsIs),
      entry.note ?? '',
      ...columns.map((locale) => entry.translations[locale] ?? ''),
    ].map(toSpreadsheetCell),
  );
  return stringify([[...GLOSSARY_CSV_COLUMNS, ...columns], ...rows], { quoted_match: FORMULA_START });
}
