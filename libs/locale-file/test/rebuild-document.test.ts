import { describe, expect, it } from 'vitest';
import { LayoutStep, parseSourceDocument, type ParsedSource } from '@tolk/locale-file';
import { rebuildDocument } from '@tolk/locale-file';

function roundTrip(json: string): string {
  return JSON.stringify(rebuildDocument(parseSourceDocument(JSON.parse(json))));
}

describe('rebuildDocument', () => {
  it.each([
    ['an empty source', '{}'],
    ['a flat source', '{"b":"B","a":"A"}'],
    ['flat dotted keys', '{"home.title":"Hi","home.body":"B","save":"S","save.tooltip":"T"}'],
    ['nested objects', '{"home":{"title":"Hi","menu":{"open":"O","close":"C"}},"footer":"F"}'],
    ['arrays', '{"steps":["one","two",["a","b"]],"after":"x"}'],
    ['arrays of objects', '{"faq":[{"q":"Q1","a":"A1"},{"q":"Q2","a":"A2"}]}'],
    ['dotted names inside nesting', '{"a.b":"x","a":{"c":"y","d.e":{"f":"z"}},"a.b.c":"w"}'],
    ['an object whose keys look like indices', '{"list":{"0":"zero","1":"one"}}'],
    ['integer-like keys among others', '{"b":"B","10":"ten","2":"two","a":{"9":"n","x":"X"}}'],
    ['non-ASCII and spaces in keys', '{"ünï cödé":{"😀 x":"y"},"with space":"z"}'],
    [
      'annotations before and after their keys, on keys and on groups',
      '{"@title":{"description":"T"},"title":"Hi","home":{"a":"x","@a":{"maxLength":4},' +
        '"@b":{"description":"B"},"b":["1"]},"@home":{"description":"group"},' +
        '"list":[{"x":"1","@x":{"description":"in array"}}]}',
    ],
    [
      'metadata first, in the middle and last',
      '{"@@locale":"en","a":"1","@@context":{"app":"web"},"b":"2","@@last_modified":"2024-01-01"}',
    ],
    [
      '__proto__, constructor and prototype keys',
      '{"__proto__":{"polluted":"yes","@polluted":{"description":"d"}},"@__proto__":{"a":1},' +
        '"constructor":{"prototype":{"polluted":"yes"}},"prototype":["p"],"a":{"__proto__":"x"}}',
    ],
  ])('when the source has %s, then the rebuilt document is the same JSON', (_, json) => {
    expect(roundTrip(json)).toBe(JSON.stringify(JSON.parse(json)));
  });

  it('when the layout and maps went through storage as JSON, then the document still rebuilds', () => {
    const json = '{"@@locale":"en","a":{"b":["x","y"],"@b":{"description":"d"}},"c.d":"z"}';
    const parsed = parseSourceDocument(JSON.parse(json));
    const stored = JSON.parse(
      JSON.stringify({
        ...parsed,
        annotations: [...parsed.annotations],
        metadata: [...parsed.metadata],
      }),
    );
    const restored: ParsedSource = {
      ...stored,
      annotations: new Map(stored.annotations),
      metadata: new Map(stored.metadata),
    };
    expect(JSON.stringify(rebuildDocument(restored))).toBe(json);
  });

  it('when a key is named __proto__, then it is an own data property and prototypes are untouched', () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype);
    const rebuilt = rebuildDocument(
      parseSourceDocument(JSON.parse('{"__proto__":{"polluted":"yes"},"x":{"__proto__":"also data"}}')),
    );

    expect(Object.getPrototypeOf(rebuilt)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(rebuilt, '__proto__')?.value).toEqual({ polluted: 'yes' });
    expect(Object.getOwnPropertyDescriptor(rebuilt.x, '__proto__')?.value).toBe('also data');
    expect(Object.getPrototypeOf(rebuilt.x)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeBefore);
  });

  it('when the source is rebuilt, then containers are new objects, not the uploaded ones', () => {
    const body = JSON.parse('{"a":{"b":"x"}}');
    const rebuilt = rebuildDocument(parseSourceDocument(body));
    expect(rebuilt).not.toBe(body);
    expect(rebuilt.a).not.toBe(body.a);
  });

  it('when the layout does not fit the keys, then it throws instead of guessing', () => {
    const parsed = parseSourceDocument(JSON.parse('{"a":{"b":"x"},"c":"y"}'));
    expect(() => rebuildDocument({ ...parsed, keys: ['a.b'], values: ['x'] })).toThrow(
      /Source layout does not match its keys/,
    );
    expect(() =>
      rebuildDocument({ ...parsed, layout: { ...parsed.layout, steps: [LayoutStep.openObject, 2] } }),
    ).toThrow(/Source layout does not match its keys/);
    expect(() =>
      rebuildDocument({ ...parsed, layout: { steps: [LayoutStep.close], containerNames: [] } }),
    ).toThrow(/Source layout does not match its keys/);
  });
});
