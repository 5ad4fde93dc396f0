/** `tolk init`: asking in a terminal, linking an existing project, never asking elsewhere. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness } from './support/cli-harness.js';

describe('tolk init', () => {
  let system: System;
  let token: string;

  beforeAll(async () => {
    system = await startSystem({ sources: true });
    token = (await system.signUp()).token;
  });
  afterAll(async () => {
    await system?.close();
  });

  it('when flags are missing and a terminal is there, then it asks for each and uses the answers', async () => {
    const cli = await createCliHarness(system.base);
    try {
      const result = await cli.tolk(['init'], {
        env: { TOLK_TOKEN: token },
        input: ['Web app', 'en', 'de, pt-br', 'src/i18n/{locale}.json'],
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Project name (app): ');
      expect(result.stdout).toContain('Source locale (en): ');
      expect(result.stdout).toContain('Target locales');
      expect(result.stdout).toContain('Locale files (locales/{locale}.json): ');
      expect(result.stdout).toContain('Created project "Web app"');
      const config = await cli.readJson('tolk.json');
      expect(config).toMatchObject({
        sourceLocale: 'en',
        targetLocales: ['de', 'pt-BR'],
        files: 'src/i18n/{locale}.json',
      });
      const locales = await system.call('GET', `/v1/projects/${config.projectId}/locales`, token);
      expect(locales.body.locales.map((l: { locale: string }) => l.locale)).toEqual(['de', 'pt-BR']);
    } finally {
      await cli.remove();
    }
  });

  it('when locales are written in BCP 47 or with underscores, then the server and tolk.json get canonical codes', async () => {
    const cli = await createCliHarness(system.base);
    try {
      const result = await cli.tolk(
        [
          'init',
          '--name',
          'Codes',
          '--source',
          'pt_br',
          '--targets',
          'zh_hant,es-419,SR-latn',
          '--yes',
          '--json',
        ],
        { env: { TOLK_TOKEN: token } },
      );
      expect(result.code, result.stderr).toBe(0);
      const config = await cli.readJson('tolk.json');
      expect(config).toMatchObject({
        sourceLocale: 'pt-BR',
        targetLocales: ['zh-Hant', 'es-419', 'sr-Latn'],
      });
      const locales = await system.call('GET', `/v1/projects/${config.projectId}/locales`, token);
      expect(locales.body.locales.map((l: { locale: string }) => l.locale)).toEqual([
        'zh-Hant',
        'es-419',
        'sr-Latn',
      ]);

      // tolk.json written by hand with an app's spelling means the same locales.
      await cli.writeJson('tolk.json', {
        ...config,
        sourceLocale: 'pt_BR',
        targetLocales: ['zh_Hant', 'es_419', 'sr_Latn'],
      });
      const status = await cli.tolk(['status', '--json'], { env: { TOLK_TOKEN: token } });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stderr).not.toContain('not a target locale on the server');
      expect(status.json().locales.map((l: { locale: string }) => l.locale)).toEqual([
        'zh-Hant',
        'es-419',
        'sr-Latn',
      ]);

      await cli.writeJson('tolk.json', { ...config, targetLocales: ['zh-Hant', 'xx-'] });
      const broken = await cli.tolk(['status'], { env: { TOLK_TOKEN: token } });
      expect(broken.code).toBe(2);
      expect(broken.stderr).toContain('targetLocales.1 "xx-" is not a BCP 47 locale code');
    } finally {
      await cli.remove();
    }
  });

  it('when the source locale has a script, then exit 2 saying why before anything is created', async () => {
    const cli = await createCliHarness(system.base);
    try {
      const result = await cli.tolk(
        ['init', '--name', 'Hant', '--source', 'zh-Hant', '--targets', 'en', '--yes'],
        {
          env: { TOLK_TOKEN: token },
        },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--source: "zh-Hant" cannot be a source locale');
      expect(result.stderr).toContain('can be target locales');
      const projects = await system.call('GET', '/v1/projects', token);
      expect(projects.body.projects.map((p: { name: string }) => p.name)).not.toContain('Hant');
    } finally {
      await cli.remove();
    }
  });

  it('when --project names an existing project, then it is linked, its locales kept and missing ones added', async () => {
    const project = await system.call('POST', '/v1/projects', token, {
      name: 'Existing',
      sourceLocale: 'fr',
    });
    const { projectId } = project.body;
    await system.call('POST', `/v1/projects/${projectId}/locales`, token, { locale: 'de' });
    const cli = await createCliHarness(system.base);
    try {
      const linked = await cli.tolk(['init', '--project', projectId, '--targets', 'de,it', '--json'], {
        env: { TOLK_TOKEN: token },
      });
      expect(linked.code, linked.stderr).toBe(0);
      expect(linked.json()).toMatchObject({
        projectId,
        sourceLocale: 'fr',
        targetLocales: ['de', 'it'],
        created: false,
        addedLocales: ['it'],
      });

      const again = await cli.tolk(['init', '--project', projectId, '--yes'], { env: { TOLK_TOKEN: token } });
      expect(again.code, again.stderr).toBe(0);
      expect((await cli.readJson('tolk.json')).targetLocales).toEqual(['de', 'it']);

      const mismatch = await cli.tolk(['init', '--project', projectId, '--source', 'en', '--yes'], {
        env: { TOLK_TOKEN: token },
      });
      expect(mismatch.code).toBe(2);
      expect(mismatch.stderr).toContain("differs from the project's source locale fr");

      const both = await cli.tolk(['init', '--project', projectId, '--name', 'X'], {
        env: { TOLK_TOKEN: token },
      });
      expect(both.code).toBe(2);
    } finally {
      await cli.remove();
    }
  });
});
