// What the json, i18next and arb format tests share: reading a file as the CLI will, writing a
// target from it, and catching the FormatError of a bad file.
import { expect } from 'vitest';
import { parseSourceDocument, targetKeys, type ParsedSource, type PluralKeyOptions } from '@tolk/locale-file';
import { FormatError, type FileFinding, type LocaleFormat } from '../../src/formats/index.js';

/** A file read by `format`, the document checked by the server's own rules, and its findings. */
export function readFile(
  format: LocaleFormat,
  text: string | Buffer,
  locale = 'en',
): { document: Record<string, unknown>; parsed: ParsedSource; findings: FileFinding[] } {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const findings: FileFinding[] = [];
  const document = format.read({ bytes, locale, path: `locales/${locale}.json`, options: {}, findings });
  return { document, parsed: parseSourceDocument(document), findings };
}

/** The source written back from its own values: byte-identical where the format allows. */
export function writeBack(format: LocaleFormat, text: string | Buffer, locale = 'en'): Buffer {
  const source = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const { parsed } = readFile(format, source, locale);
  const values = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  return format.write({
    source,
    sourceLocale: locale,
    locale,
    valueOf: (key) => values.get(key),
    target: targetKeys(parsed, locale),
    options: {},
  });
}

/** A target file for `locale` with `valueOf`'s values, as the CLI will ask for it. */
export function writeTarget(
  format: LocaleFormat,
  sourceText: string,
  locale: string,
  valueOf: (key: string) => string | undefined,
  options: PluralKeyOptions & { sourceLocale?: string } = {},
): string {
  const sourceLocale = options.sourceLocale ?? 'en';
  const source = Buffer.from(sourceText, 'utf8');
  const { parsed } = readFile(format, source, sourceLocale);
  const bytes = format.write({
    source,
    sourceLocale,
    locale,
    valueOf,
    target: targetKeys(parsed, locale, options),
    options: {},
  });
  return bytes.toString('utf8');
}

/** The FormatError reading `text` gives. */
export function readError(format: LocaleFormat, text: string | Buffer, locale = 'en'): FormatError {
  try {
    readFile(format, text, locale);
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return error as FormatError;
  }
  throw new Error('the file was read without an error');
}

/**
 * The target file `existing` as `format` writes it over with `valueOf`'s values (DESIGN §16), the
 * keys Tolk synced for the locale `options.synced` (none when absent).
 */
export function editTarget(
  format: LocaleFormat,
  sourceText: string,
  existing: string | Buffer,
  locale: string,
  valueOf: (key: string) => string | undefined,
  options: PluralKeyOptions & { synced?: (key: string) => boolean } = {},
): string {
  const source = Buffer.from(sourceText, 'utf8');
  const { parsed } = readFile(format, source, 'en');
  const bytes = format.write({
    source,
    sourceLocale: 'en',
    locale,
    valueOf,
    target: targetKeys(parsed, locale, options),
    existing: typeof existing === 'string' ? Buffer.from(existing, 'utf8') : existing,
    ...(options.synced ? { synced: options.synced } : {}),
    options: {},
  });
  return bytes.toString('utf8');
}
