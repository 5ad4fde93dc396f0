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
import { parseSourceDocument, type ParsedSource } from '@tolk/locale-file';
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
    throw new FormatError(path, `the file must hold a JSON object of keys, got ${got}`, {
      line: 1,
      column: text.length - text.trimStart().length + 1,
    });
  }
  checkMembers(text, path, options);

  let parsed: ParsedSource;
  try {
    parsed = parseSourceDocument(document);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'VALIDATION_ERROR' || code === 'PAYLOAD_TOO_LARGE') {
      throw new FormatError(path, (error as Error).message);
    }
    throw error;
  }
  return { document: document as Record<string, unknown>, parsed, style: styleOf(text, bom) };
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
export function keyOfPath(path: JSONPath): string {
  return path.join('.');
}

function styleOf(text: string, bom: boolean): JsonStyle {
  const body = text.trim();
  const start = text.indexOf(body);
  const escapes = asciiEscapes(text);
  return {
    indent: detectIndent(text).indent,
    newline: detectNewline(text) ?? '\n',
    leading: text.slice(0, start),
    trailing: text.slice(start + body.length),
    bom,
    asciiEscapes: escapes,
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

type Frame = { names: Map<string, number> } | undefined;

/**
 * Refuses what JSON.parse accepts silently or the document rules refuse without a position:
 * a key given twice in one object, and a key whose value is a number, boolean or null (or, with
 * `flat`, an object or array). Annotations (`@key`) and metadata (`@@name`) may hold anything.
 */
function checkMembers(text: string, path: string, options: JsonReadOptions): void {
  const stack: Frame[] = [];
  const free = (jsonPath: JSONPath) => jsonPath.some((segment) => String(segment).startsWith('@'));
  visit(
    text,
    {
      onObjectBegin(_offset, _length, line, column, pathOf) {
        const at = pathOf();
        if (options.flat && at.length > 0 && !free(at)) throw notAString(path, at, 'an object', line, column);
        stack.push({ names: new Map() });
      },
      onObjectEnd() {
        stack.pop();
      },
      onArrayBegin(_offset, _length, line, column, pathOf) {
        const at = pathOf();
        if (options.flat && !free(at)) throw notAString(path, at, 'an array', line, column);
        stack.push(undefined);
      },
      onArrayEnd() {
        stack.pop();
      },
      onObjectProperty(property, _offset, _length, line, column, pathOf) {
        const frame = stack[stack.length - 1];
        if (!frame) return;
        const first = frame.names.get(property);
        if (first !== undefined) {
          const key = keyOfPath([...pathOf(), property]);
          throw new FormatError(
            path,
            `${JSON.stringify(key)} is defined twice in the same object (first on line ${first}); ` +
              'JSON readers keep only the last value',
            { line: line + 1, column: column + 1 },
          );
        }
        frame.names.set(property, line + 1);
      },
      onLiteralValue(value: unknown, _offset, _length, line, column, pathOf) {
        if (typeof value === 'string') return;
        const at = pathOf();
        if (at.length === 0 || free(at)) return;
        throw notAString(path, at, value === null ? 'null' : `a ${typeof value}`, line, column);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
}

function notAString(path: string, at: JSONPath, got: string, line: number, column: number): FormatError {
  return new FormatError(
    path,
    `${JSON.stringify(keyOfPath(at))} must be a string (a translatable text), got ${got}`,
    { line: line + 1, column: column + 1 },
  );
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
