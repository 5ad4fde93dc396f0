/**
 * A JSON locale file (the `json`, `i18next` and `arb` formats): read into a locale document with
 * every problem placed at its line and column, and a target written in the source file's style.
 *
 * - `JSON.parse` decides what the file holds, as the apps' own readers do (i18next, react-intl,
 *   Flutter's `jsonDecode`): of a key given twice in one object the last value is kept. The file
 *   is also walked with `jsonc-parser` (Microsoft's, behind VS Code's JSON support; strict: no
 *   comments, no trailing commas), whose visitor gives every property and value with its line and
 *   column. What JSON allows and a locale document cannot hold is a finding at its place and is
 *   left out, never a reason to refuse the file (DESIGN §15): a key given twice, a value that is
 *   no string (with `flat`, an object or array too), an empty object or array below the top, an
 *   annotation (`@key`) of a key its object does not have.
 * - A property name with a dot that would leave an empty part of a key path (`"Saved."`, keys of
 *   i18next's `keySeparator: false`) has that dot as U+2024 in its key, as every free-text format
 *   (key-names.ts); targets are written with the file's own names.
 * - Only a file that does not parse is refused: not UTF-8 (UTF-16, binary), not JSON, not an
 *   object, or nested deeper than the server's documents may be (32 levels; checked before any
 *   parser, whose recursion a file of 100,000 levels would exhaust).
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
import {
  DEFAULT_SOURCE_LIMITS,
  LocaleFileError,
  parseSourceDocument,
  type ParsedSource,
} from '@tolk/locale-file';
import { addFinding, FormatError, type FileFinding } from './format.js';
import { KEY_DOT, nameProblem } from './key-names.js';
import { decodeUtf8, positionIn } from './utf8.js';

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
  /** Where the file's findings go (ReadInput.findings). */
  findings?: FileFinding[];
};

const BOM = '\uFEFF';
/** A dot with no text on one side (key-names.ts): a key holds it as U+2024. */
const EMPTY_SEGMENT_DOT = /(?<=^|\.)\.|\.(?=\.|$)/g;

/**
 * Reads a JSON locale file. Throws FormatError, with the line and column, for a file that does
 * not parse; reports what it leaves out in `options.findings`.
 */
export function readJsonFile(bytes: Buffer, path: string, options: JsonReadOptions = {}): JsonFile {
  let text = decodeUtf8(bytes, path, 'JSON locale files are UTF-8');
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(BOM.length);
  checkJsonDepth(text, path, DEFAULT_SOURCE_LIMITS.maxDepth);

  let parsedJson: unknown;
  try {
    parsedJson = JSON.parse(text);
  } catch (error) {
    throw jsonSyntaxError(path, text, (error as Error).message);
  }
  if (typeof parsedJson !== 'object' || parsedJson === null || Array.isArray(parsedJson)) {
    const got = parsedJson === null ? 'null' : Array.isArray(parsedJson) ? 'an array' : typeof parsedJson;
    const where = positionIn(text, text.length - text.trimStart().length);
    throw new FormatError(path, `the file must hold a JSON object of keys, got ${got}`, where);
  }
  const report = { path, ...(options.findings ? { findings: options.findings } : {}) };
  const left = checkMembers(text, report, options);
  const document = cleaned(parsedJson as Record<string, unknown>, left);

  let parsed: ParsedSource;
  try {
    parsed = parseSourceDocument(document);
  } catch (error) {
    if (error instanceof LocaleFileError) {
      const at = error.details.path === undefined ? undefined : placeOfKey(text, error.details.path);
      throw new FormatError(path, error.message, at ?? { line: 1, column: 1 });
    }
    throw error;
  }
  return { document, parsed, style: styleOf(text, bom) };
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
  let body = JSON.stringify(withFileNames(document), null, style.indent);
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
  return path.map((segment) => escapeName(String(segment))).join('.');
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
type Report = { path: string; findings?: FileFinding[] };

/** An object or array being walked: where it starts, and what it holds so far. */
type Frame = {
  isArray: boolean;
  path: JSONPath;
  /** Inside an annotation or metadata, where anything goes. */
  free: boolean;
  /** Inside something left out already: nothing more to say about it. */
  ignored: boolean;
  start: Place;
  /** Each name's last occurrence (the one JSON.parse keeps). */
  names: Map<string, { place: Place; dropped: boolean }>;
  elements: number;
  /** An array holding what cannot be a key is left out whole (its indexes are keys). */
  dropped: boolean;
};

/** A JSON path as one string, for the set of what is left out. */
function pathKey(at: JSONPath): string {
  return JSON.stringify(at);
}

/**
 * Walks the file for what JSON.parse accepts silently and a locale document cannot hold, and
 * reports each at its line and column (see the module's comment). Gives the paths to leave out.
 */
function checkMembers(text: string, report: Report, options: JsonReadOptions): Set<string> {
  const stack: Frame[] = [];
  const left = new Set<string>();
  const isFree = (at: JSONPath) => at.some((segment) => String(segment).startsWith('@'));
  const place = (line: number, column: number): Place => ({ line: line + 1, column: column + 1 });
  const finding = (at: JSONPath, kind: FileFinding['kind'], message: string, where: Place) =>
    addFinding(report, {
      key: keyOfPath(at),
      kind,
      severity: 'warning',
      message,
      ...where,
    });
  /** Leaves out `at`, the member of the innermost frame: an array's element takes the array along. */
  const drop = (at: JSONPath) => {
    const frame = stack[stack.length - 1];
    if (frame?.isArray) frame.dropped = true;
    else if (frame) {
      const member = frame.names.get(String(at[at.length - 1]));
      if (member) member.dropped = true;
      left.add(pathKey(at));
    }
  };
  const open = (isArray: boolean, at: JSONPath, line: number, column: number) => {
    const parent = stack[stack.length - 1];
    if (parent?.isArray) {
      parent.elements++;
      left.delete(pathKey(at));
    }
    const free = isFree(at);
    let ignored = parent?.ignored ?? false;
    if (options.flat && at.length > 0 && !free && !ignored) {
      finding(
        at,
        'format',
        `${shownKey(at)} is ${isArray ? 'an array' : 'an object'}, not a message (a text); left out`,
        place(line, column),
      );
      drop(at);
      ignored = true;
    }
    stack.push({
      isArray,
      path: at,
      free,
      ignored,
      start: place(line, column),
      names: new Map(),
      elements: 0,
      dropped: false,
    });
  };
  const close = () => {
    const frame = stack.pop()!;
    if (frame.free || frame.ignored) return;
    if (frame.elements === 0 && frame.path.length > 0) {
      const what = frame.isArray ? 'an empty array' : 'an empty object';
      finding(
        frame.path,
        'format',
        `${shownKey(frame.path)} is ${what}, which holds no key; left out`,
        frame.start,
      );
      drop(frame.path);
      return;
    }
    if (frame.dropped) {
      drop(frame.path);
      return;
    }
    for (const [name, member] of frame.names) {
      if (!name.startsWith('@') || name.startsWith('@@')) continue;
      const annotated = frame.names.get(name.slice(1));
      if (annotated && !annotated.dropped) continue;
      const at = [...frame.path, name];
      left.add(pathKey(at));
      // An annotation of a key left out goes with it, said once: at the key.
      if (!annotated) {
        finding(
          at,
          'format',
          `${shownKey(at)} annotates ${JSON.stringify(name.slice(1))}, which is not in its object; left out`,
          member.place,
        );
      }
    }
    // An object whose every key was left out holds none: it goes too (its keys said why).
    const keeps = [...frame.names].some(([name, member]) => !name.startsWith('@') && !member.dropped);
    if (!frame.isArray && frame.path.length > 0 && !keeps) drop(frame.path);
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
        const at = [...pathOf(), property];
        const where = place(line, column);
        const first = frame.names.get(property);
        // The last occurrence is the one kept: what was said of an earlier one is undone.
        left.delete(pathKey(at));
        frame.names.set(property, { place: where, dropped: false });
        if (frame.free || frame.ignored || isFree(at)) return;
        if (first !== undefined) {
          finding(
            at,
            'duplicate',
            `${shownKey(at)} is given twice in the same object (first on line ${first.place.line}); ` +
              'JSON readers keep the last value, and so does Tolk',
            where,
          );
        }
        const problem =
          property === '' ? 'is empty' : property.includes(KEY_DOT) ? nameProblem(property) : undefined;
        if (problem) {
          finding(
            at,
            'format',
            `the name ${JSON.stringify(property)} cannot be a key: it ${problem}; left out`,
            where,
          );
          drop(at);
          frame.names.get(property)!.dropped = true;
        }
      },
      onLiteralValue(value: unknown, _offset, _length, line, column, pathOf) {
        const parent = stack[stack.length - 1];
        const at = pathOf();
        if (parent?.isArray) {
          parent.elements++;
          left.delete(pathKey(at));
        }
        if (typeof value === 'string' || !parent || parent.free || parent.ignored) return;
        if (at.length === 0 || isFree(at)) return;
        const got = value === null ? 'null' : `a ${typeof value}`;
        finding(at, 'format', `${shownKey(at)} is ${got}, not a text; left out`, place(line, column));
        drop(at);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return left;
}

/**
 * The document without what `left` names, each key's name as its key (a dot that would leave an
 * empty part of the path as U+2024). The depth is bounded (checkJsonDepth), so recursion is safe.
 */
function cleaned(document: Record<string, unknown>, left: ReadonlySet<string>): Record<string, unknown> {
  const walk = (value: unknown, at: JSONPath, free: boolean): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...at, index], free));
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(value)) {
      const path = [...at, name];
      if (!free && left.has(pathKey(path))) continue;
      // Keys and annotations of keys are named as the keys; what is inside an annotation, and
      // `@@` metadata, as it is.
      const key =
        free || name.startsWith('@@')
          ? name
          : name.startsWith('@')
            ? `@${escapeName(name.slice(1))}`
            : escapeName(name);
      Object.defineProperty(out, key, {
        value: walk((value as Record<string, unknown>)[name], path, free || name.startsWith('@')),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return walk(document, [], false) as Record<string, unknown>;
}

/** A property name as its key's segment: a dot that would leave an empty part as U+2024. */
export function escapeName(name: string): string {
  return name.includes('.') ? name.replace(EMPTY_SEGMENT_DOT, KEY_DOT) : name;
}

/** A document with each property name as the file writes it (escapeName undone). */
export function withFileNames(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(withFileNames);
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    Object.defineProperty(out, name.replaceAll(KEY_DOT, '.'), {
      value: withFileNames((value as Record<string, unknown>)[name]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Refuses a file nested deeper than `maxDepth` levels (the body is level 1, as the server
 * counts), at the bracket that goes too deep: before any parser, whose recursion 100,000 levels
 * would exhaust. Brackets inside strings do not count.
 */
export function checkJsonDepth(text: string, path: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c) at++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) {
        throw new FormatError(
          path,
          `is nested deeper than ${maxDepth} levels, more than a locale file may be`,
          positionIn(text, at),
        );
      }
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
}

/** The place of a key of the document (a flattened path, names as escapeName makes them). */
function placeOfKey(text: string, key: string): Place | undefined {
  let found: Place | undefined;
  visit(text, {
    onObjectProperty(property, _offset, _length, line, column, pathOf) {
      if (found) return;
      if (keyOfPath([...pathOf(), property]) === key) found = { line: line + 1, column: column + 1 };
    },
  });
  return found;
}

/** A key as messages show it: the flattened path, quoted. */
function shownKey(at: JSONPath): string {
  return JSON.stringify(at.join('.'));
}

/**
 * A JSON.parse error placed at its line and column. Node 20 gives a position for most errors
 * (`... in JSON at position 7`) but not all (`Unexpected token '}', "{"a": }" is not valid
 * JSON`, `Unexpected end of JSON input`): then the first error jsonc-parser finds is the place,
 * else the end of the text.
 */
export function jsonSyntaxError(path: string, text: string, message: string): FormatError {
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
  return new FormatError(path, `not valid JSON: ${reason}`, positionIn(text, offset ?? text.length));
}
