/**
 * detectLayout on trees that hold locale files that are not the app's own: dependencies, build
 * output, tests and their fixtures, examples, vendored translations of libraries. Only the app's
 * own are proposed.
 */
import { describe, expect, it } from 'vitest';
import { detectLayout } from '../../src/init/detect-layout.js';
import { temporaryTrees } from '../support/temp-tree.js';

const tree = temporaryTrees('tolk-misleading-');

const po = (language: string) =>
  `msgid ""\nmsgstr ""\n"Language: ${language}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr "Hallo"\n`;
const strings = '"hello" = "Hallo";\n';
const resources = '<resources><string name="hello">Hallo</string></resources>\n';

describe('detectLayout: what is not the app', () => {
  it("when copies, dependencies, tests, fixtures, examples and vendored libraries hold locale files, then only the app's own are proposed", async () => {
    const root = await tree({
      // The app's own.
      'config/locales/en.yml': 'en:\n  hello: "Hello"\n',
      'config/locales/de.yml': 'de:\n  hello: "Hallo"\n',
      'app/javascript/locales/en/common.json': { hello: 'Hello' },
      'app/javascript/locales/de/common.json': { hello: 'Hallo' },
      // Dependencies.
      'node_modules/some-lib/locales/fr/common.json': { hello: 'Bonjour' },
      'vendor/bundle/ruby/3.3.0/gems/devise-4.9.4/config/locales/it.yml': 'it:\n  hello: "Ciao"\n',
      'venv/lib/python3.12/site-packages/django/conf/locale/es/LC_MESSAGES/django.po': po('es'),
      'third_party/widgets/i18n/ja.json': { hello: 'こんにちは' },
      'ios/Pods/SomeKit/Resources/pl.lproj/Localizable.strings': strings,
      'bower_components/old/locales/nl.json': { hello: 'Hallo' },
      // Build output.
      'dist/locales/sv/common.json': { hello: 'Hej' },
      'public/packs/locales/ko.json': { hello: '안녕' },
      'android/app/build/intermediates/res/values-fi/strings.xml': resources,
      'target/classes/messages_da.properties': 'hello=Hej\n',
      'out/locales/cs.json': { hello: 'Ahoj' },
      // Tests and their data.
      'test/fixtures/locales/pt.json': { hello: 'Olá' },
      'spec/fixtures/files/locales/tr.yml': 'tr:\n  hello: "Merhaba"\n',
      'src/__tests__/i18n/uk.json': { hello: 'Привіт' },
      'cypress/fixtures/locales/he.json': { hello: 'שלום' },
      'src/test/resources/Messages_ro.properties': 'hello=Salut\n',
      'tests/locale/hu/LC_MESSAGES/django.po': po('hu'),
      // An example app of a library, with locales of its own.
      'example/lib/l10n/app_el.arb': { hello: 'Γεια' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'app/javascript/locales/{locale}/{namespace}.json', format: 'json' },
      { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true, namespace: 'rails' },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de']);
    expect(proposal.notes).toEqual([
      "Found 2 file sets: each is a namespace of the project's keys (app/javascript/locales/{locale}/{namespace}.json's file names, rails). Keep the ones you want, or name the files with --files.",
    ]);
  });

  it('when a file is named like a locale outside any locale folder (src/it/, data/de.json), then it is no locale file until another locale says so', async () => {
    const root = await tree({
      'src/it/settings.json': { timeout: 'long' },
      'data/de.json': { name: 'Deutschland' },
      'config/en.yml': 'retries: "3"\n',
      'locales/en.json': { hello: 'Hello' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'locales/{locale}.json', format: 'json' },
    ]);
    expect(proposal.targetLocales).toEqual([]);
  });

  it('when two apps of a monorepo have namespace folders with the same namespaces, then the second is left out with a note (one project holds a namespace once)', async () => {
    const root = await tree({
      'apps/admin/public/locales/en/common.json': { save: 'Save' },
      'apps/admin/public/locales/fr/common.json': { save: 'Enregistrer' },
      'apps/web/public/locales/en/common.json': { save: 'Save', cancel: 'Cancel' },
      'apps/web/public/locales/de/common.json': { save: 'Speichern' },
      'apps/web/public/locales/pl/common.json': { save: 'Zapisz' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'apps/admin/public/locales/{locale}/{namespace}.json', format: 'json' },
    ]);
    expect(proposal.targetLocales).toEqual(['fr']);
    expect(proposal.notes).toEqual([
      'apps/web/public/locales/{locale}/{namespace}.json was left out: its namespace common is also one of ' +
        'apps/admin/public/locales/{locale}/{namespace}.json; one project holds a namespace once ' +
        '(run tolk init in each app folder, or name the files with --files)',
    ]);
  });
});
