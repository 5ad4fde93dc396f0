/**
 * A target file far over the size a locale file may be (32 MiB), in an import (DESIGN §15): the
 * first push and `push --import` name it as an error of that file alone at its line and column,
 * import the other locales, exit 6 as any other import that partly failed, and never read it (the
 * file is sparse: 200 MiB on the disk's books, nothing written; the process grows by far less).
 */
import { stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';

const SOURCE = { greeting: 'Hello {name}', bye: 'Goodbye' };
const FILES: Record<string, Record<string, string>> = {
  de: { greeting: 'Hallo {name}', bye: 'Tschüss' },
  fr: { greeting: 'Bonjour {name}', bye: 'Au revoir' },
  pl: { greeting: 'Cześć {name}', bye: 'Do widzenia' },
};
const HUGE = 200 * 1024 * 1024;

describe('an import with a target file over the size limit', () => {
  let system: System;
  const made: CliHarness[] = [];

  beforeAll(async () => {
    system = await startSystem({ sources: true });
  });
  afterEach(async () => {
    for (const cli of made.splice(0)) await cli.remove();
  });
  afterAll(async () => {
    await system?.close();
  });

  /** An app with de, fr and pl files, `tolk init` done, nothing pushed. */
  async function app() {
    const { token } = await system.signUp();
    const cli = await createCliHarness(system.base);
    made.push(cli);
    const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
    await cli.writeJson('locales/en.json', SOURCE);
    for (const [locale, values] of Object.entries(FILES))
      await cli.writeJson(`locales/${locale}.json`, values);
    const init = await tolk('init', '--name', 'App', '--targets', 'de,fr,pl', '--yes', '--json');
    expect(init.code, init.stderr).toBe(0);
    const projectId = init.json().projectId as string;
    const stored = async (locale: string) => {
      const response = await system.call(
        'GET',
        `/v1/projects/${projectId}/locales/${locale}/translations`,
        token,
      );
      expect(response.status).toBe(200);
      return JSON.parse(response.body.content as string) as Record<string, string>;
    };
    /** Makes a locale's file a sparse 200 MiB file that starts like JSON. */
    const oversize = async (locale: string) => {
      const path = join(cli.cwd, `locales/${locale}.json`);
      await writeFile(path, '{');
      await truncate(path, HUGE);
      return `locales/${locale}.json`;
    };
    return { cli, tolk, stored, oversize };
  }

  /** The run named `file` once as too large, at 1:1, and imported the other two locales. */
  function expectOnlyThatFile(
    result: Awaited<ReturnType<CliHarness['tolk']>>,
    file: string,
    imported: string[],
  ) {
    expect(result.code, result.stderr).toBe(6);
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('error: '));
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: FILE_TOO_LARGE: ${file}:1:1: 200 MiB, larger than the 32 MiB a locale file may be; `,
        ),
      ),
    ]);
    for (const locale of imported)
      expect(result.stdout).toMatch(new RegExp(`^${locale}: imported 2 translations\\b`, 'm'));
  }

  it('when pl’s file is 200 MiB at the first push, then pl alone is an error of its file, de and fr are imported, exit 6', async () => {
    const { cli, tolk, stored, oversize } = await app();
    const file = await oversize('pl');
    const rssBefore = process.resourceUsage().maxRSS;
    const pushed = await tolk('push');
    // maxRSS is in KiB: the peak of the whole process, which never held the file.
    expect(process.resourceUsage().maxRSS - rssBefore).toBeLessThan(64 * 1024);
    expectOnlyThatFile(pushed, file, ['de', 'fr']);
    expect(pushed.stdout).not.toMatch(/^pl: /m);
    expect(await stored('de')).toEqual(FILES.de);
    expect(await stored('fr')).toEqual(FILES.fr);
    expect(await stored('pl')).toEqual({});
    expect((await stat(join(cli.cwd, file))).size).toBe(HUGE);

    const json = await tolk('push', '--import', '--json');
    expect(json.code, json.stderr).toBe(6);
    const document = json.json();
    expect((document.imported.locales as { locale: string }[]).map((locale) => locale.locale)).toEqual([
      'de',
      'fr',
    ]);
    expect(document.unreadFiles).toEqual([
      expect.objectContaining({ file, locale: 'pl', code: 'FILE_TOO_LARGE', line: 1, column: 1 }),
    ]);
  });

  it('when de’s file is 200 MiB at push --import, then de alone is an error of its file, its server translations are kept, fr and pl are imported, exit 6', async () => {
    const { cli, tolk, stored, oversize } = await app();
    expect((await tolk('push')).code).toBe(0);
    await cli.writeJson('locales/fr.json', { ...FILES.fr, bye: 'Salut' });
    await cli.writeJson('locales/pl.json', { ...FILES.pl, bye: 'Pa' });
    const file = await oversize('de');
    const rssBefore = process.resourceUsage().maxRSS;
    const imported = await tolk('push', '--import');
    expect(process.resourceUsage().maxRSS - rssBefore).toBeLessThan(64 * 1024);
    expectOnlyThatFile(imported, file, ['fr', 'pl']);
    expect(await stored('de')).toEqual(FILES.de);
    expect((await stored('fr')).bye).toBe('Salut');
    expect((await stored('pl')).bye).toBe('Pa');
    expect((await stat(join(cli.cwd, file))).size).toBe(HUGE);
  });
});
