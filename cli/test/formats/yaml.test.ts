import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { FormatError, formatNamed } from '../../src/formats/index.js';
import { icuPluralMessage, pluralBranches } from '../../src/formats/plural-message.js';
import { yamlFormat } from '../../src/formats/yaml.js';
import { readWithFindings as readFileWithFindings } from './read-with-findings.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-yaml-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What Python's PyYAML (a YAML 1.1 reader, as Ruby's Psych is) makes of files, in one run. */
function pyyamlAll(files: Buffer[]): unknown[] {
  const paths = files.map((bytes, index) => {
    const file = join(dir, `f${index}-${Math.random().toString(36).slice(2)}.yml`);
    writeFileSync(file, bytes);
    return file;
  });
  const script = [
    'import json,sys,yaml',
    'for path in sys.argv[1:]:',
    '    print(json.dumps(yaml.safe_load(open(path, encoding="utf-8")), default=str))',
  ].join('\n');
  const out = execFileSync('/usr/bin/python3', ['-c', script, ...paths], { encoding: 'utf8' });
  return out
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

function pyyaml(bytes: Buffer): unknown {
  return pyyamlAll([bytes])[0];
}

function read(text: string, options: { rails?: boolean; locale?: string } = {}) {
  return yamlFormat.read({
    bytes: Buffer.from(text),
    locale: options.locale ?? 'en',
    path: 'config/locales/en.yml',
    options: { rails: options.rails },
  });
}

/** The file read, with its findings. */
function readWithFindings(text: string, options: { rails?: boolean; locale?: string } = {}) {
  return readFileWithFindings(yamlFormat, text, {
    locale: options.locale ?? 'en',
    path: 'config/locales/en.yml',
    options: { rails: options.rails },
  });
}

/** The source read, and written for `locale` with `values` (the source's own by default). */
function write(
  text: string,
  locale: string,
  values?: Record<string, string>,
  options: { rails?: boolean; sourceLocale?: string } = {},
): string {
  const sourceLocale = options.sourceLocale ?? 'en';
  const parsed = parseSourceDocument(read(text, { rails: options.rails, locale: sourceLocale }));
  const own = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  const asked: string[] = [];
  const out = yamlFormat.write({
    source: Buffer.from(text),
    sourceLocale,
    locale,
    valueOf: (key) => {
      asked.push(key);
      return values ? values[key] : own.get(key);
    },
    target: targetKeys(parsed, locale),
    options: { rails: options.rails },
  });
  return out.toString('utf8');
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

const PLAIN = `# Strings of the web app.

app:
    title: Tolk   # shown in the browser tab
    # The greeting on the home page.
    # {name} is the user's first name.
    greeting: "Hello, {name}!"
    quote: 'It''s here'
    empty: ""
    unicode: "Ça marche — 日本語 ✓ 🎉"
    long: >
        Folded text that goes on
        over two lines.

    terms: |
        Line one.
          Indented line two.
    kept_trailing: |+
        Keep

    strip: |-
        no final newline
nav:
- Home
- "About us"
-   Contact
cart:
  item_one: "{{count}} item"
  item_other: "{{count}} items"
  files: "{count, plural, one {# file} other {# files}}"
"dotted.key": flat
no: Norwegian key stays a key
empty_quoted: ''
`;

const RAILS = `# Rails locale file.
en:
  activerecord:
    errors:
      messages:
        # %{attribute} is the field name.
        blank: "%{attribute} can't be blank"
        too_long:
          one: is too long (maximum is 1 character)
          other: is too long (maximum is %{count} characters)
  inbox:
    zero: "No messages"
    one: "1 message"
    other: "%{count} messages"
  date:
    order:
      - :year
      - :month
      - :day
    abbr_day_names: [~, Mon, Tue]
  number:
    format:
      precision: 2
      significant: false
      separator: "."
  hello: Hello
`;

describe('yaml format: round trips', () => {
  it('when a plain file is written from its own values, then the bytes are the same', () => {
    expect(write(PLAIN, 'en')).toBe(PLAIN);
  });

  it('when a Rails file is written from its own values, then the bytes are the same', () => {
    expect(write(RAILS, 'en', undefined, { rails: true })).toBe(RAILS);
  });

  it('when files have CRLF line ends, no final newline, document markers or a BOM, then they are kept', () => {
    for (const text of [
      'a: x\r\nb:\r\n  c: "y"\r\n',
      'a: x',
      '---\na: x\n...\n',
      '\ufeffa: x\n',
      '%YAML 1.2\n---\na: x\n',
    ]) {
      expect(write(text, 'en')).toBe(text);
    }
  });

  it('when a file is read, then the server accepts the document, with comments as context', () => {
    const document = read(PLAIN);
    const parsed = parseSourceDocument(document);
    expect(parsed.keys).toEqual([
      'app.title',
      'app.greeting',
      'app.quote',
      'app.empty',
      'app.unicode',
      'app.long',
      'app.terms',
      'app.kept_trailing',
      'app.strip',
      'nav.0',
      'nav.1',
      'nav.2',
      'cart.item_one',
      'cart.item_other',
      'cart.files',
      'dotted.key',
      'no',
      'empty_quoted',
    ]);
    expect(document).toMatchObject({
      app: {
        title: 'Tolk',
        '@title': { description: 'shown in the browser tab' },
        greeting: 'Hello, {name}!',
        '@greeting': { description: "The greeting on the home page.\n{name} is the user's first name." },
        quote: "It's here",
        empty: '',
        long: 'Folded text that goes on over two lines.\n',
        terms: 'Line one.\n  Indented line two.\n',
        kept_trailing: 'Keep\n\n',
        strip: 'no final newline',
      },
      nav: ['Home', 'About us', 'Contact'],
    });
    // What the reference reader makes of the file is what Tolk read.
    const reference = pyyaml(Buffer.from(PLAIN)) as Record<string, unknown>;
    expect(reference['app']).toMatchObject({
      title: 'Tolk',
      long: 'Folded text that goes on over two lines.\n',
    });
  });

  it('when a Rails file is read, then the locale key is gone, plural hashes are ICU plurals and settings stay out', () => {
    const document = read(RAILS, { rails: true });
    expect(document).toEqual({
      activerecord: {
        errors: {
          messages: {
            blank: "%{attribute} can't be blank",
            '@blank': { description: '%{attribute} is the field name.' },
            too_long:
              '{count, plural, one {is too long (maximum is 1 character)} other {is too long (maximum is %{count} characters)}}',
          },
        },
      },
      inbox: '{count, plural, zero {No messages} one {1 message} other {%{count} messages}}',
      date: { abbr_day_names: { '1': 'Mon', '2': 'Tue' } },
      number: { format: { separator: '.' } },
      hello: 'Hello',
    });
    expect(parseSourceDocument(document).keys).toContain('date.abbr_day_names.1');
  });
});

describe('yaml format: targets', () => {
  it('when a Rails file is written for pt-BR, then the root key is pt-BR and PyYAML reads the values', () => {
    const written = write(
      RAILS,
      'pt-BR',
      {
        'activerecord.errors.messages.blank': '%{attribute} não pode ficar em branco',
        'activerecord.errors.messages.too_long':
          '{count, plural, one {é muito longo (máximo: 1 caractere)} many {é muito longo (máximo: %{count} caracteres)} other {é muito longo (máximo: %{count} caracteres)}}',
        inbox: '{count, plural, zero {Nenhuma mensagem} one {1 mensagem} other {%{count} mensagens}}',
        'date.abbr_day_names.1': 'seg',
        'date.abbr_day_names.2': 'ter',
        'number.format.separator': ',',
        hello: 'Olá',
      },
      { rails: true },
    );
    expect(written.startsWith('# Rails locale file.\npt-BR:\n')).toBe(true);
    expect(pyyaml(Buffer.from(written))).toEqual({
      'pt-BR': {
        activerecord: {
          errors: {
            messages: {
              blank: '%{attribute} não pode ficar em branco',
              too_long: {
                one: 'é muito longo (máximo: 1 caractere)',
                many: 'é muito longo (máximo: %{count} caracteres)',
                other: 'é muito longo (máximo: %{count} caracteres)',
              },
            },
          },
        },
        // Portuguese has CLDR's `many` (1,000,000 de mensagens): from `other` when the message lacks it.
        inbox: {
          zero: 'Nenhuma mensagem',
          one: '1 mensagem',
          many: '%{count} mensagens',
          other: '%{count} mensagens',
        },
        date: { order: [':year', ':month', ':day'], abbr_day_names: [null, 'seg', 'ter'] },
        number: { format: { precision: 2, significant: false, separator: ',' } },
        hello: 'Olá',
      },
    });
    // The comment of a key comes along; the layout is the source's.
    expect(written).toContain(
      '        # %{attribute} is the field name.\n        blank: "%{attribute} não pode',
    );
  });

  it("when the target's plural categories differ, then the hash has the target's, from the message", () => {
    const source = 'en:\n  files:\n    one: "%{count} file"\n    other: "%{count} files"\n  after: x\n';
    const polish = write(
      source,
      'pl',
      {
        files: '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}',
        after: 'yy',
      },
      { rails: true },
    );
    expect(polish).toBe(
      'pl:\n  files:\n    one: "%{count} plik"\n    few: "%{count} pliki"\n    many: "%{count} plików"\n    other: "%{count} pliku"\n  after: yy\n',
    );
    // Japanese uses only `other`, and may drop the plural (DESIGN §11).
    const japanese = write(source, 'ja', { files: '%{count}個のファイル', after: 'y' }, { rails: true });
    expect(pyyaml(Buffer.from(japanese))).toEqual({
      ja: { files: { other: '%{count}個のファイル' }, after: 'y' },
    });
    // A category missing from the message gets the `other` text (Rails raises on a missing one);
    // Arabic uses `zero`, which then comes from `other` too.
    const arabic = write(
      source,
      'ar',
      { files: '{count, plural, one {ملف} other {%{count} ملفات}}' },
      { rails: true },
    );
    expect(pyyaml(Buffer.from(arabic))).toEqual({
      ar: {
        files: {
          zero: '%{count} ملفات',
          one: 'ملف',
          two: '%{count} ملفات',
          few: '%{count} ملفات',
          many: '%{count} ملفات',
          other: '%{count} ملفات',
        },
      },
    });
  });

  it('when a source hash has zero, then a target keeps zero only where the message has it (=0 counts)', () => {
    const source = 'en:\n  inbox:\n    zero: none\n    one: one\n    other: many\n';
    expect(
      write(source, 'de', { inbox: '{count, plural, =0 {keine} one {eine} other {#}}' }, { rails: true }),
    ).toBe('de:\n  inbox:\n    zero: keine\n    one: eine\n    other: "%{count}"\n');
    expect(write(source, 'de', { inbox: '{count, plural, one {eine} other {viele}}' }, { rails: true })).toBe(
      'de:\n  inbox:\n    one: eine\n    other: viele\n',
    );
  });

  it('when branch texts hold ICU syntax characters, then they read back as the same text', () => {
    const texts = [
      "It's #1 of %{count}",
      "l'été {braces} '' and '#'",
      '%{count} | pipes % and %{not valid} %{x}%{y}',
    ];
    for (const text of texts) {
      const source = `en:\n  k:\n    one: ${JSON.stringify(text)}\n    other: ${JSON.stringify(text + '!')}\n`;
      const message = read(source, { rails: true })['k'] as string;
      expect(write(source, 'en', { k: message }, { rails: true })).toBe(source);
    }
  });

  it('when any branch text goes to ICU and back, then it is the same text, and the message parses', () => {
    const piece = fc.constantFrom(
      "'",
      "''",
      '#',
      '{',
      '}',
      '|',
      '%',
      '%{count}',
      '%{name',
      '%{a b}',
      'é',
      ' ',
      'x',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), fc.array(piece, { maxLength: 10 }), (one, other) => {
        const texts = [one.join(''), other.join('')] as const;
        const message = icuPluralMessage(
          'count',
          [
            ['one', texts[0]],
            ['other', texts[1]],
          ],
          { prefix: '%' },
        );
        const branches = pluralBranches(message, ['one', 'other'], { prefix: '%' });
        expect([branches.get('one'), branches.get('other')]).toEqual(texts);
      }),
      { numRuns: 3000 },
    );
  });

  it('when a value changes, then its style is kept where it can hold the text, and quoted where not', () => {
    const source = [
      'plain: x',
      "single: 'x'",
      'double: "x"',
      'block: |',
      '  x',
      'folded: >-',
      '  x',
      'list: [a, b]',
      '',
    ].join('\n');
    const tricky = [
      'yes',
      'No',
      'on',
      'true',
      'null',
      '~',
      '12',
      '1.5',
      '0x1F',
      '1:30',
      '2024-01-01',
      ':)',
      '- item',
      '? q',
      'a: b',
      'x #y',
      '#hash',
      ' leading space',
      'trailing space ',
      "'quoted'",
      '"double"',
      '[x]',
      '{x}',
      '@at',
      '`tick',
      '%{count}',
      'multi\nline\n',
      'tab\there',
      '',
      '<<',
      'Ünïcödé ✓ 🎉',
      'back\\slash',
    ];
    const cases = tricky.map((text) => {
      const values = {
        plain: text,
        single: text,
        double: text,
        block: text,
        folded: text,
        'list.0': text,
        'list.1': 'b',
      };
      const written = write(source, 'fr', values);
      const expected = {
        plain: text,
        single: text,
        double: text,
        block: text,
        folded: text,
        list: [text, 'b'],
      };
      return { text, written, expected };
    });
    const reference = pyyamlAll(cases.map(({ written }) => Buffer.from(written)));
    cases.forEach(({ text, written, expected }, index) => {
      expect(reference[index], `PyYAML, ${JSON.stringify(text)}:\n${written}`).toEqual(expected);
      expect(parseYaml(written), `yaml 1.2, ${JSON.stringify(text)}`).toEqual(expected);
      expect(read(written)).toEqual(expected);
    });
    // Simple texts keep their style.
    const simple = {
      plain: 'mot',
      single: 'mot',
      double: 'mot',
      block: 'mot\n',
      folded: 'mot',
      'list.0': 'c',
      'list.1': 'd',
    };
    expect(write(source, 'fr', simple)).toBe(
      'plain: mot\nsingle: \'mot\'\ndouble: "mot"\nblock: |\n  mot\nfolded: >-\n  mot\nlist: [c, d]\n',
    );
  });

  it('when keys have no value, then they are left out with their comments, and empty mappings too', () => {
    const source = [
      'a:',
      '  # about b',
      '  b: x',
      '  c: y',
      '',
      '# about d',
      'd: z',
      'e:',
      '  f: 1st',
      'g: [p, q]',
      'h: last',
      '',
    ].join('\n');
    expect(write(source, 'fr', { 'a.c': 'Z', 'g.0': 'P', h: 'L' })).toBe('a:\n  c: Z\nh: L\n');
    // A sequence with an element missing is left out whole: later elements would shift.
    expect(write(source, 'fr', { 'a.b': 'X', 'g.1': 'Q' })).toBe('a:\n  # about b\n  b: X\n');
    expect(write(source, 'fr', { d: 'Z', 'e.f': '1er' })).toBe('\n# about d\nd: Z\ne:\n  f: 1er\n');
    expect(write(source, 'fr', {})).toBe('{}\n');
    expect(write('en:\n  a: x\n', 'fr', {}, { rails: true })).toBe('fr:\n  {}\n');
  });

  it('when the first key of a Rails file has no value, then its comment goes with it', () => {
    const source = 'en:\n  # about a\n  a: first\n  b: second\n';
    expect(write(source, 'fr', { b: 'deuxième' }, { rails: true })).toBe('fr:\n  b: deuxième\n');
  });

  it('when a plain file has a plural hash or a commented group, then they read as in Rails', () => {
    const source = '# The inbox page.\ninbox:\n  files:\n    one: "# file"\n    other: "%{count} files"\n';
    const document = read(source);
    expect(document).toEqual({
      inbox: { files: "{count, plural, one {'#' file} other {%{count} files}}" },
      '@inbox': { description: 'The inbox page.' },
    });
    expect(parseSourceDocument(document).annotations.get('inbox')).toEqual({
      description: 'The inbox page.',
    });
    expect(
      write(source, 'cs', {
        'inbox.files': '{count, plural, one {# soubor} few {# soubory} many {# souboru} other {# souborů}}',
      }),
    ).toBe(
      '# The inbox page.\ninbox:\n  files:\n    one: "%{count} soubor"\n    few: "%{count} soubory"\n    many: "%{count} souboru"\n    other: "%{count} souborů"\n',
    );
  });

  it('when a Rails file has a plain y or n, then it is text as Ruby reads it, and kept as written', () => {
    const source = 'en:\n  answer:\n    yes_short: y\n    no_short: n\n    flag: yes\n';
    expect(read(source, { rails: true })).toEqual({ answer: { yes_short: 'y', no_short: 'n' } });
    expect(write(source, 'en', undefined, { rails: true })).toBe(source);
    expect(
      pyyaml(
        Buffer.from(
          write(source, 'de', { 'answer.yes_short': 'j', 'answer.no_short': 'n' }, { rails: true }),
        ),
      ),
    ).toEqual({
      de: { answer: { yes_short: 'j', no_short: 'n', flag: true } },
    });
  });

  it('when a key is named __proto__, then it is a key like any other', () => {
    const document = read('__proto__: x\nb:\n  __proto__: y\n');
    expect(parseSourceDocument(document).keys).toEqual(['__proto__', 'b.__proto__']);
    expect(write('__proto__: x\n', 'fr', Object.fromEntries([['__proto__', 'z']]))).toBe('__proto__: z\n');
  });

  it('when a plain file has i18next plural keys, then a target has its own forms at their place', () => {
    const source =
      'title: Cart\ncart:\n  item_one: "{{count}} item"\n  item_other: "{{count}} items"\n  total: Total\n';
    const written = write(source, 'pl', {
      title: 'Koszyk',
      'cart.item_one': '{{count}} produkt',
      'cart.item_few': '{{count}} produkty',
      'cart.item_many': '{{count}} produktów',
      'cart.item_other': '{{count}} produktu',
      'cart.total': 'Suma',
    });
    expect(written).toBe(
      'title: Koszyk\ncart:\n  item_one: "{{count}} produkt"\n  item_few: "{{count}} produkty"\n  item_many: "{{count}} produktów"\n  item_other: "{{count}} produktu"\n  total: Suma\n',
    );
    expect(write(source, 'ja', { 'cart.item_other': '{{count}}個', 'cart.total': '合計' })).toBe(
      'cart:\n  item_other: "{{count}}個"\n  total: 合計\n',
    );
  });
});

describe('yaml format: any file the yaml package writes', () => {
  const key = fc.constantFrom('a', 'b', 'title', 'x_one', 'x_other', 'k.dot', 'ü');
  const text = fc.constantFrom(
    'Hello',
    'yes',
    '12',
    'a: b',
    '#x',
    "it's",
    'line\nbreak',
    '',
    ' lead',
    'ünï ✓',
    '- dash',
  );
  const { node } = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 4 }),
      fc.array(text, { minLength: 1, maxLength: 3 }),
    ),
  }));
  const style = fc.record({
    indent: fc.constantFrom(2, 4),
    flowLevel: fc.constantFrom(undefined, 1, 2),
    defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE', 'BLOCK_LITERAL' as const),
    indentSeq: fc.boolean(),
  });

  it('when written back, then it is the same bytes; when translated with gaps, then it reads back as translated', () => {
    fc.assert(
      fc.property(
        fc.dictionary(key, node, { minKeys: 1, maxKeys: 5 }),
        style,
        fc.nat(3),
        (object, options, gaps) => {
          const source = stringifyYaml(object, options);
          const parsed = parseSourceDocument(read(source));
          expect(write(source, 'en')).toBe(source);
          // Every (gaps + 1)th key has no value; the others a new text with a line break.
          const values = Object.fromEntries(
            parsed.keys
              .filter((_, index) => gaps === 0 || index % (gaps + 1) !== 0)
              .map((key) => [key, `${parsed.values[parsed.keys.indexOf(key)]} ✓\nfr`]),
          );
          const back = parseSourceDocument(read(write(source, 'fr', values)));
          const got = new Map(back.keys.map((key, index) => [key, back.values[index]]));
          for (const [key, value] of got) expect(value).toBe(values[key]);
          // Only elements of a sequence with a gap are left out, with their sequence.
          for (const key of Object.keys(values)) if (!got.has(key)) expect(key).toMatch(/\.\d+(\.|$)/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('yaml format: bad input', () => {
  it('when the YAML does not parse, then the error names the line and column', () => {
    const error = failure(() => read('a: x\nb: [1, 2\nc: y\n'));
    expect(error.position).toEqual({ line: 3, column: 1 });
    expect(error.message).toMatch(/^config\/locales\/en\.yml:3:1: /);
    expect(failure(() => read('a: b: c\n')).position).toEqual({ line: 1, column: 4 });
  });

  it('when a key is given twice, then the last value is kept and a finding names it and its line', () => {
    const { document, findings } = readWithFindings('a:\n  b: x\n  c: y\n  b: z\n');
    expect(document).toEqual({ a: { c: 'y', b: 'z' } });
    expect(findings).toEqual([
      {
        key: 'a.b',
        kind: 'duplicate',
        severity: 'warning',
        message:
          'the key "b" is given twice in one mapping (first on line 2); the last value is kept, as Ruby and YAML libraries keep it',
        file: 'config/locales/en.yml',
        line: 4,
        column: 3,
      },
    ]);
  });

  it('when a mapping has 20,000 keys, then it is read in linear time', () => {
    const keys = (count: number) => Array.from({ length: count }, (_, i) => `k${i}: v${i}`).join('\n') + '\n';
    const time = (count: number) => {
      const started = performance.now();
      expect(Object.keys(read(keys(count)))).toHaveLength(count);
      return performance.now() - started;
    };
    time(2000);
    // Ten times the keys in well under a hundred times the time (the duplicate check was quadratic).
    expect(time(20_000)).toBeLessThan(Math.max(time(2000), 5) * 30);
  });

  it('when the file has anchors and aliases, then anchors are read where they stand and each alias is a finding, kept as it is', () => {
    const { document, findings } = readWithFindings('base: &greeting Hello\nother: *greeting\nlast: x\n');
    expect(document).toEqual({ base: 'Hello', last: 'x' });
    expect(findings).toMatchObject([
      {
        key: 'other',
        kind: 'format',
        severity: 'warning',
        message:
          '"other" is the alias *greeting: it is kept as it is, sharing the text (and the translation) of &greeting',
        line: 2,
        column: 8,
      },
    ]);
    const merged = readWithFindings('en:\n  defaults: &d\n    a: x\n  page:\n    <<: *d\n    b: y\n', {
      rails: true,
    });
    expect(merged.document).toEqual({ defaults: { a: 'x' }, page: { b: 'y' } });
    expect(merged.findings).toMatchObject([{ key: 'page.<<', kind: 'format', line: 5, column: 5 }]);
    // A target keeps the alias, so it shares the translation of its anchor.
    expect(write('base: &greeting Hello\nother: *greeting\n', 'de', { base: 'Hallo' })).toBe(
      'base: &greeting Hallo\nother: *greeting\n',
    );
  });

  it('when anchors would expand without bound (billion laughs), then nothing is expanded and the file is read at once', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level++) {
      const name = String.fromCharCode(97 + level);
      const previous = String.fromCharCode(96 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const started = performance.now();
    const { document, findings } = readWithFindings(levels.join('\n') + '\ntitle: Hi\n');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(document).toMatchObject({
      a: ['lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol'],
      title: 'Hi',
    });
    expect(Object.keys(document)).toEqual(['a', 'title']);
    expect(findings).toHaveLength(8 * 9);
    expect(findings[0]).toMatchObject({ key: 'b.0', message: expect.stringContaining('alias *a') });
  });

  it('when a plain file holds a number, a boolean or null, then it is left out with a finding naming the key', () => {
    const messages = (text: string) => readWithFindings(text).findings.map((finding) => finding.message);
    expect(messages('a:\n  count: 12\n  b: x\n')[0]).toContain('"a.count" is a number, not a text');
    expect(readWithFindings('a:\n  count: 12\n  b: x\n').document).toEqual({ a: { b: 'x' } });
    expect(messages('a: true\n')[0]).toContain('"a" is a boolean');
    expect(messages('a:\n  b:\n')[0]).toContain('"a.b" is empty (null)');
    expect(readWithFindings('list: [x, 2]\n')).toMatchObject({
      document: { list: { 0: 'x' } },
      findings: [{ key: 'list.1', line: 1, column: 11 }],
    });
  });

  it('when a key is empty or starts with @, then it is left out with a finding', () => {
    const { document, findings } = readWithFindings('"": x\n"@a": y\nb: z\n');
    expect(document).toEqual({ b: 'z' });
    expect(findings.map((finding) => [finding.key, finding.line])).toEqual([
      [null, 1],
      ['@a', 2],
    ]);
  });

  it('when a Rails plural hash has no other, then its forms are kept and an error finding names it; other alone is a plural', () => {
    const { document, findings } = readWithFindings(
      'pl:\n  files:\n    one: "%{count} plik"\n    few: "%{count} pliki"\n  ja_like:\n    other: "%{count}"\n',
      { rails: true, locale: 'pl' },
    );
    expect(document).toEqual({
      files: '{count, plural, one {%{count} plik} few {%{count} pliki}}',
      ja_like: '{count, plural, other {%{count}}}',
    });
    expect(findings).toEqual([
      {
        key: 'files',
        kind: 'plural',
        severity: 'error',
        message:
          'the plural hash "files" has no "other", which every language uses (Rails raises for a count no form covers); its forms are kept',
        file: 'config/locales/en.yml',
        line: 3,
        column: 5,
      },
    ]);
    // Plain YAML keeps category names as keys of their own unless other and another are there.
    expect(read('steps:\n  one: First\n  two: Second\n')).toEqual({ steps: { one: 'First', two: 'Second' } });
  });

  it('when a Rails file does not have its locale as the one root key, then it is refused', () => {
    expect(failure(() => read('de:\n  a: x\n', { rails: true })).reason).toContain(
      'one root key, its locale (en:); its root key is "de"',
    );
    expect(failure(() => read('en:\n  a: x\nfr:\n  a: y\n', { rails: true })).reason).toContain(
      'it has 2 root keys',
    );
    expect(failure(() => read('a: x\n', { rails: true, locale: 'pt-BR' })).reason).toContain('(pt-BR:)');
    expect(failure(() => read('en: hello\n', { rails: true })).reason).toContain('must hold a mapping');
    expect(read('pt_BR:\n  a: x\n', { rails: true, locale: 'pt-BR' })).toEqual({ a: 'x' });
  });

  it('when the file has several documents or a tag it does not know, then a finding says so and the rest is read', () => {
    const several = readWithFindings('a: x\n---\nb: y\n');
    expect(several.document).toEqual({ a: 'x' });
    expect(several.findings).toMatchObject([
      { key: null, line: 3, message: expect.stringContaining('several YAML documents') },
    ]);
    const tagged = readWithFindings('a: !ruby/object x\nb: y\n');
    expect(tagged.document).toEqual({ b: 'y' });
    expect(tagged.findings.map((finding) => finding.message).join('\n')).toContain('!ruby/object');
  });

  it('when the file is not UTF-8 or is nested too deep to read, then it is refused with a place', () => {
    const latin1 = Buffer.from('a: caf\xe9\n', 'latin1');
    const error = failure(() =>
      yamlFormat.read({ bytes: latin1, locale: 'en', path: 'en.yml', options: {} }),
    );
    expect(error.reason).toContain('not UTF-8');
    expect(error.position).toEqual({ line: 1, column: 7 });
    const deep = failure(() => read('a: ' + '['.repeat(100_000) + ']'.repeat(100_000) + '\n'));
    expect(deep.position?.line).toBe(1);
  });
});

describe('yaml format: locale spelling', () => {
  it('when a locale is spelled in a path, then it is BCP 47 as Rails writes it', () => {
    expect(formatNamed('yaml')).toBe(yamlFormat);
    expect(yamlFormat.spellLocale('pt-BR')).toBe('pt-BR');
    expect(yamlFormat.spellLocale('zh-Hant')).toBe('zh-Hant');
    expect(yamlFormat.readLocale('pt-BR')).toBe('pt-BR');
    expect(yamlFormat.readLocale('zh-hant')).toBe('zh-Hant');
    expect(yamlFormat.readLocale('pt_BR')).toBeUndefined();
    expect(yamlFormat.readLocale('not a locale')).toBeUndefined();
  });
});
