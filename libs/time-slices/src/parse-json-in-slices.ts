import { sliceClock } from './slice-clock.js';

/**
 * JSON text parsed in time slices, to the value JSON.parse gives.
 *
 * One JSON.parse of a 10 MiB body of 200,000 keys holds the event loop for about 100 ms of CPU
 * (measured here, where a fresh 10 MiB buffer alone costs 40 ms): every other request of the
 * process waits that long, and a source upload is parsed twice (the body, then the stored version
 * read back). So a large text is cut into pieces along the members of its largest objects and
 * arrays: each piece (a run of whole members of one container, about PIECE_BYTES long) is parsed
 * by JSON.parse itself, a container too large for a piece is read the same way member by member,
 * and the event loop serves others between slices. Only what separates members (quotes, brackets,
 * commas, colons) is scanned here, on the UTF-8 bytes (a multi-byte character never holds an ASCII
 * byte), strings skipped with Buffer#indexOf; numbers, escapes and every character are JSON.parse's.
 *
 * Hand-written because the streaming parsers of npm (@streamparser/json, stream-json, clarinet,
 * bfj, yieldable-json) read every character in JavaScript: several times JSON.parse's CPU for the
 * same text, where this adds a scan of the separators to it.
 *
 * One string is one JSON.parse however it is cut: a string of megabytes (which the value limits of
 * a locale file then refuse) still holds the loop while it is read, about 100 ms for 8 MB here.
 *
 * The value is the one JSON.parse gives: the same key order (integer-like keys first, as V8 orders
 * any object), a repeated key's last value in its first place, `__proto__` an own property. What
 * the scan cannot read — a text that is not JSON, containers nested deeper than MAX_SPLIT_DEPTH
 * large ones — is handed to `whole`, which parses it in one go as before: for a text that is not
 * JSON, that is where its error comes from, worded as ever.
 */

/** Texts up to this long are parsed whole: JSON.parse of 256 KiB takes a few milliseconds. */
const WHOLE_BYTES = 256 * 1024;
/** About how much JSON text one JSON.parse call is given (a run of whole members). */
const PIECE_BYTES = 64 * 1024;
/** Large containers nested deeper than this are left to `whole`: no locale file nests so deep. */
const MAX_SPLIT_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const BOM = [0xef, 0xbb, 0xbf];

export type JsonSliceOptions = {
  /** Parses a text in one go: texts up to `wholeBytes`, and what the slices cannot read. */
  whole?: (text: Buffer) => unknown;
  /** Testing the cuts: the sizes above, smaller. */
  wholeBytes?: number;
  pieceBytes?: number;
};

/** JSON.parse of UTF-8 text, a leading byte order mark dropped. */
function parseWhole(text: Buffer): unknown {
  const decoded = text.toString('utf8');
  return JSON.parse(decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded);
}

/** The text is not what the scan reads: `whole` parses it. */
class NotSliced extends Error {}

/** The value of UTF-8 JSON text `text`, parsed in time slices (see above). */
export async function parseJsonInSlices(text: Buffer, options: JsonSliceOptions = {}): Promise<unknown> {
  const whole = options.whole ?? parseWhole;
  if (text.length <= (options.wholeBytes ?? WHOLE_BYTES)) return whole(text);
  try {
    return await readInSlices(text, options.pieceBytes ?? PIECE_BYTES);
  } catch (err) {
    if (err instanceof NotSliced || err instanceof SyntaxError) return whole(text);
    throw err;
  }
}

async function readInSlices(text: Buffer, pieceBytes: number): Promise<unknown> {
  // The time is read every 8 members: a member may be a whole piece (a millisecond of JSON.parse).
  const clock = sliceClock(8);
  const length = text.length;

  const isSpace = (byte: number | undefined) =>
    byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
  const skipSpace = (at: number) => {
    while (isSpace(text[at])) at++;
    return at;
  };

  /** Where the string opening at `at` ends (after its closing quote). */
  const stringEnd = (at: number): number => {
    for (let close = text.indexOf(QUOTE, at + 1); close !== -1; close = text.indexOf(QUOTE, close + 1)) {
      let backslashes = 0;
      while (text[close - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return close + 1;
    }
    throw new NotSliced();
  };

  /** Where the value starting at `at` ends; -1 for an object or array running past a piece. */
  const valueEnd = (at: number): number => {
    const first = text[at];
    if (first === QUOTE) return stringEnd(at);
    if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
      // A number, true, false or null: JSON.parse reads it; here only where it ends.
      let end = at;
      while (end < length) {
        const byte = text[end];
        if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte)) break;
        end++;
      }
      if (end === at) throw new NotSliced();
      return end;
    }
    const limit = at + pieceBytes;
    let depth = 0;
    for (let i = at; i < length; i++) {
      const byte = text[i];
      if (byte === QUOTE) i = stringEnd(i) - 1;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
      else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return i + 1;
      if (i >= limit) return -1;
    }
    throw new NotSliced();
  };

  /** `key: value` into an object as JSON.parse puts it (`__proto__` an own property). */
  const put = (object: Record<string, unknown>, key: string, value: unknown) => {
    if (key === '__proto__') {
      Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
    } else {
      object[key] = value;
    }
  };

  /** Members [start, end) of a container, parsed by JSON.parse, into it. */
  const addPiece = (into: Record<string, unknown> | unknown[], start: number, end: number) => {
    if (Array.isArray(into)) {
      for (const item of JSON.parse(`[${text.toString('utf8', start, end)}]`) as unknown[]) into.push(item);
      return;
    }
    const piece = JSON.parse(`{${text.toString('utf8', start, end)}}`) as Record<string, unknown>;
    for (const key of Object.keys(piece)) put(into, key, piece[key]);
  };

  /** The object or array opening at `open`, member by member; where it ends. */
  const container = async (open: number, depth: number): Promise<{ value: unknown; end: number }> => {
    if (depth > MAX_SPLIT_DEPTH) throw new NotSliced();
    const isObject = text[open] === OPEN_OBJECT;
    const close = isObject ? CLOSE_OBJECT : CLOSE_ARRAY;
    const value: Record<string, unknown> | unknown[] = isObject ? {} : [];
    let at = skipSpace(open + 1);
    if (text[at] === close) return { value, end: at + 1 };
    // The piece being gathered: members from pieceStart (-1: none yet) to pieceEnd.
    let pieceStart = -1;
    let pieceEnd = -1;
    for (;;) {
      const member = at;
      let keyEnd = at;
      if (isObject) {
        if (text[at] !== QUOTE) throw new NotSliced();
        keyEnd = stringEnd(at);
        at = skipSpace(keyEnd);
        if (text[at] !== COLON) throw new NotSliced();
        at = skipSpace(at + 1);
      }
      const end = valueEnd(at);
      const large = end === -1 || end - at > pieceBytes;
      if (large && pieceStart !== -1) addPiece(value, pieceStart, pieceEnd);
      if (large) {
        // A container too large for a piece is read the same way; a long string is parsed alone,
        // not copied into a piece first (one JSON.parse however it is cut).
        pieceStart = -1;
        const item =
          end === -1
            ? await container(at, depth + 1)
            : { value: JSON.parse(text.toString('utf8', at, end)), end };
        if (Array.isArray(value)) value.push(item.value);
        else put(value, JSON.parse(text.toString('utf8', member, keyEnd)) as string, item.value);
        at = item.end;
      } else {
        if (pieceStart === -1) pieceStart = member;
        pieceEnd = end;
        at = end;
        if (pieceEnd - pieceStart >= pieceBytes) {
          addPiece(value, pieceStart, pieceEnd);
          pieceStart = -1;
        }
      }
      if (clock.due()) await clock.next();
      at = skipSpace(at);
      if (text[at] === COMMA) {
        at = skipSpace(at + 1);
        continue;
      }
      if (text[at] !== close) throw new NotSliced();
      if (pieceStart !== -1) addPiece(value, pieceStart, pieceEnd);
      return { value, end: at + 1 };
    }
  };

  const start = skipSpace(BOM.every((byte, i) => text[i] === byte) ? BOM.length : 0);
  if (text[start] !== OPEN_OBJECT && text[start] !== OPEN_ARRAY) throw new NotSliced();
  const { value, end } = await container(start, 0);
  if (skipSpace(end) !== length) throw new NotSliced();
  return value;
}
