import type { LocaleCounts } from '../data-access/locales-repository.js';

/** What a locale's state is computed from: the source of one version and each key's revision. */
export type SourceKeys = {
  version: number;
  keys: readonly string[];
  revisions: readonly number[];
};

export type LocaleState = LocaleCounts & { missing: string[]; outdated: string[] };

/**
 * A locale's state against source `source` (DESIGN §5), given the keys it has translations for
 * and the source version those translations were made from (`from`, 0 when nothing was
 * uploaded). An upload replaces a locale's translations whole, so one `from` holds for all of
 * them.
 * - missing: a source key with no translation;
 * - outdated: a translation made before its key's value last changed (revision > from);
 * - syncedVersion: the latest version the translations have caught up with — never later than
 *   `from` (a new source version makes every locale behind until translations are uploaded for
 *   it, as the spec's transition says), and before the earliest revision among the missing and
 *   outdated keys, so the diff from it to the current version holds every key left to translate.
 */
export function computeLocaleState(
  source: SourceKeys,
  translated: { has(key: string): boolean },
  from: number,
): LocaleState {
  const missing: string[] = [];
  const outdated: string[] = [];
  let earliestPending = Number.POSITIVE_INFINITY;
  for (let i = 0; i < source.keys.length; i++) {
    const key = source.keys[i]!;
    const revision = source.revisions[i]!;
    if (!translated.has(key)) missing.push(key);
    else if (revision > from) outdated.push(key);
    else continue;
    if (revision < earliestPending) earliestPending = revision;
  }
  const caughtUp = earliestPending === Number.POSITIVE_INFINITY ? source.version : earliestPending - 1;
  return {
    countsVersion: source.version,
    keyCount: source.keys.length,
    translatedCount: source.keys.length - missing.length - outdated.length,
    missingCount: missing.length,
    outdatedCount: outdated.length,
    syncedVersion: Math.max(0, Math.min(from, caughtUp)),
    missing,
    outdated,
  };
}

/** A locale with no translations against a source of `keyCount` keys: everything missing. */
export function untranslatedCounts(version: number, keyCount: number): LocaleCounts {
  return {
    countsVersion: version,
    keyCount,
    translatedCount: 0,
    missingCount: keyCount,
    outdatedCount: 0,
    syncedVersion: 0,
  };
}

export type LocaleStatus = 'behind' | 'up_to_date';

/** `up_to_date` once the translations have caught up with the current source version. */
export function statusOf(syncedVersion: number, sourceVersion: number): LocaleStatus {
  return syncedVersion >= sourceVersion ? 'up_to_date' : 'behind';
}
