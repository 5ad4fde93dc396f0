import { FormatError } from './format.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const UTF8_LENIENT = new TextDecoder('utf-8', { ignoreBOM: true });

/** How many leading bytes tell UTF-16 from other text: ASCII in UTF-16 has a zero in every pair. */
const UTF16_SAMPLE = 512;

/**
 * A file's UTF-8 text, byte order mark kept (the parsers keep it too). Bytes that are no UTF-8
 * text are a FormatError with their place and `hint` for what to do: UTF-16 (with a byte order
 * mark or without), a NUL byte (a binary file: no text format holds one), bytes that are not UTF-8.
 */
export function decodeUtf8(bytes: Buffer, path: string, hint: string): string {
  checkNotUtf16(bytes, path, hint);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new FormatError(path, `is not UTF-8 text; ${hint}`, notUtf8At(bytes));
  }
  checkNoNul(text, path);
  return text;
}

/**
 * Refuses UTF-16 text where UTF-8 was expected: by its byte order mark, or (without one, which
 * Windows tools write too) by the zero byte of each character of the ASCII it starts with.
 */
export function checkNotUtf16(bytes: Buffer, path: string, hint: string): void {
  const order = utf16Order(bytes);
  if (order === undefined) return;
  const mark = bytes.length >= 2 && (bytes[0]! << 8) + bytes[1]! === (order === 'le' ? 0xfffe : 0xfeff);
  throw new FormatError(
    path,
    `is UTF-16 text (${order === 'le' ? 'little' : 'big'} endian, ${mark ? 'with' : 'without'} a byte order mark), not UTF-8; ${hint}`,
    { line: 1, column: 1 },
  );
}

/** `le` or `be` when the bytes are UTF-16 text, by its byte order mark or the zeros of ASCII. */
export function utf16Order(bytes: Buffer): 'le' | 'be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'be';
  const length = Math.min(bytes.length, UTF16_SAMPLE) & ~1;
  if (length < 2) return undefined;
  let even = 0;
  let odd = 0;
  for (let at = 0; at < length; at++) {
    if (bytes[at] !== 0) continue;
    if (at % 2 === 0) even++;
    else odd++;
  }
  const pairs = length / 2;
  // Mostly ASCII, so (nearly) every high byte is zero and no low byte is.
  if (odd >= pairs * 0.9 && even === 0) return 'le';
  if (even >= pairs * 0.9 && odd === 0) return 'be';
  return undefined;
}

/** A NUL in decoded text: the file is binary data, not a locale file. */
export function checkNoNul(text: string, path: string): void {
  const at = text.indexOf('\0');
  if (at === -1) return;
  throw new FormatError(
    path,
    'holds a NUL byte: it is a binary file, not a text file in its format',
    positionIn(text, at),
  );
}

/** The line and column (1-based, UTF-16 code units as editors count them) of an offset in a text. */
export function positionIn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The line and column of the first bytes that are not UTF-8. */
function notUtf8At(bytes: Buffer): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let at = 0; at <= bytes.length; at++) {
    if (at < bytes.length && bytes[at] !== 0x0a) continue;
    const lineBytes = bytes.subarray(start, at);
    try {
      UTF8.decode(lineBytes);
    } catch {
      const column = UTF8_LENIENT.decode(lineBytes).indexOf('\uFFFD') + 1;
      return { line, column: Math.max(column, 1) };
    }
    line++;
    start = at + 1;
  }
  return { line, column: 1 };
}
