import { targetKeys } from '@tolk/locale-file';
import { describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { jsonFormat } from '../../src/formats/json.js';
import { readError, readFile, writeBack, writeTarget } from './json-format-harness.js';

/** A web app's English file: nesting, arrays, interpolation, unicode, an empty value. */
const appFile = (indent: string) =>
  [
    '{',
    `${indent}"app": {`,
    `${indent}${indent}"title": "Tolk — translate everything",`,
    `${indent}${indent}"greeting": "Hello, {{name}}!",`,
    `${indent}${indent}"empty": "",`,
    `${indent}${indent}"emoji": "Done 🎉 — naïve café 日本語 עברית",`,
    `${indent}${indent}"quote": "Say \\"hi\\"\\n\\ton two lines \\\\ backslash"`,
    `${indent}},`,
    `${indent}"nav": {`,
    `${indent}${indent}"items": [`,
    `${indent}${indent}${indent}"Home",`,
    `${indent}${indent}${indent}"About"`,
    `${indent}${indent}],`,
    `${indent}${indent}"footer": {`,
    `${indent}${indent}${indent}"copyright": "© 2026"`,
    `${indent}${indent}}`,
    `${indent}},`,
    `${indent}"flat.dotted.key": "Flat"`,
    '}',
  ].join('\n');

describe('json format: round trips', () => {
  it.each([
    ['two spaces, final newline', appFile('  ') + '\n'],
    ['four spaces, final newline', appFile('    ') + '\n'],
    ['tabs, final newline', appFile('\t') + '\n'],
    ['two spaces, no final newline', appFile('  ')],
    ['two spaces, two final newlines', appFile('  ') + '\n\n'],
    ['CRLF line endings', appFile('  ').replaceAll('\n', '\r\n') + '\r\n'],
    ['a byte order mark', '\uFEFF' + appFile('  ') + '\n'],
    ['a flat file', '{\n  "home.title": "Home",\n  "home.body": "",\n  "a.b.c": "ABC"\n}\n'],
    ['a minified file', '{"a":{"b":"B","c":["x","y"]},"d":"ü"}'],
    ['an empty file object', '{}\n'],
    ['annotations and @@locale, read back as the source', '{\n  "@@locale": "en",\n  "a": "A"\n}\n'],
  ])(
    'when the source has %s and is written back from its own values, then the bytes are the same',
    (_, text) => {
      expect(writeBack(jsonFormat, text).toString('utf8')).toBe(text);
    },
  );

  it('when the source is ASCII with \\u escapes (Python json.dump), then it is written back with the same escapes', () => {
    const lower = '{\n    "caf\\u00e9": "na\\u00efve \\ud83c\\udf89",\n    "plain": "x"\n}\n';
    const upper = '{\n  "a": "\\u65E5\\u672C"\n}';
    expect(writeBack(jsonFormat, lower).toString('utf8')).toBe(lower);
    expect(writeBack(jsonFormat, upper).toString('utf8')).toBe(upper);
    expect(readFile(jsonFormat, lower).document).toEqual({ café: 'naïve 🎉', plain: 'x' });
  });

  it('when a file is read, then the document has its keys in file order and passes the server rules', () => {
    const { parsed } = readFile(jsonFormat, appFile('  '));
    expect(parsed.keys).toEqual([
      'app.title',
      'app.greeting',
      'app.empty',
      'app.emoji',
      'app.quote',
      'nav.items.0',
      'nav.items.1',
      'nav.footer.copyright',
      'flat.dotted.key',
    ]);
    expect(parsed.values[4]).toBe('Say "hi"\n\ton two lines \\ backslash');
  });

  it('when a file has annotations, then they reach the document as context', () => {
    const { parsed } = readFile(
      jsonFormat,
      '{"save": "Save", "@save": {"description": "Button on the editor", "maxLength": 12}}',
    );
    expect(parsed.annotations.get('save')).toEqual({ description: 'Button on the editor', maxLength: 12 });
  });
});

describe('json format: targets', () => {
  it('when a target is written, then it has the source nesting, order, indentation and lack of final newline', () => {
    const german: Record<string, string> = {
      'app.title': 'Tolk — übersetze alles',
      'app.greeting': 'Hallo, {{name}}!',
      'app.empty': '',
      'nav.items.0': 'Start',
      'nav.items.1': 'Über uns',
      'flat.dotted.key': 'Flach',
    };
    const text = writeTarget(jsonFormat, appFile('    '), 'de', (key) => german[key]);
    expect(text).toBe(
      [
        '{',
        '    "app": {',
        '        "title": "Tolk — übersetze alles",',
        '        "greeting": "Hallo, {{name}}!",',
        '        "empty": ""',
        '    },',
        '    "nav": {',
        '        "items": [',
        '            "Start",',
        '            "Über uns"',
        '        ]',
        '    },',
        '    "flat.dotted.key": "Flach"',
        '}',
      ].join('\n'),
    );
  });

  it('when several targets are written from one source buffer, then each has its own values and locale', () => {
    const source = Buffer.from('{\n  "@@locale": "en",\n  "a": "A"\n}\n');
    const { parsed } = readFile(jsonFormat, source);
    const write = (locale: string) =>
      jsonFormat
        .write({
          source,
          sourceLocale: 'en',
          locale,
          valueOf: (key) => `${locale} ${key}`,
          target: targetKeys(parsed, locale),
          options: {},
        })
        .toString('utf8');
    expect(write('de')).toBe('{\n  "@@locale": "de",\n  "a": "de a"\n}\n');
    expect(write('fr')).toBe('{\n  "@@locale": "fr",\n  "a": "fr a"\n}\n');
  });

  it('when the source is tab-indented with CRLF and a final newline, then so is the target', () => {
    const source = '{\r\n\t"a": {\r\n\t\t"b": "B"\r\n\t}\r\n}\r\n';
    expect(writeTarget(jsonFormat, source, 'fr', (key) => `fr ${key}`)).toBe(
      '{\r\n\t"a": {\r\n\t\t"b": "fr a.b"\r\n\t}\r\n}\r\n',
    );
  });

  it('when the source has annotations and @@locale, then the target has @@locale naming it and no annotations', () => {
    const source =
      '{\n  "@@locale": "en",\n  "save": "Save",\n  "@save": {\n    "description": "Button"\n  }\n}\n';
    expect(writeTarget(jsonFormat, source, 'pt-BR', () => 'Salvar')).toBe(
      '{\n  "@@locale": "pt-BR",\n  "save": "Salvar"\n}\n',
    );
  });

  it('when the source has i18next plural keys, then the target has its own forms at their place', () => {
    const source =
      '{\n  "title": "Cart",\n  "items_one": "{{count}} item",\n  "items_other": "{{count}} items",\n  "end": "."\n}\n';
    const text = writeTarget(jsonFormat, source, 'ru', (key) => `ru ${key}`);
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'title',
      'items_one',
      'items_few',
      'items_many',
      'items_other',
      'end',
    ]);
  });
});

describe('json format: bad input', () => {
  it.each([
    ['a missing value', '{\n  "a": "A",\n  "b": \n}', 4, 1, "Unexpected token '}'"],
    ['a trailing comma', '{\n  "a": "A",\n}', 3, 1, 'Expected double-quoted property name'],
    ['a missing comma', '{\n  "a": "A"\n  "b": "B"\n}', 3, 3, "Expected ',' or '}' after property value"],
    [
      'an unclosed object',
      '{\n  "a": {\n    "b": "B"\n  }\n',
      5,
      1,
      "Expected ',' or '}' after property value",
    ],
    ['nothing in it', '\n', 2, 1, 'Unexpected end of JSON input'],
    ['a comment', '{\n  // the title\n  "a": "A"\n}', 2, 3, "Expected property name or '}'"],
    ['text after the object', '{"a": "A"}\nmore', 2, 1, 'Unexpected non-whitespace character after JSON'],
    ['a stray token in a long line', `{"a": ${' '.repeat(80)}}`, 1, 87, "Unexpected token '}'"],
    ['a raw line break in a string', '{"a": "one\ntwo"}', 1, 11, 'Bad control character in string literal'],
  ])(
    'when the file has %s, then the error is not valid JSON at its line and column',
    (_, text, line, column, reason) => {
      const error = readError(jsonFormat, text);
      expect(error.code).toBe('INVALID_FILE');
      expect(error.position).toEqual({ line, column });
      expect(error.reason).toBe(`not valid JSON: ${reason}`);
      expect(error.message).toBe(`locales/en.json:${line}:${column}: not valid JSON: ${reason}`);
    },
  );

  it('when a key is given twice in one object, then the last value is kept and a finding names both places', () => {
    const { document, findings } = readFile(
      jsonFormat,
      '{\n  "home": {\n    "title": "A",\n    "body": "B",\n    "title": "C"\n  }\n}',
    );
    expect(document).toEqual({ home: { title: 'C', body: 'B' } });
    expect(findings).toEqual([
      {
        key: 'home.title',
        kind: 'duplicate',
        severity: 'warning',
        message:
          '"home.title" is given twice in the same object (first on line 3); JSON readers keep the last value, and so does Tolk',
        file: 'locales/en.json',
        line: 5,
        column: 5,
      },
    ]);
  });

  it('when a key is given twice and the last is no text, then the key is left out with both findings', () => {
    const { document, findings } = readFile(jsonFormat, '{"a": "x", "a": 3, "b": "y"}');
    expect(document).toEqual({ b: 'y' });
    expect(findings.map((finding) => [finding.key, finding.kind])).toEqual([
      ['a', 'duplicate'],
      ['a', 'format'],
    ]);
    // And the other way round the text is kept.
    expect(readFile(jsonFormat, '{"a": 3, "a": "x"}').document).toEqual({ a: 'x' });
  });

  it('when the same name is in two different objects, then it is no duplicate', () => {
    expect(
      readFile(jsonFormat, '{"a": {"title": "A"}, "b": {"title": "B"}, "title": "T"}').parsed.keys,
    ).toEqual(['a.title', 'b.title', 'title']);
  });

  it.each([
    [
      'a number',
      '{\n  "cart": {\n    "count": 3,\n    "title": "Cart"\n  }\n}',
      'cart.count',
      'a number',
      3,
      14,
    ],
    ['a boolean', '{"enabled": true, "title": "Cart"}', 'enabled', 'a boolean', 1, 13],
    ['null', '{"title": "Cart", "list": ["a", null]}', 'list.1', 'null', 1, 33],
  ])(
    'when a value is %s, then it is left out with a finding at its line and column and the rest is read',
    (_, text, key, got, line, column) => {
      const { parsed, findings } = readFile(jsonFormat, text);
      expect(parsed.keys).toEqual([key.startsWith('cart') ? 'cart.title' : 'title']);
      expect(findings).toMatchObject([
        {
          key,
          kind: 'format',
          severity: 'warning',
          message: `"${key}" is ${got}, not a text; left out`,
          line,
          column,
        },
      ]);
    },
  );

  it('when a key cannot be a key (empty), then it is left out with a finding; a name with a final dot is a key of its own', () => {
    const { document, parsed, findings } = readFile(
      jsonFormat,
      '{"": "x", "Saved.": "Gespeichert.", "a..b": "c"}',
    );
    expect(parsed.keys).toEqual(['Saved\u2024', 'a\u2024\u2024b']);
    expect(findings).toMatchObject([{ key: '', kind: 'format', line: 1, column: 2 }]);
    // Written back with the file's own names.
    const values = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
    expect(
      JSON.parse(
        writeTarget(jsonFormat, '{"Saved.": "Saved.", "a..b": "c"}', 'de', (key) => values.get(key)),
      ),
    ).toEqual({
      'Saved.': 'Gespeichert.',
      'a..b': 'c',
    });
    expect(document).toEqual({ 'Saved\u2024': 'Gespeichert.', 'a\u2024\u2024b': 'c' });
  });

  it('when an annotation holds numbers or booleans, then they are context, not values', () => {
    const { parsed } = readFile(jsonFormat, '{"a": "A", "@a": {"maxLength": 10, "draft": false}}');
    expect(parsed.keys).toEqual(['a']);
  });

  it.each([
    ['an array', '[\n  "a"\n]', 'got an array', 1, 1],
    ['a string', '\n\n  "text"', 'got string', 3, 3],
  ])(
    'when the file holds %s, then the error says a locale file is an object, where the value starts',
    (_, text, got, line, column) => {
      const error = readError(jsonFormat, text);
      expect(error.reason).toBe(`the file must hold a JSON object of keys, ${got}`);
      expect(error.position).toEqual({ line, column });
    },
  );

  it.each([
    [
      'object',
      '{\n  "a": {\n    "b": {}\n  },\n  "c": "C"\n}',
      'a.b',
      '"a.b" is an empty object, which holds no key; left out',
      3,
      10,
    ],
    [
      'array',
      '{"list": [], "c": "C"}',
      'list',
      '"list" is an empty array, which holds no key; left out',
      1,
      10,
    ],
  ])(
    'when an %s below the top is empty, then it is left out with a finding at its line and column',
    (_, text, key, message, line, column) => {
      const { parsed, findings } = readFile(jsonFormat, text);
      expect(parsed.keys).toEqual(['c']);
      expect(findings).toMatchObject([{ key, kind: 'format', message, line, column }]);
    },
  );

  it('when an annotation annotates a key its object does not have, then it is left out with a finding at its line and column', () => {
    const { document, findings } = readFile(
      jsonFormat,
      '{\n  "home": {\n    "title": "T",\n    "@titel": {"description": "typo"}\n  }\n}',
    );
    expect(document).toEqual({ home: { title: 'T' } });
    expect(findings).toMatchObject([
      {
        key: 'home.@titel',
        message: '"home.@titel" annotates "titel", which is not in its object; left out',
        line: 4,
        column: 5,
      },
    ]);
  });

  it('when the annotated key is left out, then its annotation goes with it', () => {
    const { document, findings } = readFile(jsonFormat, '{"a": 1, "@a": {"description": "d"}, "b": "B"}');
    expect(document).toEqual({ b: 'B' });
    expect(findings.map((finding) => finding.key)).toEqual(['a']);
  });

  it('when annotations hold empty objects and arrays, then they are context and no error', () => {
    const { parsed } = readFile(jsonFormat, '{"a": "A {x}", "@a": {"placeholders": {"x": {}}, "tags": []}}');
    expect(parsed.annotations.get('a')).toEqual({ placeholders: { x: {} }, tags: [] });
  });

  it('when the file is not UTF-8, then the error says so at the first byte that is not', () => {
    const latin1 = Buffer.from('{\n  "a": "caf\xe9"\n}', 'latin1');
    const error = readError(jsonFormat, latin1);
    expect(error.reason).toBe('is not UTF-8 text; JSON locale files are UTF-8');
    expect(error.position).toEqual({ line: 2, column: 12 });
  });

  it('when the file is UTF-16 with or without a byte order mark, then the error says so', () => {
    for (const bytes of [
      Buffer.from('{"a": "b"}', 'utf16le'),
      Buffer.from('\uFEFF{"a": "b"}', 'utf16le'),
      Buffer.from('{"a": "b"}', 'utf16le').swap16(),
    ]) {
      const error = readError(jsonFormat, bytes);
      expect(error.reason).toMatch(
        /^is UTF-16 text \((little|big) endian, with(out)? a byte order mark\), not UTF-8/,
      );
      expect(error.position).toEqual({ line: 1, column: 1 });
    }
  });

  it('when the file is binary, then the error names the NUL byte it holds', () => {
    const error = readError(jsonFormat, Buffer.from('{"a":\n "b\u0000"}'));
    expect(error.reason).toBe('holds a NUL byte: it is a binary file, not a text file in its format');
    expect(error.position).toEqual({ line: 2, column: 4 });
  });

  it('when the file is nested 100,000 levels deep, then the error names the bracket past 32 levels, quickly', () => {
    const levels = 100_000;
    const started = performance.now();
    const arrays = readError(jsonFormat, '{"a":' + '['.repeat(levels) + ']'.repeat(levels) + '}');
    const objects = readError(
      jsonFormat,
      '{\n"a":' + '{"b":'.repeat(levels) + '"x"' + '}'.repeat(levels) + '}',
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(arrays.reason).toBe('is nested deeper than 32 levels, more than a locale file may be');
    expect(arrays.position).toEqual({ line: 1, column: 37 });
    expect(objects.position).toEqual({ line: 2, column: 5 + 5 * 31 });
    // Brackets in strings are text.
    expect(readFile(jsonFormat, `{"a": "${'['.repeat(100)}"}`).parsed.keys).toEqual(['a']);
  });
});

describe('json format: locale spelling', () => {
  it('when a locale is spelled, then it is BCP 47 as it is', () => {
    expect(['en', 'pt-BR', 'zh-Hant', 'es-419', 'sr-Latn-RS'].map(jsonFormat.spellLocale)).toEqual([
      'en',
      'pt-BR',
      'zh-Hant',
      'es-419',
      'sr-Latn-RS',
    ]);
  });

  it('when a spelling is read, then only a BCP 47 code spelled as the CLI writes it is a locale', () => {
    expect(['de', 'pt-BR', 'zh-Hant', 'es-419'].map(jsonFormat.readLocale)).toEqual([
      'de',
      'pt-BR',
      'zh-Hant',
      'es-419',
    ]);
    expect(['pt_BR', 'en-gb', 'common', 'translation', ''].map(jsonFormat.readLocale)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('when the registry is asked for json, then it is this format', () => {
    expect(formatNamed('json')).toBe(jsonFormat);
    expect(jsonFormat.extensions).toEqual(['.json']);
  });
});
