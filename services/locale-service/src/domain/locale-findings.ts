import {
  decodeStoredEntries,
  encodeStoredEntries,
  forEachInSlices,
  worstSeverity,
  type Finding,
  type FindingSeverity,
  type StoredFinding,
} from '@tolk/locale-file';

/**
 * The findings of a locale's stored translations (DESIGN §15), as judged when they were uploaded,
 * by key: kept beside the translations in the stored form of entries (each key's list as JSON),
 * never one row per finding.
 */
export type KeyFindings = ReadonlyMap<string, readonly StoredFinding[]>;

export const NO_FINDINGS: KeyFindings = new Map();

/** Findings (in key order, a key's together) by key, in time slices: an upload may have 200,000. */
export async function groupFindings(findings: readonly Finding[]): Promise<KeyFindings> {
  const byKey = new Map<string, StoredFinding[]>();
  await forEachInSlices(findings.length, (i) => {
    const { key, ...finding } = findings[i]!;
    const list = byKey.get(key);
    if (list) list.push(finding);
    else byKey.set(key, [finding]);
  });
  return byKey;
}

/** The findings by key, compressed; null when there are none. */
export async function encodeFindings(findings: KeyFindings): Promise<Buffer | null> {
  if (findings.size === 0) return null;
  const keys = [...findings.keys()];
  const values: string[] = [];
  await forEachInSlices(keys.length, (i) => values.push(JSON.stringify(findings.get(keys[i]!))));
  return encodeStoredEntries({ keys, values });
}

/** The stored findings by key, decoded in time slices; none when nothing is stored. */
export async function decodeFindings(content: Buffer | undefined): Promise<KeyFindings> {
  if (!content) return NO_FINDINGS;
  const { keys, values } = await decodeStoredEntries(content);
  const byKey = new Map<string, StoredFinding[]>();
  await forEachInSlices(keys.length, (i) => byKey.set(keys[i]!, JSON.parse(values[i]!) as StoredFinding[]));
  return byKey;
}

/** The worst severity of each key with findings: what the locale's counts and the browser's filter need. */
export function severityOf(findings: KeyFindings): (key: string) => FindingSeverity | undefined {
  return (key) => {
    const list = findings.get(key);
    return list ? worstSeverity(list) : undefined;
  };
}

/**
 * The findings of a locale's keys (`keys`, in their order) but those `skip` leaves out (the key
 * rules' excluded and never translated): the findings of keys the source no longer has are not
 * shown. In time slices.
 */
export async function findingsOfKeys(
  keys: readonly string[],
  findings: KeyFindings,
  skip: (index: number) => boolean,
): Promise<Finding[]> {
  const shown: Finding[] = [];
  if (findings.size === 0) return shown;
  await forEachInSlices(keys.length, (i) => {
    const list = findings.get(keys[i]!);
    if (!list || skip(i)) return;
    for (const finding of list) shown.push({ key: keys[i]!, ...finding });
  });
  return shown;
}
