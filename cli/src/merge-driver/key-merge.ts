/**
 * Two sides' edits of one locale document merged key by key (DESIGN §17: locale files merge by
 * key). A document is seen as its entries: each key's value, each key's annotation (the context a
 * format reads from its comments and notes) and each `@@` metadata value, so that one side's new
 * comment and the other side's new translation of the same key both arrive.
 *
 * For each entry: the same on both sides (both added it alike, both deleted it) is that; changed
 * on one side only (added, edited or deleted) is that side's; changed on both sides differently is
 * a conflict of its key. A deletion on one side against an edit on the other is such a conflict.
 */
import type { ParsedSource } from '@tolk/locale-file';

/** A document's entries by their slot: `v` value, `a` annotation or `m` metadata, then the key. */
export type Entries = ReadonlyMap<string, string>;

const VALUE = 'v';
const ANNOTATION = 'a';
const METADATA = 'm';

/** The entries of a parsed document; annotations and metadata as their JSON. */
export function entriesOf(parsed: ParsedSource): Map<string, string> {
  const entries = new Map<string, string>();
  parsed.keys.forEach((key, index) => entries.set(VALUE + key, parsed.values[index]!));
  for (const [key, annotation] of parsed.annotations)
    entries.set(ANNOTATION + key, JSON.stringify(annotation));
  for (const [name, value] of parsed.metadata) entries.set(METADATA + name, JSON.stringify(value));
  return entries;
}

/** The value of `key` among `entries`. */
export function valueIn(entries: Entries, key: string): string | undefined {
  return entries.get(VALUE + key);
}

/** Whether `key` has a value among `entries`. */
export function hasKey(entries: Entries, key: string): boolean {
  return entries.has(VALUE + key);
}

/** The key (or `@@` name) an entry's slot is of. */
export function keyOfSlot(slot: string): string {
  return slot.slice(1);
}

export type KeyMerge = {
  /** The merged entries, a conflict's as ours has it. */
  merged: Map<string, string>;
  /** The slots changed on both sides differently, in the order ours then theirs has them. */
  conflicts: string[];
};

/** `ours` and `theirs`, both made from `base`, merged entry by entry. */
export function mergeEntries(base: Entries, ours: Entries, theirs: Entries): KeyMerge {
  const merged = new Map<string, string>();
  const conflicts: string[] = [];
  const slots = new Set([...ours.keys(), ...theirs.keys(), ...base.keys()]);
  for (const slot of slots) {
    const before = base.get(slot);
    const mine = ours.get(slot);
    const other = theirs.get(slot);
    let value: string | undefined;
    if (mine === other || other === before) value = mine;
    else if (mine === before) value = other;
    else {
      conflicts.push(slot);
      value = mine;
    }
    if (value !== undefined) merged.set(slot, value);
  }
  return { merged, conflicts };
}

/**
 * `merged` with the entries of `slots` as `side` has them (absent where it has none): a key whose
 * value or annotation is among them takes both from `side`, so that no annotation is left
 * without its key.
 */
export function resolvedTo(merged: Entries, slots: readonly string[], side: Entries): Map<string, string> {
  const resolved = new Map(merged);
  const taken = slots.flatMap((slot) =>
    slot.startsWith(METADATA) ? [slot] : [VALUE + keyOfSlot(slot), ANNOTATION + keyOfSlot(slot)],
  );
  for (const slot of taken) {
    const value = side.get(slot);
    if (value === undefined) resolved.delete(slot);
    else resolved.set(slot, value);
  }
  return resolved;
}

/** Whether two documents' entries are the same, whatever their order. */
export function sameEntries(a: Entries, b: Entries): boolean {
  if (a.size !== b.size) return false;
  for (const [slot, value] of a) if (b.get(slot) !== value) return false;
  return true;
}
