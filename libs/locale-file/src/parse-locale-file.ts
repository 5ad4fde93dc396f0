import { DOCUMENT_REQUIRED_MESSAGE, LocaleFileError } from './errors.js';
import { sliceClock } from './time-slices.js';

/**
 * Reading an uploaded source locale file (DESIGN §4) into its flattened form.
 *
 * Rules, beyond those DESIGN §4 states:
 * - Depth counts JSON nesting with the body itself as level 1, so with `maxDepth` 32 a key path
 *   has at most 32 segments. Annotation and metadata values count towards the same limit, so
 *   nothing deeper than the limit is ever stored (or serialised again).
 * - An empty object or array below the top level is rejected: it holds no key, and a file that
 *   silently loses part of its shape on the way back out is worse than a clear error. An empty
 *   top-level object is a source with no keys and is accepted.
 * - Only a literal sibling is annotated: `"@a.b"` at the top level annotates the top-level key
 *   `"a.b"`, not `a: { b }`. An annotation may annotate a nested object or array as a whole (its
 *   flattened path is then a group, not a key). Annotation contents are free-form (ARB has
 *   `description`, `type`, `placeholders`, `maxLength`...), only their depth is limited.
 * - `@@...` file metadata is allowed at the top level only, where ARB puts it.
 * - A key may be both a value and the prefix of other keys (`"a.b"` and `"a.b.c"` in a flat
 *   file): flat files do this and nothing is ambiguous because the layout is kept.
 * - Key order is the order of the parsed object, which for integer-like property names
 *   (`"10"`, `"2"`) is ascending numeric order first: JSON.parse already decided that.
 * - Key path length is counted in UTF-16 code units (`String.prototype.length`).
 * - A value is bounded in length and in opening braces (`maxValueLength`, `maxValueBraces`, both
 *   in UTF-16 code units): every check of a translation (ICU parsing, placeholders, plural
 *   categories) runs on one value at a time, in time no shorter than these bounds allow. Every ICU
 *   argument, `{name}` and `{{name}}` placeholder, plural or select branch and nesting level takes
 *   at least one `{`, and their count, not the length, is what makes a value slow to check
 *   (each costs the parsers a structure of its own). At the defaults, checking the worst value
 *   measured (100,000 characters, 1,000 braces: a plural of 500 branches each with a placeholder,
 *   or selects nested 333 deep) takes about 10 ms, where 1.5 million `{name}` took 1.3 s.
 */

export type SourceLimits = {
  maxKeys: number;
  maxDepth: number;
  maxKeyLength: number;
  maxValueLength: number;
  maxValueBraces: number;
};

export const DEFAULT_SOURCE_LIMITS: Readonly<SourceLimits> = Object.freeze({
  maxKeys: 200_000,
  maxDepth: 32,
  maxKeyLength: 1000,
  maxValueLength: 100_000,
  maxValueBraces: 1000,
});

/** ARB-style context for one key or group, e.g. `{ description, maxLength, placeholders }`. */
export type Annotation = Record<string, unknown>;

/**
 * Codes of the document walk in `SourceLayout.steps`. A positive number n stands for the next n
 * leaves (the next n entries of `keys`/`values`), so a flat file is the single step `[keyCount]`.
 */
export const LayoutStep = {
  openObject: -1,
  openArray: -2,
  close: -3,
  annotation: -4,
  metadata: -5,
} as const;

/**
 * What `rebuildDocument` needs, beyond keys and values, to give back the file's own shape: which
 * dots were nesting and which were part of a property name, arrays versus objects, and where the
 * annotations and metadata stood. Leaf, annotation and metadata names are not repeated here:
 * they follow from `keys`, the annotation targets and the metadata names, taken in order.
 * Plain arrays of numbers and strings, so it stores as JSON as it is.
 */
export type SourceLayout = {
  steps: number[];
  /** Property name (or array index) of every nested object and array, in the order they open. */
  containerNames: string[];
};

/**
 * Parallel arrays rather than an object per key: 200,000 keys cost two arrays of string
 * references, which is also the form that is kept for comparing the next upload.
 */
export type ParsedSource = {
  /** Flattened key paths (`home.title`, `steps.0`), in document order. */
  keys: string[];
  /** `values[i]` is the value of `keys[i]`. */
  values: string[];
  /**
   * `leafNames[i]` is the last segment of `keys[i]` as the file wrote it (a property name, or an
   * index in an array): `keys[i]` is the path of its object or array in `layout`, a dot, and it.
   * Kept when asked for (ParseOptions); lets computeSourceDiff find keys equal without reading
   * their text.
   */
  leafNames?: string[];
  /** Flattened path of the annotated key (or group) → annotation, in document order. */
  annotations: Map<string, Annotation>;
  /** Top-level `@@name` → value, in document order, with the `@@` kept in the name. */
  metadata: Map<string, unknown>;
  layout: SourceLayout;
};

/** `leafNames`: keep each key's last segment (ParsedSource.leafNames), for comparing versions. */
export type ParseOptions = { leafNames?: boolean };

/**
 * An object or array being read: `names` are an object's own property names (undefined for an
 * array), `next` the position of the next entry, `prefix` its path followed by a dot ('' for the
 * body), `depth` its level (the body is 1).
 */
type Frame = {
  container: Record<string, unknown> | readonly unknown[];
  names: string[] | undefined;
  next: number;
  prefix: string;
  depth: number;
};

type Walk = {
  limits: SourceLimits;
  keys: string[];
  values: string[];
  leafNames: string[] | undefined;
  annotations: Map<string, Annotation>;
  metadata: Map<string, unknown>;
  steps: number[];
  containerNames: string[];
  /** Leaves read since the last step that was not a leaf. */
  pendingLeaves: number;
  /**
   * Two paths can flatten to the same key only when a property name has a dot in it and some
   * object or array is nested: the names of one object are distinct.
   */
  sawDottedName: boolean;
  /** The containers open, innermost last: the walk is a loop, so it can stop between any two entries. */
  stack: Frame[];
};

const AT = 0x40;
const SHOWN_PATH_LENGTH = 120;

/**
 * Validates and flattens the already JSON-parsed body of `PUT .../source`. Throws
 * LocaleFileError for any rule broken, its message naming the key path (code TOO_MANY_KEYS for
 * too many keys). The body is only read; annotation and metadata values are referenced, not copied.
 */
export function parseSourceDocument(
  body: unknown,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
  options: ParseOptions = {},
): ParsedSource {
  const walk = startWalk(body, limits, options);
  walkOn(walk, () => false);
  return finishWalk(walk);
}

/**
 * parseSourceDocument in time slices (time-slices.ts): 200,000 keys take tens of milliseconds to
 * read, which a server does not spend in one turn of its event loop.
 */
export async function parseSourceDocumentInSlices(
  body: unknown,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
  options: ParseOptions = {},
): Promise<ParsedSource> {
  const walk = startWalk(body, limits, options);
  const clock = sliceClock();
  while (!walkOn(walk, clock.due)) await clock.next();
  return finishWalk(walk);
}

function startWalk(body: unknown, limits: SourceLimits, options: ParseOptions): Walk {
  // An empty upload is no body, never an empty file that would delete every key.
  if (body === undefined) throw new LocaleFileError('DOCUMENT_REQUIRED', DOCUMENT_REQUIRED_MESSAGE);
  if (!isJsonObject(body)) {
    throw new LocaleFileError('NOT_AN_OBJECT', 'body: must be a JSON object of translation keys');
  }
  return {
    limits,
    keys: [],
    values: [],
    leafNames: options.leafNames ? [] : undefined,
    annotations: new Map(),
    metadata: new Map(),
    steps: [],
    containerNames: [],
    pendingLeaves: 0,
    sawDottedName: false,
    stack: [{ container: body, names: Object.keys(body), next: 0, prefix: '', depth: 1 }],
  };
}

function finishWalk(walk: Walk): ParsedSource {
  flushLeaves(walk);
  if (walk.sawDottedName && walk.containerNames.length > 0) rejectDuplicateKeys(walk.keys);
  const parsed: ParsedSource = {
    keys: walk.keys,
    values: walk.values,
    annotations: walk.annotations,
    metadata: walk.metadata,
    layout: { steps: walk.steps, containerNames: walk.containerNames },
  };
  if (walk.leafNames) parsed.leafNames = walk.leafNames;
  return parsed;
}

/**
 * Reads entries in document order until the body is read (true) or `stop()` says so before an
 * entry (false: call again to go on).
 */
function walkOn(walk: Walk, stop: () => boolean): boolean {
  const { stack } = walk;
  while (stack.length > 0) {
    if (stop()) return false;
    const frame = stack[stack.length - 1]!;
    const { container, names, prefix, depth } = frame;
    if (names === undefined) {
      const items = container as readonly unknown[];
      if (frame.next === items.length) {
        closeContainer(walk);
        continue;
      }
      const index = frame.next++;
      readValue(walk, items[index], String(index), prefix + index, depth);
      continue;
    }
    if (frame.next === names.length) {
      closeContainer(walk);
      continue;
    }
    const object = container as Record<string, unknown>;
    const name = names[frame.next++]!;
    const value = object[name];
    if (name.charCodeAt(0) === AT) {
      readAnnotationOrMetadata(walk, object, name, value, prefix, depth);
      continue;
    }
    const path = prefix + name;
    if (name === '') throw emptySegment(path);
    if (name.includes('.')) {
      if (name.startsWith('.') || name.endsWith('.') || name.includes('..')) throw emptySegment(path);
      walk.sawDottedName = true;
    }
    readValue(walk, value, name, path, depth);
  }
  return true;
}

/** The innermost container is read: a nested one's end is a step of the layout, the body's is not. */
function closeContainer(walk: Walk): void {
  walk.stack.pop();
  if (walk.stack.length > 0) addStep(walk, LayoutStep.close);
}

/**
 * A value at `path`, `depth` being the level of the object or array that holds it: a leaf is read,
 * a container opened (its entries are read next).
 */
function readValue(walk: Walk, value: unknown, name: string, path: string, depth: number): void {
  const { maxDepth, maxKeyLength, maxKeys } = walk.limits;
  if (path.length > maxKeyLength) {
    throw new LocaleFileError(
      'KEY_TOO_LONG',
      `${shown(path)}: key path is ${path.length} characters long, over the limit of ${maxKeyLength}`,
      { path, limit: maxKeyLength },
    );
  }
  if (typeof value === 'string') {
    checkValue(walk.limits, path, value);
    if (walk.keys.length >= maxKeys) {
      throw new LocaleFileError('TOO_MANY_KEYS', `body: more than ${maxKeys} keys`, { limit: maxKeys });
    }
    walk.keys.push(path);
    walk.values.push(value);
    walk.leafNames?.push(name);
    walk.pendingLeaves++;
    return;
  }
  if (typeof value !== 'object' || value === null) {
    throw new LocaleFileError('NOT_A_STRING', `${shown(path)}: must be a string, got ${jsonTypeOf(value)}`, {
      path,
    });
  }
  if (depth >= maxDepth) throw tooDeep(path, maxDepth);
  if (Array.isArray(value)) {
    if (value.length === 0) throw emptyContainer(path, 'array');
    openContainer(walk, LayoutStep.openArray, name);
    walk.stack.push({ container: value, names: undefined, next: 0, prefix: path + '.', depth: depth + 1 });
  } else {
    const names = Object.keys(value);
    if (names.length === 0) throw emptyContainer(path, 'object');
    openContainer(walk, LayoutStep.openObject, name);
    walk.stack.push({
      container: value as Record<string, unknown>,
      names,
      next: 0,
      prefix: path + '.',
      depth: depth + 1,
    });
  }
}

/** A value within maxValueLength and maxValueBraces (see above), or LocaleFileError naming its key. */
function checkValue(limits: SourceLimits, path: string, value: string): void {
  const { maxValueLength, maxValueBraces } = limits;
  if (value.length > maxValueLength) {
    throw new LocaleFileError(
      'VALUE_TOO_LONG',
      `${shown(path)}: value is ${value.length} characters long, over the limit of ${maxValueLength} characters per value`,
      { path, limit: maxValueLength },
    );
  }
  // Counted up to one past the limit: a value of a million braces costs no more than one at it.
  let braces = 0;
  for (let at = value.indexOf('{'); at !== -1; at = value.indexOf('{', at + 1)) {
    if (++braces > maxValueBraces) {
      throw new LocaleFileError(
        'TOO_MANY_BRACES',
        `${shown(path)}: value has more than ${maxValueBraces} opening braces ({), the limit per value ` +
          '(each ICU argument, placeholder and plural or select branch takes one)',
        { path, limit: maxValueBraces },
      );
    }
  }
}

function readAnnotationOrMetadata(
  walk: Walk,
  object: Record<string, unknown>,
  name: string,
  value: unknown,
  prefix: string,
  depth: number,
): void {
  const path = prefix + name;
  const { maxDepth } = walk.limits;
  if (name.charCodeAt(1) === AT) {
    if (depth !== 1) {
      throw invalidAnnotation(path, 'file metadata (@@) is only allowed at the top level');
    }
    if (exceedsDepth(value, maxDepth - depth)) throw tooDeep(path, maxDepth);
    walk.metadata.set(name, value);
    addStep(walk, LayoutStep.metadata);
    return;
  }
  const target = name.slice(1);
  if (!Object.hasOwn(object, target)) {
    throw invalidAnnotation(path, 'annotates a key that does not exist');
  }
  if (!isJsonObject(value)) {
    throw invalidAnnotation(path, `an annotation must be an object, got ${jsonTypeOf(value)}`);
  }
  if (exceedsDepth(value, maxDepth - depth)) throw tooDeep(path, maxDepth);
  const targetPath = prefix + target;
  // Two annotated groups can share a path ({"a.b": {...}, "a": {"b": {...}}}) though no two keys can.
  if (walk.annotations.has(targetPath)) throw invalidAnnotation(targetPath, 'annotated twice');
  walk.annotations.set(targetPath, value);
  addStep(walk, LayoutStep.annotation);
}

function openContainer(walk: Walk, step: number, name: string): void {
  addStep(walk, step);
  walk.containerNames.push(name);
}

function addStep(walk: Walk, step: number): void {
  flushLeaves(walk);
  walk.steps.push(step);
}

function flushLeaves(walk: Walk): void {
  if (walk.pendingLeaves > 0) {
    walk.steps.push(walk.pendingLeaves);
    walk.pendingLeaves = 0;
  }
}

/** The first key, in document order, that an earlier key already flattened to. */
function rejectDuplicateKeys(keys: readonly string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    const size = seen.size;
    seen.add(key);
    if (seen.size === size) {
      throw new LocaleFileError(
        'DUPLICATE_KEY',
        `${shown(key)}: defined twice (as a flat key and as a nested path)`,
        { path: key },
      );
    }
  }
}

/** Whether `value` nests more objects or arrays than `levels` (itself included). */
function exceedsDepth(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels <= 0) return true;
  for (const child of Object.values(value)) {
    if (exceedsDepth(child, levels - 1)) return true;
  }
  return false;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function emptySegment(path: string): LocaleFileError {
  return new LocaleFileError('EMPTY_SEGMENT', `${shown(path)}: empty key segment (keys are split on dots)`, {
    path,
  });
}

function emptyContainer(path: string, kind: 'array' | 'object'): LocaleFileError {
  return new LocaleFileError('EMPTY_CONTAINER', `${shown(path)}: an empty ${kind} has no keys`, { path });
}

function invalidAnnotation(path: string, problem: string): LocaleFileError {
  return new LocaleFileError('INVALID_ANNOTATION', `${shown(path)}: ${problem}`, { path });
}

function tooDeep(path: string, maxDepth: number): LocaleFileError {
  return new LocaleFileError('TOO_DEEP', `${shown(path)}: nested deeper than ${maxDepth} levels`, {
    path,
    limit: maxDepth,
  });
}

/** A key path as error messages show it: bounded, and visible even when empty. */
function shown(path: string): string {
  if (path === '') return '""';
  return path.length > SHOWN_PATH_LENGTH ? `${path.slice(0, SHOWN_PATH_LENGTH)}…` : path;
}
