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

/** `"name": {` … `}` of JSON.stringify(…, null, 2) at `indent`, its members' lines given (joined or not). */
function block(name: string, members: string[] | string, indent: string, last: boolean): string {
  const comma = last ? '' : ',';
  if (members.length === 0) return `${indent}${JSON.stringify(name)}: {}${comma}\n`;
  const lines = typeof members === 'string' ? members : members.join(',\n');
  return `${indent}${JSON.stringify(name)}: {\n${lines}\n${indent}}${comma}\n`;
}

/** Each key's line start in a locale's record, in the order the state file holds keys. */
type KeyOrder = readonly (readonly [key: string, start: string])[];

function keyOrder(keys: Iterable<string>): KeyOrder {
  return sortedKeys(keys).map((key) => [key, `      ${JSON.stringify(key)}: `] as const);
}

/** A record's member lines in `order` (the keys it holds), joined. */
function recordLines(record: SyncedHashes, order: KeyOrder): { lines: string; written: number } {
  const members: string[] = [];
  for (const [key, start] of order) {
    const hash = record.get(key);
    if (hash !== undefined) members.push(start + JSON.stringify(hash));
  }
  return { lines: members.join(',\n'), written: members.length };
}

/** Key orders made once for a set of keys (locales of the same plural categories share one). */
const keyOrders = new WeakMap<ReadonlySet<string>, KeyOrder>();
/** Records whose lines were made ahead (writeAhead), with those lines: a record is not changed after. */
const linesAhead = new WeakMap<SyncedHashes, { lines: string; size: number }>();

/** The lines made ahead of a record, unless it has grown or shrunk since (then they are not its). */
function aheadOf(record: SyncedHashes): string | undefined {
  const ahead = linesAhead.get(record);
  return ahead?.size === record.size ? ahead.lines : undefined;
}

/**
 * Makes the lines a record will have in the state file now, while other work waits on the
 * server, rather than when the state is saved: an import saves 30 records of 50,000 keys at its
 * end. `keys` holds the record's keys (in any order); a record holding others is made at the
 * save. The record must not change afterwards.
 */
export function writeAhead(record: SyncedHashes, keys: ReadonlySet<string>): void {
  let order = keyOrders.get(keys);
  if (!order) keyOrders.set(keys, (order = keyOrder(keys)));
  const { lines, written } = recordLines(record, order);
  if (written === record.size) linesAhead.set(record, { lines, size: written });
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
    const records = locales.map((locale) => state.locales[locale]!);
    const all = new Set<string>();
    for (const record of records)
      if (aheadOf(record) === undefined) for (const key of record.keys()) all.add(key);
    // Each key's line start, made once for every locale whose lines were not made ahead.
    const order = keyOrder(all);
    yield '  "locales": {\n';
    for (const [index, locale] of locales.entries()) {
      const record = records[index]!;
      const lines = aheadOf(record) ?? recordLines(record, order).lines;
      yield block(locale, lines, '    ', index === locales.length - 1);
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
