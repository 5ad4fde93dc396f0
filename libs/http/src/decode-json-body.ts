import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';
import { parse as parseContentType } from 'content-type';
import { AppError, InvalidJsonError, PayloadTooLargeError, ValidationError } from '@tolk/errors';
import { parseJsonInSlices } from '@tolk/time-slices';
import { parseUtf8Json } from './json-body.js';

/**
 * THE rule by which every Tolk process reads a JSON request body: each service's frame and the
 * gateway (which reads the login body to count failed logins per email) call this one function
 * on the bytes as they came over the wire. What one side could read differently from the other
 * is refused, so a body the gateway cannot attribute to an email never logs anyone in:
 *
 * - Content-Type `application/json` or `application/*+json`, else 415.
 * - UTF-8 only (RFC 8259 §8.1): no charset, or `utf-8`; any other charset is 415 naming it. Bytes
 *   that are not UTF-8 are 400 naming the offset of the first bad byte, never read as U+FFFD.
 * - One leading UTF-8 byte order mark is dropped (RFC 8259 allows a parser to ignore it; editors
 *   on Windows write it), on every side alike, before anything else reads the text.
 * - Content-Encoding `gzip`, `deflate` or `br` is decompressed on the thread pool, at most to the
 *   body limit (413 past it, so a small bomb costs no memory); data that does not decompress is
 *   400; any other encoding (or several stacked) is 415.
 * - No bytes (or only a byte order mark) is no body: `undefined`, never `{}`, so a route that
 *   needs a body refuses it with JSON_BODY_REQUIRED instead of reading an empty object.
 * - Every string and key must be well-formed UTF-16: a lone surrogate (`"\ud800"`, which JSON
 *   allows as an escape) is a VALIDATION_ERROR naming its path. Postgres, and any UTF-8 that
 *   text is written as, cannot hold one.
 */

const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json$/;
const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

type Decompress = (bytes: Buffer, options: ZlibOptions) => Promise<Buffer>;
const DECOMPRESSORS: Readonly<Record<string, Decompress>> = {
  gzip: promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** Whether the request carries a body at all (a Content-Length or chunked), as node frames it. */
export function declaresBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || headers['content-length'] !== undefined;
}

/** 415 unless the body is declared as JSON in UTF-8 (see above). */
export function requireUtf8JsonContentType(headers: IncomingHttpHeaders): void {
  const header = headers['content-type'];
  if (!header) throw unsupported('Request body must be sent as Content-Type: application/json');
  // A lenient parser (it never throws): what it reads is what every side reads.
  const { type, parameters } = parseContentType(header);
  const charset = parameters['charset'];
  if (!JSON_MEDIA_TYPE.test(type)) {
    throw unsupported('Request body must be sent as Content-Type: application/json');
  }
  if (charset !== undefined && !UTF8_CHARSETS.has(charset.toLowerCase())) {
    throw unsupported(`Request body must be UTF-8 JSON; charset "${charset}" is not supported`);
  }
}

/**
 * The value of a JSON request body from its bytes as they arrived and the request's headers, or
 * an AppError saying precisely why it cannot be read (see the rule above). `onText` is given the
 * body's JSON text (decompressed, checked UTF-8, without a byte order mark) before it is parsed.
 * A syntax error is thrown as express' JSON parser throws it, for the error middleware to word.
 */
export async function decodeJsonBody(
  bytes: Buffer,
  headers: IncomingHttpHeaders,
  options: { limitBytes: number; onText?: (text: Buffer) => void },
): Promise<unknown> {
  const text = await decodeJsonText(bytes, headers, options);
  return text === undefined ? undefined : parseJsonText(text);
}

/**
 * decodeJsonBody but the parse: the body's JSON text, decompressed, checked UTF-8, without a byte
 * order mark; undefined for no body. parseJsonText gives its value.
 */
export async function decodeJsonText(
  bytes: Buffer,
  headers: IncomingHttpHeaders,
  options: { limitBytes: number; onText?: (text: Buffer) => void },
): Promise<Buffer | undefined> {
  if (bytes.length === 0) return undefined;
  requireUtf8JsonContentType(headers);
  let text = await decompressed(bytes, headers['content-encoding'], options.limitBytes);
  if (!isUtf8(text)) {
    throw new InvalidJsonError(
      `Request body is not valid UTF-8 (at byte offset ${firstInvalidUtf8Offset(text)}); ` +
        'JSON bodies must be UTF-8',
    );
  }
  if (text.subarray(0, BOM.length).equals(BOM)) text = text.subarray(BOM.length);
  if (text.length === 0) return undefined;
  options.onText?.(text);
  return text;
}

/** The value of a body's JSON text from decodeJsonText, by the rule above. */
export function parseJsonText(text: Buffer): unknown {
  return wellFormed(text, parseUtf8Json(text));
}

/**
 * parseJsonText in time slices (@tolk/time-slices): a body of megabytes holds the event loop a
 * few milliseconds at a time, not for the whole JSON.parse (100 ms for 10 MiB of 200,000 keys).
 * A small body, and one that is not JSON (for its error), are parsed whole, as parseJsonText does.
 */
export async function parseJsonTextInSlices(text: Buffer): Promise<unknown> {
  return wellFormed(text, await parseJsonInSlices(text, { whole: parseUtf8Json }));
}

/** `value`, parsed from `text`, once its strings are known to be well-formed UTF-16. */
function wellFormed(text: Buffer, value: unknown): unknown {
  // Bytes checked as UTF-8 hold no surrogate: only a `\uD8xx`-style escape can make one. Those
  // are looked at in the text; the value is walked (to name the path) only when one is lone.
  if (hasLoneSurrogateEscape(text)) requireWellFormedStrings(value);
  return value;
}

async function decompressed(bytes: Buffer, header: string | undefined, limitBytes: number): Promise<Buffer> {
  const encoding = (header ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return bytes;
  const decompress = DECOMPRESSORS[encoding];
  if (!decompress) {
    throw unsupported(
      `Content-Encoding "${header}" is not supported; send the body uncompressed or as one of gzip, deflate, br`,
    );
  }
  try {
    return await decompress(bytes, { maxOutputLength: limitBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new PayloadTooLargeError(
        `Request body exceeds the limit of ${limitBytes} bytes once decompressed`,
      );
    }
    // zlib's messages ("incorrect header check", "unexpected end of file") quote no data.
    throw new InvalidJsonError(`Request body does not decompress as ${encoding} (${(err as Error).message})`);
  }
}

/**
 * Where the first byte sequence that is not UTF-8 starts (Unicode's table 3-7: no overlong forms,
 * no surrogates, nothing past U+10FFFF). Node's isUtf8 answers only yes or no; this runs only
 * after it said no.
 */
export function firstInvalidUtf8Offset(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const trailing =
      lead >= 0xc2 && lead <= 0xdf
        ? 1
        : lead >= 0xe0 && lead <= 0xef
          ? 2
          : lead >= 0xf0 && lead <= 0xf4
            ? 3
            : 0;
    if (trailing === 0) return i;
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k <= trailing; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += trailing + 1;
  }
  return -1;
}

const BACKSLASH = 0x5c;
const LOWER_U = 0x75;

/** The UTF-16 unit of a `\uXXXX` escape starting at `at`, or -1. */
function escapedUnit(text: Buffer, at: number): number {
  if (text[at] !== BACKSLASH || text[at + 1] !== LOWER_U) return -1;
  let unit = 0;
  for (let i = at + 2; i < at + 6; i++) {
    const digit = parseInt(String.fromCharCode(text[i] ?? 0x20), 16);
    if (Number.isNaN(digit)) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

/** Whether the backslash at `at` starts an escape (is not itself escaped by the one before). */
function startsEscape(text: Buffer, at: number): boolean {
  let preceding = 0;
  while (at - preceding - 1 >= 0 && text[at - preceding - 1] === BACKSLASH) preceding++;
  return preceding % 2 === 0;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Whether the JSON text (already parsed, so every backslash is inside a string) escapes a
 * surrogate that is not half of a pair. Only the text's `\ud` and `\uD` are visited: a body
 * escaping all its non-ASCII characters (Python's json.dumps does) costs no walk of its value.
 */
function hasLoneSurrogateEscape(text: Buffer): boolean {
  for (const needle of ['\\ud', '\\uD']) {
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 2)) {
      if (!startsEscape(text, at)) continue;
      const unit = escapedUnit(text, at);
      if (isHigh(unit) && !isLow(escapedUnit(text, at + 6))) return true;
      if (isLow(unit) && !(at >= 6 && isHigh(escapedUnit(text, at - 6)) && startsEscape(text, at - 6))) {
        return true;
      }
    }
  }
  return false;
}

const LONE_SURROGATE = /\p{Cs}/u;

/** A lone surrogate as the JSON escape that wrote it, so a message can show it. */
function escapeLoneSurrogates(text: string): string {
  return text.replace(/\p{Cs}/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}

const MAX_PATH_IN_MESSAGE = 1000;

type Visit = { value: unknown; key: string | undefined; parent: Visit | undefined };

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(at.key);
  const path = ['body', ...keys.reverse().map(escapeLoneSurrogates)].join('.');
  // Nesting is bounded by the body size only: a message names at most a key path's worth.
  return path.length > MAX_PATH_IN_MESSAGE ? `${path.slice(0, MAX_PATH_IN_MESSAGE)}…` : path;
}

/** Walks the value with a stack of its own: JSON nesting is bounded by the body size only. */
function requireWellFormedStrings(value: unknown): void {
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const current = visit.value;
    if (typeof current === 'string') {
      const lone = LONE_SURROGATE.exec(current);
      if (lone) {
        throw new ValidationError(
          `${pathOf(visit)}: must be well-formed Unicode, not a lone surrogate (${escapeLoneSurrogates(lone[0])})`,
        );
      }
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        pending.push({ value: current[i], key: String(i), parent: visit });
      }
    } else if (typeof current === 'object' && current !== null) {
      const children = Object.entries(current).map(([key, child]): Visit => ({
        value: child,
        key,
        parent: visit,
      }));
      for (const child of children) {
        const lone = LONE_SURROGATE.exec(child.key!);
        if (lone) {
          throw new ValidationError(
            `${pathOf(child)}: a key must be well-formed Unicode, not a lone surrogate (${escapeLoneSurrogates(lone[0])})`,
          );
        }
      }
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
    }
  }
}

function unsupported(message: string): AppError {
  return new AppError('UNSUPPORTED_MEDIA_TYPE', message);
}
