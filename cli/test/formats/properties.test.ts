import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError, formatNamed, type FormatOptions } from '../../src/formats/index.js';
import { propertiesFormat } from '../../src/formats/properties.js';
import { readWithFindings as readFileWithFindings } from './read-with-findings.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-properties-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What translate-toolkit makes of files: each converted by `prop2po` (Java's reading: `java` is
 * ISO-8859-1, `java-utf8` UTF-8), the PO read back with translate-toolkit's own PO reader: each
 * unit's key (its location) and value (its msgid), with the comments above it.
 */
function prop2po(files: { bytes: Buffer; encoding?: FormatOptions['encoding'] }[]) {
  const jobs = files.map(({ bytes, encoding }, index) => {
    const input = join(dir, `f${index}-${Math.random().toString(36).slice(2)}.properties`);
    writeFileSync(input, bytes);
    return [input, `${input}.po`, encoding === 'iso-8859-1' ? 'java' : 'java-utf8'];
  });
  const script = [
    'import json, sys',
    'from translate.convert import prop2po',
    'from translate.storage import po',
    // prop2po's own conversion, in one interpreter rather than a process per file.
    'for job in json.loads(sys.argv[1]):',
    '    with open(job[0], "rb") as source, open(job[1], "wb") as target:',
    '        prop2po.convertprop(source, target, None, personality=job[2])',
    '    units = po.pofile(open(job[1], "rb").read()).units',
    '    print(json.dumps([[u.getlocations()[0], u.source, u.getnotes()] for u in units if not u.isheader()]))',
  ].join('\n');
  const out = execFileSync('/usr/bin/python3', ['-c', script, JSON.stringify(jobs)], { encoding: 'utf8' });
  return out
    .trimEnd()
    .split('\n')
    .map((line) => {
      const units = JSON.parse(line) as [string, string, string][];
      // A location is the key as the file escapes it (`key\\ with\\ spaces`).
      return Object.fromEntries(units.map(([key, value]) => [key.replace(/\\(.)/g, '$1'), value]));
    });
}

function read(text: string | Buffer, options: FormatOptions = {}) {
  return propertiesFormat.read({
    bytes: typeof text === 'string' ? Buffer.from(text) : text,
    locale: 'en',
    path: 'src/main/resources/messages.properties',
    options,
  });
}

function write(
  source: string | Buffer,
  locale: string,
  values?: Record<string, string>,
  options: FormatOptions = {},
) {
  const bytes = typeof source === 'string' ? Buffer.from(source) : source;
  const parsed = parseSourceDocument(read(bytes, options));
  const own = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  return propertiesFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => (values ? values[key] : own.get(key)),
    target: targetKeys(parsed, locale),
    options,
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

const SOURCE = [
  '# Messages of the shop.',
  '',
  '# The title of the checkout page.',
  '! Shown in the browser tab too.',
  'checkout.title = Checkout',
  'checkout.total:Total: {0}',
  'checkout.items   {0} items',
  '    indented.key = indented',
  'greeting=Hello, {0}!\\nWelcome back.',
  'path = C:\\\\Users\\\\{0}',
  'long.text = This value goes on \\',
  '            over two lines \\',
  '            and three.',
  'key\\ with\\ spaces = spaced key',
  'escaped\\=key\\:name = separators in the key',
  'leading = \\  two leading spaces',
  'tab = a\\tb',
  'unicode.escaped = caf\\u00e9 \\u2713',
  'unicode.raw = Ça marche ✓ 🎉',
  'empty =',
  'no.separator',
  'item_one = {{count}} item',
  'item_other = {{count}} items',
  '',
].join('\n');

describe('properties format: round trips', () => {
  it('when a file is written from its own values, then the bytes are the same', () => {
    expect(write(SOURCE, 'en').toString('utf8')).toBe(SOURCE);
    for (const text of ['a=1', 'a=1\r\nb=2\r\n', '\ufeffa=1\n', '# only a comment\n', '']) {
      expect(write(text, 'en').toString('utf8')).toBe(text);
    }
    const latin1 = Buffer.from('# caf\xe9\ntitle=Caf\xe9 \\u2713\n', 'latin1');
    expect(write(latin1, 'en', undefined, { encoding: 'iso-8859-1' })).toEqual(latin1);
  });

  it('when a file is read, then keys stay flat, values are unescaped and comments are context', () => {
    const document = read(SOURCE);
    expect(parseSourceDocument(document).keys).toEqual([
      'checkout.title',
      'checkout.total',
      'checkout.items',
      'indented.key',
      'greeting',
      'path',
      'long.text',
      'key with spaces',
      'escaped=key:name',
      'leading',
      'tab',
      'unicode.escaped',
      'unicode.raw',
      'empty',
      'no.separator',
      'item_one',
      'item_other',
    ]);
    expect(document).toMatchObject({
      'checkout.title': 'Checkout',
      '@checkout.title': { description: 'The title of the checkout page.\nShown in the browser tab too.' },
      'checkout.total': 'Total: {0}',
      'checkout.items': '{0} items',
      greeting: 'Hello, {0}!\nWelcome back.',
      path: 'C:\\Users\\{0}',
      'long.text': 'This value goes on over two lines and three.',
      leading: '  two leading spaces',
      tab: 'a\tb',
      'unicode.escaped': 'café ✓',
      'unicode.raw': 'Ça marche ✓ 🎉',
      empty: '',
      'no.separator': '',
    });
    expect(document['@checkout.total']).toBeUndefined();
    // translate-toolkit reads the source the same way.
    const [reference] = prop2po([{ bytes: Buffer.from(SOURCE) }]);
    for (const [key, value] of Object.entries(document)) {
      if (!key.startsWith('@') && value !== '') expect(reference![key], key).toBe(value);
    }
  });
});

describe('properties format: targets', () => {
  const values: Record<string, string> = {
    'checkout.title': 'Finalizar compra',
    'checkout.total': 'Total: {0}',
    'checkout.items': '{0} itens',
    'indented.key': 'recuado',
    greeting: 'Olá, {0}!\nBem-vindo de volta.',
    path: 'C:\\Usuários\\{0}',
    'long.text': 'Este valor continua em uma linha.',
    'key with spaces': 'chave com espaços',
    'escaped=key:name': 'separadores na chave',
    leading: '  dois espaços',
    tab: 'a\tb',
    'unicode.escaped': 'café ✓',
    'unicode.raw': 'Funciona ✓ 🎉 Ω',
    'no.separator': 'agora com valor',
    item_one: '{{count}} item',
    item_many: '{{count}} de itens',
    item_other: '{{count}} itens',
  };

  it('when a target is written in UTF-8, then it keeps the layout and prop2po reads every value', () => {
    const written = write(SOURCE, 'pt-BR', values).toString('utf8');
    expect(written.split('\n').slice(0, 9)).toEqual([
      '# Messages of the shop.',
      '',
      '# The title of the checkout page.',
      '! Shown in the browser tab too.',
      'checkout.title = Finalizar compra',
      'checkout.total:Total: {0}',
      'checkout.items   {0} itens',
      '    indented.key = recuado',
      'greeting=Olá, {0}!\\nBem-vindo de volta.',
    ]);
    expect(written).toContain('long.text = Este valor continua em uma linha.\nkey\\ with\\ spaces = chave');
    expect(written).toContain('no.separator=agora com valor\n');
    // `empty` has no value in the target: left out. Portuguese has `many`: written as `_other` is.
    expect(written).not.toContain('empty');
    expect(written).toContain(
      'item_one = {{count}} item\nitem_many = {{count}} de itens\nitem_other = {{count}} itens\n',
    );
    const [reference] = prop2po([{ bytes: Buffer.from(written) }]);
    expect(reference).toEqual(values);
    expect(read(written)).toMatchObject(values);
  });

  it('when the file set is ISO-8859-1, then characters beyond Latin-1 are \\u escapes and prop2po reads them', () => {
    const source = Buffer.from(
      '# Caf\xe9 strings\ntitle=Caf\xe9\nsymbol = \\u2713\nsame=unchanged \xe9\n',
      'latin1',
    );
    const target = { title: 'Café ✓', symbol: 'Ω and é', same: 'unchanged é' };
    const written = write(source, 'fr', target, { encoding: 'iso-8859-1' });
    expect(written.toString('latin1')).toBe(
      '# Caf\xe9 strings\ntitle=Caf\xe9 \\u2713\nsymbol = \\u03a9 and \xe9\nsame=unchanged \xe9\n',
    );
    const [reference] = prop2po([{ bytes: written, encoding: 'iso-8859-1' }]);
    expect(reference).toEqual(target);
    // Beyond the BMP, Java reads a pair of \u escapes (UTF-16), which translate-toolkit cannot
    // (it refuses lone surrogates): checked with the format's own reader.
    const emoji = write(source, 'fr', { ...target, title: 'Fête 🎉' }, { encoding: 'iso-8859-1' });
    expect(emoji.toString('latin1')).toContain('title=F\xeate \\ud83c\\udf89\n');
    expect(read(emoji, { encoding: 'iso-8859-1' })).toMatchObject({ title: 'Fête 🎉' });
  });

  it('when i18next plural keys are apart, then the same forms stay in place and new ones join the first', () => {
    const source = 'files_other = {{count}} files\ntitle = Files\nfiles_one = one file\n';
    expect(write(source, 'en').toString()).toBe(source);
    expect(write(source, 'ja', { files_other: '{{count}} ファイル', title: 'ファイル' }).toString()).toBe(
      'files_other = {{count}} ファイル\ntitle = ファイル\n',
    );
    const polish = {
      files_one: '1 plik',
      files_few: '{{count}} pliki',
      files_many: '{{count}} plików',
      files_other: '{{count}} pliku',
      title: 'Pliki',
    };
    expect(write(source, 'pl', polish).toString()).toBe(
      'files_one = 1 plik\nfiles_few = {{count}} pliki\nfiles_many = {{count}} plików\nfiles_other = {{count}} pliku\ntitle = Pliki\n',
    );
  });

  it('when keys have no value, then they are left out with the comment lines right above them', () => {
    const source = '# Header\n\n# about a\na=1\n# about b\nb=2\n\nc=3\n';
    expect(write(source, 'de', { b: 'zwei' }).toString()).toBe('# Header\n\n# about b\nb=zwei\n\n');
    expect(write(source, 'de', { a: 'eins', c: 'drei' }).toString()).toBe(
      '# Header\n\n# about a\na=eins\n\nc=drei\n',
    );
  });

  it('when a locale is spelled in a file name, then it is Java bundle naming', () => {
    expect(formatNamed('properties')).toBe(propertiesFormat);
    expect(propertiesFormat.spellLocale('pt-BR')).toBe('pt_BR');
    expect(propertiesFormat.spellLocale('zh-Hant')).toBe('zh_Hant');
    expect(propertiesFormat.spellLocale('zh-Hant-TW')).toBe('zh_Hant_TW');
    expect(propertiesFormat.readLocale('pt_BR')).toBe('pt-BR');
    expect(propertiesFormat.readLocale('zh_Hant')).toBe('zh-Hant');
    expect(propertiesFormat.readLocale('es_419')).toBe('es-419');
    expect(propertiesFormat.readLocale('pt-BR')).toBeUndefined();
    expect(propertiesFormat.readLocale('not a locale')).toBeUndefined();
  });
});

describe('properties format: any text', () => {
  const piece = fc.constantFrom(
    ' ',
    '  ',
    '\\',
    '=',
    ':',
    '#',
    '!',
    '\t',
    '\n',
    '\r\n',
    'é',
    'Ω',
    '✓',
    'a',
    'Key',
    '\\u',
  );
  const texts = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
  const layouts = fc.constantFrom('k = v', 'k=v', 'k:v', 'k v', '  k  =  v', 'k = v \\\n    w');

  it('when any text is written, then Java readers get it back, in UTF-8 and in ISO-8859-1', () => {
    const samples = fc.sample(
      fc.tuple(fc.array(fc.tuple(layouts, texts), { minLength: 1, maxLength: 6 }), fc.boolean()),
      { numRuns: 20, seed: 15 },
    );
    const cases = samples.map(([entries, latin1]) => {
      const options: FormatOptions = latin1 ? { encoding: 'iso-8859-1' } : {};
      const source = entries
        .map(([layout], index) => layout.replace('k', `key${index}`).replace('v', 'x'))
        .join('\n');
      const values = Object.fromEntries(entries.map(([, text], index) => [`key${index}`, text]));
      const written = write(Buffer.from(`${source}\n`, latin1 ? 'latin1' : 'utf8'), 'fr', values, options);
      expect(read(written, options)).toEqual(values);
      return { bytes: written, encoding: options.encoding, values };
    });
    // translate-toolkit reads them as Java does.
    prop2po(cases).forEach((reference, index) => {
      expect(reference, cases[index]!.bytes.toString('latin1')).toEqual(cases[index]!.values);
    });
  });
});

describe('properties format: bad input', () => {
  it('when the bytes are not UTF-8, then the error says where and suggests ISO-8859-1', () => {
    const error = failure(() => read(Buffer.from('a=ok\nb=caf\xe9\n', 'latin1')));
    expect(error.position).toEqual({ line: 2, column: 6 });
    expect(error.reason).toContain('"encoding": "iso-8859-1"');
    expect(read(Buffer.from('a=ok\nb=caf\xe9\n', 'latin1'), { encoding: 'iso-8859-1' })).toEqual({
      a: 'ok',
      b: 'café',
    });
  });

  it('when a \\u escape is malformed, then the error names its line and column', () => {
    const error = failure(() => read('a=ok\nb=fine\nc=bad \\u12G4 escape\nd=ok\n'));
    expect(error.position).toEqual({ line: 3, column: 7 });
    expect(error.reason).toContain('\\u12G4');
    expect(failure(() => read('a=\\u00')).position?.line).toBe(1);
  });

  it('when a key is given twice, then the last value is kept and a finding names it and both lines', () => {
    const { document, findings } = readFileWithFindings(propertiesFormat, 'a=1\nb=2\n  a = 3\n', {
      locale: 'de',
      path: 'Messages_de.properties',
    });
    expect(document).toEqual({ a: '3', b: '2' });
    expect(findings).toEqual([
      {
        key: 'a',
        kind: 'duplicate',
        severity: 'warning',
        message: 'the key "a" is given twice (lines 1, 3); the last value is kept, as Java keeps it',
        file: 'Messages_de.properties',
        line: 3,
        column: 3,
      },
    ]);
  });

  it('when a key cannot be a key of the locale document, then it is left out with a finding', () => {
    const { document, findings } = readFileWithFindings(propertiesFormat, 'ok=1\n@meta=2\na..b=1\n=value\n', {
      locale: 'de',
      path: 'x.properties',
    });
    expect(document).toEqual({ ok: '1' });
    expect(findings.map((finding) => [finding.line, finding.column, finding.kind])).toEqual([
      [2, 1, 'format'],
      [3, 1, 'format'],
      [4, 1, 'format'],
    ]);
    expect(findings[1]!.message).toContain('"a..b"');
  });

  it('when the file is UTF-16 or binary, then it is refused with a place, whatever its encoding', () => {
    for (const options of [{}, { encoding: 'iso-8859-1' as const }]) {
      expect(failure(() => read(Buffer.from('a=b\nc=d\n', 'utf16le'), options)).reason).toMatch(
        /^is UTF-16 text/,
      );
      expect(failure(() => read(Buffer.from('a=b\nc=\u0000d\n'), options)).position).toEqual({
        line: 2,
        column: 3,
      });
    }
  });
});
