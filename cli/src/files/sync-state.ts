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
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const STATE_FILE = join('.tolk', 'state.json');

export type SyncState = {
  /** locale → key → hash of the value last synced. */
  locales: Record<string, Record<string, string>>;
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
    const parsed = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')) as Partial<SyncState>;
    if (parsed && typeof parsed.locales === 'object' && parsed.locales !== null) {
      const versions = typeof parsed.versions === 'object' && parsed.versions !== null ? parsed.versions : {};
      return { locales: parsed.locales, versions };
    }
  } catch {
    // No state yet.
  }
  return { locales: {}, versions: {} };
}

/**
 * The hashes of a locale's values, as synced now: of each value as its file holds it, read back
 * after writing (`asWritten`), where the file says it in its own way (a plural with text around
 * it is written as whole sentences, one a form, and reads back so), else of the server's value.
 */
export function syncedHashes(
  values: ReadonlyMap<string, string>,
  asWritten?: ReadonlyMap<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    [...values.keys()].sort().map((key) => [key, hashValue(asWritten?.get(key) ?? values.get(key)!)]),
  );
}

export async function saveSyncState(dir: string, state: SyncState): Promise<void> {
  const locales: SyncState['locales'] = {};
  for (const locale of Object.keys(state.locales).sort()) locales[locale] = state.locales[locale]!;
  const versions: SyncState['versions'] = {};
  for (const locale of Object.keys(state.versions).sort()) versions[locale] = state.versions[locale]!;
  const path = join(dir, STATE_FILE);
  await mkdir(join(dir, '.tolk'), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ locales, versions }, null, 2) + '\n');
  await rename(temporary, path);
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
