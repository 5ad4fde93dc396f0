import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_SOURCE,
  decodeStoredEntries,
  decodeStoredSource,
  encodeStoredEntries,
  encodeStoredSource,
  parseSourceDocument,
  rebuildDocument,
} from '@tolk/locale-file';
import { randomSourceText } from './source-builders.js';

const gzipAsync = promisify(gzip);

/** Awkward names and text: prototype members, non-BMP characters, combining marks, RTL, a lone surrogate. */
const AWKWARD_SOURCE =
  '{"@@locale":"en","@@__proto__":{"a":1},"__proto__":{"polluted":"yes","@polluted":{"description":"d"}},' +
  '"constructor":{"prototype":"p"},"ünï cödé":{"😀 x":"y 👩‍👩‍👧","rtl":"שלום {name}"},' +
  '"steps":["e\\u0301","\\ud800 alone"],"@steps":{"description":"Ω","__proto__":{"x":1}},"a.b":"dotted"}';

function gzipHeaderExtraFlags(content: Buffer): number {
  // RFC 1952: byte 8 (XFL) is 4 when the fastest compression was used.
  return content[8]!;
}

describe('encodeStoredSource / decodeStoredSource', () => {
  it('when a source with awkward names and unicode goes through storage, then it comes back the same', async () => {
    const parsed = parseSourceDocument(JSON.parse(AWKWARD_SOURCE));
    const decoded = await decodeStoredSource(await encodeStoredSource(parsed));

    expect(decoded.keys).toEqual(parsed.keys);
    expect(decoded.values).toEqual(parsed.values);
    expect([...decoded.annotations]).toEqual([...parsed.annotations]);
    expect([...decoded.metadata]).toEqual([...parsed.metadata]);
    expect(decoded.layout).toEqual(parsed.layout);
    expect(JSON.stringify(rebuildDocument(decoded))).toBe(JSON.stringify(JSON.parse(AWKWARD_SOURCE)));
    expect('revisions' in decoded).toBe(false);
  });

  it('when names are prototype members, then they stay own data and no prototype changes', async () => {
    const decoded = await decodeStoredSource(
      await encodeStoredSource(parseSourceDocument(JSON.parse(AWKWARD_SOURCE))),
    );
    const annotation = decoded.annotations.get('steps')!;
    expect(Object.getOwnPropertyDescriptor(annotation, '__proto__')?.value).toEqual({ x: 1 });
    expect(Object.getPrototypeOf(annotation)).toBe(Object.prototype);
    expect(decoded.metadata.get('@@__proto__')).toEqual({ a: 1 });
    expect(decoded.keys).toContain('__proto__.polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('when revisions are given, then they come back with the source', async () => {
    const parsed = parseSourceDocument(JSON.parse('{"a":"A","b":{"c":"C"},"d":["D"]}'));
    const decoded = await decodeStoredSource(await encodeStoredSource(parsed, { revisions: [1, 3, 2] }));
    expect(decoded.revisions).toEqual([1, 3, 2]);
    expect(decoded.keys).toEqual(['a', 'b.c', 'd.0']);
  });

  it('when revisions do not cover every key, then encoding refuses', async () => {
    const parsed = parseSourceDocument(JSON.parse('{"a":"A","b":"B"}'));
    await expect(encodeStoredSource(parsed, { revisions: [1] })).rejects.toThrow(/1 revisions for 2 keys/);
  });

  it('when the stored document predates revisions, then it decodes without them', async () => {
    // The form source-service wrote before revisions were kept.
    const old = {
      keys: ['a', 'b.c'],
      values: ['A', 'C'],
      annotations: [['a', { description: 'd' }]],
      metadata: [['@@locale', 'en']],
      layout: { steps: [-5, 1, -4, -1, 1, -3], containerNames: ['b'] },
    };
    const decoded = await decodeStoredSource(await gzipAsync(Buffer.from(JSON.stringify(old))));
    expect(decoded.revisions).toBeUndefined();
    expect(JSON.stringify(rebuildDocument(decoded))).toBe(
      '{"@@locale":"en","a":"A","@a":{"description":"d"},"b":{"c":"C"}}',
    );
  });

  it('when a source is stored, then it is one gzip JSON document at the fastest level', async () => {
    const parsed = parseSourceDocument(JSON.parse('{"a":"A"}'));
    const content = await encodeStoredSource(parsed, { revisions: [4] });
    expect(gzipHeaderExtraFlags(content)).toBe(4);
    expect(JSON.parse(gunzipSync(content).toString('utf8'))).toEqual({
      keys: ['a'],
      values: ['A'],
      annotations: [],
      metadata: [],
      layout: { steps: [1], containerNames: [] },
      revisions: [4],
    });
  });

  it('when random sources go through storage, then each rebuilds to the same JSON', async () => {
    for (let seed = 1; seed <= 50; seed++) {
      const text = randomSourceText(seed);
      const parsed = parseSourceDocument(JSON.parse(text));
      const revisions = parsed.keys.map((_, i) => i % 7);
      const decoded = await decodeStoredSource(await encodeStoredSource(parsed, { revisions }));
      expect(JSON.stringify(rebuildDocument(decoded)), `seed ${seed}`).toBe(text);
      expect(decoded.revisions, `seed ${seed}`).toEqual(revisions);
    }
  });

  it('when the empty source goes through storage, then it is still empty', async () => {
    const decoded = await decodeStoredSource(await encodeStoredSource(EMPTY_SOURCE, { revisions: [] }));
    expect(decoded.keys).toEqual([]);
    expect(decoded.revisions).toEqual([]);
    expect(rebuildDocument(decoded)).toEqual({});
    expect(rebuildDocument(EMPTY_SOURCE)).toEqual({});
    expect(() => EMPTY_SOURCE.keys.push('x')).toThrow(TypeError);
  });

  it('when the content is not gzip, then decoding rejects', async () => {
    await expect(decodeStoredSource(Buffer.from('{"keys":[]}'))).rejects.toThrow();
  });

  it('when the content is gzip but not JSON, then decoding rejects', async () => {
    await expect(decodeStoredSource(await gzipAsync(Buffer.from('not json')))).rejects.toThrow(SyntaxError);
  });

  it.each([
    [
      'keys and values of different lengths',
      { keys: ['a'], values: [], annotations: [], metadata: [], layout: { steps: [], containerNames: [] } },
    ],
    ['no layout', { keys: [], values: [], annotations: [], metadata: [] }],
    [
      'revisions for other keys',
      {
        keys: ['a'],
        values: ['A'],
        annotations: [],
        metadata: [],
        layout: { steps: [1], containerNames: [] },
        revisions: [],
      },
    ],
    ['a JSON array', []],
  ])('when the stored document has %s, then decoding rejects it as damaged', async (_, document) => {
    const content = await gzipAsync(Buffer.from(JSON.stringify(document)));
    await expect(decodeStoredSource(content)).rejects.toThrow(/Damaged stored/);
  });
});

describe('encodeStoredEntries / decodeStoredEntries', () => {
  it('when entries with awkward keys and unicode go through storage, then they come back in order', async () => {
    const entries = {
      keys: ['__proto__', 'constructor', 'toString', 'home.title', 'ünï.😀', ''],
      values: ['P', 'C', '', 'Grüße, {name}! 👋', 'שלום \ud800', 'empty key'],
    };
    const decoded = await decodeStoredEntries(await encodeStoredEntries(entries));
    expect(decoded).toEqual(entries);
  });

  it('when entries are stored, then they are one gzip JSON document at the fastest level', async () => {
    const content = await encodeStoredEntries({ keys: ['a'], values: ['b'] });
    expect(gzipHeaderExtraFlags(content)).toBe(4);
    expect(JSON.parse(gunzipSync(content).toString('utf8'))).toEqual({ keys: ['a'], values: ['b'] });
  });

  it('when many entries are stored, then they are lines of 5,000, each a JSON document, read back whole', async () => {
    const keys = Array.from({ length: 12_001 }, (_, i) => `k${i}\n`);
    const values = keys.map((key) => `line\nbreak ${key}`);
    const content = await encodeStoredEntries({ keys, values });
    const lines = gunzipSync(content).toString('utf8').split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { keys: string[] }).keys.length)).toEqual([
      5000, 5000, 2001,
    ]);
    expect(await decodeStoredEntries(content)).toEqual({ keys, values });
  });

  it('when values are long, then a line holds about 256 K characters of them, whatever their count', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `legal.terms${i}`);
    const values = keys.map((key) => `${key} ${'x'.repeat(100_000)}`);
    const content = await encodeStoredEntries({ keys, values });
    const lines = gunzipSync(content).toString('utf8').split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { keys: string[] }).keys.length)).toEqual([
      3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    ]);
    expect(await decodeStoredEntries(content)).toEqual({ keys, values });
  });

  it('when entries were stored as one document of any size, then they are read back', async () => {
    const keys = Array.from({ length: 12_001 }, (_, i) => `k${i}`);
    const values = keys.map((key) => `Value of ${key}`);
    const content = await gzipAsync(Buffer.from(JSON.stringify({ keys, values })));
    expect(await decodeStoredEntries(content)).toEqual({ keys, values });
  });

  it('when there are no entries, then an empty list comes back', async () => {
    expect(await decodeStoredEntries(await encodeStoredEntries({ keys: [], values: [] }))).toEqual({
      keys: [],
      values: [],
    });
  });

  it('when keys and values do not pair up, then encoding and decoding refuse', async () => {
    await expect(encodeStoredEntries({ keys: ['a', 'b'], values: ['A'] })).rejects.toThrow(
      /1 values for 2 keys/,
    );
    const content = await gzipAsync(Buffer.from('{"keys":["a"],"values":[]}'));
    await expect(decodeStoredEntries(content)).rejects.toThrow(/Damaged stored entries/);
  });

  it('when 200,000 entries go through storage, then they all come back', async () => {
    const keys = Array.from({ length: 200_000 }, (_, i) => `screen_${i % 500}.item_${i}`);
    const values = keys.map((key) => `Value of ${key}`);
    const decoded = await decodeStoredEntries(await encodeStoredEntries({ keys, values }));
    expect(decoded.keys).toEqual(keys);
    expect(decoded.values).toEqual(values);
  });
});
