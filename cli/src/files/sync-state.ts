/**
 * What this working copy last synced with the server (DESIGN §12, "no silent loss of local
 * work"): for each target locale, a short hash of each key's value as last pulled or uploaded.
 * A local value that differs from the server's and from what was last synced is local work that
 * was never uploaded, which `pull` keeps and names instead of overwriting.
 *
 * Kept in `.tolk/state.json` next to tolk.json, meant to be committed with the locale files it
 * describes (like a lockfile): a teammate's checkout then knows which values came from the server.
 */
import { hash } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

export const STATE_FILE = join('.tolk', 'state.json');

/** A locale's record: key → hash of the value last synced. */
export type SyncedHashes = Map<string, string>;

export type SyncState = {
  /** locale → its record. */
  locales: Record<string, SyncedHashes>;
  /**
   * locale → the source version the synced translations were made from (what the server answers
   * as `translatedFrom`): local edits of the file are uploaded as made from it (`tolk push`).
   * Absent in states written before it was kept.
   */
  versions: Record<string, number>;
};

export function hashValue(value: string): string {
  // One call, no Hash object: an import hashes every value of every locale.
  return hash('sha256', value).slice(0, 16);
}

/** The state next to tolk.json; empty when there is none (or it is unreadable: then nothing is known). */
export async function loadSyncState(dir: string): Promise<SyncState> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')) as {
      locales?: Record<string, Record<string, string>>;
      versions?: Record<string, number>;
    };
    if (parsed && typeof parsed.locales === 'object' && parsed.locales !== null) {
      const versions = typeof parsed.versions === 'object' && parsed.versions !== null ? parsed.versions : {};
      const locales: SyncState['locales'] = {};
      for (const [locale, hashes] of Object.entries(parsed.locales)) {
        if (typeof hashes === 'object' && hashes !== null) locales[locale] = new Map(Object.entries(hashes));
      }
      return { locales, versions };
    }
  } catch {
    // No state yet.
  }
  return { locales: {}, versions: {} };
}

/**
 * The hashes of a locale's values, as synced now: of each value as its file holds it, read back
 * after writing (`asWritten`), where the file says it in its own way (a plural with text around
 * it is written as whole sentences, one a form, and reads back so), else of the server's value;
 * with `only`, of those keys alone.
 */
export function syncedHashes(
  values: ReadonlyMap<string, string>,
  asWritten?: ReadonlyMap<string, string>,
  only?: ReadonlySet<string>,
): SyncedHashes {
  // A Map, not an object: an import records 1.5 million keys, and an object of 50,000 keys a
  // locale cost more to build than hashing its values.
  const hashes: SyncedHashes = new Map();
  for (const [key, value] of values) {
    if (!only || only.has(key)) hashes.set(key, hashValue(asWritten?.get(key) ?? value));
  }
  return hashes;
}

/** The record of `keys` in `hashes` as it was in `before`: what a file not read holds is unknown. */
export function keepRecords(
  hashes: SyncedHashes,
  before: ReadonlyMap<string, string>,
  keys: Iterable<string>,
): void {
  for (const key of keys) {
    const hash = before.get(key);
    if (hash === undefined) hashes.delete(key);
    else hashes.set(key, hash);
  }
}

export async function saveSyncState(dir: string, state: SyncState): Promise<void> {
  const path = join(dir, STATE_FILE);
  await mkdir(join(dir, '.tolk'), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'w');
  try {
    for (const chunk of stateChunks(state)) await file.write(chunk);
  } finally {
    await file.close();
  }
  await rename(temporary, path);
}

/** An array index: JSON.stringify writes an object's keys that are ones first, by number. */
const isIndex = (key: string) => /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;

/** Keys in the order JSON.stringify writes a sorted object's: indexes by number, then the others. */
function sortedKeys(keys: Iterable<string>): string[] {
  // Whether a key is an index is asked once a key rather than at each comparison.
  const indexes: string[] = [];
  const names: string[] = [];
  for (const key of keys) (isIndex(key) ? indexes : names).push(key);
  indexes.sort((a, b) => Number(a) - Number(b));
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return indexes.concat(names);
}

/** `"name": {` … `}` of JSON.stringify(…, null, 2) at `indent`, its members' lines given. */
function block(name: string, members: string[], indent: string, last: boolean): string {
  const comma = last ? '' : ',';
  if (members.length === 0) return `${indent}${JSON.stringify(name)}: {}${comma}\n`;
  return `${indent}${JSON.stringify(name)}: {\n${members.join(',\n')}\n${indent}}${comma}\n`;
}

/**
 * The state as JSON.stringify(…, null, 2) writes it, locales and keys sorted (a stable file to
 * commit), a locale at a time: 1.5 million keys made a whole object first, then its text. The
 * locales mostly hold the same keys: all of them are sorted once, and each locale's record is
 * written in that order (sorting 30 records of 50,000 keys was most of the time).
 */
function* stateChunks(state: SyncState): Generator<string> {
  yield '{\n';
  const locales = Object.keys(state.locales).sort();
  if (locales.length === 0) yield '  "locales": {},\n';
  else {
    const all = new Set<string>();
    for (const locale of locales) for (const key of state.locales[locale]!.keys()) all.add(key);
    // Each key's line start, made once for every locale.
    const order = sortedKeys(all).map((key): [string, string] => [key, `      ${JSON.stringify(key)}: `]);
    yield '  "locales": {\n';
    for (const [index, locale] of locales.entries()) {
      const record = state.locales[locale]!;
      const members: string[] = [];
      for (const [key, start] of order) {
        const hash = record.get(key);
        if (hash !== undefined) members.push(start + JSON.stringify(hash));
      }
      yield block(locale, members, '    ', index === locales.length - 1);
    }
    yield '  },\n';
  }
  const versions = sortedKeys(Object.keys(state.versions)).map(
    (locale) => `    ${JSON.stringify(locale)}: ${JSON.stringify(state.versions[locale])}`,
  );
  yield block('versions', versions, '  ', true);
  yield '}\n';
}

/**
 * Whether a local value is work never uploaded: it differs from the server's value and from
 * what was last synced for the key (with no state, from nothing: then any difference is).
 */
export function isUnsyncedLocal(
  local: string | undefined,
  server: string | undefined,
  synced: string | undefined,
): local is string {
  return local !== undefined && local !== '' && local !== server && synced !== hashValue(local);
}
