/** `tolk init`: asking in a terminal, linking an existing project, never asking elsewhere. */
import { spawnSync } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';

/** Writes an app's files (path → text, or JSON for an object) into the harness's directory. */
async function writeApp(cli: CliHarness, files: Record<string, string | object>) {
  for (const [path, content] of Object.entries(files)) {
    const file = join(cli.cwd, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
  }
}

const I18NEXT_APP = {
  'package.json': { name: 'web' },
  'public/locales/en/common.json': {
    save: 'Save',
    items_one: '{{count}} item',
    items_other: '{{count}} items',
  },
  'public/locales/en/home.json': { title: 'Welcome' },
  'public/locales/en/admin.json': { users: 'Users' },
  'public/locales/de/common.json': { save: 'Speichern' },
  'public/locales/fr/home.json': { title: 'Bienvenue' },
  'node_modules/lib/locales/it/common.json': { save: 'Salva' },
};

const RAILS_APP = {
  'config/locales/en.yml': 'en:\n  hello: "Hello"\n  bye: "Bye"\n',
  'config/locales/de.yml': 'de:\n  hello: "Hallo"\n',
  'config/locales/devise.en.yml': 'en:\n  devise:\n    locked: "Locked"\n',
  'config/locales/devise.de.yml': 'de:\n  devise:\n    locked: "Gesperrt"\n',
};

async function projectNames(system: System, token: string): Promise<string[]> {
  const projects = await system.call('GET', '/v1/projects', token);
  return projects.body.projects.map((p: { name: string }) => p.name);
}

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

  it('when --git is given in a git repository, then tolk merge-driver is registered for the file sets found; outside one, exit 2 before anything is created', async () => {
    const cli = await createCliHarness(system.base);
    try {
      await writeApp(cli, RAILS_APP);
      const outside = await cli.tolk(['init', '--name', 'Not in git', '--yes', '--git'], {
        env: { TOLK_TOKEN: token },
      });
      expect(outside.code).toBe(2);
      expect(outside.stderr).toContain('is not in a git repository');
      expect(await projectNames(system, token)).not.toContain('Not in git');

      expect(spawnSync('git', ['init', '--quiet'], { cwd: cli.cwd }).status).toBe(0);
      const result = await cli.tolk(['init', '--name', 'In git', '--yes', '--git', '--json'], {
        env: { TOLK_TOKEN: token },
      });
      expect(result.code, result.stderr).toBe(0);
      const { patterns } = result.json().mergeDriver as { patterns: string[] };
      expect(patterns).toContain('/config/locales/*.yml');
      expect(await readFile(join(cli.cwd, '.gitattributes'), 'utf8')).toBe(
        [
          '# Locale files of tolk.json, merged key by key (tolk merge-driver --install)',
          ...patterns.map((pattern) => `${pattern} merge=tolk`),
          '',
        ].join('\n'),
      );
      const driver = spawnSync('git', ['config', '--local', '--get', 'merge.tolk.driver'], {
        cwd: cli.cwd,
        encoding: 'utf8',
      });
      expect(driver.stdout).toContain('tolk merge-driver --marker-size %L %O %A %B %P');
    } finally {
      await cli.remove();
    }
  });

  describe('finding the layout', () => {
    it('when an i18next app has namespaces and --yes is given, then tolk.json gets its file set and the locales on disk', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, I18NEXT_APP);
        const result = await cli.tolk(['init', '--name', 'I18next app', '--yes', '--json'], {
          env: { TOLK_TOKEN: token },
        });
        expect(result.code, result.stderr).toBe(0);
        const config = await cli.readJson('tolk.json');
        expect(config).toEqual({
          apiUrl: system.base,
          projectId: expect.any(String),
          sourceLocale: 'en',
          targetLocales: ['de', 'fr'],
          files: [{ path: 'public/locales/{locale}/{namespace}.json', format: 'i18next' }],
        });
        const output = result.json();
        expect(output.created).toBe(true);
        expect(output.proposal.fileSets).toEqual([
          {
            fileSet: { path: 'public/locales/{locale}/{namespace}.json', format: 'i18next' },
            locales: ['de', 'en', 'fr'],
            files: [
              'public/locales/de/common.json',
              'public/locales/en/admin.json',
              'public/locales/en/common.json',
              'public/locales/en/home.json',
              'public/locales/fr/home.json',
            ],
          },
        ]);
        const locales = await system.call('GET', `/v1/projects/${config.projectId}/locales`, token);
        expect(locales.body.locales.map((l: { locale: string }) => l.locale)).toEqual(['de', 'fr']);
      } finally {
        await cli.remove();
      }
    });

    it('when layout is found, no terminal is there and --yes is not given, then exit 2 showing the proposal and nothing is created', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, I18NEXT_APP);
        const result = await cli.tolk(['init', '--name', 'Not confirmed'], { env: { TOLK_TOKEN: token } });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(
          'public/locales/{locale}/{namespace}.json  i18next: de, en, fr (5 files)',
        );
        expect(result.stderr).toContain('Source locale: en; target locales: de, fr.');
        expect(result.stderr).toContain('Pass --yes to take these file sets, or name the files with --files');
        await expect(access(join(cli.cwd, 'tolk.json'))).rejects.toThrow();
        expect(await projectNames(system, token)).not.toContain('Not confirmed');
      } finally {
        await cli.remove();
      }
    });

    it('when a Rails app is found in a terminal, then it asks to confirm and offers the locales it saw as defaults', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, RAILS_APP);
        const result = await cli.tolk(['init'], {
          env: { TOLK_TOKEN: token },
          input: ['', 'Rails app', '', ''],
        });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain(
          'config/locales/{locale}.yml  yaml (Rails), namespace rails: de, en (2 files)',
        );
        expect(result.stdout).toContain(
          'Use these file sets? [Y/n, or the numbers of those to keep, e.g. 1,3]: ',
        );
        expect(result.stdout).toContain('Source locale (en): ');
        expect(result.stdout).toContain('Target locales, comma-separated (e.g. de,fr) (de): ');
        expect(result.stdout).not.toContain('Locale files');
        expect(await cli.readJson('tolk.json')).toMatchObject({
          sourceLocale: 'en',
          targetLocales: ['de'],
          files: [
            { path: 'config/locales/devise.{locale}.yml', format: 'yaml', rails: true, namespace: 'devise' },
            { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true, namespace: 'rails' },
          ],
        });
      } finally {
        await cli.remove();
      }
    });

    it('when the proposal is declined in a terminal, then it asks for the files as before', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, RAILS_APP);
        const result = await cli.tolk(['init'], {
          env: { TOLK_TOKEN: token },
          input: ['n', 'Declined', 'en', 'pl', 'strings/{locale}.json'],
        });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain('Locale files (locales/{locale}.json): ');
        expect(await cli.readJson('tolk.json')).toMatchObject({
          sourceLocale: 'en',
          targetLocales: ['pl'],
          files: 'strings/{locale}.json',
        });
      } finally {
        await cli.remove();
      }
    });

    it('when the app has one plain JSON file per locale, then tolk.json keeps the one-pattern form', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, {
          'locales/en.json': { cart: { title: 'Your cart', pay: 'Pay' } },
          'locales/pl.json': { cart: { title: 'Twój koszyk' } },
        });
        const result = await cli.tolk(['init', '--name', 'Shop', '--yes'], { env: { TOLK_TOKEN: token } });
        expect(result.code, result.stderr).toBe(0);
        expect(await cli.readJson('tolk.json')).toMatchObject({
          sourceLocale: 'en',
          targetLocales: ['pl'],
          files: 'locales/{locale}.json',
        });
      } finally {
        await cli.remove();
      }
    });

    it("when a Flutter app's l10n.yaml names the template, then its locale is the source and --targets still decides the targets", async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, {
          'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_de.arb\n',
          'lib/l10n/app_de.arb': { '@@locale': 'de', hello: 'Hallo' },
          'lib/l10n/app_en.arb': { '@@locale': 'en', hello: 'Hello' },
        });
        const result = await cli.tolk(['init', '--name', 'Flutter app', '--targets', 'en,pt_BR', '--yes'], {
          env: { TOLK_TOKEN: token },
        });
        expect(result.code, result.stderr).toBe(0);
        expect(await cli.readJson('tolk.json')).toMatchObject({
          sourceLocale: 'de',
          targetLocales: ['en', 'pt-BR'],
          files: [{ path: 'lib/l10n/app_{locale}.arb', format: 'arb' }],
        });
      } finally {
        await cli.remove();
      }
    });

    it('when a Spring app has messages.properties, then it is the source file and --source names its locale', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, {
          'src/main/resources/application.properties': 'server.port=8080\n',
          'src/main/resources/messages.properties': 'greeting=Hello\n',
          'src/main/resources/messages_de.properties': 'greeting=Hallo\n',
        });
        const result = await cli.tolk(['init', '--name', 'Spring app', '--source', 'en', '--yes'], {
          env: { TOLK_TOKEN: token },
        });
        expect(result.code, result.stderr).toBe(0);
        expect(await cli.readJson('tolk.json')).toMatchObject({
          sourceLocale: 'en',
          targetLocales: ['de'],
          files: [
            {
              path: 'src/main/resources/messages_{locale}.properties',
              format: 'properties',
              source: 'src/main/resources/messages.properties',
            },
          ],
        });
      } finally {
        await cli.remove();
      }
    });

    it('when the files found are written in a locale that cannot be a source, then exit 2 saying so before anything is created', async () => {
      const cli = await createCliHarness(system.base);
      try {
        // The template l10n.yaml names is the source: its locale, zh-Hant, is not one a source can be.
        await writeApp(cli, {
          'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_zh_Hant.arb\n',
          'lib/l10n/app_zh_Hant.arb': { '@@locale': 'zh_Hant', hello: '你好', bye: '再見' },
          'lib/l10n/app_en.arb': { '@@locale': 'en', hello: 'Hello' },
        });
        const result = await cli.tolk(['init', '--name', 'Hant source', '--yes'], {
          env: { TOLK_TOKEN: token },
        });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(
          'the source locale of the files found (name another with --source): "zh-Hant" cannot be a source locale',
        );
        expect(await projectNames(system, token)).not.toContain('Hant source');
      } finally {
        await cli.remove();
      }
    });

    it('when no file says which locale is the source and none is English, then --yes asks for --source before anything is created', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, {
          'locales/de.json': { hello: 'Hallo', bye: 'Tschüss' },
          'locales/fr.json': { hello: 'Bonjour' },
        });
        const refused = await cli.tolk(['init', '--name', 'No source said', '--yes'], {
          env: { TOLK_TOKEN: token },
        });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(
          'The files found do not say which locale is the source (de, fr seen, de has the most messages): name it with --source',
        );
        expect(await projectNames(system, token)).not.toContain('No source said');

        const named = await cli.tolk(['init', '--name', 'Source named', '--source', 'fr', '--yes'], {
          env: { TOLK_TOKEN: token },
        });
        expect(named.code, named.stderr).toBe(0);
        expect(await cli.readJson('tolk.json')).toMatchObject({
          sourceLocale: 'fr',
          targetLocales: ['de'],
          files: 'locales/{locale}.json',
        });
      } finally {
        await cli.remove();
      }
    });

    it('when no file says the source in a terminal, then the locale with the most messages is offered and the answer decides the targets', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, {
          'locales/de.json': { hello: 'Hallo', bye: 'Tschüss' },
          'locales/fr.json': { hello: 'Bonjour' },
        });
        const result = await cli.tolk(['init'], {
          env: { TOLK_TOKEN: token },
          input: ['', 'Asked', 'fr', ''],
        });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain(
          'Source locale: not said by the files (de has the most messages); target locales: fr.',
        );
        expect(result.stdout).toContain('Source locale (de): ');
        expect(result.stdout).toContain('Target locales, comma-separated (e.g. de,fr) (de): ');
        expect(await cli.readJson('tolk.json')).toMatchObject({ sourceLocale: 'fr', targetLocales: ['de'] });
      } finally {
        await cli.remove();
      }
    });

    it('when several file sets are found in a terminal, then they are numbered and the numbers answered are the ones kept', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, {
          ...RAILS_APP,
          'app/javascript/locales/en.json': { save: 'Save' },
          'app/javascript/locales/pl.json': { save: 'Zapisz' },
        });
        const result = await cli.tolk(['init'], {
          env: { TOLK_TOKEN: token },
          input: ['4', '1', 'Kept one', '', ''],
        });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain(
          '  1. app/javascript/locales/{locale}.json  json, namespace javascript: en, pl (2 files)',
        );
        expect(result.stdout).toContain(
          'Use these file sets? [Y/n, or the numbers of those to keep, e.g. 1,3]: ',
        );
        expect(result.stdout).toContain('Answer y, n, or numbers from 1 to 3.');
        expect(result.stdout).toContain('Target locales, comma-separated (e.g. de,fr) (pl): ');
        // One set kept: the old one-pattern form, no namespace.
        expect(await cli.readJson('tolk.json')).toMatchObject({
          sourceLocale: 'en',
          targetLocales: ['pl'],
          files: 'app/javascript/locales/{locale}.json',
        });
      } finally {
        await cli.remove();
      }
    });

    it('when --files is given, then nothing is looked for and the pattern is written as given', async () => {
      const cli = await createCliHarness(system.base);
      try {
        await writeApp(cli, I18NEXT_APP);
        const result = await cli.tolk(
          ['init', '--name', 'Given', '--targets', 'de', '--files', 'i18n/{locale}.json', '--json'],
          { env: { TOLK_TOKEN: token } },
        );
        expect(result.code, result.stderr).toBe(0);
        expect(result.json().proposal).toBeUndefined();
        expect(await cli.readJson('tolk.json')).toMatchObject({
          targetLocales: ['de'],
          files: 'i18n/{locale}.json',
        });
      } finally {
        await cli.remove();
      }
    });
  });
});
