/** The sync state file (.tolk/state.json): written line by line, read back as written. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadSyncState,
  saveSyncState,
  STATE_FILE,
  writeAhead,
  type SyncState,
} from '../src/files/sync-state.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tolk-sync-state-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The file as it was written before: an object of sorted keys, through JSON.stringify. */
function writtenBefore(state: SyncState): string {
  const sorted = <T>(entries: [string, T][]) =>
    Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const locales = sorted(
    Object.entries(state.locales).map(([locale, hashes]) => [locale, sorted([...hashes])]),
  );
  return `${JSON.stringify({ locales, versions: sorted(Object.entries(state.versions)) }, null, 2)}\n`;
}

// Keys as apps name them, and those JSON orders apart: array indices, `__proto__`, escapes.
const key = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom(
    '0',
    '7',
    '10',
    '404',
    '4294967294',
    '4294967295',
    '01',
    '-1',
    '__proto__',
    'a.b',
    'ü"\\\n',
  ),
  fc.nat({ max: 5000 }).map(String),
);
const hashes = fc.array(fc.tuple(key, fc.stringMatching(/^[0-9a-f]{16}$/)), { maxLength: 20 });
const state = fc.record({
  locales: fc.dictionary(
    fc.constantFrom('de', 'fr', 'pt-BR', 'zh-Hant'),
    hashes.map((entries) => new Map(entries)),
  ),
  versions: fc.dictionary(fc.constantFrom('de', 'fr', 'pt-BR'), fc.nat({ max: 100 })),
});

describe('sync state file', () => {
  it('when any state is saved, then the file is the one an object of sorted keys stringified gave, and reads back as saved', async () => {
    await fc.assert(
      fc.asyncProperty(state, async (saved) => {
        await saveSyncState(dir, saved);
        const text = await readFile(join(dir, STATE_FILE), 'utf8');
        expect(text).toBe(writtenBefore(saved));
        const loaded = await loadSyncState(dir);
        expect(Object.keys(loaded.locales).sort()).toEqual(Object.keys(saved.locales).sort());
        for (const [locale, record] of Object.entries(saved.locales)) {
          expect(loaded.locales[locale]).toEqual(record);
        }
        expect(loaded.versions).toEqual(saved.versions);
      }),
      { numRuns: 200 },
    );
  });

  it('when some records were written ahead (of their keys, or of more), then the file is the same', async () => {
    await fc.assert(
      fc.asyncProperty(state, fc.array(key, { maxLength: 5 }), async (saved, more) => {
        for (const record of Object.values(saved.locales))
          writeAhead(record, new Set([...record.keys(), ...more]));
        await saveSyncState(dir, saved);
        expect(await readFile(join(dir, STATE_FILE), 'utf8')).toBe(writtenBefore(saved));
      }),
      { numRuns: 200 },
    );
  });

  it('when a record written ahead gains or loses a key, or holds keys it was not written ahead with, then the file holds it as it is', async () => {
    const grown = new Map([['a', '0123456789abcdef']]);
    writeAhead(grown, new Set(['a']));
    grown.set('b', 'fedcba9876543210');
    const shrunk = new Map([
      ['a', '0123456789abcdef'],
      ['b', 'fedcba9876543210'],
    ]);
    writeAhead(shrunk, new Set(['a', 'b']));
    shrunk.delete('a');
    const other = new Map([['z', '0123456789abcdef']]);
    writeAhead(other, new Set(['a']));
    const saved: SyncState = { locales: { de: grown, fr: shrunk, pl: other }, versions: { de: 3 } };
    await saveSyncState(dir, saved);
    expect(await readFile(join(dir, STATE_FILE), 'utf8')).toBe(writtenBefore(saved));
  });
});
