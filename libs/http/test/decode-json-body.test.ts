import { describe, expect, it } from 'vitest';
import { decodeJsonBody, firstInvalidUtf8Offset } from '../src/decode-json-body.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

function decode(text: string) {
  return decodeJsonBody(Buffer.from(text), JSON_HEADERS, { limitBytes: 1024 * 1024 });
}

describe('decodeJsonBody: lone surrogates', () => {
  it.each([
    ['a pair', '"\\ud83d\\ude00"', '😀'],
    ['a pair in mixed case', '"\\uD83D\\ude00"', '😀'],
    ['two pairs in a row', '"\\ud83d\\ude00\\ud83d\\ude00"', '😀😀'],
    ['an escaped backslash before "ud800"', '"\\\\ud800"', '\\ud800'],
    ['three escaped backslashes and a pair', '"\\\\\\\\\\\\\\ud83d\\ude00"', '\\\\\\😀'],
  ])('when a string holds %s, then it is read', async (_case, text, value) => {
    await expect(decode(text)).resolves.toBe(value);
  });

  it.each([
    ['a high one at the end', '{"a":"x\\ud800"}', 'body.a', '\\ud800'],
    ['a low one alone', '{"a":"\\udc00x"}', 'body.a', '\\udc00'],
    ['a high one before another high one', '{"a":"\\ud800\\ud800\\udc00"}', 'body.a', '\\ud800'],
    ['a low one after a pair', '{"a":"\\ud800\\udc00\\udc00"}', 'body.a', '\\udc00'],
    ['a high one before a character written as itself', '{"a":"\\ud800😀"}', 'body.a', '\\ud800'],
    // The first `\ud800` is text after an escaped backslash: the low one that follows is alone.
    ['a low one after an escaped backslash', '{"a":"\\\\ud800\\udc00"}', 'body.a', '\\udc00'],
    ['one deep in arrays', '{"a":[["ok"],["ok","\\uDBFF"]]}', 'body.a.1.1', '\\udbff'],
  ])('when a string holds %s, then a ValidationError names its path', async (_case, text, path, unit) => {
    await expect(decode(text)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: `${path}: must be well-formed Unicode, not a lone surrogate (${unit})`,
    });
  });

  it('when a body nests deeper than the call stack, then the walk still names (the start of) the path', async () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}`;
    await expect(decode(text)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: `body${'.0'.repeat(498)}…: must be well-formed Unicode, not a lone surrogate (\\ud800)`,
    });
  });
});

describe('firstInvalidUtf8Offset', () => {
  it.each([
    ['valid text', Buffer.from('a € 😀 é'), -1],
    ['a stray continuation byte', Buffer.from([0x61, 0x80]), 1],
    ['a truncated sequence at the end', Buffer.from([0x61, 0x62, 0xf0, 0x9f, 0x98]), 2],
    ['an overlong two-byte form', Buffer.from([0xc1, 0xbf]), 0],
    ['an overlong three-byte form', Buffer.from([0xe0, 0x80, 0xaf]), 0],
    ['an encoded surrogate', Buffer.from([0x61, 0xed, 0xa0, 0x80]), 1],
    ['a code point past U+10FFFF', Buffer.from([0xf4, 0x90, 0x80, 0x80]), 0],
    ['a byte never used in UTF-8', Buffer.from([0x61, 0x62, 0x63, 0xff]), 3],
  ])('when the bytes hold %s, then the offset is where it starts', (_case, bytes, offset) => {
    expect(firstInvalidUtf8Offset(bytes)).toBe(offset);
  });
});
