import type { ParsedSource, SourceDiff } from '@tolk/locale-file';

/**
 * A source version as source-service keeps it: the parsed file and, for each key, its revision —
 * the version in which the key's value last changed (was added or modified). locale-service
 * reads revisions to tell which translations are outdated: a translation made from version t is
 * outdated when its key's revision is later than t.
 */
export type SourceVersion = ParsedSource & { revisions: number[] };

/**
 * The revisions of `next`, the source of `version`, from those of `previous` and the diff
 * between them: added and modified keys get `version`, every other key keeps its revision.
 * Positional for the common case of keys in the same order; a Map only when they moved.
 */
export function nextRevisions(
  previous: Pick<SourceVersion, 'keys' | 'revisions'>,
  next: Pick<ParsedSource, 'keys'>,
  diff: SourceDiff,
  version: number,
): number[] {
  const changed = new Set<string>(diff.added);
  for (const key of diff.modified) changed.add(key);
  const revisions = new Array<number>(next.keys.length);
  let revisionOf: Map<string, number> | undefined;
  for (let i = 0; i < next.keys.length; i++) {
    const key = next.keys[i]!;
    if (changed.has(key)) {
      revisions[i] = version;
    } else if (previous.keys[i] === key) {
      revisions[i] = previous.revisions[i] ?? version;
    } else {
      revisionOf ??= new Map(previous.keys.map((k, at) => [k, previous.revisions[at] ?? version]));
      revisions[i] = revisionOf.get(key) ?? version;
    }
  }
  return revisions;
}
