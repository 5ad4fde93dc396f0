/**
 * `tolk status` against the real system: per locale its counts, with the keys whose translations
 * have errors and warnings (DESIGN §15), in the table and in `--json`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';

const SOURCE = {
  greeting: 'Hello {name}',
  files: '{count, plural, one {# file} other {# files}}',
  save: 'Save the file',
  ok: 'OK',
};

describe('tolk status', () => {
  let system: System;
  let cli: CliHarness;
  let token: string;
  let projectId: string;

  beforeAll(async () => {
    system = await startSystem({ sources: true });
    token = (await system.signUp()).token;
    cli = await createCliHarness(system.base);
    const init = await tolk('init', '--name', 'Status', '--targets', 'de,pl', '--yes', '--json');
    expect(init.code, init.stderr).toBe(0);
    projectId = init.json().projectId;
    await cli.writeJson('locales/en.json', SOURCE);
    const push = await tolk('push');
    expect(push.code, push.stderr).toBe(0);
  });
  afterAll(async () => {
    await cli?.remove();
    await system?.close();
  });

  const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });

  it("when a person's translations have findings, then each locale's errors and warnings are printed beside its counts", async () => {
    // Polish as people write it: a lost placeholder (error), a plural without many and two copies (warnings).
    const polish = await system.call(
      'PUT',
      `/v1/projects/${projectId}/locales/pl/translations?sourceVersion=1`,
      token,
      {
        greeting: 'Cześć',
        files: '{count, plural, one {# plik} few {# pliki} other {# pliku}}',
        save: 'Save the file',
        ok: 'OK',
      },
    );
    expect(polish.status).toBe(200);

    const status = await tolk('status');
    expect(status.code, status.stderr).toBe(0);
    const lines = status.stdout.split('\n');
    const header = lines.find((line) => line.trimStart().startsWith('locale'))!;
    expect(header.trim().split(/\s{2,}/)).toEqual([
      'locale',
      'status',
      'missing',
      'outdated',
      'errors',
      'warnings',
      'translated',
      'synced',
    ]);
    const row = (code: string) =>
      lines
        .find((line) => line.trimStart().startsWith(`${code} `))!
        .trim()
        .split(/\s{2,}/);
    expect(row('pl')).toEqual(['pl', 'up to date', '0', '0', '1', '3', '4/4', 'v1 of v1']);
    expect(row('de')).toEqual(['de', 'behind', '4', '0', '0', '0', '0/4', 'v0 of v1']);

    const json = await tolk('status', '--json');
    expect(json.code, json.stderr).toBe(0);
    expect(json.json().locales).toEqual([
      expect.objectContaining({ locale: 'de', errorCount: 0, warningCount: 0 }),
      expect.objectContaining({ locale: 'pl', errorCount: 1, warningCount: 3, translatedCount: 4 }),
    ]);
  });
});
