/**
 * `strings`: an Apple strings file (`en.lproj/Localizable.strings`), DESIGN §12.
 *
 * Read by a small scanner of the format (no maintained JavaScript parser of `.strings` keeps the
 * source offsets a byte-faithful target needs): `"key" = "value";` pairs (unquoted words too, as
 * the old-style plist allows), `/* ... *\/` and `//` comments, whitespace anywhere between.
 *
 * - Keys are flat (`"Hello, %@"` is one name), often the English text itself: a key is the
 *   file's key where the locale document can hold it as it is; a dot it cannot hold (`"Saved."`,
 *   `"..."`) and a final i18next plural suffix (`"items_one"`) are escaped as `key-names.ts`
 *   says, and the file's keys are written back as they are. An empty key, one starting with `@`
 *   or holding the escapes' characters is refused with its line and column.
 * - The comments right above a pair (no blank line between) are its context.
 * - Escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\Uxxxx` (and `\uxxxx`) are read; a target writes
 *   `\"`, `\\`, `\n`, `\t`, `\r` and other control characters as `\Uxxxx`, everything else as is.
 * - UTF-8 (with or without a byte order mark) and UTF-16 (little or big endian, found by its
 *   byte order mark, or by the zero bytes of ASCII text without one); a target is written in the
 *   source's encoding, byte order mark included.
 * - A target keeps the source's text: comments, blank lines, order, the spelling of every value
 *   that did not change; a changed value replaces the quoted value only; a key with no value is
 *   left out with the comments right above it.
 * - A key given twice is a finding, and its last value is kept, as Foundation's reader keeps it
 *   (each pair replaces the one before); a key the locale document cannot hold is a finding and
 *   left out of the document and of targets.
 * - Refused (the file does not parse): an unterminated string or comment, a pair missing `=` or
 *   `;`, bytes that are not the encoding, a NUL (a binary file).
 */
import { lprojSpelling } from './bcp47-spelling.js';
import {
  addFinding,
  FormatError,
  type FileFinding,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
} from './format.js';
import { keyOfName, nameProblem } from './key-names.js';
import { checkNoNul } from './utf8.js';

export const stringsFormat: LocaleFormat = {
  name: 'strings',
  extensions: ['.strings'],
  ...lprojSpelling,
  read(input: ReadInput) {
    return documentOf(parseStrings(decodeApple(input.bytes, input.path), input.path, input));
  },
  write: writeStrings,
};

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

/** One pair of the file, with the offsets a target edits. */
type Pair = {
  /** The key in the locale document: the file's key escaped (`key-names.ts`). */
  key: string;
  value: string;
  /** Offsets of the value's token (quotes included), in the text. */
  valueStart: number;
  valueEnd: number;
  /** Where the pair with the comments right above it starts (a line start), and where it ends. */
  blockStart: number;
  blockEnd: number;
  comments: string[];
  /** A pair Tolk does not read: its key cannot be a key. Left out of targets. */
  unread?: boolean;
};

type Parsed = { source: AppleText; pairs: Pair[] };

/** Where a file's findings go while it is read: nowhere for a file a target is written from. */
type Report = Pick<ReadInput, 'path' | 'findings'> | undefined;

const WORD = /[A-Za-z0-9_$+/:.-]/;

function parseStrings(source: AppleText, path: string, report?: Report): Parsed {
  const { text } = source;
  let at = 0;
  // Places are asked for in the order of the file: counted on from the last one, not from the start.
  let counted = { offset: 0, line: 1, lineStart: 0 };
  const positionOf = (offset: number) => {
    if (offset < counted.offset) counted = { offset: 0, line: 1, lineStart: 0 };
    let { line, lineStart } = counted;
    for (let i = text.indexOf('\n', counted.offset); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    counted = { offset, line, lineStart };
    return { line, column: offset - lineStart + 1 };
  };
  const finding = (
    key: string,
    kind: FileFinding['kind'],
    message: string,
    where: { line: number; column: number },
  ) => {
    if (report) addFinding(report, { key, kind, severity: 'warning', message, ...where });
  };
  const fail = (reason: string, offset: number): never => {
    throw new FormatError(path, reason, positionOf(offset));
  };
  const lineStartOf = (offset: number) => text.lastIndexOf('\n', offset - 1) + 1;

  // Comments since the last blank line, since the previous pair.
  let comments: { text: string; start: number }[] = [];
  /** Skips whitespace and comments, collecting the comments right above what follows. */
  const skip = (collect: boolean) => {
    while (at < text.length) {
      const char = text[at]!;
      if (char === '\n') {
        // A blank line cuts the comments above it off from what follows.
        const next = text.indexOf('\n', at + 1);
        const line = text.slice(at + 1, next === -1 ? text.length : next);
        if (collect && line.trim() === '' && next !== -1) comments = [];
        at++;
      } else if (/\s/.test(char)) at++;
      else if (text.startsWith('/*', at)) {
        const end = text.indexOf('*/', at + 2);
        if (end === -1) fail('a comment opened with /* is never closed with */', at);
        if (collect) comments.push({ text: text.slice(at + 2, end), start: at });
        at = end + 2;
      } else if (text.startsWith('//', at)) {
        const end = text.indexOf('\n', at);
        const stop = end === -1 ? text.length : end;
        if (collect) comments.push({ text: text.slice(at + 2, stop), start: at });
        at = stop;
      } else break;
    }
  };
  const token = (what: string): { value: string; start: number; end: number } => {
    const start = at;
    if (text[at] === '"') {
      let value = '';
      at++;
      for (;;) {
        if (at >= text.length) fail(`the string of the ${what} opened here is never closed with "`, start);
        const char = text[at]!;
        if (char === '"') break;
        if (char !== '\\') {
          value += char;
          at++;
          continue;
        }
        const escaped = text[at + 1];
        if (escaped === undefined)
          fail(`the string of the ${what} opened here is never closed with "`, start);
        if (escaped === 'U' || escaped === 'u') {
          const hex = text.slice(at + 2, at + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(`the escape \\${escaped} needs four hex digits`, at);
          value += String.fromCharCode(parseInt(hex, 16));
          at += 6;
          continue;
        }
        const simple: Record<string, string> = {
          n: '\n',
          t: '\t',
          r: '\r',
          '0': '\0',
          a: '\x07',
          b: '\b',
          f: '\f',
          v: '\v',
        };
        value += simple[escaped!] ?? escaped;
        at += 2;
      }
      at++;
      return { value, start, end: at };
    }
    while (at < text.length && WORD.test(text[at]!)) at++;
    if (at === start) {
      fail(
        at >= text.length ? `the file ends where a ${what} was expected` : `a ${what} was expected here`,
        at,
      );
    }
    return { value: text.slice(start, at), start, end: at };
  };
  const expectChar = (char: string, after: string) => {
    if (text[at] !== char) fail(`"${char}" is missing after ${after}`, at);
    at++;
  };

  const pairs: Pair[] = [];
  let previousEnd = 0;
  const seen = new Map<string, number>();
  skip(true);
  while (at < text.length) {
    const above = comments;
    comments = [];
    const key = token('key');
    const keyAt = positionOf(key.start);
    skip(false);
    expectChar('=', `the key ${JSON.stringify(key.value)}`);
    skip(false);
    const value = token('value');
    skip(false);
    expectChar(';', `the value of ${JSON.stringify(key.value)}`);
    // The pair's block ends after the rest of its line when only whitespace follows.
    let blockEnd = at;
    const rest = /^[ \t]*(\r?\n|$)/.exec(text.slice(at));
    if (rest) blockEnd = at + rest[0].length;
    const lineStart = lineStartOf(above[0]?.start ?? key.start);
    // A pair after another on the same line: from the end of that one to its own `;`.
    const blockStart = Math.max(previousEnd, lineStart);
    if (blockStart > lineStart) blockEnd = at;
    previousEnd = at;
    const firstLine = seen.get(key.value);
    const problem = nameProblem(key.value);
    if (firstLine !== undefined && !problem) {
      finding(
        keyOfName(key.value),
        'duplicate',
        `the key ${JSON.stringify(key.value)} is given twice (lines ${firstLine}, ${keyAt.line}); the last value is kept, as Apple's reader keeps it`,
        keyAt,
      );
    }
    seen.set(key.value, keyAt.line);
    if (problem) {
      finding(
        key.value,
        'format',
        `the key ${JSON.stringify(key.value)} cannot be a key of a locale document: it ${problem}; left out`,
        keyAt,
      );
    }
    pairs.push({
      key: problem ? '' : keyOfName(key.value),
      value: value.value,
      valueStart: value.start,
      valueEnd: value.end,
      blockStart,
      blockEnd,
      comments: above.map((comment) => comment.text),
      ...(problem ? { unread: true } : {}),
    });
    skip(true);
  }
  return { source, pairs };
}

/** A comment's text without its decoration: ` * ` line starts and surrounding whitespace. */
function commentText(comment: string): string {
  return comment
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd())
    .join('\n')
    .trim();
}

function documentOf(parsed: Parsed): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const pair of parsed.pairs) {
    if (pair.unread) continue;
    define(document, pair.key, pair.value);
    const description = pair.comments
      .map(commentText)
      .filter((text) => text !== '' && text !== 'No comment provided by engineer.')
      .join('\n');
    if (description) define(document, `@${pair.key}`, { description });
  }
  return document;
}

/** A property of a plain object, `__proto__` included. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `value` as a quoted string of a strings file. */
export function quoteStrings(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\U${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

function writeStrings(input: WriteInput): Buffer {
  const parsed = parseStrings(decodeApple(input.source, '(source)'), '(source)');
  const { text } = parsed.source;
  let out = '';
  let at = 0;
  for (const pair of parsed.pairs) {
    const value = pair.unread ? undefined : input.valueOf(pair.key);
    if (value === undefined) {
      out += text.slice(at, pair.blockStart);
      at = pair.blockEnd;
    } else if (value !== pair.value) {
      out += text.slice(at, pair.valueStart) + quoteStrings(value);
      at = pair.valueEnd;
    }
  }
  out += text.slice(at);
  return encodeApple(out, parsed.source);
}
