/**
 * A JSON locale file (the `json`, `i18next` and `arb` formats): read into a locale document with
 * every problem placed at its line and column, and a target written in the source file's style.
 *
 * - `JSON.parse` decides what the file holds. It silently keeps the last of two equal keys and
 *   its messages do not always carry a position, so the file is also walked with `jsonc-parser`
 *   (Microsoft's, behind VS Code's JSON support; strict: no comments, no trailing commas), whose
 *   visitor gives every property and value with its line and column: duplicate keys and values
 *   that are no strings are refused where they stand.
 * - The style a target keeps is what `JSON.stringify` can be told: the indentation
 *   (`detect-indent`), the line ending (`detect-newline`), the whitespace after the closing brace
 *   (a final newline or none), a byte order mark, and non-ASCII text written as `\uXXXX` when
 *   the source is pure ASCII with such escapes (Python's `json.dump` default). Key order and
 *   nesting are the source's (rebuildTranslation). What JSON.stringify cannot be told is not
 *   kept: other escapes (`\/`), spacing around `:`, arrays kept on one line, and the order of
 *   integer-like keys (`"10"` before `"2"`), which JSON.parse already sorted.
 */
import detectIndent from 'detect-indent';
import { detectNewline } from 'detect-newline';
import { visit, type JSONPath } from 'jsonc-parser';
import { LocaleFileError, parseSourceDocument, type ParsedSource } from '@tolk/locale-file';
import { FormatError } from './format.js';

/** How a JSON file is written, as far as a target keeps it. */
export type JsonStyle = {
  indent: string;
  newline: '\n' | '\r\n';
  /** Whitespace before the opening brace and after the closing one, as in the file. */
  leading: string;
  trailing: string;
  bom: boolean;
  /** Non-ASCII characters written as `\uXXXX`, in this case of hex digits. */
  asciiEscapes: 'lower' | 'upper' | undefined;
};

export type JsonFile = {
  document: Record<string, unknown>;
  parsed: ParsedSource;
  style: JsonStyle;
};

export type JsonReadOptions = {
  /** ARB: a message is a string; objects and arrays are only allowed in annotations and metadata. */
  flat?: boolean;
};

const BOM = '\uFEFF';
// ignoreBOM: the byte order mark stays in the text, so that a target keeps it too.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads a JSON locale file. Throws FormatError naming the key, line and column. */
export function readJsonFile(bytes: Buffer, path: string, options: JsonReadOptions = {}): JsonFile {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new FormatError(path, 'not UTF-8 text (JSON locale files are UTF-8)');
  }
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(BOM.length);

  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw syntaxError(path, text, (error as Error).message);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    const got = document === null ? 'null' : Array.isArray(document) ? 'an array' : typeof document;
    const where = positionOf(text, text.length - text.trimStart().length);
    throw new FormatError(path, `the file must hold a JSON object of keys, got ${got}`, where);
  }
  checkMembers(text, path, options);

  let parsed: ParsedSource;
  try {
    parsed = parseSourceDocument(document);
  } catch (error) {
    if (error instanceof LocaleFileError) throw new FormatError(path, error.message);
    throw error;
  }
  return { document: document as Record<string, unknown>, parsed, style: styleOf(text, bom) };
}

const sources = new WeakMap<Buffer, { flat: boolean; file: JsonFile }>();

/**
 * `readJsonFile` of a source file that targets are written from: read once for all its target
 * locales (the same Buffer), as its parsed form is only read.
 */
export function readJsonSource(bytes: Buffer, options: JsonReadOptions = {}): JsonFile {
  const flat = options.flat ?? false;
  const cached = sources.get(bytes);
  if (cached?.flat === flat) return cached.file;
  const file = readJsonFile(bytes, 'source file', options);
  sources.set(bytes, { flat, file });
  return file;
}

/** A document as a file in `style`. */
export function writeJsonFile(document: Record<string, unknown>, style: JsonStyle): Buffer {
  let body = JSON.stringify(document, null, style.indent);
  if (style.asciiEscapes) {
    const upper = style.asciiEscapes === 'upper';
    // Outside strings the text is ASCII, so every character replaced here is inside one.
    body = body.replace(/[\u0080-\uffff]/g, (char) => {
      const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    });
  }
  if (style.newline === '\r\n') body = body.replaceAll('\n', '\r\n');
  return Buffer.from(`${style.bom ? BOM : ''}${style.leading}${body}${style.trailing}`, 'utf8');
}

/** The flattened key of a JSON path (`["home", "title"]` → `home.title`), as the document's. */
function keyOfPath(path: JSONPath): string {
  return path.join('.');
}

/** How much of a file its indentation and line ending are taken from: its style shows early. */
const STYLE_SAMPLE = 64 * 1024;

function styleOf(text: string, bom: boolean): JsonStyle {
  // Only JSON whitespace can surround a value JSON.parse accepted.
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  const sample = text.slice(0, STYLE_SAMPLE);
  return {
    indent: detectIndent(sample).indent,
    newline: detectNewline(sample) ?? '\n',
    leading: text.slice(0, start),
    trailing: text.slice(end),
    bom,
    asciiEscapes: asciiEscapes(text),
  };
}

/** `lower` or `upper` when the file is ASCII and writes some non-ASCII character as `\uXXXX`. */
function asciiEscapes(text: string): JsonStyle['asciiEscapes'] {
  // eslint-disable-next-line no-control-regex
  if (/[^\u0000-\u007f]/.test(text)) return undefined;
  let found: JsonStyle['asciiEscapes'];
  for (const match of text.matchAll(/\\u([0-9a-fA-F]{4})/g)) {
    const hex = match[1]!;
    if (Number.parseInt(hex, 16) < 0x80) continue;
    if (/[A-F]/.test(hex)) return 'upper';
    if (/[a-f]/.test(hex)) return 'lower';
    found = 'lower';
  }
  return found;
}

type Place = { line: number; column: number };

/** An object or array being walked: where it starts, and what it holds so far. */
type Frame = {
  isArray: boolean;
  path: JSONPath;
  /** Inside an annotation or metadata, where anything goes. */
  free: boolean;
  start: Place;
  names: Map<string, Place>;
  elements: number;
};

/**
 * Refuses, at its line and column, what JSON.parse accepts silently or the document rules would
 * refuse without a place: a key given twice in one object; a value that is a number, boolean or
 * null (with `flat`, an object or array too); an empty object or array below the top, which
 * holds no key; an annotation (`@key`) of a key its object does not have. Annotations and
 * metadata (`@@name`) may hold anything.
 */
function checkMembers(text: string, path: string, options: JsonReadOptions): void {
  const stack: Frame[] = [];
  const isFree = (at: JSONPath) => at.some((segment) => String(segment).startsWith('@'));
  const place = (line: number, column: number): Place => ({ line: line + 1, column: column + 1 });
  const open = (isArray: boolean, at: JSONPath, line: number, column: number) => {
    const parent = stack[stack.length - 1];
    if (parent?.isArray) parent.elements++;
    const free = isFree(at);
    if (options.flat && at.length > 0 && !free) {
      throw notAString(path, at, isArray ? 'an array' : 'an object', place(line, column));
    }
    stack.push({ isArray, path: at, free, start: place(line, column), names: new Map(), elements: 0 });
  };
  const close = () => {
    const frame = stack.pop()!;
    if (frame.free) return;
    if (frame.elements === 0 && frame.path.length > 0) {
      const what = frame.isArray ? 'an empty array' : 'an empty object';
      throw new FormatError(path, `${shownKey(frame.path)} is ${what}, which holds no key`, frame.start);
    }
    for (const [name, at] of frame.names) {
      if (!name.startsWith('@') || name.startsWith('@@') || frame.names.has(name.slice(1))) continue;
      throw new FormatError(
        path,
        `${shownKey([...frame.path, name])} annotates ${JSON.stringify(name.slice(1))}, which is not in its object`,
        at,
      );
    }
  };
  visit(
    text,
    {
      onObjectBegin: (_offset, _length, line, column, pathOf) => open(false, pathOf(), line, column),
      onObjectEnd: close,
      onArrayBegin: (_offset, _length, line, column, pathOf) => open(true, pathOf(), line, column),
      onArrayEnd: close,
      onObjectProperty(property, _offset, _length, line, column, pathOf) {
        const frame = stack[stack.length - 1]!;
        frame.elements++;
        const first = frame.names.get(property);
        if (first !== undefined) {
          throw new FormatError(
            path,
            `${shownKey([...pathOf(), property])} is defined twice in the same object ` +
              `(first on line ${first.line}); JSON readers keep only the last value`,
            place(line, column),
          );
        }
        frame.names.set(property, place(line, column));
      },
      onLiteralValue(value: unknown, _offset, _length, line, column, pathOf) {
        const parent = stack[stack.length - 1];
        if (parent?.isArray) parent.elements++;
        if (typeof value === 'string') return;
        const at = pathOf();
        if (at.length === 0 || isFree(at)) return;
        throw notAString(path, at, value === null ? 'null' : `a ${typeof value}`, place(line, column));
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
}

/** A key as messages show it: the flattened path, quoted. */
function shownKey(at: JSONPath): string {
  return JSON.stringify(keyOfPath(at));
}

function notAString(path: string, at: JSONPath, got: string, where: Place): FormatError {
  return new FormatError(path, `${shownKey(at)} must be a string (a translatable text), got ${got}`, where);
}

/**
 * A JSON.parse error placed at its line and column. Node 20 gives a position for most errors
 * (`... in JSON at position 7`) but not all (`Unexpected token '}', "{"a": }" is not valid
 * JSON`, `Unexpected end of JSON input`): then the first error jsonc-parser finds is the place,
 * else the end of the text.
 */
function syntaxError(path: string, text: string, message: string): FormatError {
  const atPosition = / at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(message);
  let offset: number | undefined = atPosition ? Number(atPosition[1]) : undefined;
  if (offset === undefined) {
    visit(
      text,
      {
        onError(_error, errorOffset) {
          offset ??= errorOffset;
        },
      },
      { disallowComments: true, allowTrailingComma: false },
    );
  }
  const reason = (atPosition ? message.slice(0, atPosition.index) : message)
    .replace(/ in JSON$/, '')
    .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
  return new FormatError(path, `not valid JSON: ${reason}`, positionOf(text, offset ?? text.length));
}

/** Line and column (1-based, in UTF-16 code units as editors count them) of an offset. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
