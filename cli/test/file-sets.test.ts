/**
 * tolk.json file sets (issue 15, DESIGN §12) end to end, against the real system with the
 * stand-in model: an i18next app of three namespaces and a Flutter app of ARB files are pushed as
 * one source version each, translated into every file in its format, and restored by pull byte
 * for byte; an old single-file project keeps its keys after moving to file sets; a local value
 * never uploaded survives pull; bad tolk.json file sets and unparsable files are refused before
 * anything is uploaded.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

const COMMON = `{
  "title": "Welcome",
  "cart": {
    "item_one": "{{count}} item",
    "item_other": "{{count}} items"
  }
}
`;
// Four spaces, and no final newline: each file keeps its own layout.
const ADMIN = `{
    "users": {
        "save": "Save {{name}}",
        "deleted_one": "{{count}} user deleted",
        "deleted_other": "{{count}} users deleted"
    }
}`;
const ERRORS = `{
  "notFound": "Nothing here",
  "offline": "You are offline"
}
`;

const ARB = `{
  "@@locale": "en",
  "hello": "Hello {name}",
  "@hello": {
    "description": "Greeting on the home screen",
    "placeholders": {
      "name": {
        "type": "String"
      }
    }
  },
  "files": "{count, plural, one {{count} file} other {{count} files}}",
  "@files": {
    "placeholders": {
      "count": {
        "type": "int"
      }
    }
  }
}
`;

describe('tolk.json file sets', () => {
  let system: System;
  let openai: ProviderStandIn;
  let token: string;
  const projects: CliHarness[] = [];

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true }), startOpenAIStandIn()]);
    token = (await system.signUp()).token;
  });
  afterAll(async () => {
    for (const project of projects) await project.remove();
    await openai?.close();
    await system?.close();
  });

  /** A project with `targets` and tolk.json's `files` (and other fields) as given. */
  async function project(targets: string, fields?: Record<string, unknown>) {
    const cli = await createCliHarness(system.base);
    projects.push(cli);
    const tolk = (args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
    const init = await tolk(['init', '--name', 'Files', '--targets', targets, '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const projectId = init.json().projectId as string;
    const setConfig = async (more: Record<string, unknown>) => {
      const config = await cli.readJson('tolk.json');
      await cli.writeJson('tolk.json', { ...config, ...more });
    };
    if (fields) await setConfig(fields);
    const write = async (path: string, text: string | Buffer) => {
      await mkdir(dirname(join(cli.cwd, path)), { recursive: true });
      await writeFile(join(cli.cwd, path), text);
    };
    const bytes = (path: string) => readFile(join(cli.cwd, path));
    const translate = (...args: string[]) =>
      tolk(['translate', '--base-url', openai.baseURL, '--model', 'stand-in', '--concurrency', '1', ...args]);
    const serverSource = async () => {
      const response = await system.call('GET', `/v1/projects/${projectId}/source`, token);
      return response.status === 404
        ? { version: 0, document: undefined }
        : {
            version: response.body.version as number,
            document: JSON.parse(response.body.content as string) as Record<string, unknown>,
          };
    };
    const stored = async (locale: string) =>
      (await system.call('GET', `/v1/projects/${projectId}/locales/${locale}/translations`, token)).body
        .content as string;
    return { cli, tolk, translate, write, bytes, setConfig, serverSource, stored, projectId };
  }

  it('when an i18next app has three namespaces, then push makes one version of them all, translate writes every namespace in its layout and pull restores deleted files byte for byte', async () => {
    const app = await project('pl,pt-BR', {
      files: [{ path: 'public/locales/{locale}/{namespace}.json', format: 'i18next' }],
    });
    await app.write('public/locales/en/common.json', COMMON);
    await app.write('public/locales/en/admin.json', ADMIN);
    await app.write('public/locales/en/errors.json', ERRORS);

    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json()).toMatchObject({ version: 1, keyCount: 8 });
    const source = await app.serverSource();
    expect(source).toEqual({
      version: 1,
      document: { admin: JSON.parse(ADMIN), common: JSON.parse(COMMON), errors: JSON.parse(ERRORS) },
    });

    const translated = await app.translate('--json');
    expect(translated.code, translated.stderr).toBe(0);
    expect(await app.cli.readText('public/locales/pl/common.json')).toBe(
      JSON.stringify(
        {
          title: '[pl] Welcome',
          cart: {
            item_one: '[pl:one] {{count}} item',
            item_few: '[pl:few] {{count}} items',
            item_many: '[pl:many] {{count}} items',
            item_other: '[pl:other] {{count}} items',
          },
        },
        null,
        2,
      ) + '\n',
    );
    expect(await app.cli.readText('public/locales/pt-BR/admin.json')).toBe(
      JSON.stringify(
        {
          users: {
            save: '[pt-BR] Save {{name}}',
            deleted_one: '[pt-BR:one] {{count}} user deleted',
            deleted_many: '[pt-BR:many] {{count}} users deleted',
            deleted_other: '[pt-BR:other] {{count}} users deleted',
          },
        },
        null,
        4,
      ),
    );
    expect(await app.cli.readJson('public/locales/pl/errors.json')).toEqual({
      notFound: '[pl] Nothing here',
      offline: '[pl] You are offline',
    });
    expect((await app.tolk(['status', '--check'])).code).toBe(0);

    // Pushed again unchanged: no change, no new version.
    const again = await app.tolk(['push']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('3 en files has no key changes; source version 1, 8 keys.');

    const names = ['common', 'admin', 'errors'].flatMap((namespace) =>
      ['pl', 'pt-BR'].map((locale) => `public/locales/${locale}/${namespace}.json`),
    );
    const written = await Promise.all(names.map((name) => app.bytes(name)));
    for (const name of names) await rm(join(app.cli.cwd, name));
    const pull = await app.tolk(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json().locales).toEqual([
      // Polish has four forms of each group, Brazilian Portuguese three.
      expect.objectContaining({ locale: 'pl', keyCount: 12 }),
      expect.objectContaining({ locale: 'pt-BR', keyCount: 10 }),
    ]);
    for (const [index, name] of names.entries()) expect(await app.bytes(name), name).toEqual(written[index]);
  });

  it('when tolk init runs in an i18next, a Flutter, a Rails and a Spring app, then it finds their files and push, translate and pull work without editing tolk.json', async () => {
    const apps = {
      i18next: {
        files: {
          'public/locales/en/common.json': COMMON,
          'public/locales/en/admin.json': ADMIN,
          'public/locales/en/errors.json': ERRORS,
        },
        set: { path: 'public/locales/{locale}/{namespace}.json', format: 'i18next' },
        targets: (locale: string) =>
          ['common', 'admin', 'errors'].map((namespace) => `public/locales/${locale}/${namespace}.json`),
      },
      flutter: {
        files: {
          'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n',
          'lib/l10n/app_en.arb': ARB,
        },
        set: { path: 'lib/l10n/app_{locale}.arb', format: 'arb' },
        targets: (locale: string) => [`lib/l10n/app_${locale.replace('-', '_')}.arb`],
      },
      rails: {
        files: {
          'config/locales/en.yml':
            '# Shop strings\nen:\n  greeting: "Hello"\n  cart:\n    items:\n      one: "%{count} item"\n      other: "%{count} items"\n',
        },
        set: { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true },
        targets: (locale: string) => [`config/locales/${locale}.yml`],
      },
      spring: {
        files: {
          'src/main/resources/messages.properties':
            '# Buttons\nbutton.save=Save\nbutton.price=Price in {0}\n',
        },
        set: {
          path: 'src/main/resources/messages_{locale}.properties',
          format: 'properties',
          source: 'src/main/resources/messages.properties',
        },
        targets: (locale: string) => [`src/main/resources/messages_${locale.replace('-', '_')}.properties`],
      },
    };
    for (const [name, app] of Object.entries(apps)) {
      const cli = await createCliHarness(system.base);
      projects.push(cli);
      const tolk = (args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
      for (const [path, text] of Object.entries(app.files)) {
        await mkdir(dirname(join(cli.cwd, path)), { recursive: true });
        await writeFile(join(cli.cwd, path), text);
      }
      const init = await tolk(['init', '--name', name, '--targets', 'pl,pt-BR', '--yes', '--json']);
      expect(init.code, init.stderr).toBe(0);
      const config = await cli.readJson('tolk.json');
      expect(config.sourceLocale, name).toBe('en');
      expect(config.files, name).toEqual([expect.objectContaining(app.set)]);

      expect((await tolk(['push'])).code, name).toBe(0);
      const translated = await tolk(['translate', '--base-url', openai.baseURL, '--model', 'stand-in']);
      expect(translated.code, translated.stderr).toBe(0);
      if (name === 'rails') {
        // A Rails plural hash comes back with Polish's categories.
        const polish = await readFile(join(cli.cwd, 'config/locales/pl.yml'), 'utf8');
        expect(polish).toMatch(/^pl:$/m);
        for (const category of ['one', 'few', 'many', 'other'])
          expect(polish).toContain(`      ${category}: `);
      }
      const targets = ['pl', 'pt-BR'].flatMap(app.targets);
      const written = await Promise.all(targets.map((path) => readFile(join(cli.cwd, path))));
      for (const path of targets) await rm(join(cli.cwd, path));
      const pull = await tolk(['pull']);
      expect(pull.code, pull.stderr).toBe(0);
      for (const [index, path] of targets.entries()) {
        expect(await readFile(join(cli.cwd, path)), path).toEqual(written[index]);
      }
      expect((await tolk(['status', '--check'])).code, name).toBe(0);
    }
  });

  it('when a local target value was never uploaded, then pull keeps and names it and exits 5, and --force writes the server’s value', async () => {
    const app = await project('pl', {
      files: [{ path: 'locales/{locale}/{namespace}.json', format: 'i18next' }],
    });
    await app.write('locales/en/common.json', COMMON);
    await app.write('locales/en/errors.json', ERRORS);
    expect((await app.tolk(['push'])).code).toBe(0);
    expect((await app.translate()).code).toBe(0);

    const edited = (await app.cli.readText('locales/pl/errors.json')).replace(
      '[pl] Nothing here',
      'Nic tu nie ma',
    );
    await app.write('locales/pl/errors.json', edited);
    await rm(join(app.cli.cwd, 'locales/pl/common.json'));

    const pull = await app.tolk(['pull']);
    expect(pull.code, pull.stderr).toBe(5);
    expect(pull.stderr).toContain(
      "pl: kept your local value of 1 key that differs from the server's and was never uploaded: errors.notFound",
    );
    expect(await app.cli.readText('locales/pl/errors.json')).toBe(edited);
    expect((await app.cli.readJson('locales/pl/common.json')).title).toBe('[pl] Welcome');

    // Still not uploaded: still kept.
    expect((await app.tolk(['pull'])).code).toBe(5);

    // translate uploads it, though the locale is up to date; then pull has nothing to keep.
    const upload = await app.translate();
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.stderr).toContain('pl: uploading your local value of errors.notFound');
    expect(JSON.parse(await app.stored('pl')).errors.notFound).toBe('Nic tu nie ma');
    expect((await app.tolk(['pull'])).code).toBe(0);
    expect(await app.cli.readText('locales/pl/errors.json')).toBe(edited);
    expect((await app.translate()).stdout).toContain('nothing to translate');

    // A value changed on the server since the last sync wins over the unchanged local one.
    const onServer = JSON.parse(await app.stored('pl'));
    onServer.errors.offline = 'Brak sieci';
    const put = await system.call(
      'PUT',
      `/v1/projects/${app.projectId}/locales/pl/translations?sourceVersion=1`,
      token,
      onServer,
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await app.tolk(['pull'])).code).toBe(0);
    expect((await app.cli.readJson('locales/pl/errors.json')).offline).toBe('Brak sieci');

    // --force writes the server's value over local work.
    await app.write('locales/pl/errors.json', edited.replace('Nic tu nie ma', 'Pusto'));
    expect((await app.tolk(['pull'])).code).toBe(5);
    const forced = await app.tolk(['pull', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await app.cli.readJson('locales/pl/errors.json')).notFound).toBe('Nic tu nie ma');
    expect((await app.tolk(['pull'])).code).toBe(0);

    // A hand edit, never uploaded, of a key whose source changed (push would have uploaded it as
    // a person's, DESIGN §13): the new translation replaces it, and says so.
    await app.write('locales/en/errors.json', ERRORS.replace('You are offline', 'No connection'));
    expect((await app.tolk(['push'])).code).toBe(0);
    const handEdited = (await app.cli.readText('locales/pl/errors.json')).replace(
      'Brak sieci',
      'Jesteś offline',
    );
    expect(handEdited).toContain('Jesteś offline');
    await app.write('locales/pl/errors.json', handEdited);
    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    expect(translated.stderr).toContain(
      'pl: a new translation replaced your local value, never uploaded, of errors.offline',
    );
    expect((await app.cli.readJson('locales/pl/errors.json')).offline).toBe('[pl] No connection');
  });

  it('when a file set is a glob, then each file below the locale folder is a namespace named by its path, and "locales" spells a locale by hand', async () => {
    const app = await project('pt-BR', {
      files: [{ path: 'locales/{locale}/**/*.json', format: 'json' }],
      locales: { 'pt-BR': 'pt_br' },
    });
    await app.write('locales/en/common.json', ERRORS);
    await app.write('locales/en/admin/users.json', '{\n  "save": "Save"\n}\n');
    const push = await app.tolk(['push']);
    expect(push.code, push.stderr).toBe(0);
    expect((await app.serverSource()).document).toEqual({
      'admin/users': { save: 'Save' },
      common: JSON.parse(ERRORS),
    });
    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    expect(await app.cli.readText('locales/pt_br/admin/users.json')).toBe('{\n  "save": "[pt-BR] Save"\n}\n');
    expect((await app.cli.readJson('locales/pt_br/common.json')).offline).toBe('[pt-BR] You are offline');
  });

  it('when a Flutter app has ARB files, then targets are app_pl.arb and app_pt_BR.arb with their @@locale, placeholders and plural categories, and pull restores them', async () => {
    const app = await project('pl,pt-BR', {
      files: [{ path: 'lib/l10n/app_{locale}.arb', format: 'arb' }],
    });
    await app.write('lib/l10n/app_en.arb', ARB);
    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    // One file set without namespaces: the file is the document, as a single file always was.
    expect((await app.serverSource()).document).toEqual(JSON.parse(ARB));

    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    const polish = await app.cli.readJson('lib/l10n/app_pl.arb');
    expect(polish).toEqual({
      '@@locale': 'pl',
      hello: '[pl] Hello {name}',
      '@hello': JSON.parse(ARB)['@hello'],
      files:
        '[pl] {count, plural, one {{count} file} few {{count} files} many {{count} files} other {{count} files}}',
      '@files': JSON.parse(ARB)['@files'],
    });
    const brazilian = await app.cli.readJson('lib/l10n/app_pt_BR.arb');
    expect(brazilian['@@locale']).toBe('pt_BR');
    expect(brazilian.hello).toBe('[pt-BR] Hello {name}');
    expect(Object.keys(brazilian)).toEqual(['@@locale', 'hello', '@hello', 'files', '@files']);

    const names = ['lib/l10n/app_pl.arb', 'lib/l10n/app_pt_BR.arb'];
    const written = await Promise.all(names.map((name) => app.bytes(name)));
    for (const name of names) await rm(join(app.cli.cwd, name));
    const pull = await app.tolk(['pull']);
    expect(pull.code, pull.stderr).toBe(0);
    for (const [index, name] of names.entries()) expect(await app.bytes(name), name).toEqual(written[index]);
  });

  it('when an existing single-file project moves to file sets, then its keys stay the same and push finds no change', async () => {
    const app = await project('de');
    const source = { home: { title: 'Home', intro: 'Hello {name}' }, bye: 'Bye' };
    await app.cli.writeJson('locales/en.json', source);
    const first = await app.tolk(['push']);
    expect(first.code, first.stderr).toBe(0);
    expect((await app.translate()).code).toBe(0);
    const german = await app.bytes('locales/de.json');
    expect(german.toString()).toBe(
      JSON.stringify({ home: { title: '[de] Home', intro: '[de] Hello {name}' }, bye: '[de] Bye' }, null, 2) +
        '\n',
    );

    await app.setConfig({ files: [{ path: 'locales/{locale}.json', format: 'json' }] });
    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json()).toMatchObject({
      version: 1,
      keyCount: 3,
      diff: { added: [], modified: [], deleted: [] },
    });
    await rm(join(app.cli.cwd, 'locales/de.json'));
    expect((await app.tolk(['pull'])).code).toBe(0);
    expect(await app.bytes('locales/de.json')).toEqual(german);
  });

  it('when a Rails YAML and a Java properties file (ISO-8859-1) are two namespaces, then each round trips in its format', async () => {
    const app = await project('de', {
      files: [
        { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true, namespace: 'rails' },
        {
          path: 'src/main/resources/messages_{locale}.properties',
          format: 'properties',
          encoding: 'iso-8859-1',
          source: 'src/main/resources/messages.properties',
          namespace: 'messages',
          locales: { de: 'de_DE' },
        },
        { path: 'lib/l10n/app_{locale}.arb', format: 'arb', namespace: 'flutter' },
      ],
    });
    await app.write('lib/l10n/app_en.arb', '{\n  "@@locale": "en",\n  "ok": "OK"\n}\n');
    await app.write(
      'config/locales/en.yml',
      '# Shop strings\nen:\n  greeting: "Hello"\n  cart:\n    items:\n      one: "%{count} item"\n      other: "%{count} items"\n',
    );
    await app.write(
      'src/main/resources/messages.properties',
      Buffer.from('# Buttons\nbutton.save=Save\nbutton.price=Price in \u00a3\n', 'latin1'),
    );
    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    const { document } = await app.serverSource();
    // Each file one namespace; a file's own metadata (@@locale) stays in the file.
    expect(Object.keys(document!)).toEqual(['rails', 'messages', 'flutter']);
    expect(document!['flutter']).toEqual({ ok: 'OK' });
    expect(push.json().keyCount).toBe(5);

    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    const yaml = await app.cli.readText('config/locales/de.yml');
    expect(yaml).toContain('de:\n');
    expect(yaml).toContain('[de] Hello');
    const properties = await app.bytes('src/main/resources/messages_de_DE.properties');
    expect(properties.toString('latin1')).toContain('button.price=[de] Price in \u00a3');

    expect(await app.cli.readText('lib/l10n/app_de.arb')).toBe(
      '{\n  "@@locale": "de",\n  "ok": "[de] OK"\n}\n',
    );

    const names = [
      'config/locales/de.yml',
      'src/main/resources/messages_de_DE.properties',
      'lib/l10n/app_de.arb',
    ];
    const written = await Promise.all(names.map((name) => app.bytes(name)));
    for (const name of names) await rm(join(app.cli.cwd, name));
    expect((await app.tolk(['pull'])).code).toBe(0);
    for (const [index, name] of names.entries()) expect(await app.bytes(name), name).toEqual(written[index]);
  });

  it('when an Android, an Apple and an Angular app are namespaces, then names ending in _one are no plural forms, sentence keys round trip, and a final XLIFF target is kept', async () => {
    const app = await project('pl', {
      files: [
        {
          path: 'android/res/values-{locale}/strings.xml',
          source: 'android/res/values/strings.xml',
          format: 'android',
          namespace: 'android',
        },
        { path: 'ios/{locale}.lproj/Localizable.strings', format: 'strings', namespace: 'ios' },
        { path: 'web/messages.{locale}.xlf', source: 'web/messages.xlf', format: 'xliff', namespace: 'web' },
      ],
    });
    await app.write(
      'android/res/values/strings.xml',
      '<resources>\n    <string name="items_one">Just one item</string>\n    <string name="items_other">Other items</string>\n</resources>\n',
    );
    const strings =
      '"Saved." = "Saved.";\n"Are you sure?" = "Are you sure?";\n"..." = "...";\n"a..b" = "a..b";\n';
    await app.write('ios/en.lproj/Localizable.strings', strings);
    await app.write(
      'web/messages.xlf',
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
        '  <file source-language="en" datatype="plaintext" original="ng2.template">',
        '    <body>',
        '      <trans-unit id="save"><source>Save</source></trans-unit>',
        '      <trans-unit id="cancel"><source>Cancel</source></trans-unit>',
        '      <trans-unit id="brand" translate="no"><source>ACME</source></trans-unit>',
        '    </body>',
        '  </file>',
        '</xliff>',
        '',
      ].join('\n'),
    );
    const push = await app.tolk(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json().keyCount).toBe(8);

    const translated = await app.translate();
    expect(translated.code, translated.stderr).toBe(0);
    // Two strings, translated each on its own: the server asks for no items_few and items_many.
    expect((await app.tolk(['status', '--check'])).code).toBe(0);
    expect(JSON.parse(await app.stored('pl')).android).toEqual({
      'items\u02CDone': '[pl] Just one item',
      'items\u02CDother': '[pl] Other items',
    });
    expect(await app.cli.readText('android/res/values-pl/strings.xml')).toBe(
      '<resources>\n    <string name="items_one">[pl] Just one item</string>\n    <string name="items_other">[pl] Other items</string>\n</resources>\n',
    );
    expect(await app.cli.readText('ios/pl.lproj/Localizable.strings')).toBe(
      strings.replace(/= "(.*)";/g, '= "[pl] $1";'),
    );
    const polish = await app.cli.readText('web/messages.pl.xlf');
    expect(polish).toContain('<source>Save</source><target state="translated">[pl] Save</target>');

    // Pulled again, every file stays as it is: an XLIFF target file is read as its targets.
    const pull = await app.tolk(['pull']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await app.cli.readText('web/messages.pl.xlf')).toBe(polish);

    // A reviewer's final target (and a target of a unit not to translate) survive even a forced pull.
    const reviewed = polish
      .replace('<target state="translated">[pl] Save</target>', '<target state="final">Zapisz</target>')
      .replace('<source>ACME</source>', '<source>ACME</source><target>ACME Polska</target>');
    await app.write('web/messages.pl.xlf', reviewed);
    const forced = await app.tolk(['pull', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await app.cli.readText('web/messages.pl.xlf')).toBe(reviewed);
  });

  describe('bad input is refused before anything is uploaded', () => {
    it('each bad file set and each file that does not parse exits 2 with a message, and the source version does not move', async () => {
      const app = await project('de');
      await app.write('locales/en/common.json', COMMON);
      await app.write('locales/en/bad.name.json', '{"a": "A"}\n');
      await app.write('locales/en/broken.json', '{\n  "a": "A",\n  "b": \n}\n');
      await app.write('locales/en.json', '{"a": "A"}\n');
      expect((await app.tolk(['push'])).code).toBe(0);
      const before = await app.serverSource();
      expect(before.version).toBe(1);

      const refused = async (
        files: unknown,
        message: string | RegExp,
        extra: Record<string, unknown> = {},
      ) => {
        await app.setConfig({ files, ...extra });
        const result = await app.tolk(['push']);
        expect(result.code, result.stdout + result.stderr).toBe(2);
        expect(result.stderr).toMatch(message);
        expect(result.stderr).not.toMatch(/\n\s+at /);
        expect(await app.serverSource()).toEqual(before);
      };

      await refused([{ path: 'locales/en.json', format: 'json' }], 'files.0.path must contain {locale}');
      await refused(
        [{ path: 'locales/{locale}.json', format: 'xliff2' }],
        'files.0.format "xliff2" is not a format; one of json, i18next, arb, yaml, properties, po, strings, stringsdict, xliff, android, xcstrings',
      );
      await refused(
        [
          { path: 'locales/{locale}.json', format: 'json', namespace: 'app' },
          { path: 'other/{locale}.json', format: 'json', namespace: 'app' },
        ],
        'files.1.namespace "app" is also the namespace of files.0',
      );
      await refused(
        [{ path: 'locales/{locale}.json', format: 'json' }],
        /locales\.de must be a name, not a path/,
        {
          locales: { de: '..' },
        },
      );
      await app.setConfig({ locales: undefined });
      await refused(
        [{ path: 'locales/{locale}.json', format: 'json', namespace: '@app' }],
        'files.0.namespace "@app" cannot be a namespace: it starts with "@"',
      );
      await refused(
        [
          { path: 'locales/{locale}/{namespace}.json', format: 'i18next' },
          { path: 'locales/{locale}/common.json', format: 'json', namespace: 'shared' },
        ],
        /files\.0 and files\.1 both claim locales\/en\/common\.json/,
      );
      await app.write('one/en/common.json', COMMON);
      await app.write('other/en/common.json', ERRORS);
      await refused(
        [
          { path: 'one/{locale}/{namespace}.json', format: 'i18next' },
          { path: 'other/{locale}/{namespace}.json', format: 'i18next' },
        ],
        /one\/en\/common\.json \(files\.0\) and other\/en\/common\.json \(files\.1\) are both the namespace "common"/,
      );
      await refused(
        [{ path: 'nothing/{locale}/{namespace}.json', format: 'i18next' }],
        'files.0: no file of the source locale en matches nothing/en/{namespace}.json',
      );
      // Only the valid and the unparsable file left: a namespace name with a dot.
      await rm(join(app.cli.cwd, 'locales/en/broken.json'));
      await refused(
        [{ path: 'locales/{locale}/{namespace}.json', format: 'i18next' }],
        'files.0: locales/en/bad.name.json: "bad.name" cannot be a namespace: it contains "."',
      );
      await rm(join(app.cli.cwd, 'locales/en/bad.name.json'));
      await app.write('locales/en/broken.json', '{\n  "a": "A",\n  "b": \n}\n');
      await refused(
        [{ path: 'locales/{locale}/{namespace}.json', format: 'i18next' }],
        /INVALID_FILE: locales\/en\/broken\.json:4:1: /,
      );
    });

    it("when a file set's switch is not true or false (revisionHeader), then every command exits 2 naming the field and what it takes", async () => {
      const app = await project('de');
      await app.write('locale/en/LC_MESSAGES/django.po', 'msgid "Open"\nmsgstr ""\n');
      const set = { path: 'locale/{locale}/LC_MESSAGES/django.po', format: 'po' };
      for (const [value, shown] of [
        ['yes', '"yes"'],
        [1, '1'],
        [null, 'null'],
      ] as const) {
        await app.setConfig({ files: [{ ...set, revisionHeader: value }] });
        for (const command of ['push', 'pull', 'status', 'check']) {
          const result = await app.tolk([command]);
          expect(result.code, `${command}: ${result.stderr}`).toBe(2);
          expect(result.stderr).toContain(
            `tolk.json: files.0.revisionHeader must be true or false, not ${shown}`,
          );
        }
      }
      // So are the other options of a file set, each named.
      await app.setConfig({ files: [{ ...set, rails: 'no', encoding: 'utf-16' }] });
      expect((await app.tolk(['push'])).stderr).toContain(
        'files.0.rails must be true or false, not "no"; files.0.encoding must be "utf-8" or "iso-8859-1", not "utf-16"',
      );
      await app.setConfig({ files: [{ ...set, revisionHeader: true }] });
      const pushed = await app.tolk(['push']);
      expect(pushed.code, pushed.stderr).toBe(0);
      expect((await app.serverSource()).version).toBe(1);
    });
  });
});
