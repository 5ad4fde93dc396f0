import { FormatError } from './format.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A file's UTF-8 text, byte order mark kept (the parsers keep it too); bytes that are not UTF-8
 * are a FormatError naming the first line that holds some, with `hint` for what to do.
 */
export function decodeUtf8(bytes: Buffer, path: string, hint: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    let line = 1;
    let start = 0;
    for (let at = 0; at <= bytes.length; at++) {
      if (at < bytes.length && bytes[at] !== 0x0a) continue;
      try {
        UTF8.decode(bytes.subarray(start, at));
      } catch {
        break;
      }
      line++;
      start = at + 1;
    }
    throw new FormatError(path, `is not UTF-8 text; ${hint}`, { line, column: 1 });
  }
}
