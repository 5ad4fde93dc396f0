import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SOURCE_LIMITS,
  LayoutStep,
  LocaleFileError,
  parseSourceDocument,
  type SourceLimits,
} from '@tolk/locale-file';

function parse(json: string, limits: Partial<SourceLimits> = {}) {
  return parseSourceDocument(JSON.parse(json), { ...DEFAULT_SOURCE_LIMITS, ...limits });
}

function entries(json: string, limits: Partial<SourceLimits> = {}) {
  const parsed = parse(json, limits);
  return parsed.keys.map((key, i) => [key, parsed.values[i]]);
}

function rejection(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the document to be rejected');
}

function expectInvalid(json: string, message: string, limits: Partial<SourceLimits> = {}) {
  const error = rejection(() => parse(json, limits));
  expect(error).toBeInstanceOf(LocaleFileError);
  expect(error).toMatchObject({ message });
  expect((error as LocaleFileError).code).not.toBe('TOO_MANY_KEYS');
}

/** `{"k1":{"k2":...{"kN":"leaf"}}}`: a leaf whose key path has `segments` segments. */
function nestedText(segments: number): string {
  let json = '"leaf"';
  for (let i = segments; i >= 1; i--) json = `{"k${i}":${json}}`;
  return json;
}

describe('parseSourceDocument: flattening', () => {
  it('when the source is flat, then its keys and values come out in document order', () => {
    expect(entries('{"b":"B","a":"A","c.d":"CD"}')).toEqual([
      ['b', 'B'],
      ['a', 'A'],
      ['c.d', 'CD'],
    ]);
  });

  it('when objects and arrays are nested, then they flatten to dotted keys in document order', () => {
    const json = '{"home":{"title":"Hi","body":"B"},"steps":["one",{"title":"two"},["x"]],"z":"last"}';
    expect(entries(json)).toEqual([
      ['home.title', 'Hi'],
      ['home.body', 'B'],
      ['steps.0', 'one'],
      ['steps.1.title', 'two'],
      ['steps.2.0', 'x'],
      ['z', 'last'],
    ]);
  });

  it('when dotted names and nesting are mixed without collisions, then both are keys', () => {
    expect(entries('{"a.b":"x","a":{"c":"y","d.e":"z"}}')).toEqual([
      ['a.b', 'x'],
      ['a.c', 'y'],
      ['a.d.e', 'z'],
    ]);
  });

  it('when one key is also the prefix of others (flat files do this), then all are keys', () => {
    expect(entries('{"save":"Save","save.tooltip":"Saves it"}')).toEqual([
      ['save', 'Save'],
      ['save.tooltip', 'Saves it'],
    ]);
  });

  it('when values are empty strings or unusual text, then they are kept as they are', () => {
    expect(entries('{"a":"","b":"line\\nbreak","c":"{count, plural, one {#} other {#}}"}')).toEqual([
      ['a', ''],
      ['b', 'line\nbreak'],
      ['c', '{count, plural, one {#} other {#}}'],
    ]);
  });

  it('when the top-level object is empty, then it is a source with no keys', () => {
    const parsed = parse('{}');
    expect(parsed.keys).toEqual([]);
    expect(parsed.values).toEqual([]);
  });

  it('when the source is flat, then its layout is a single step', () => {
    expect(parse('{"a":"1","b.c":"2","d":"3"}').layout).toEqual({ steps: [3], containerNames: [] });
  });

  it('when the source is nested, then the layout records objects, arrays and where they close', () => {
    expect(parse('{"a":"1","g":{"x":"2","y":["3","4"]},"b":"5"}').layout).toEqual({
      steps: [1, LayoutStep.openObject, 1, LayoutStep.openArray, 2, LayoutStep.close, LayoutStep.close, 1],
      containerNames: ['g', 'y'],
    });
  });

  it('when leaf names are asked for, then each key has the name its object or array gives it', () => {
    const json = '{"a.b":"1","g":{"x":"2","y":["3","4"]},"@g":{"description":"d"}}';
    const parsed = parseSourceDocument(JSON.parse(json), DEFAULT_SOURCE_LIMITS, { leafNames: true });
    expect(parsed.keys).toEqual(['a.b', 'g.x', 'g.y.0', 'g.y.1']);
    expect(parsed.leafNames).toEqual(['a.b', 'x', '0', '1']);
    expect(parse(json).leafNames).toBeUndefined();
  });

  it('when a document is parsed, then the body is left unchanged', () => {
    const json = '{"a":{"b":["x"],"@b":{"description":"d"}},"@@locale":"en"}';
    const body: unknown = JSON.parse(json);
    parseSourceDocument(body, DEFAULT_SOURCE_LIMITS);
    expect(JSON.stringify(body)).toBe(json);
  });
});

describe('parseSourceDocument: the body', () => {
  it.each([
    ['an array', '["a"]'],
    ['an empty array', '[]'],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['a boolean', 'true'],
    ['null', 'null'],
  ])('when the body is %s, then LocaleFileError names the body', (_, json) => {
    expectInvalid(json, 'body: must be a JSON object of translation keys');
  });

  it('when there is no body at all, then LocaleFileError says a body is required', () => {
    const error = rejection(() => parseSourceDocument(undefined, DEFAULT_SOURCE_LIMITS));
    expect(error).toBeInstanceOf(LocaleFileError);
    expect(error).toMatchObject({ code: 'DOCUMENT_REQUIRED', message: 'body: a JSON body is required' });
  });
});

describe('parseSourceDocument: leaves', () => {
  it.each([
    ['{"home":{"count":3}}', 'home.count: must be a string, got number'],
    ['{"enabled":false}', 'enabled: must be a string, got boolean'],
    ['{"a":{"b":null}}', 'a.b: must be a string, got null'],
    ['{"steps":["one",2]}', 'steps.1: must be a string, got number'],
    ['{"steps":[{"t":"x"},{"t":true}]}', 'steps.1.t: must be a string, got boolean'],
  ])('when %s, then LocaleFileError "%s"', (json, message) => {
    expectInvalid(json, message);
  });
});

describe('parseSourceDocument: keys that flatten to the same path', () => {
  it.each([
    ['{"a.b":"x","a":{"b":"y"}}', 'a.b: defined twice (as a flat key and as a nested path)'],
    ['{"a":{"b":"y"},"a.b":"x"}', 'a.b: defined twice (as a flat key and as a nested path)'],
    ['{"a":{"b.c":"x","b":{"c":"y"}}}', 'a.b.c: defined twice (as a flat key and as a nested path)'],
    ['{"a.b":{"c":"x"},"a":{"b.c":"y"}}', 'a.b.c: defined twice (as a flat key and as a nested path)'],
    ['{"s.0":"x","s":["y"]}', 's.0: defined twice (as a flat key and as a nested path)'],
  ])('when %s, then LocaleFileError "%s"', (json, message) => {
    expectInvalid(json, message);
  });
});

describe('parseSourceDocument: empty key segments', () => {
  it.each([
    ['{"":"x"}', '"": empty key segment (keys are split on dots)'],
    ['{"a..b":"x"}', 'a..b: empty key segment (keys are split on dots)'],
    ['{".a":"x"}', '.a: empty key segment (keys are split on dots)'],
    ['{"a.":"x"}', 'a.: empty key segment (keys are split on dots)'],
    ['{"home":{"":"x"}}', 'home.: empty key segment (keys are split on dots)'],
    ['{"home":{".title":"x"}}', 'home..title: empty key segment (keys are split on dots)'],
    ['{"home":{"a":"x","b.":{"c":"y"}}}', 'home.b.: empty key segment (keys are split on dots)'],
  ])('when %s, then LocaleFileError "%s"', (json, message) => {
    expectInvalid(json, message);
  });
});

describe('parseSourceDocument: empty objects and arrays', () => {
  it('when a value is an empty object, then LocaleFileError, as it holds no key', () => {
    expectInvalid('{"a":"x","home":{"menu":{}}}', 'home.menu: an empty object has no keys');
  });

  it('when a value is an empty array, then LocaleFileError, as it holds no key', () => {
    expectInvalid('{"steps":[]}', 'steps: an empty array has no keys');
    expectInvalid('{"steps":["a",[]]}', 'steps.1: an empty array has no keys');
  });
});

describe('parseSourceDocument: limits', () => {
  it('when a key path has as many segments as the default depth, then it is accepted', () => {
    const parsed = parse(nestedText(DEFAULT_SOURCE_LIMITS.maxDepth));
    expect(parsed.keys).toHaveLength(1);
    expect(parsed.keys[0]!.split('.')).toHaveLength(32);
  });

  it('when nesting goes one level past the default depth, then LocaleFileError names the path', () => {
    const path = Array.from({ length: 32 }, (_, i) => `k${i + 1}`).join('.');
    expectInvalid(nestedText(33), `${path}: nested deeper than 32 levels`);
  });

  it('when a smaller depth is configured, then objects and arrays both count as levels', () => {
    expect(parse('{"a":{"b":"x"}}', { maxDepth: 2 }).keys).toEqual(['a.b']);
    expectInvalid('{"a":{"b":{"c":"x"}}}', 'a.b: nested deeper than 2 levels', { maxDepth: 2 });
    expectInvalid('{"a":[["x"]]}', 'a.0: nested deeper than 2 levels', { maxDepth: 2 });
  });

  it('when nesting is far deeper than the limit, then it is rejected without exhausting the stack', () => {
    const json = `${'{"k":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
    expectInvalid(json, `${Array(32).fill('k').join('.')}: nested deeper than 32 levels`);
  });

  it('when a key path is exactly the maximum length, then it is accepted', () => {
    expect(parse('{"abcde":{"fghij":"x"}}', { maxKeyLength: 11 }).keys).toEqual(['abcde.fghij']);
  });

  it('when a flat or nested key path is longer than the maximum, then LocaleFileError gives its length', () => {
    expectInvalid(
      '{"abcdefghijk":"x"}',
      'abcdefghijk: key path is 11 characters long, over the limit of 10',
      {
        maxKeyLength: 10,
      },
    );
    expectInvalid(
      '{"abcde":{"fghijk":"x"}}',
      'abcde.fghijk: key path is 12 characters long, over the limit of 10',
      { maxKeyLength: 10 },
    );
  });

  it('when a very long key is rejected, then the message shows only its beginning', () => {
    const key = 'x'.repeat(5000);
    expectInvalid(
      JSON.stringify({ [key]: 'v' }),
      `${'x'.repeat(120)}…: key path is 5000 characters long, over the limit of 1000`,
    );
  });

  it('when a value is exactly the maximum length, or has exactly the maximum braces, then it is accepted', () => {
    expect(parse(JSON.stringify({ a: 'x'.repeat(10) }), { maxValueLength: 10 }).values).toEqual([
      'x'.repeat(10),
    ]);
    const braces = '{a}{{b}} {c, plural, other {#}}';
    expect(parse(JSON.stringify({ a: braces }), { maxValueBraces: 5 }).values).toEqual([braces]);
  });

  it('when a value is longer than the maximum, then LocaleFileError names its key and the limit', () => {
    expectInvalid(
      JSON.stringify({ legal: { terms: 'x'.repeat(11) } }),
      'legal.terms: value is 11 characters long, over the limit of 10 characters per value',
      { maxValueLength: 10 },
    );
  });

  it('when a value has more opening braces than the maximum, then LocaleFileError names its key and the limit', () => {
    expectInvalid(
      JSON.stringify({ steps: ['{name}'.repeat(4)] }),
      'steps.0: value has more than 3 opening braces ({), the limit per value ' +
        '(each ICU argument, placeholder and plural or select branch takes one)',
      { maxValueBraces: 3 },
    );
  });

  it('when annotations and metadata are long or full of braces, then no value limit applies to them', () => {
    const parsed = parse(
      JSON.stringify({ '@@x': '{'.repeat(20), a: 'b', '@a': { description: 'y'.repeat(20) } }),
      { maxValueLength: 10, maxValueBraces: 3 },
    );
    expect(parsed.keys).toEqual(['a']);
  });

  it('when the key count is at the limit, then it is accepted, annotations and metadata not counted', () => {
    const parsed = parse(
      '{"@@locale":"en","a":"1","@a":{},"b":{"c":"2","@c":{}},"@b":{},"d":["3"],"@d":{}}',
      { maxKeys: 3 },
    );
    expect(parsed.keys).toEqual(['a', 'b.c', 'd.0']);
  });

  it('when the key count is over the limit, then LocaleFileError TOO_MANY_KEYS', () => {
    const error = rejection(() => parse('{"a":"1","b":{"c":"2","d":"3"},"e":["4"]}', { maxKeys: 3 }));
    expect(error).toBeInstanceOf(LocaleFileError);
    expect(error).toMatchObject({
      code: 'TOO_MANY_KEYS',
      message: 'body: more than 3 keys',
      details: { limit: 3 },
    });
  });

  it('when nothing is configured, then the documented defaults apply', () => {
    expect(DEFAULT_SOURCE_LIMITS).toEqual({
      maxKeys: 200_000,
      maxDepth: 32,
      maxKeyLength: 1000,
      maxValueLength: 100_000,
      maxValueBraces: 1000,
    });
    expect(Object.isFrozen(DEFAULT_SOURCE_LIMITS)).toBe(true);
    expect(parseSourceDocument(JSON.parse('{"a":"b"}')).keys).toEqual(['a']);
  });
});

describe('parseSourceDocument: annotations and metadata', () => {
  it('when keys carry ARB annotations, then they are kept by flattened key and are not keys', () => {
    const parsed = parse(
      JSON.stringify({
        '@@locale': 'en',
        '@title': { description: 'Page title', maxLength: 40 },
        title: 'Welcome',
        home: {
          greeting: 'Hi {name}',
          '@greeting': { description: 'Greets', placeholders: { name: { type: 'String' } } },
        },
        '@home': { description: 'The home screen' },
        steps: [{ label: 'One', '@label': { description: 'First step' } }],
        '@@last_modified': '2024-01-01',
      }),
    );
    expect(parsed.keys).toEqual(['title', 'home.greeting', 'steps.0.label']);
    expect(parsed.values).toEqual(['Welcome', 'Hi {name}', 'One']);
    expect([...parsed.annotations]).toEqual([
      ['title', { description: 'Page title', maxLength: 40 }],
      ['home.greeting', { description: 'Greets', placeholders: { name: { type: 'String' } } }],
      ['home', { description: 'The home screen' }],
      ['steps.0.label', { description: 'First step' }],
    ]);
    expect([...parsed.metadata]).toEqual([
      ['@@locale', 'en'],
      ['@@last_modified', '2024-01-01'],
    ]);
  });

  it('when an empty annotation object is given, then it is kept', () => {
    expect([...parse('{"a":"x","@a":{}}').annotations]).toEqual([['a', {}]]);
  });

  it.each([
    ['{"@title":{"description":"d"}}', '@title: annotates a key that does not exist'],
    ['{"title":"x","home":{"@title":{}}}', 'home.@title: annotates a key that does not exist'],
    ['{"a":{"b":"x"},"@a.b":{}}', '@a.b: annotates a key that does not exist'],
    ['{"@toString":{}}', '@toString: annotates a key that does not exist'],
    ['{"@":{}}', '@: annotates a key that does not exist'],
  ])('when %s, then LocaleFileError "%s"', (json, message) => {
    expectInvalid(json, message);
  });

  it.each([
    ['{"title":"x","@title":"A title"}', '@title: an annotation must be an object, got string'],
    ['{"title":"x","@title":["a"]}', '@title: an annotation must be an object, got array'],
    ['{"title":"x","@title":null}', '@title: an annotation must be an object, got null'],
    ['{"a":{"b":"x","@b":3}}', 'a.@b: an annotation must be an object, got number'],
  ])('when %s, then LocaleFileError "%s"', (json, message) => {
    expectInvalid(json, message);
  });

  it('when two annotated groups flatten to the same path, then LocaleFileError', () => {
    expectInvalid('{"a.b":{"c":"x"},"@a.b":{},"a":{"b":{"d":"y"},"@b":{}}}', 'a.b: annotated twice');
  });

  it('when metadata appears below the top level, then LocaleFileError', () => {
    expectInvalid(
      '{"home":{"title":"x","@@locale":"en"}}',
      'home.@@locale: file metadata (@@) is only allowed at the top level',
    );
  });

  it('when an annotation or metadata value nests past the depth limit, then LocaleFileError', () => {
    expect(parse('{"a":"v","@a":{"x":{"y":"z"}}}', { maxDepth: 3 }).annotations.size).toBe(1);
    expectInvalid('{"a":"v","@a":{"x":{"y":{}}}}', '@a: nested deeper than 3 levels', { maxDepth: 3 });
    expectInvalid('{"@@m":[[[1]]]}', '@@m: nested deeper than 3 levels', { maxDepth: 3 });
  });
});

describe('parseSourceDocument: keys named like Object.prototype members', () => {
  it('when keys are __proto__, constructor or prototype, then they are data and nothing is polluted', () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype);
    // JSON text, as uploaded: in a TypeScript object literal `__proto__` would set the prototype.
    const text =
      '{"__proto__":{"polluted":"yes","@polluted":{"description":"d"}},' +
      '"@__proto__":{"description":"proto group","polluted":"yes"},' +
      '"constructor":{"prototype":{"polluted":"yes"}},"prototype":"p","hasOwnProperty":"h","toString":"t"}';

    const parsed = parse(text);

    expect(parsed.keys).toEqual([
      '__proto__.polluted',
      'constructor.prototype.polluted',
      'prototype',
      'hasOwnProperty',
      'toString',
    ]);
    expect(parsed.values).toEqual(['yes', 'yes', 'p', 'h', 't']);
    expect([...parsed.annotations.keys()]).toEqual(['__proto__.polluted', '__proto__']);
    expect(parsed.annotations.get('__proto__')).toEqual({ description: 'proto group', polluted: 'yes' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeBefore);
    expect(Object.getPrototypeOf(parsed.annotations.get('__proto__'))).toBe(Object.prototype);
  });
});

describe('parseSourceDocument: what each refusal is', () => {
  const long = 'k'.repeat(11);
  it.each([
    ['"x"', 'NOT_AN_OBJECT', {}],
    ['{"a":{"b":1}}', 'NOT_A_STRING', { path: 'a.b' }],
    ['{"a":[]}', 'EMPTY_CONTAINER', { path: 'a' }],
    ['{"a":{}}', 'EMPTY_CONTAINER', { path: 'a' }],
    ['{"a..b":"x"}', 'EMPTY_SEGMENT', { path: 'a..b' }],
    ['{"a.b":"x","a":{"b":"y"}}', 'DUPLICATE_KEY', { path: 'a.b' }],
    ['{"@a":{}}', 'INVALID_ANNOTATION', { path: '@a' }],
    ['{"a":{"@@m":"x","b":"y"}}', 'INVALID_ANNOTATION', { path: 'a.@@m' }],
    ['{"a":{"b":{"c":"x"}}}', 'TOO_DEEP', { path: 'a.b', limit: 2 }],
    [`{"${long}":"x"}`, 'KEY_TOO_LONG', { path: long, limit: 10 }],
    ['{"a":"x","b":"y","c":"z"}', 'TOO_MANY_KEYS', { limit: 2 }],
    ['{"a":{"b":"xxxxxxxxxxx"}}', 'VALUE_TOO_LONG', { path: 'a.b', limit: 10 }],
    ['{"a":["{x}{y}{z}"]}', 'TOO_MANY_BRACES', { path: 'a.0', limit: 2 }],
  ])('when the document is %s, then its code is %s with details %o', (json, code, details) => {
    const error = rejection(() =>
      parse(json, { maxDepth: 2, maxKeyLength: 10, maxKeys: 2, maxValueLength: 10, maxValueBraces: 2 }),
    );
    expect(error).toBeInstanceOf(LocaleFileError);
    expect(error).toMatchObject({ code, details });
  });
});
