import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError, formatNamed } from '../../src/formats/index.js';
import { stringsFormat } from '../../src/formats/strings.js';
import { prop2poStrings } from '../support/platform-tools.js';
import { readWithFindings as readFileWithFindings } from './read-with-findings.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-strings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What translate-toolkit's `prop2po --personality=strings` makes of each file's bytes. */
function prop2po(files: Buffer[]): Record<string, string>[] {
  return prop2poStrings(
    files.map((bytes, index) => {
      const input = join(dir, `f${index}-${Math.random().toString(36).slice(2)}.strings`);
      writeFileSync(input, bytes);
      return input;
    }),
  );
}

function read(bytes: string | Buffer) {
  return stringsFormat.read({
    bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    locale: 'en',
    path: 'App/en.lproj/Localizable.strings',
    options: {},
  });
}

function write(source: string | Buffer, locale: string, values?: Record<string, string>) {
  const bytes = typeof source === 'string' ? Buffer.from(source) : source;
  const parsed = parseSourceDocument(read(bytes));
  const own = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  return stringsFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => (values ? values[key] : own.get(key)),
    target: targetKeys(parsed, locale, { i18nextPlurals: false }),
    options: {},
  });
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

const utf16 = (text: string, bigEndian = false) => {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  return bigEndian ? le.swap16() : le;
};

const SOURCE = [
  '/* Localizable.strings',
  '   Shop',
  '*/',
  '',
  '/* Title of the checkout screen */',
  '"checkout_title" = "Checkout";',
  '',
  '// Greeting on the home screen, %@ is the name',
  '"Hello, %@" = "Hello, %@!";',
  '',
  '/* No comment provided by engineer. */',
  '"files_count" = "%1$lld files in %2$@";',
  '"quote" = "She said \\"hi\\" \\\\ bye\\nNext line\\tTab";',
  '"unicode" = "caf\\U00e9 ✓ 🎉";',
  'unquoted_key = "unquoted key";',
  '"spaced"   =   "spaces around";',
  '"empty" = "";',
  '',
].join('\n');

describe('strings format: round trips', () => {
  it('when a file is written from its own values, then the bytes are the same, in UTF-8 and UTF-16', () => {
    expect(write(SOURCE, 'en').toString('utf8')).toBe(SOURCE);
    expect(write(utf16(SOURCE), 'en')).toEqual(utf16(SOURCE));
    expect(write(utf16(SOURCE, true), 'en')).toEqual(utf16(SOURCE, true));
    const bom = Buffer.from(`\ufeff${SOURCE}`);
    expect(write(bom, 'en')).toEqual(bom);
    for (const text of ['"a"="1";', '"a" = "1";\r\n"b" = "2";\r\n', '/* only a comment */\n', '']) {
      expect(write(text, 'en').toString('utf8')).toBe(text);
    }
  });

  it('when a file is read, then keys are verbatim, values unescaped and comments context', () => {
    const document = read(SOURCE);
    expect(parseSourceDocument(document).keys).toEqual([
      'checkout_title',
      'Hello, %@',
      'files_count',
      'quote',
      'unicode',
      'unquoted_key',
      'spaced',
      'empty',
    ]);
    expect(document).toMatchObject({
      checkout_title: 'Checkout',
      '@checkout_title': { description: 'Title of the checkout screen' },
      'Hello, %@': 'Hello, %@!',
      '@Hello, %@': { description: 'Greeting on the home screen, %@ is the name' },
      files_count: '%1$lld files in %2$@',
      quote: 'She said "hi" \\ bye\nNext line\tTab',
      unicode: 'café ✓ 🎉',
      unquoted_key: 'unquoted key',
      spaced: 'spaces around',
      empty: '',
    });
    // Xcode's placeholder comment is no context; the file's header (a blank line apart) neither.
    expect(document['@files_count']).toBeUndefined();
    expect(read(utf16(SOURCE))).toEqual(document);
    expect(read(utf16(SOURCE, true))).toEqual(document);
    // translate-toolkit reads the source the same way, in both encodings.
    for (const reference of prop2po([Buffer.from(SOURCE), utf16(SOURCE)])) {
      for (const [key, value] of Object.entries(document)) {
        if (!key.startsWith('@') && value !== '') expect(reference[key], key).toBe(value);
      }
    }
  });
});

describe('strings format: targets', () => {
  const values: Record<string, string> = {
    checkout_title: 'Finalizar compra',
    'Hello, %@': 'Olá, %@!',
    files_count: '%1$lld arquivos em %2$@',
    quote: 'Ela disse "oi" \\ tchau\nPróxima linha\tTab',
    unicode: 'Ω ✓ 🎉 \u0001',
    unquoted_key: 'chave sem aspas',
    spaced: 'espaços',
  };

  it('when a target is written, then it keeps the layout, leaves out keys with no value and prop2po reads every value', () => {
    const written = write(SOURCE, 'pt-BR', values).toString('utf8');
    expect(written).toBe(
      [
        '/* Localizable.strings',
        '   Shop',
        '*/',
        '',
        '/* Title of the checkout screen */',
        '"checkout_title" = "Finalizar compra";',
        '',
        '// Greeting on the home screen, %@ is the name',
        '"Hello, %@" = "Olá, %@!";',
        '',
        '/* No comment provided by engineer. */',
        '"files_count" = "%1$lld arquivos em %2$@";',
        '"quote" = "Ela disse \\"oi\\" \\\\ tchau\\nPróxima linha\\tTab";',
        '"unicode" = "Ω ✓ 🎉 \\U0001";',
        'unquoted_key = "chave sem aspas";',
        '"spaced"   =   "espaços";',
        '',
      ].join('\n'),
    );
    expect(read(written)).toEqual(expect.objectContaining(values));
    const sixteen = write(utf16(SOURCE), 'pt-BR', values);
    expect(sixteen.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfe]));
    expect(sixteen).toEqual(utf16(written));
    const big = write(utf16(SOURCE, true), 'pt-BR', values);
    expect(big).toEqual(utf16(written, true));
    const [fromUtf8, fromUtf16] = prop2po([Buffer.from(written), sixteen]);
    // translate-toolkit gives a control character back as it is escaped.
    const expected = { ...values, unicode: 'Ω ✓ 🎉 \u0001' };
    for (const reference of [fromUtf8!, fromUtf16!]) {
      for (const [key, value] of Object.entries(expected)) {
        if (key !== 'unicode') expect(reference[key], key).toBe(value);
      }
      expect(reference.unicode).toContain('Ω ✓ 🎉');
    }
  });

  it('when keys have no value, then they are left out with the comments right above them', () => {
    const source =
      '/* Header */\n\n/* about a */\n"a" = "1";\n// about b\n"b" = "2";\n\n"c" = "3"; "d" = "4";\n';
    expect(write(source, 'de', { b: 'zwei', d: 'vier' }).toString()).toBe(
      '/* Header */\n\n// about b\n"b" = "zwei";\n\n "d" = "vier";\n',
    );
    expect(write(source, 'de', { a: 'eins', c: 'drei' }).toString()).toBe(
      '/* Header */\n\n/* about a */\n"a" = "eins";\n\n"c" = "drei";\n',
    );
  });

  it('when a locale is spelled in a path, then it is the lproj directory name', () => {
    expect(formatNamed('strings')).toBe(stringsFormat);
    expect(stringsFormat.spellLocale('pt-BR')).toBe('pt-BR');
    expect(stringsFormat.spellLocale('zh-Hant')).toBe('zh-Hant');
    expect(stringsFormat.readLocale('pt-BR')).toBe('pt-BR');
    expect(stringsFormat.readLocale('zh-Hant')).toBe('zh-Hant');
    expect(stringsFormat.readLocale('en')).toBe('en');
    expect(stringsFormat.readLocale('Base')).toBeUndefined();
    expect(stringsFormat.readLocale('pt_BR')).toBeUndefined();
  });
});

describe('strings format: bad input', () => {
  it('when keys are English sentences, then the file round trips byte for byte and the server accepts its keys', () => {
    const names = [
      'Saved.',
      'Are you sure?',
      'Delete %@?',
      'Version 2.0',
      '...',
      'a..b',
      'items_one',
      'items_other',
    ];
    const source = names.map((name) => `/* ${name} */\n"${name}" = "${name}";\n`).join('\n');
    expect(write(source, 'en').toString('utf8')).toBe(source);
    const parsed = parseSourceDocument(read(source));
    expect(parsed.values).toEqual(names);
    expect(parsed.keys).toEqual([
      'Saved\u2024',
      'Are you sure?',
      'Delete %@?',
      'Version 2.0',
      '\u2024\u2024\u2024',
      'a\u2024\u2024b',
      'items\u02CDone',
      'items\u02CDother',
    ]);
    expect(parsed.annotations.get('Saved\u2024')).toEqual({ description: 'Saved.' });
    // In a namespace too, and no i18next plural group: a target is asked for the source's keys.
    expect(parseSourceDocument({ Localizable: read(source) }).values).toEqual(names);
    expect(targetKeys(parsed, 'pl').keys).toEqual(parsed.keys);
    const values = Object.fromEntries(parsed.keys.map((key, at) => [key, `[pl] ${parsed.values[at]!}`]));
    const target = write(source, 'pl', values);
    expect(prop2po([target])[0]).toEqual(Object.fromEntries(names.map((name) => [name, `[pl] ${name}`])));
    expect(read(target)).toEqual(
      Object.fromEntries(
        parsed.keys.flatMap((key, at) => [
          [key, `[pl] ${names[at]!}`],
          [`@${key}`, { description: names[at]! }],
        ]),
      ),
    );
  });

  it('when a string is unterminated, then the error names the line and column where it opens', () => {
    const error = failure(() => read('"a" = "ok";\n"b" = "never closed;\n"c" = "x";\n'));
    // The quote of "b"'s value runs to `"c`, whose `c` then is no `;`.
    expect(error.position?.line).toBe(3);
    const open = failure(() => read('"a" = "ok";\n  "b" = "never closed;\n'));
    expect(open.reason).toBe('the string of the value opened here is never closed with "');
    expect(open.position).toEqual({ line: 2, column: 9 });
    expect(failure(() => read('"a" = "ok";\n"unclosed key = "x";')).position).toEqual({
      line: 2,
      column: 18,
    });
    expect(failure(() => read('/* never closed\n"a" = "b";')).position).toEqual({ line: 1, column: 1 });
  });

  it('when a pair lacks = or ;, then the error says where', () => {
    expect(failure(() => read('"a" "b";')).reason).toBe('"=" is missing after the key "a"');
    const semicolon = failure(() => read('"a" = "b"\n"c" = "d";'));
    expect(semicolon.reason).toBe('";" is missing after the value of "a"');
    expect(semicolon.position).toEqual({ line: 2, column: 1 });
    expect(failure(() => read('"a" = "\\U12G4";')).position).toEqual({ line: 1, column: 8 });
  });

  it('when a key is given twice, then the last value is kept with a finding; a key that cannot be one is left out with a finding', () => {
    const text = '"a" = "1";\n"b" = "2";\n"a" = "3";\n"Are you sure\u2024" = "x";\n';
    const { document, findings } = readFileWithFindings(stringsFormat, text, {
      locale: 'de',
      path: 'de.lproj/Localizable.strings',
    });
    expect(document).toEqual({ a: '3', b: '2' });
    expect(findings).toEqual([
      {
        key: 'a',
        kind: 'duplicate',
        severity: 'warning',
        message:
          'the key "a" is given twice (lines 1, 3); the last value is kept, as Apple\'s reader keeps it',
        file: 'de.lproj/Localizable.strings',
        line: 3,
        column: 1,
      },
      expect.objectContaining({
        kind: 'format',
        line: 4,
        column: 1,
        message: expect.stringContaining('U+2024'),
      }),
    ]);
    // A target written from such a source has no pair for the key that cannot be one.
    const parsed = parseSourceDocument(read(text));
    const target = stringsFormat
      .write({
        source: Buffer.from(text),
        sourceLocale: 'en',
        locale: 'de',
        valueOf: (key) => `[de] ${key}`,
        target: targetKeys(parsed, 'de'),
        options: {},
      })
      .toString();
    expect(target).toBe('"a" = "[de] a";\n"b" = "[de] b";\n"a" = "[de] a";\n');
  });

  it('when 200,000 pairs are read, then their places are counted in linear time', () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `"k${i}" = "v${i}";`).join('\n');
    const started = performance.now();
    expect(Object.keys(read(text))).toHaveLength(200_000);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('when the bytes are not UTF-8 nor UTF-16, or binary, then the file is refused', () => {
    expect(failure(() => read(Buffer.from('"a" = "caf\xe9";', 'latin1'))).reason).toContain('UTF-8');
    const binary = failure(() => read(Buffer.from('"a" = "b";\n"c" = "\u0000";')));
    expect(binary.reason).toContain('NUL');
    expect(binary.position).toEqual({ line: 2, column: 8 });
  });

  it('when the file is UTF-16 without a byte order mark, then it is read as UTF-16, as Apple reads it', () => {
    expect(read(Buffer.from('"a" = "b";\n', 'utf16le'))).toEqual({ a: 'b' });
    expect(read(Buffer.from('"a" = "b";\n', 'utf16le').swap16())).toEqual({ a: 'b' });
  });
});
