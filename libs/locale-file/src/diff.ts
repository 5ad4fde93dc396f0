import type { Annotation } from './parse-locale-file.js';

/** The spec's Diff object. */
export type SourceDiff = { added: string[]; modified: string[]; deleted: string[] };

/** Flattened keys and their values, parallel arrays; keys are unique. */
export type FlatEntries = { readonly keys: readonly string[]; readonly values: readonly string[] };

/** What decides whether an upload changes the source: entries and annotations, not layout or metadata. */
export type FlatContent = FlatEntries & { readonly annotations: ReadonlyMap<string, Readonly<Annotation>> };

/**
 * Keys added and modified in `next`'s order, keys deleted in `previous`'s order. No previous
 * version: every key is added. Linear: the common leading run of identical keys (the usual case
 * of values edited in place, or keys appended) is compared position by position, and only the
 * rest goes through a Map.
 */
export function computeSourceDiff(previous: FlatEntries | undefined, next: FlatEntries): SourceDiff {
  if (!previous || previous.keys.length === 0) return { added: [...next.keys], modified: [], deleted: [] };
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];

  const common = Math.min(previous.keys.length, next.keys.length);
  let start = 0;
  for (; start < common && previous.keys[start] === next.keys[start]; start++) {
    if (previous.values[start] !== next.values[start]) modified.push(next.keys[start]!);
  }

  const indexOfPrevious = new Map<string, number>();
  for (let i = start; i < previous.keys.length; i++) indexOfPrevious.set(previous.keys[i]!, i);
  const kept = new Uint8Array(previous.keys.length);
  for (let i = start; i < next.keys.length; i++) {
    const key = next.keys[i]!;
    const at = indexOfPrevious.get(key);
    if (at === undefined) {
      added.push(key);
    } else {
      kept[at] = 1;
      if (previous.values[at] !== next.values[i]) modified.push(key);
    }
  }
  for (let i = start; i < previous.keys.length; i++) {
    if (kept[i] === 0) deleted.push(previous.keys[i]!);
  }
  return { added, modified, deleted };
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

/** Structural equality of JSON values; object member order does not matter. */
function jsonEqual(a: unknown, b: unknown): boolean {
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
