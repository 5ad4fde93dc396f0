/** The text of Apple's strings files as their tools store it: UTF-8 or UTF-16, with or without a byte order mark. */
import { FormatError } from './format.js';
import { checkNoNul } from './utf8.js';

/** How a file's text is stored: its encoding and whether it starts with a byte order mark. */
export type AppleText = { text: string; encoding: 'utf8' | 'utf16le' | 'utf16be'; bom: boolean };

/** A file's text as Apple's tools read it: UTF-8 or UTF-16, by its byte order mark. */
export function decodeApple(bytes: Buffer, path: string): AppleText {
  const notText = (encoding: string) =>
    new FormatError(path, `is not ${encoding} text (strings files are UTF-8 or UTF-16)`, {
      line: 1,
      column: 1,
    });
  let encoding: AppleText['encoding'] = 'utf8';
  let bom = false;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, bom] = ['utf16le', true];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, bom] = ['utf16be', true];
  else if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bom = true;
  else if (bytes.length >= 2 && bytes[0] !== 0 && bytes[1] === 0) encoding = 'utf16le';
  else if (bytes.length >= 2 && bytes[0] === 0 && bytes[1] !== 0) encoding = 'utf16be';
  const body = bytes.subarray(bom ? (encoding === 'utf8' ? 3 : 2) : 0);
  let text: string;
  try {
    const decoder = new TextDecoder(
      encoding === 'utf8' ? 'utf-8' : encoding === 'utf16le' ? 'utf-16le' : 'utf-16be',
      {
        fatal: true,
        ignoreBOM: true,
      },
    );
    if (encoding !== 'utf8' && body.length % 2 !== 0) throw new Error('odd length');
    text = decoder.decode(body);
  } catch {
    throw notText(encoding === 'utf8' ? 'UTF-8' : 'UTF-16');
  }
  checkNoNul(text, path);
  return { text, encoding, bom };
}

/** `text` stored as `like` is. */
export function encodeApple(text: string, like: AppleText): Buffer {
  if (like.encoding === 'utf8') return Buffer.from(`${like.bom ? '\ufeff' : ''}${text}`, 'utf8');
  const le = Buffer.from(`${like.bom ? '\ufeff' : ''}${text}`, 'utf16le');
  return like.encoding === 'utf16le' ? le : le.swap16();
}
