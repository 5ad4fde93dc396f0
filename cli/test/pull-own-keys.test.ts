/**
 * A target file's keys the source lacks, end to end against the real system (DESIGN §16): `tolk
 * pull` removes a key gone from the source, which Tolk synced (`.tolk/state.json`), with the
 * comment lines attached to it, and keeps a translator's own key, which Tolk never synced, byte
 * for byte; `tolk check` reports that one as extra; the next pull writes nothing.
 */
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';

const SOURCE = `# The app's strings.
greeting: Hello
# Shown when leaving.
bye: Goodbye
old: Old text
`;

/** A German file a translator keeps: a note of her own and a key of her own, with its comment. */
const GERMAN = `# Deutsch, gepflegt von Anna.
greeting: Hallo
# Beim Verlassen.
bye: Tschüss

# Nicht mehr lange gebraucht.
old: Alter Text

# Annas eigener Schlüssel.
mine: Meins
`;

describe('tolk pull and the keys of a target file the source lacks', () => {
  let system: System;
  let cli: CliHarness;
  let token: string;

  beforeAll(async () => {
    system = await startSystem({ sources: true });
    cli = await createCliHarness(system.base);
    token = (await system.signUp()).token;
  });
  afterAll(async () => {
    await cli?.remove();
    await system?.close();
  });

  const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
  /** The keys of de that Tolk synced, as `.tolk/state.json` holds them. */
  const syncedKeys = async () =>
    Object.keys((await cli.readJson('.tolk/state.json')).locales.de as Record<string, string>).sort();
  const write = (path: string, text: string) => writeFile(join(cli.cwd, 'locales', path), text);

  it("when a key is deleted from the source after a sync, then pull removes it with its comment, keeps the translator's own key byte for byte, and the next pull writes nothing", async () => {
    await mkdir(join(cli.cwd, 'locales'));
    await write('en.yml', SOURCE);
    await write('de.yml', GERMAN);
    const init = await tolk('init', '--name', 'App', '--source', 'en', '--targets', 'de', '--yes');
    expect(init.code, init.stderr).toBe(0);
    expect((await cli.readJson('tolk.json')).files).toEqual([
      { path: 'locales/{locale}.yml', format: 'yaml' },
    ]);

    // The first push imports de: `mine` is no key of the source, ignored and never synced.
    const first = await tolk('push');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^de: imported 3 translations, .*1 key ignored \(not in the source: mine\)$/m,
    );
    expect(await syncedKeys()).toEqual(['bye', 'greeting', 'old']);

    // `old` goes from the source.
    await write('en.yml', SOURCE.replace('old: Old text\n', ''));
    const second = await tolk('push');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('  - old');

    const pulled = await tolk('pull');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await cli.readText('locales/de.yml')).toBe(
      GERMAN.replace('# Nicht mehr lange gebraucht.\nold: Alter Text\n\n', ''),
    );
    expect(await syncedKeys()).toEqual(['bye', 'greeting']);

    // check reports the translator's key as extra, a warning.
    const check = await tolk('check', '--json');
    expect(check.stdout).toContain('"mine"');
    const findings = (check.json() as { findings: { key: string; kind: string; message: string }[] })
      .findings;
    expect(findings.filter((finding) => finding.kind === 'extra')).toEqual([
      expect.objectContaining({ key: 'mine', message: expect.stringContaining('keeps it as it is') }),
    ]);

    // Nothing left to change: no byte written, the file's time stays.
    const file = join(cli.cwd, 'locales', 'de.yml');
    const longAgo = new Date('2026-01-01T00:00:00Z');
    await utimes(file, longAgo, longAgo);
    const before = await readFile(file);
    const again = await tolk('pull');
    expect(again.code, again.stderr).toBe(0);
    expect((await stat(file)).mtime).toEqual(longAgo);
    expect(await readFile(file)).toEqual(before);

    // The translator edits her own key: no edit of the locale's to upload, and it stays unsynced.
    const edited = before.toString().replace('mine: Meins', 'mine: Meins, neu');
    await write('de.yml', edited);
    const pushed = await tolk('push');
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).not.toContain('edited translation');
    expect(await syncedKeys()).toEqual(['bye', 'greeting']);
    expect((await tolk('pull')).code).toBe(0);
    expect(await cli.readText('locales/de.yml')).toBe(edited);
  });
});
