import type { ParsedSource } from '@tolk/locale-file';

/**
 * A source version as source-service keeps it: the parsed file and, for each key, its revision —
 * the version in which the key's value last changed (was added or modified). locale-service
 * reads revisions to tell which translations are outdated: a translation made from version t is
 * outdated when its key's revision is later than t.
 */
export type SourceVersion = ParsedSource & {
  /** One per key; an Int32Array when computed here (off the heap the garbage collector walks). */
  revisions: ArrayLike<number>;
  /** The document's bytes as uploaded, when known: an upload of the very same bytes is no change. */
  raw?: Buffer;
};

/**
 * The revisions of the source of `version`, from those of the version before and which of its
 * entries each key kept unchanged (matchSourceEntries): a key whose value is new or different
 * gets `version`, every other key keeps its revision.
 */
export function nextRevisions(
  previousRevisions: ArrayLike<number>,
  unchangedFrom: Int32Array,
  version: number,
): Int32Array {
  const revisions = new Int32Array(unchangedFrom.length);
  for (let i = 0; i < unchangedFrom.length; i++) {
    const from = unchangedFrom[i]!;
    revisions[i] = from < 0 ? version : (previousRevisions[from] ?? version);
  }
  return revisions;
}
