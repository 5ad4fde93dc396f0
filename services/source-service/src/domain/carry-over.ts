import { createHash } from 'node:crypto';
import type { KeyRename, KeyRestore } from '@tolk/contracts';
import {
  changedAnnotations,
  sliceClock,
  type Annotation,
  type ParsedSource,
  type SourceDiff,
  type SourceMatch,
} from '@tolk/locale-file';
import type { DeletedKey } from '../data-access/deleted-keys-repository.js';
import type { SourceVersion } from './key-revisions.js';

/** What a version carries over from earlier ones (DESIGN §13), in the order of its new keys. */
export type CarryOver = { renames: KeyRename[]; restores: KeyRestore[] };

export const NO_CARRY_OVER: CarryOver = Object.freeze({ renames: [], restores: [] }) as CarryOver;

/** JSON with object members sorted: equal annotations give equal text, whatever their order. */
function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`);
  return `{${members.join(',')}}`;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** A key's context as compared: its annotation in canonical JSON, '' for none. */
function contextOf(annotations: ReadonlyMap<string, Readonly<Annotation>>, key: string): string {
  const annotation = annotations.get(key);
  return annotation === undefined ? '' : canonicalJson(annotation);
}

/**
 * The index of each of `wanted` in `keys` (one pass; only when there is something to find), in
 * time slices as every walk over an upload's 200,000 keys.
 */
async function indexesOf(keys: readonly string[], wanted: readonly string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (wanted.length === 0) return found;
  const clock = sliceClock();
  const set = new Set<string>();
  for (const key of wanted) {
    if (clock.due()) await clock.next();
    set.add(key);
  }
  for (let i = 0; i < keys.length; i++) {
    if (clock.due()) await clock.next();
    if (set.has(keys[i]!)) found.set(keys[i]!, i);
  }
  return found;
}

/**
 * Where the keys of an upload's diff stand: each added key's index in the upload, each deleted
 * key's in the version before. Found once for all that an upload works out from them: renames,
 * restores, changed contexts, what its deleted keys were.
 */
export type DiffIndexes = { addedAt: Map<string, number>; deletedAt: Map<string, number> };

/**
 * `match` is how `parsed` compares with `base` (matchSourceEntries): its added keys are, in the
 * upload's order, among the entries it found no unchanged key for (the others are modified), and
 * its deleted keys, in base's order, among base's entries no entry of the upload kept. So two
 * walks over those few entries find them, with no lookup of the 50,000 keys in a set; should a
 * walk not find them all, they are looked up.
 */
export async function diffIndexes(
  base: ParsedSource,
  parsed: ParsedSource,
  match: SourceMatch,
): Promise<DiffIndexes> {
  const { diff, unchangedFrom } = match;
  const addedAt = new Map<string, number>();
  const deletedAt = new Map<string, number>();
  const clock = sliceClock();
  if (diff.added.length > 0) {
    for (let i = 0; i < parsed.keys.length && addedAt.size < diff.added.length; i++) {
      if (clock.due()) await clock.next();
      if (unchangedFrom[i]! < 0 && parsed.keys[i] === diff.added[addedAt.size])
        addedAt.set(parsed.keys[i]!, i);
    }
  }
  if (diff.deleted.length > 0) {
    const kept = new Uint8Array(base.keys.length);
    for (const from of unchangedFrom) if (from >= 0) kept[from] = 1;
    for (let i = 0; i < base.keys.length && deletedAt.size < diff.deleted.length; i++) {
      if (clock.due()) await clock.next();
      if (kept[i] === 0 && base.keys[i] === diff.deleted[deletedAt.size]) deletedAt.set(base.keys[i]!, i);
    }
  }
  return {
    addedAt: addedAt.size === diff.added.length ? addedAt : await indexesOf(parsed.keys, diff.added),
    deletedAt: deletedAt.size === diff.deleted.length ? deletedAt : await indexesOf(base.keys, diff.deleted),
  };
}

/** What a key deleted in `base` is remembered as, for restoring it later. */
export async function deletedKeysOf(
  base: SourceVersion,
  deleted: readonly string[],
  { deletedAt }: DiffIndexes,
): Promise<DeletedKey[]> {
  const remembered: DeletedKey[] = [];
  // Two hashes a key: 200,000 deleted keys take a while, in time slices.
  const clock = sliceClock(16);
  for (const key of deleted) {
    if (clock.due()) await clock.next();
    const i = deletedAt.get(key)!;
    remembered.push({
      key,
      valueHash: hash(base.values[i]!),
      contextHash: hash(contextOf(base.annotations, key)),
      revision: base.revisions[i]!,
    });
  }
  return remembered;
}

/** Renames (DESIGN §13), and the added keys that are none: only they can be restores. */
export type Renames = { renames: KeyRename[]; revisions: Map<number, number>; unmatched: string[] };

/**
 * The renames among the keys `diff` adds to `base`, and the revision each of them keeps: a key
 * deleted and a key added with the same value and (when `compareContext`) the same context
 * annotation. When several deleted and added keys share a value and context, they are paired in
 * document order: the first deleted (in base's order) with the first added (in the upload's
 * order), and so on; the rest are plain deletions and additions (`unmatched`, the added ones).
 */
export async function findRenames(
  base: SourceVersion,
  parsed: ParsedSource,
  diff: SourceDiff,
  { addedAt, deletedAt }: DiffIndexes,
  compareContext: boolean,
): Promise<Renames> {
  const revisions = new Map<number, number>();
  if (diff.added.length === 0 || diff.deleted.length === 0) {
    return { renames: [], revisions, unmatched: diff.added };
  }
  // Deleted keys by value and context, each list in base's order and taken from its front.
  const signature = (value: string, annotations: ReadonlyMap<string, Readonly<Annotation>>, key: string) =>
    compareContext ? `${value}\u0000${contextOf(annotations, key)}` : value;
  const deleted = new Map<string, { queue: { key: string; revision: number }[]; next: number }>();
  const clock = sliceClock();
  for (const key of diff.deleted) {
    if (clock.due()) await clock.next();
    const i = deletedAt.get(key)!;
    const at = signature(base.values[i]!, base.annotations, key);
    const entry = { key, revision: base.revisions[i]! };
    const list = deleted.get(at);
    if (list) list.queue.push(entry);
    else deleted.set(at, { queue: [entry], next: 0 });
  }

  const renames: KeyRename[] = [];
  const unmatched: string[] = [];
  for (const key of diff.added) {
    if (clock.due()) await clock.next();
    const i = addedAt.get(key)!;
    const list = deleted.get(signature(parsed.values[i]!, parsed.annotations, key));
    const from = list?.queue[list.next];
    if (!list || !from) {
      unmatched.push(key);
      continue;
    }
    list.next++;
    renames.push({ from: from.key, to: key });
    revisions.set(i, from.revision);
  }
  return { renames, revisions, unmatched };
}

/**
 * The restores among the added keys that are no rename (`found.unmatched`): a key whose last
 * deletion (`lastDeleted`, from the project's deleted_keys) had the same value and (when
 * `compareContext`) context gets back its revision then. With the renames, what the version
 * carries over; a key carried over keeps the revision it had, so locale-service finds its carried
 * translation as current as it was.
 */
export function withRestores(
  found: Renames,
  parsed: ParsedSource,
  lastDeleted: readonly DeletedKey[],
  { addedAt }: DiffIndexes,
  compareContext: boolean,
): { carryOver: CarryOver; revisions: Map<number, number> } {
  const { renames, revisions, unmatched } = found;
  const restores: KeyRestore[] = [];
  if (lastDeleted.length > 0 && unmatched.length > 0) {
    const remembered = new Map(lastDeleted.map((d) => [d.key, d]));
    for (const key of unmatched) {
      const last = remembered.get(key);
      if (!last) continue;
      const i = addedAt.get(key)!;
      if (last.valueHash !== hash(parsed.values[i]!)) continue;
      if (compareContext && last.contextHash !== hash(contextOf(parsed.annotations, key))) continue;
      restores.push({ key, version: last.revision });
      revisions.set(i, last.revision);
    }
  }
  const carryOver = renames.length + restores.length > 0 ? { renames, restores } : NO_CARRY_OVER;
  return { carryOver, revisions };
}

/**
 * Context is content (DESIGN §13): the indexes of the keys of `parsed` whose value is unchanged
 * (`unchangedFrom[i] >= 0`) but whose context differs from base's: their own annotation, or that
 * of a group holding them (`"@checkout": {...}` is part of every `checkout.*` key's note to the
 * translator). An annotation at a key's path is that key's (only a literal sibling is annotated):
 * one of an added key is new with it, one of a deleted key went with it, and neither is a group's.
 * Reads only the annotated keys of both versions unless a group's annotation changed.
 */
export async function contextChanged(
  base: ParsedSource,
  parsed: ParsedSource,
  unchangedFrom: Int32Array,
  { addedAt, deletedAt }: DiffIndexes,
): Promise<number[]> {
  const changed = changedAnnotations(
    base,
    parsed,
    (key) => addedAt.has(key),
    (key) => deletedAt.has(key),
  );
  if (changed.length === 0) return [];
  const at = await indexesOf(parsed.keys, changed);
  const indexes = new Set<number>();
  for (const i of at.values()) if (unchangedFrom[i]! >= 0) indexes.add(i);
  // What is not a key is a group: every key under it changed context too.
  const groups = new Set(changed.filter((path) => !at.has(path)));
  if (groups.size > 0) {
    for (let i = 0; i < parsed.keys.length; i++) {
      if (unchangedFrom[i]! < 0 || indexes.has(i)) continue;
      const key = parsed.keys[i]!;
      for (let dot = key.indexOf('.'); dot > 0; dot = key.indexOf('.', dot + 1)) {
        if (groups.has(key.slice(0, dot))) {
          indexes.add(i);
          break;
        }
      }
    }
  }
  return [...indexes];
}
