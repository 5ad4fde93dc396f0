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
 * - A target already on disk is edited in place instead (DESIGN §16): its changed values replaced
 *   in its own quoting and escapes, new keys placed by their neighbours in the source and in their
 *   layout, keys gone (synced by Tolk, WriteInput.synced) or with no value removed with their
 *   comments; the rest of its bytes, its
 *   encoding and byte order mark stay. A target on disk that does not read is written anew. A pair
 *   new to it from another version of the same file (a merge, `WriteInput.sameFile`) comes as it
 *   stands there, with the comments and blank lines before it.
 * - A key given twice is a finding, and its last value is kept, as Foundation's reader keeps it
 *   (each pair replaces the one before); a key the locale document cannot hold is a finding and
 *   left out of the document and of targets.
 * - Refused (the file does not parse): an unterminated string or comment, a pair missing `=` or
 *   `;`, bytes that are not the encoding, a NUL (a binary file).
 */
import { decodeApple, encodeApple, type AppleText } from './apple-text.js';
import { lprojSpelling } from './bcp47-spelling.js';
import {
  addFinding,
  FormatError,
  keepsUnwritten,
  type FileFinding,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
} from './format.js';
import { keyOfName, nameProblem } from './key-names.js';
import { nearest } from './nearest.js';

export const stringsFormat: LocaleFormat = {
  name: 'strings',
  extensions: ['.strings'],
  ...lprojSpelling,
  read(input: ReadInput) {
    return documentOf(parseStrings(decodeApple(input.bytes, input.path), input.path, input));
  },
  write: writeStrings,
};

/** One pair of the file, with the offsets a target edits. */
type Pair = {
  /** The key in the locale document: the file's key escaped (`key-names.ts`). */
  key: string;
  /** The key as the file has it. */
  name: string;
  value: string;
  /** Offsets of the key's token (quotes included), in the text. */
  keyStart: number;
  keyEnd: number;
  /** Offsets of the value's token (quotes included), in the text. */
  valueStart: number;
  valueEnd: number;
  /** Where the pair with the comments right above it starts (a line start), and where it ends. */
  blockStart: number;
  blockEnd: number;
  /** Where the pair's `;` ends. */
  end: number;
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
      name: key.value,
      value: value.value,
      keyStart: key.start,
      keyEnd: key.end,
      valueStart: value.start,
      valueEnd: value.end,
      blockStart,
      blockEnd,
      end: at,
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

/**
 * How a file writes what it escapes by choice: `ascii` when it spells every character beyond
 * ASCII as `\Uxxxx` (its escape letter `U` or `u`, its hex digits capitals or not).
 */
type EscapeStyle = { ascii: boolean; letter: 'U' | 'u'; upperHex: boolean };

const PLAIN: EscapeStyle = { ascii: false, letter: 'U', upperHex: false };

/** `value` as a quoted string of a strings file. */
export function quoteStrings(value: string, style: EscapeStyle = PLAIN): string {
  const unicode = (code: number) => {
    const hex = code.toString(16).padStart(4, '0');
    return `\\${style.letter}${style.upperHex ? hex.toUpperCase() : hex}`;
  };
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += unicode(code);
    else if (style.ascii && code > 0x7f) {
      // One escape per UTF-16 unit, as the file's reader joins them.
      for (let at = 0; at < char.length; at++) out += unicode(char.charCodeAt(at));
    } else out += char;
  }
  return `${out}"`;
}

function writeStrings(input: WriteInput): Buffer {
  const parsed = parseStrings(decodeApple(input.source, '(source)'), '(source)');
  if (input.existing !== undefined) {
    let onDisk: Parsed | undefined;
    try {
      onDisk = parseStrings(decodeApple(input.existing, '(target)'), '(target)');
    } catch (error) {
      // A target that does not read is written anew in the source's layout.
      if (!(error instanceof FormatError)) throw error;
    }
    if (onDisk) return editInPlace(parsed, onDisk, input);
  }
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

/** The escape style of a file's keys and values (comments are no part of it). */
function styleOf(parsed: Parsed): EscapeStyle {
  let raw = false;
  let escaped = false;
  const letters = new Set<string>();
  const cases = new Set<'upper' | 'lower'>();
  for (const pair of parsed.pairs) {
    for (const token of [
      parsed.source.text.slice(pair.keyStart, pair.keyEnd),
      parsed.source.text.slice(pair.valueStart, pair.valueEnd),
    ]) {
      if (/[^\p{ASCII}]/u.test(token)) raw = true;
      for (const match of token.matchAll(/\\([Uu])([0-9a-fA-F]{4})/g)) {
        letters.add(match[1]!);
        if (parseInt(match[2]!, 16) > 0x7f) escaped = true;
        if (/[A-F]/.test(match[2]!)) cases.add('upper');
        if (/[a-f]/.test(match[2]!)) cases.add('lower');
      }
    }
  }
  return {
    ascii: escaped && !raw,
    letter: letters.size === 1 && letters.has('u') ? 'u' : 'U',
    upperHex: cases.size === 1 && cases.has('upper'),
  };
}

/** A token of a pair: bare when `like` is bare and `text` is a word, quoted otherwise. */
function tokenLike(parsed: Parsed, likeStart: number, text: string, style: EscapeStyle): string {
  return parsed.source.text[likeStart] !== '"' && /^[A-Za-z0-9_$+/:.-]+$/.test(text)
    ? text
    : quoteStrings(text, style);
}

/** A new pair in the layout of `like`, a pair of `parsed`: its spacing around `=` and before `;`. */
function pairLike(parsed: Parsed, like: Pair, name: string, value: string, style: EscapeStyle): string {
  const { text } = parsed.source;
  const equals = text.slice(like.keyEnd, like.valueStart);
  const semicolon = text.slice(like.valueEnd, like.end);
  return `${tokenLike(parsed, like.keyStart, name, style)}${/^[ \t]*=[ \t]*$/.test(equals) ? equals : ' = '}${tokenLike(parsed, like.valueStart, value, style)}${/^[ \t]*;$/.test(semicolon) ? semicolon : ';'}`;
}

/** The whitespace a pair's line starts with, when its key is the first thing on its line. */
function indentOf(text: string, pair: Pair): string {
  const lineStart = text.lastIndexOf('\n', pair.keyStart - 1) + 1;
  const indent = text.slice(lineStart, pair.keyStart);
  return /^[ \t]*$/.test(indent) ? indent : '';
}

/**
 * The target on disk (`onDisk`) with only its changed pairs edited (DESIGN §16): a changed value
 * replaces the value's token, in the file's quoting and escapes; a new key goes after the nearest
 * key before it in the source that the target has (else before the nearest one after it, else at
 * the end) in that neighbour's layout; a key with no value, or that the source no longer has and
 * Tolk synced, goes with the comments right above it (one Tolk never synced stays). Everything else keeps its bytes, the file its encoding and
 * byte order mark; nothing to change gives `existing` back.
 */
function editInPlace(source: Parsed, onDisk: Parsed, input: WriteInput): Buffer {
  const { text } = onDisk.source;
  const style = styleOf(onDisk);
  const eol = /\r\n|\n/.exec(text)?.[0] ?? /\r\n|\n/.exec(source.source.text)?.[0] ?? '\n';
  // The target's keys in the source's order, each with its value (undefined: left out).
  const wanted: { pair: Pair; value: string | undefined }[] = [];
  const valueOf = new Map<string, string>();
  const seen = new Set<string>();
  for (const pair of source.pairs) {
    if (pair.unread || seen.has(pair.key)) continue;
    seen.add(pair.key);
    const value = input.valueOf(pair.key);
    wanted.push({ pair, value });
    if (value !== undefined) valueOf.set(pair.key, value);
  }
  const onDiskOf = new Map<string, Pair[]>();
  for (const pair of onDisk.pairs) {
    if (pair.unread) continue;
    const list = onDiskOf.get(pair.key);
    if (list) list.push(pair);
    else onDiskOf.set(pair.key, [pair]);
  }

  type Edit = { start: number; end: number; text: string };
  const edits: Edit[] = [];
  const removed = new Set<Pair>();
  for (const [key, pairs] of onDiskOf) {
    const value = valueOf.get(key);
    // A key the source lacks stays as it is unless Tolk synced it (keepsUnwritten).
    if (value === undefined && keepsUnwritten(input, key)) continue;
    if (value === undefined) {
      for (const pair of pairs) {
        edits.push({ start: pair.blockStart, end: pair.blockEnd, text: '' });
        removed.add(pair);
      }
      continue;
    }
    // The last of a key given twice is the one Apple's reader keeps: the one that changes.
    const pair = pairs.at(-1)!;
    if (value === pair.value) continue;
    edits.push({
      start: pair.valueStart,
      end: pair.valueEnd,
      text: tokenLike(onDisk, pair.valueStart, value, style),
    });
  }

  const present = (key: string) =>
    onDiskOf.has(key) && valueOf.has(key) ? onDiskOf.get(key)!.at(-1)! : undefined;
  const lastPair = onDisk.pairs.filter((pair) => !removed.has(pair)).at(-1);
  const atEnd: string[] = [];
  const neighbours = nearest(wanted, (entry) => present(entry.pair.key));
  wanted.forEach((entry, position) => {
    if (entry.value === undefined || onDiskOf.has(entry.pair.key)) return;
    let anchor = neighbours[position]!.before;
    if (anchor) {
      // From another version of this file (a merge), the pair comes as it stands there, with the
      // comments and blank lines between it and the pair before it.
      const copied =
        input.sameFile && entry.value === entry.pair.value
          ? linesAfter(source.source.text, wanted[position - 1]?.pair, entry.pair)
          : undefined;
      const rest = copied === undefined ? undefined : lineEnd(text, anchor);
      if (copied !== undefined && rest?.[1]) {
        const start = anchor.end + rest[0].length;
        edits.push({ start, end: start, text: copied.replace(/\r?\n/g, eol) });
        return;
      }
      const pair = pairLike(onDisk, anchor, entry.pair.name, entry.value, style);
      edits.push(after(text, anchor, pair, indentOf(text, anchor), eol));
      return;
    }
    anchor = neighbours[position]!.after;
    if (anchor) {
      const pair = pairLike(onDisk, anchor, entry.pair.name, entry.value, style);
      const lineStart = anchor.blockStart === 0 || text[anchor.blockStart - 1] === '\n';
      edits.push({
        start: anchor.blockStart,
        end: anchor.blockStart,
        text: lineStart ? `${indentOf(text, anchor)}${pair}${eol}` : ` ${pair}`,
      });
      return;
    }
    if (lastPair) {
      const pair = pairLike(onDisk, lastPair, entry.pair.name, entry.value, style);
      edits.push(after(text, lastPair, pair, indentOf(text, lastPair), eol));
      return;
    }
    const like = onDisk.pairs.at(-1);
    atEnd.push(
      like
        ? pairLike(onDisk, like, entry.pair.name, entry.value, style)
        : pairLike(source, entry.pair, entry.pair.name, entry.value, style),
    );
  });
  if (atEnd.length > 0) {
    // At the end of what is left: on a line of their own, a missing final line break kept so.
    let endAt = text.length;
    for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
      if (edit.end === endAt && edit.text === '') endAt = edit.start;
    }
    const open = endAt > 0 && text[endAt - 1] !== '\n';
    const closed = text === '' || text.endsWith('\n');
    edits.push({
      start: text.length,
      end: text.length,
      text: `${open ? eol : ''}${atEnd.join(eol)}${closed ? eol : ''}`,
    });
  }
  if (edits.length === 0) return input.existing!;

  // Insertions at one place stay in the order they were made; one at a removal's start goes first.
  const ordered = edits
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index);
  let out = '';
  let at = 0;
  for (const { edit } of ordered) {
    out += text.slice(at, edit.start) + edit.text;
    at = Math.max(at, edit.end);
  }
  out += text.slice(at);
  return encodeApple(out, onDisk.source);
}

/** What may follow a pair on its line: whitespace, a comment, the line break (or the file's end). */
const LINE_REST = /[ \t]*(?:\/\/[^\r\n]*|\/\*(?:(?!\*\/)[^\n])*\*\/[ \t]*)?(\r?\n|$)/y;

/** The rest of `pair`'s line (a comment ending it too), with its line break; null when a pair follows. */
function lineEnd(text: string, pair: Pair): RegExpExecArray | null {
  LINE_REST.lastIndex = pair.end;
  return LINE_REST.exec(text);
}

/**
 * The lines from the end of `previous`'s line (the start of `pair`'s block without it) to the end
 * of `pair`'s, when each pair ends its line; undefined otherwise.
 */
function linesAfter(text: string, previous: Pair | undefined, pair: Pair): string | undefined {
  const own = lineEnd(text, pair);
  if (!own?.[1]) return undefined;
  let start = pair.blockStart;
  if (previous) {
    const rest = lineEnd(text, previous);
    if (!rest?.[1]) return undefined;
    start = previous.end + rest[0].length;
  }
  return text.slice(start, pair.end + own[0].length);
}

/**
 * The insertion of a new pair after `anchor`: on a line of its own after the anchor's line (after
 * a comment that ends that line too), or on the anchor's line when another pair follows it there.
 */
function after(text: string, anchor: Pair, pair: string, indent: string, eol: string) {
  const rest = lineEnd(text, anchor);
  if (!rest) return { start: anchor.end, end: anchor.end, text: ` ${pair}` };
  const start = anchor.end + rest[0].length;
  return {
    start,
    end: start,
    text: rest[1] === '' ? `${eol}${indent}${pair}` : `${indent}${pair}${eol}`,
  };
}
