import { LayoutStep, type Annotation } from './parse-locale-file.js';

/** The spec's Diff object. */
export type SourceDiff = { added: string[]; modified: string[]; deleted: string[] };

/** Flattened keys and their values, parallel arrays; keys are unique. */
export type FlatEntries = { readonly keys: readonly string[]; readonly values: readonly string[] };

/** What decides whether an upload changes the source: entries and annotations, not layout or metadata. */
export type FlatContent = FlatEntries & { readonly annotations: ReadonlyMap<string, Readonly<Annotation>> };

/**
 * Entries as a parsed document has them: with each key's last segment and the layout, two keys
 * can be found equal without reading their characters (see matchSourceEntries).
 */
export type KeyedEntries = FlatEntries & {
  readonly leafNames?: readonly string[];
  readonly layout?: { readonly steps: readonly number[]; readonly containerNames: readonly string[] };
};

/**
 * How `next` relates to `previous`: the diff, and for each of next's entries the index in
 * previous of the same key with the same value (-1 when the key is added or its value modified).
 */
export type SourceMatch = { diff: SourceDiff; unchangedFrom: Int32Array };

/**
 * Keys added and modified in `next`'s order, keys deleted in `previous`'s order. No previous
 * version: every key is added. Linear: the common leading run of identical keys (the usual case
 * of values edited in place, or keys appended) is compared position by position, and only the
 * rest goes through a Map.
 */
export function computeSourceDiff(previous: FlatEntries | undefined, next: FlatEntries): SourceDiff {
  return matchEntries(previous ?? NO_ENTRIES, next, undefined).diff;
}

/**
 * computeSourceDiff and, in the same pass, where each of next's entries was unchanged in
 * previous. Also makes the two versions share their strings: a key (or value) of `next` equal to
 * one of `previous` is replaced by previous's string, so that a version kept in memory mostly
 * holds strings that are already in the old generation rather than fresh copies the garbage
 * collector would move again. `next` must not be frozen.
 */
export function matchSourceEntries(
  previous: KeyedEntries,
  next: KeyedEntries & { keys: string[]; values: string[] },
): SourceMatch {
  return matchEntries(previous, next, next);
}

const NO_ENTRIES: FlatEntries = { keys: [], values: [] };

function matchEntries(
  previous: KeyedEntries,
  next: KeyedEntries,
  shared: { keys: string[]; values: string[] } | undefined,
): SourceMatch {
  const previousKeys = previous.keys;
  const previousValues = previous.values;
  const nextKeys = next.keys;
  const nextValues = next.values;
  const unchangedFrom = new Int32Array(nextKeys.length).fill(-1);
  if (previousKeys.length === 0) {
    return { diff: { added: [...nextKeys], modified: [], deleted: [] }, unchangedFrom };
  }
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];

  const common = Math.min(previousKeys.length, nextKeys.length);
  // Up to `structural`, keys are known equal; after it, they are compared.
  const structural = leadingSameStructure(previous, next);
  let start = 0;
  for (; start < common; start++) {
    const key = previousKeys[start]!;
    if (start >= structural && key !== nextKeys[start]) break;
    const value = previousValues[start]!;
    if (value === nextValues[start]) {
      unchangedFrom[start] = start;
      if (shared) shared.values[start] = value;
    } else {
      modified.push(key);
    }
    if (shared) shared.keys[start] = key;
  }
  if (start === previousKeys.length && start === nextKeys.length) {
    return { diff: { added, modified, deleted }, unchangedFrom };
  }

  const indexOfPrevious = new Map<string, number>();
  for (let i = start; i < previousKeys.length; i++) indexOfPrevious.set(previousKeys[i]!, i);
  const kept = new Uint8Array(previousKeys.length);
  for (let i = start; i < nextKeys.length; i++) {
    const key = nextKeys[i]!;
    const at = indexOfPrevious.get(key);
    if (at === undefined) {
      added.push(key);
      continue;
    }
    kept[at] = 1;
    const value = previousValues[at]!;
    if (value === nextValues[i]) {
      unchangedFrom[i] = at;
      if (shared) shared.values[i] = value;
    } else {
      modified.push(key);
    }
    if (shared) shared.keys[i] = previousKeys[at]!;
  }
  for (let i = start; i < previousKeys.length; i++) {
    if (kept[i] === 0) deleted.push(previousKeys[i]!);
  }
  return { diff: { added, modified, deleted }, unchangedFrom };
}

/**
 * How many leading keys of `previous` and `next` are equal as far as can be told without reading
 * them: the same name in objects or arrays at the same path. Keys are built by concatenation,
 * and comparing their characters would first copy every one of them into a flat string; names
 * are the property names of the parsed JSON, which the engine keeps unique, and containers are
 * few. The keys after it may still be equal (written flat instead of nested, say). `leafNames`
 * and `layout` must be those of the same parse as the keys.
 */
function leadingSameStructure(previous: KeyedEntries, next: KeyedEntries): number {
  const previousNames = previous.leafNames;
  const nextNames = next.leafNames;
  if (
    !previous.layout ||
    !next.layout ||
    previousNames?.length !== previous.keys.length ||
    nextNames?.length !== next.keys.length
  ) {
    return 0;
  }
  const previousRuns = leafRuns(previous.layout);
  const nextRuns = leafRuns(next.layout);
  const limit = Math.min(previousNames.length, nextNames.length);
  let i = 0;
  let previousRun = 0;
  let nextRun = 0;
  while (i < limit) {
    const previousEnd = previousRuns.ends[previousRun];
    const nextEnd = nextRuns.ends[nextRun];
    if (previousEnd === undefined || nextEnd === undefined) return i;
    if (previousRuns.paths[previousRun] !== nextRuns.paths[nextRun]) return i;
    const end = Math.min(previousEnd, nextEnd, limit);
    for (; i < end; i++) {
      if (previousNames[i] !== nextNames[i]) return i;
    }
    if (i === previousEnd) previousRun++;
    if (i === nextEnd) nextRun++;
  }
  return i;
}

/**
 * The runs of consecutive leaves in a layout: where each ends (one past its last key) and the
 * path of the object or array holding it, with its trailing dot ('' at the top level).
 */
function leafRuns(layout: NonNullable<KeyedEntries['layout']>): { ends: number[]; paths: string[] } {
  const ends: number[] = [];
  const paths: string[] = [];
  const stack = [''];
  let keys = 0;
  let container = 0;
  for (const step of layout.steps) {
    if (step > 0) {
      keys += step;
      ends.push(keys);
      paths.push(stack[stack.length - 1]!);
    } else if (step === LayoutStep.openObject || step === LayoutStep.openArray) {
      stack.push(`${stack[stack.length - 1]!}${layout.containerNames[container++] ?? ''}.`);
    } else if (step === LayoutStep.close && stack.length > 1) {
      stack.pop();
    }
  }
  return { ends, paths };
}

export function isEmptyDiff(diff: SourceDiff): boolean {
  return diff.added.length === 0 && diff.modified.length === 0 && diff.deleted.length === 0;
}

/**
 * Whether an upload leaves the source as it is, in which case no version is created. Decided by
 * comparing with the previous flattened form, not by hashing every value:
 * - the same keys with the same values, in any order: moving keys around or switching between
 *   flat and nested writing changes no translation, so it is no change;
 * - the same annotations: they reach translators as context, so changing one alone is a change
 *   (a new version whose key diff is empty);
 * - metadata (`@@...`) is not compared: tools rewrite `@@last_modified` on every export.
 */
export function sameContent(a: FlatContent, b: FlatContent): boolean {
  return sameEntries(a, b) && sameAnnotations(a.annotations, b.annotations);
}

/** The same key → value pairs, whatever their order; the same result as an empty diff, cheaper. */
export function sameEntries(a: FlatEntries, b: FlatEntries): boolean {
  const count = a.keys.length;
  if (count !== b.keys.length) return false;
  let i = 0;
  for (; i < count && a.keys[i] === b.keys[i]; i++) {
    if (a.values[i] !== b.values[i]) return false;
  }
  if (i === count) return true;
  const valueOf = new Map<string, string>();
  for (let j = i; j < count; j++) valueOf.set(a.keys[j]!, a.values[j]!);
  // Keys are unique on both sides and the counts are equal, so finding each of b's keys with its
  // value in a's remainder means both remainders hold the same pairs.
  for (let j = i; j < count; j++) {
    if (valueOf.get(b.keys[j]!) !== b.values[j]) return false;
  }
  return true;
}

export function sameAnnotations(
  a: ReadonlyMap<string, Readonly<Annotation>>,
  b: ReadonlyMap<string, Readonly<Annotation>>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [key, annotation] of b) {
    const other = a.get(key);
    if (other === undefined || !jsonEqual(other, annotation)) return false;
  }
  return true;
}

/**
 * The annotation paths (keys and groups) whose annotation `base` and `parsed` do not share alike:
 * what changes the context of the keys at and under them (DESIGN §13: context is content). An
 * annotation at the path of a key only one of them has belongs to that key alone (only a literal
 * sibling is annotated): one of an `added` key is new with it, one of a `deleted` key went with
 * it, and neither is a change.
 */
export function changedAnnotations(
  base: Pick<FlatContent, 'annotations'>,
  parsed: Pick<FlatContent, 'annotations'>,
  added: (path: string) => boolean,
  deleted: (path: string) => boolean,
): string[] {
  const changed: string[] = [];
  for (const [path, annotation] of parsed.annotations) {
    if (added(path)) continue;
    const before = base.annotations.get(path);
    if (before === undefined || !jsonEqual(before, annotation)) changed.push(path);
  }
  for (const path of base.annotations.keys()) {
    if (!parsed.annotations.has(path) && !deleted(path)) changed.push(path);
  }
  return changed;
}

/** Structural equality of JSON values; object member order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (Array.isArray(b)) return false;
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  return names.every(
    (name) =>
      Object.hasOwn(b, name) &&
      jsonEqual((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[name]),
  );
}
