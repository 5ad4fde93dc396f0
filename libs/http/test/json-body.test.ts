import { describe, expect, it } from 'vitest';
import { oneByteJsonText, parseUtf8Json } from '../src/json-body.js';

/** What express.json gives for the same bytes: decoded, without a leading BOM, `{}` when empty. */
function asExpress(bytes: Buffer): { value: unknown } | { error: string } {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return { value: {} };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function parsed(bytes: Buffer): { value: unknown } | { error: string } {
  try {
    return { value: parseUtf8Json(bytes) };
  } catch (err) {
    expect((err as { type?: string }).type).toBe('entity.parse.failed');
    return { error: (err as Error).message };
  }
}

const BODIES: Array<string | Buffer> = [
  '{"a":"plain"}',
  '{"price":"€12.50","quote":"’s","ü":"ünïcödé","e":"😀 and 𝄞","nbsp":"a\u00a0b"}',
  '\ufeff{"a":"with a byte order mark, €"}',
  '\ufeff',
  '',
  '"a string €"',
  '["é", "\\u00e9", "\\\\é", "\\"é"]',
  '{"line":"\u2028\u2029"}',
  '{"a":"€", "b": €}',
  '{"a":"€"',
  '{"a":"\\€"}',
  '{"a":"\\\\\\€"}',
  '{"a":"€"}\u00a0',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d]),
  `{${Array.from({ length: 3000 }, (_, i) => `"k${i}":"${i % 7 === 0 ? '€ ✓ 😀' : 'text'} ${i}"`).join(',')}}`,
];

describe('parseUtf8Json', () => {
  it.each(BODIES.map((body, i) => [i, body] as const))(
    'when body %i is parsed from its bytes, then the value or the error is what decoding it gives',
    (_i, body) => {
      const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      expect(parsed(bytes)).toEqual(asExpress(bytes));
    },
  );

  it('when a body holds characters beyond ASCII, then JSON.parse is given one-byte text', () => {
    const text = oneByteJsonText(Buffer.from('{"a":"€ 😀 é"}', 'utf8'));
    expect(text).toBe('{"a":"\\u20ac \\ud83d\\ude00 \\u00e9"}');
  });

  it('when the bytes are not UTF-8 or a character follows a backslash, then they are decoded as usual', () => {
    expect(oneByteJsonText(Buffer.from([0x22, 0xff, 0x22]))).toBeUndefined();
    expect(oneByteJsonText(Buffer.from('"\\€"', 'utf8'))).toBeUndefined();
  });
});
