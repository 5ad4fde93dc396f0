import { describe, expect, it } from 'vitest';
import {
  computeSourceDiff,
  isEmptyDiff,
  sameAnnotations,
  sameContent,
  sameEntries,
  type FlatEntries,
} from '@tolk/locale-file';
import { parseSourceDocument } from '@tolk/locale-file';

function flat(pairs: Record<string, string>): FlatEntries {
  return { keys: Object.keys(pairs), values: Object.values(pairs) };
}

function source(json: string) {
  return parseSourceDocument(JSON.parse(json));
}

describe('computeSourceDiff', () => {
  it('when there is no previous version, then every key is added, in order', () => {
    expect(computeSourceDiff(undefined, flat({ b: '1', a: '2' }))).toEqual({
      added: ['b', 'a'],
      modified: [],
      deleted: [],
    });
  });

  it('when nothing changed, then the diff is empty', () => {
    const diff = computeSourceDiff(flat({ a: '1', b: '2' }), flat({ a: '1', b: '2' }));
    expect(diff).toEqual({ added: [], modified: [], deleted: [] });
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('when values change in place, then exactly those keys are modified, in the new order', () => {
    const diff = computeSourceDiff(
      flat({ a: '1', b: '2', c: '3', d: '4' }),
      flat({ a: '1', b: 'X', c: '3', d: 'Y' }),
    );
    expect(diff).toEqual({ added: [], modified: ['b', 'd'], deleted: [] });
  });

  it('when keys are inserted, removed and changed around each other, then each lands in its list', () => {
    const previous = flat({ a: '1', b: '2', c: '3', d: '4', e: '5' });
    const next = flat({ a: '1', new1: 'n', c: 'changed', e: '5', b: '2', new2: 'm' });
    expect(computeSourceDiff(previous, next)).toEqual({
      added: ['new1', 'new2'],
      modified: ['c'],
      deleted: ['d'],
    });
  });

  it('when several keys are deleted, then they come in the previous order', () => {
    const diff = computeSourceDiff(flat({ z: '1', a: '2', m: '3', k: '4' }), flat({ k: '4' }));
    expect(diff.deleted).toEqual(['z', 'a', 'm']);
  });

  it('when keys are only reordered, then the diff is empty', () => {
    expect(
      isEmptyDiff(computeSourceDiff(flat({ a: '1', b: '2', c: '3' }), flat({ c: '3', a: '1', b: '2' }))),
    ).toBe(true);
  });

  it('when every key is replaced, then all old keys are deleted and all new ones added', () => {
    expect(computeSourceDiff(flat({ a: '1', b: '2' }), flat({ c: '1', d: '2' }))).toEqual({
      added: ['c', 'd'],
      modified: [],
      deleted: ['a', 'b'],
    });
  });

  it('when the new version is empty, then every key is deleted', () => {
    expect(computeSourceDiff(flat({ a: '1', b: '2' }), flat({}))).toEqual({
      added: [],
      modified: [],
      deleted: ['a', 'b'],
    });
  });

  it('when keys are appended after an unchanged run, then only they are added', () => {
    expect(computeSourceDiff(flat({ a: '1', b: '2' }), flat({ a: '1', b: '2', c: '3' }))).toEqual({
      added: ['c'],
      modified: [],
      deleted: [],
    });
  });

  it('when keys are named like Object.prototype members, then they diff as plain strings', () => {
    const previous = { keys: ['__proto__', 'constructor', 'toString'], values: ['1', '2', '3'] };
    const next = { keys: ['constructor', '__proto__', 'hasOwnProperty'], values: ['2', 'x', '4'] };
    expect(computeSourceDiff(previous, next)).toEqual({
      added: ['hasOwnProperty'],
      modified: ['__proto__'],
      deleted: ['toString'],
    });
  });

  it('when only annotations change, then the key diff is empty', () => {
    const diff = computeSourceDiff(
      source('{"a":"x","@a":{"description":"old"}}'),
      source('{"a":"x","@a":{"description":"new"}}'),
    );
    expect(isEmptyDiff(diff)).toBe(true);
  });
});

describe('isEmptyDiff', () => {
  it.each([
    [{ added: ['a'], modified: [], deleted: [] }],
    [{ added: [], modified: ['a'], deleted: [] }],
    [{ added: [], modified: [], deleted: ['a'] }],
  ])('when any list has a key (%j), then the diff is not empty', (diff) => {
    expect(isEmptyDiff(diff)).toBe(false);
  });
});

describe('sameContent', () => {
  it('when the same document is uploaded again, then the content is the same', () => {
    const json = '{"a":{"b":"x","@b":{"description":"d","maxLength":3}},"c":["y"]}';
    expect(sameContent(source(json), source(json))).toBe(true);
  });

  it('when keys are reordered or written flat instead of nested, then the content is the same', () => {
    expect(sameContent(source('{"a":{"b":"x","c":"y"}}'), source('{"a.c":"y","a.b":"x"}'))).toBe(true);
  });

  it('when one value changes, then the content differs', () => {
    expect(sameContent(source('{"a":"x","b":"y"}'), source('{"a":"x","b":"z"}'))).toBe(false);
  });

  it('when a key is renamed, added or removed, then the content differs', () => {
    expect(sameContent(source('{"a":"x","b":"y"}'), source('{"a":"x","c":"y"}'))).toBe(false);
    expect(sameContent(source('{"a":"x"}'), source('{"a":"x","b":"y"}'))).toBe(false);
    expect(sameContent(source('{"a":"x","b":"y"}'), source('{"a":"x"}'))).toBe(false);
  });

  it('when only an annotation changes, appears or disappears, then the content differs', () => {
    const base = source('{"a":"x","@a":{"description":"old"}}');
    expect(sameContent(base, source('{"a":"x","@a":{"description":"new"}}'))).toBe(false);
    expect(sameContent(base, source('{"a":"x"}'))).toBe(false);
    expect(sameContent(source('{"a":"x"}'), base)).toBe(false);
    expect(sameContent(base, source('{"a":"x","@a":{"description":"old","maxLength":5}}'))).toBe(false);
  });

  it('when annotation members are only reordered, then the content is the same', () => {
    expect(
      sameContent(
        source('{"a":"x","@a":{"description":"d","placeholders":{"n":{"type":"int","example":"1"}}}}'),
        source('{"@a":{"placeholders":{"n":{"example":"1","type":"int"}},"description":"d"},"a":"x"}'),
      ),
    ).toBe(true);
  });

  it('when only file metadata changes, then the content is the same', () => {
    expect(
      sameContent(
        source('{"@@last_modified":"2024-01-01","a":"x"}'),
        source('{"@@last_modified":"2025-06-30","a":"x"}'),
      ),
    ).toBe(true);
  });
});

describe('sameEntries and sameAnnotations', () => {
  it('when the counts match but a key differs after a common run, then the entries differ', () => {
    expect(sameEntries(flat({ a: '1', b: '2', c: '3' }), flat({ a: '1', c: '3', d: '2' }))).toBe(false);
    expect(sameEntries(flat({ a: '1', b: '2', c: '3' }), flat({ a: '1', c: '3', b: '2' }))).toBe(true);
  });

  it('when annotation values differ in arrays, nulls or types, then the annotations differ', () => {
    const of = (value: unknown) => new Map([['a', { v: value }]]);
    expect(sameAnnotations(of([1, 2]), of([1, 2]))).toBe(true);
    expect(sameAnnotations(of([1, 2]), of([2, 1]))).toBe(false);
    expect(sameAnnotations(of([1]), of({ 0: 1 }))).toBe(false);
    expect(sameAnnotations(of(null), of({}))).toBe(false);
    expect(sameAnnotations(of('1'), of(1))).toBe(false);
    expect(sameAnnotations(of({ x: 1 }), of({ y: 1 }))).toBe(false);
  });
});
