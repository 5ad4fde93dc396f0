import type { ParsedSource } from '@tolk/locale-file';

/**
 * A source version as source-service keeps it: the parsed file and, for each key, its revision —
 * the version in which the key's value last changed (was added or modified). locale-service
 * reads revisions to tell which translations are outdated: a translation made from version t is
 * outdated when its key's revision is later than t.
 */
export type SourceVersion = ParsedSource & {
  revisions: number[];
  /** The document's bytes as uploaded, when known: an upload of the very same bytes is no change. */
  raw?: Buffer;
};

/**
 * The revisions of `next`, the source of `version`, from `previous` (the version before): a key
 * whose value is new or different gets `version`, every other key keeps its revision. Positional
 * for the leading run of keys in the same order (the usual case), a Map only for the rest.
 */
export function nextRevisions(
  previous: Pick<SourceVersion, 'keys' | 'values' | 'revisions'>,
  next: Pick<ParsedSource, 'keys' | 'values'>,
  version: number,
): number[] {
  const revisions: number[] = [];
  const common = Math.min(previous.keys.length, next.keys.length);
  let i = 0;
  for (; i < common && previous.keys[i] === next.keys[i]; i++) {
    revisions.push(previous.values[i] === next.values[i] ? (previous.revisions[i] ?? version) : version);
  }
  if (i === next.keys.length) return revisions;
  const indexOf = new Map<string, number>();
  for (let at = i; at < previous.keys.length; at++) indexOf.set(previous.keys[at]!, at);
  for (; i < next.keys.length; i++) {
    const at = indexOf.get(next.keys[i]!);
    revisions.push(
      at !== undefined && previous.values[at] === next.values[i]
        ? (previous.revisions[at] ?? version)
        : version,
    );
  }
  return revisions;
}
