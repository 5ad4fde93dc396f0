/** detectLayout: the file sets `tolk init` proposes for the trees real apps have. */
import { describe, expect, it } from 'vitest';
import { detectLayout } from '../../src/init/detect-layout.js';
import { temporaryTrees } from '../support/temp-tree.js';

const tree = temporaryTrees('tolk-detect-');

describe('detectLayout', () => {
  it('when an i18next app has a folder per locale with three namespaces and plural keys, then one i18next file set with {namespace}', async () => {
    const root = await tree({
      'package.json': { name: 'web', dependencies: { i18next: '25.0.0' } },
      'tsconfig.json': { compilerOptions: {} },
      'public/locales/en/common.json': {
        save: 'Save',
        items_one: '{{count}} item',
        items_other: '{{count}} items',
      },
      'public/locales/en/home.json': { title: 'Welcome', intro: 'Hello' },
      'public/locales/en/admin.json': { users: { title: 'Users' } },
      'public/locales/de/common.json': { save: 'Speichern' },
      'public/locales/de/home.json': { title: 'Willkommen' },
      'public/locales/de/admin.json': { users: { title: 'Benutzer' } },
      'public/locales/pt-BR/common.json': { save: 'Salvar' },
      'public/locales/pt-BR/home.json': { title: 'Bem-vindo' },
      'public/locales/pt-BR/admin.json': {},
      'node_modules/some-lib/locales/fr/common.json': { save: 'Enregistrer' },
      'dist/locales/it/common.json': { save: 'Salva' },
      'build/locales/es.json': { save: 'Guardar' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'public/locales/{locale}/{namespace}.json', format: 'i18next' },
    ]);
    expect(proposal.fileSets[0]!.locales).toEqual(['de', 'en', 'pt-BR']);
    expect(proposal.fileSets[0]!.files).toHaveLength(9);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de', 'pt-BR']);
    expect(proposal.notes).toEqual([]);
  });

  it('when the namespaces hold no plural keys, then the format is json, found wherever the folder is', async () => {
    const root = await tree({
      'src/i18n/locales/en/common.json': { save: 'Save', cancel: 'Cancel' },
      'src/i18n/locales/en/home.json': { title: 'Welcome' },
      'src/i18n/locales/fr/common.json': { save: 'Enregistrer' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'src/i18n/locales/{locale}/{namespace}.json', format: 'json' },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['fr']);
  });

  it('when namespaces are nested in folders below the locale, then the file set is a ** glob', async () => {
    const root = await tree({
      'locales/en/common.json': { save: 'Save' },
      'locales/en/admin/users.json': { title: 'Users' },
      'locales/de/common.json': { save: 'Speichern' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'locales/{locale}/**/*.json', format: 'json' },
    ]);
  });

  it('when there is one JSON file per locale, then locales/{locale}.json with no namespace', async () => {
    const root = await tree({
      'package.json': { name: 'shop' },
      'locales/en.json': { cart: { title: 'Your cart', pay: 'Pay' } },
      'locales/de.json': { cart: { title: 'Ihr Warenkorb' } },
      'locales/pl.json': {},
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'locales/{locale}.json', format: 'json' },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de', 'pl']);
  });

  it('when no file says the source and none is English, then the locale with more messages is only the guess offered, though a target has more plural forms', async () => {
    const root = await tree({
      'locales/de.json': { a: 'A', b: 'B', items_one: 'ein Ding', items_other: '{{count}} Dinge' },
      'locales/pl.json': {
        a: 'A',
        items_one: 'rzecz',
        items_few: '{{count}} rzeczy',
        items_many: '{{count}} rzeczy',
        items_other: '{{count}} rzeczy',
      },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'locales/{locale}.json', format: 'i18next' },
    ]);
    expect(proposal.sourceLocale).toBeUndefined();
    expect(proposal.sourceLocaleGuess).toBe('de');
    expect(proposal.targetLocales).toEqual(['pl']);
  });

  it('when a Rails app has config/locales with devise files, then a Rails YAML set per name, each a namespace', async () => {
    const root = await tree({
      'config/database.yml': 'development:\n  adapter: postgresql\n',
      'config/locales/en.yml': 'en:\n  hello: "Hello"\n  bye: "Bye"\n',
      'config/locales/de.yml': 'de:\n  hello: "Hallo"\n',
      'config/locales/pt-BR.yml': 'pt-BR:\n  hello: "Olá"\n',
      'config/locales/devise.en.yml':
        'en:\n  devise:\n    failure:\n      locked: "Your account is locked."\n',
      'config/locales/devise.de.yml':
        'de:\n  devise:\n    failure:\n      locked: "Ihr Konto ist gesperrt."\n',
      'vendor/bundle/ruby/gems/kaminari/config/locales/fr.yml': 'fr:\n  next: "Suivant"\n',
      'tmp/cache/it.yml': 'it:\n  x: "y"\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'config/locales/devise.{locale}.yml', format: 'yaml', rails: true, namespace: 'devise' },
      { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true, namespace: 'rails' },
    ]);
    expect(proposal.fileSets[1]!.locales).toEqual(['de', 'en', 'pt-BR']);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de', 'pt-BR']);
    expect(proposal.notes.join('\n')).toContain('Found 2 file sets');
  });

  it('when YAML files per locale have no locale root key, then plain YAML', async () => {
    const root = await tree({
      'i18n/en.yaml': 'greeting: Hello\nfarewell: Bye\n',
      'i18n/es.yaml': 'greeting: Hola\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'i18n/{locale}.yaml', format: 'yaml' },
    ]);
  });

  it('when a Flutter app has l10n.yaml, then its arb-dir and template-arb-file name the files and the source', async () => {
    const arb = (locale: string, messages: Record<string, string>) => ({ '@@locale': locale, ...messages });
    const root = await tree({
      'pubspec.yaml': 'name: app\nflutter:\n  generate: true\n',
      'l10n.yaml':
        'arb-dir: lib/src/l10n\ntemplate-arb-file: app_de.arb\noutput-localization-file: app_localizations.dart\n',
      'lib/src/l10n/app_de.arb': arb('de', { hello: 'Hallo' }),
      'lib/src/l10n/app_en.arb': arb('en', { hello: 'Hello', bye: 'Bye', more: 'More' }),
      'lib/src/l10n/app_pt_BR.arb': arb('pt_BR', { hello: 'Olá' }),
      '.dart_tool/flutter_gen/gen_l10n/app_fr.arb': arb('fr', { hello: 'Bonjour' }),
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'lib/src/l10n/app_{locale}.arb', format: 'arb' },
    ]);
    expect(proposal.sourceLocale).toBe('de');
    expect(proposal.targetLocales).toEqual(['en', 'pt-BR']);
  });

  it("when a Flutter app has no l10n.yaml, then gen-l10n's defaults: lib/l10n/app_{locale}.arb", async () => {
    const root = await tree({
      'lib/l10n/app_en.arb': { '@@locale': 'en', hello: 'Hello', '@hello': { description: 'Greeting' } },
      'lib/l10n/app_es.arb': { '@@locale': 'es', hello: 'Hola' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'lib/l10n/app_{locale}.arb', format: 'arb' },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['es']);
  });

  it('when a Spring app has messages.properties and its locales, then the base file is the source and the source locale is left to --source', async () => {
    const root = await tree({
      'pom.xml': '<project/>',
      'src/main/resources/application.properties': 'server.port=8080\n',
      'src/main/resources/messages.properties': 'greeting=Hello\nfarewell=Bye\n',
      'src/main/resources/messages_de.properties': 'greeting=Hallo\n',
      'src/main/resources/messages_zh_Hant.properties': 'greeting=你好\n',
      'target/classes/messages_fr.properties': 'greeting=Bonjour\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      {
        path: 'src/main/resources/messages_{locale}.properties',
        format: 'properties',
        source: 'src/main/resources/messages.properties',
      },
    ]);
    expect(proposal.sourceLocale).toBeUndefined();
    expect(proposal.targetLocales).toEqual(['de', 'zh-Hant']);
    expect(proposal.notes.join('\n')).toContain('src/main/resources/messages.properties names no locale');
  });

  it('when a .properties file is not UTF-8, then the file set says iso-8859-1', async () => {
    const root = await tree({
      'src/main/resources/messages.properties': 'greeting=Good morning\n',
      'src/main/resources/messages_de.properties': Buffer.from('greeting=Gr\xfc\xdf Gott\n', 'latin1'),
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      {
        path: 'src/main/resources/messages_{locale}.properties',
        format: 'properties',
        encoding: 'iso-8859-1',
        source: 'src/main/resources/messages.properties',
      },
    ]);
  });

  it('when only messages.properties exists, then messages_{locale}.properties with it as the source', async () => {
    const root = await tree({ 'src/main/resources/messages.properties': 'greeting=Hello\n' });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      {
        path: 'src/main/resources/messages_{locale}.properties',
        format: 'properties',
        source: 'src/main/resources/messages.properties',
      },
    ]);
    expect(proposal.targetLocales).toEqual([]);
  });

  it('when an Angular app has src/locale/messages.xlf and its locales, then messages.{locale}.xlf in xliff with the base file as the source', async () => {
    const unit = (id: string, text: string) => `<trans-unit id="${id}"><source>${text}</source></trans-unit>`;
    const xliff = (units: string) =>
      `<?xml version="1.0" encoding="UTF-8" ?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en"><body>${units}</body></file></xliff>\n`;
    const root = await tree({
      'src/locale/messages.xlf': xliff(unit('greeting', 'Hello') + unit('bye', 'Bye')),
      'src/locale/messages.pl.xlf': xliff(unit('greeting', 'Hello')),
      'src/locale/messages.pt-BR.xlf': xliff(unit('greeting', 'Hello')),
      'src/locale/messages.de.xlf': '<xliff version="1.2"><file>',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'src/locale/messages.{locale}.xlf', format: 'xliff', source: 'src/locale/messages.xlf' },
    ]);
    expect(proposal.fileSets[0]!.locales).toEqual(['pl', 'pt-BR']);
    expect(proposal.targetLocales).toEqual(['pl', 'pt-BR']);
    expect(proposal.notes.join('\n')).toMatch(
      /src\/locale\/messages\.de\.xlf was left out: .*is not well-formed XML/,
    );
  });

  it('when only messages.xlf exists (ng extract-i18n), then messages.{locale}.xlf with it as the source', async () => {
    const root = await tree({
      'src/locale/messages.xlf':
        '<xliff version="2.0" srcLang="en"><file id="ngi18n"><unit id="a"><segment><source>A</source></segment></unit></file></xliff>\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'src/locale/messages.{locale}.xlf', format: 'xliff', source: 'src/locale/messages.xlf' },
    ]);
    expect(proposal.targetLocales).toEqual([]);
  });

  it('when an Android app has res/values/strings.xml, then values-{locale} folders in Android spelling are its targets', async () => {
    const strings = '<resources><string name="hello">Hello</string></resources>\n';
    const root = await tree({
      'app/src/main/res/values/strings.xml': strings,
      'app/src/main/res/values-pl/strings.xml': strings,
      'app/src/main/res/values-pt-rBR/strings.xml': strings,
      'app/src/main/res/values-b+zh+Hant/strings.xml': strings,
      'app/src/main/res/values-night/strings.xml': strings,
      'app/src/main/res/values/colors.xml': '<resources/>\n',
      'app/build/intermediates/res/values-de/strings.xml': strings,
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets).toEqual([
      {
        fileSet: {
          path: 'app/src/main/res/values-{locale}/strings.xml',
          format: 'android',
          source: 'app/src/main/res/values/strings.xml',
        },
        locales: ['pl', 'pt-BR', 'zh-Hant'],
        files: [
          'app/src/main/res/values-b+zh+Hant/strings.xml',
          'app/src/main/res/values-pl/strings.xml',
          'app/src/main/res/values-pt-rBR/strings.xml',
          'app/src/main/res/values/strings.xml',
        ],
      },
    ]);
    expect(proposal.sourceLocale).toBeUndefined();
    expect(proposal.targetLocales).toEqual(['pl', 'pt-BR', 'zh-Hant']);
  });

  it('when the directory is empty or holds no locale files, then nothing is proposed', async () => {
    for (const root of [
      await tree({}),
      await tree({ 'package.json': { name: 'x' }, 'config/settings.yml': 'a: 1\n', 'data/items.json': [] }),
    ]) {
      const proposal = await detectLayout(root);
      expect(proposal).toEqual({ fileSets: [], targetLocales: [], notes: [] });
    }
  });

  it('when two layouts are found (an i18next folder and a Rails config/locales), then both are proposed, each a namespace, and the notes say so', async () => {
    const root = await tree({
      'app/javascript/locales/en/common.json': { save: 'Save' },
      'app/javascript/locales/de/common.json': { save: 'Speichern' },
      'config/locales/en.yml': 'en:\n  hello: "Hello"\n',
      'config/locales/de.yml': 'de:\n  hello: "Hallo"\n',
      'config/locales/fr.yml': 'fr:\n  hello: "Bonjour"\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'app/javascript/locales/{locale}/{namespace}.json', format: 'json' },
      { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true, namespace: 'rails' },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de', 'fr']);
    expect(proposal.notes.join('\n')).toMatch(/Found 2 file sets: each is a namespace of the project's keys/);
  });

  it('when a fixed namespace would be a name the folder set already uses, then it gets another', async () => {
    const root = await tree({
      'locales/en/rails.json': { save: 'Save' },
      'config/locales/en.yml': 'en:\n  hello: "Hello"\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet.namespace)).toEqual(['rails-2', undefined]);
  });

  it('when a file does not read in its format, then it is left out with the reason and the rest is proposed', async () => {
    const root = await tree({
      'locales/en.json': { hello: 'Hello' },
      'locales/de.json': '{ "hello": "Hallo", }',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'locales/{locale}.json', format: 'json' },
    ]);
    expect(proposal.fileSets[0]!.locales).toEqual(['en']);
    expect(proposal.notes).toHaveLength(1);
    expect(proposal.notes[0]).toMatch(/^locales\/de\.json was left out: locales\/de\.json:1:\d+/);
  });

  it('when paths spell locales another way than the format (zh_CN, en_US), then the file set maps them in locales', async () => {
    const root = await tree({
      'public/locales/en/common.json': { save: 'Save', cancel: 'Cancel' },
      'public/locales/zh_CN/common.json': { save: '保存' },
      'public/locales/pt-br/common.json': { save: 'Salvar' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      {
        path: 'public/locales/{locale}/{namespace}.json',
        format: 'json',
        locales: { 'zh-CN': 'zh_CN', 'pt-BR': 'pt-br' },
      },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['pt-BR', 'zh-CN']);

    const american = await detectLayout(
      await tree({
        'strings/en_US.json': { hello: 'Hello', bye: 'Bye' },
        'strings/de_DE.json': { hello: 'Hallo' },
      }),
    );
    expect(american.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'strings/{locale}.json', format: 'json', locales: { 'en-US': 'en_US', 'de-DE': 'de_DE' } },
    ]);
    expect(american.sourceLocale).toBe('en-US');
    expect(american.targetLocales).toEqual(['de-DE']);
  });

  it('when the source locale is en and a file set has no file of en, then that set is left out with a note (push could not read its source)', async () => {
    const root = await tree({
      'public/locales/en/common.json': { save: 'Save' },
      'public/locales/de/common.json': { save: 'Speichern' },
      'strings/en_US.json': { hello: 'Hello', bye: 'Bye' },
      'strings/de_DE.json': { hello: 'Hallo' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'public/locales/{locale}/{namespace}.json', format: 'json' },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de']);
    expect(proposal.notes).toEqual([
      'strings/{locale}.json was left out: it has no file of en, the source locale',
    ]);
  });

  it("when two files spell the same locale, then the format's own spelling is read and the other left out", async () => {
    const root = await tree({
      'locales/pt-BR.json': { hello: 'Olá' },
      'locales/pt_BR.json': { hello: 'Oi' },
      'locales/en.json': { hello: 'Hello' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'locales/{locale}.json', format: 'json' },
    ]);
    expect(proposal.fileSets[0]!.files).toEqual(['locales/en.json', 'locales/pt-BR.json']);
    expect(proposal.notes).toEqual([
      'locales/pt_BR.json was left out: another file of locales/{locale}.json spells pt-BR otherwise',
    ]);
  });

  it('when a namespace file name cannot be a key segment, then the notes say which and why', async () => {
    const root = await tree({
      'locales/en/common.json': { save: 'Save' },
      'locales/en/admin.users.json': { title: 'Users' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'locales/{locale}/{namespace}.json', format: 'json' },
    ]);
    expect(proposal.notes).toEqual([
      'locales/{locale}: "admin.users" cannot be a namespace (a key segment has no ".", does not start with "@" and has at most 100 characters): rename the files',
    ]);
  });

  describe('Xcode', () => {
    const strings = (pairs: Record<string, string>) =>
      Object.entries(pairs)
        .map(([key, value]) => `/* ${key} */\n"${key}" = "${value}";\n`)
        .join('\n');
    const stringsdict = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>${key}</key>
\t<dict>
\t\t<key>NSStringLocalizedFormatKey</key>
\t\t<string>%#@files@</string>
\t\t<key>files</key>
\t\t<dict>
\t\t\t<key>NSStringFormatSpecTypeKey</key>
\t\t\t<string>NSStringPluralRuleType</string>
\t\t\t<key>NSStringFormatValueTypeKey</key>
\t\t\t<string>d</string>
\t\t\t<key>one</key>
\t\t\t<string>%d file</string>
\t\t\t<key>other</key>
\t\t\t<string>%d files</string>
\t\t</dict>
\t</dict>
</dict>
</plist>
`;

    it('when an app has en.lproj with Localizable.strings, Localizable.stringsdict and InfoPlist.strings, then one file set per file, the stringsdict its own namespace, pt-BR and zh-Hant spelled as Apple does', async () => {
      const root = await tree({
        'MyApp/en.lproj/Localizable.strings': strings({ welcome: 'Welcome', bye: 'Bye' }),
        'MyApp/en.lproj/Localizable.stringsdict': stringsdict('files_count'),
        'MyApp/en.lproj/InfoPlist.strings': strings({ CFBundleDisplayName: 'My App' }),
        'MyApp/pl.lproj/Localizable.strings': strings({ welcome: 'Witaj' }),
        'MyApp/pt-BR.lproj/Localizable.strings': strings({ welcome: 'Bem-vindo' }),
        'MyApp/pt-BR.lproj/Localizable.stringsdict': stringsdict('files_count'),
        'MyApp/zh-Hant.lproj/InfoPlist.strings': strings({ CFBundleDisplayName: '我的應用' }),
        'MyApp/Base.lproj/Main.storyboard': '<document/>\n',
        'MyApp/pl.lproj/Main.strings': strings({ 'abc-12-xyz': 'Tytuł' }),
        'build/Release/MyApp.app/de.lproj/Localizable.strings': strings({ welcome: 'Willkommen' }),
        'DerivedData/MyApp/Build/fr.lproj/Localizable.strings': strings({ welcome: 'Bienvenue' }),
        'Pods/SomeKit/Resources/it.lproj/Localizable.strings': strings({ welcome: 'Benvenuto' }),
        'Carthage/Checkouts/Kit/es.lproj/Localizable.strings': strings({ welcome: 'Hola' }),
      });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets).toEqual([
        {
          fileSet: {
            path: 'MyApp/{locale}.lproj/InfoPlist.strings',
            format: 'strings',
            namespace: 'InfoPlist',
          },
          locales: ['en', 'zh-Hant'],
          files: ['MyApp/en.lproj/InfoPlist.strings', 'MyApp/zh-Hant.lproj/InfoPlist.strings'],
        },
        {
          fileSet: {
            path: 'MyApp/{locale}.lproj/Localizable.strings',
            format: 'strings',
            namespace: 'Localizable',
          },
          locales: ['en', 'pl', 'pt-BR'],
          files: [
            'MyApp/en.lproj/Localizable.strings',
            'MyApp/pl.lproj/Localizable.strings',
            'MyApp/pt-BR.lproj/Localizable.strings',
          ],
        },
        {
          fileSet: {
            path: 'MyApp/{locale}.lproj/Localizable.stringsdict',
            format: 'stringsdict',
            namespace: 'Localizable-stringsdict',
          },
          locales: ['en', 'pt-BR'],
          files: ['MyApp/en.lproj/Localizable.stringsdict', 'MyApp/pt-BR.lproj/Localizable.stringsdict'],
        },
      ]);
      expect(proposal.sourceLocale).toBe('en');
      expect(proposal.targetLocales).toEqual(['pl', 'pt-BR', 'zh-Hant']);
    });

    it("when the project's developmentRegion names a language, then that folder is the source, though another has more files", async () => {
      const root = await tree({
        'App.xcodeproj/project.pbxproj':
          '// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA = {\n\t\t\tdevelopmentRegion = "pt-BR";\n\t\t\tknownRegions = (en, "pt-BR", Base);\n\t\t};\n\t};\n}\n',
        'App/pt-BR.lproj/Localizable.strings': strings({ welcome: 'Bem-vindo' }),
        'App/en.lproj/Localizable.strings': strings({ welcome: 'Welcome', bye: 'Bye' }),
        'App/en.lproj/Extra.strings': strings({ more: 'More' }),
      });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
        { path: 'App/{locale}.lproj/Localizable.strings', format: 'strings' },
      ]);
      expect(proposal.sourceLocale).toBe('pt-BR');
      expect(proposal.targetLocales).toEqual(['en']);
    });

    it('when only Base.lproj holds the strings files, then they are the source files and the source locale is left to --source', async () => {
      const root = await tree({
        'App/Base.lproj/Localizable.strings': strings({ welcome: 'Welcome' }),
        'App/Base.lproj/Main.storyboard': '<document/>\n',
        'App/Base.lproj/Main.strings': strings({ 'abc-12-xyz': 'Title' }),
      });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets).toEqual([
        {
          fileSet: {
            path: 'App/{locale}.lproj/Localizable.strings',
            format: 'strings',
            source: 'App/Base.lproj/Localizable.strings',
          },
          locales: [],
          files: ['App/Base.lproj/Localizable.strings'],
        },
      ]);
      expect(proposal.sourceLocale).toBeUndefined();
      expect(proposal.notes.join('\n')).toContain(
        'App/Base.lproj holds the only strings files of App: they are the source, written in the locale --source names (en when not given)',
      );
    });

    it('when Base.lproj and en.lproj both hold strings files, then en.lproj is the source and Base is left out with a note', async () => {
      const root = await tree({
        'App/Base.lproj/Localizable.strings': strings({ welcome: 'Welcome' }),
        'App/en.lproj/Localizable.strings': strings({ welcome: 'Welcome' }),
        'App/pl.lproj/Localizable.strings': '"welcome" = "Witaj"',
      });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
        { path: 'App/{locale}.lproj/Localizable.strings', format: 'strings' },
      ]);
      expect(proposal.sourceLocale).toBe('en');
      expect(proposal.fileSets[0]!.locales).toEqual(['en']);
      expect(proposal.notes).toEqual([
        'App/pl.lproj/Localizable.strings was left out: App/pl.lproj/Localizable.strings:1:20: ";" is missing after the value of "welcome"',
        "App/Base.lproj/Localizable.strings left out: Base.lproj is Interface Builder's; the strings of en are in en.lproj",
      ]);
    });
  });

  describe('gettext', () => {
    const header = (language: string, pluralForms: string) =>
      `msgid ""\nmsgstr ""\n"Language: ${language}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: ${pluralForms}\\n"\n\n`;
    const catalog = (language: string, pluralForms: string, msgstr = '') =>
      `${header(language, pluralForms)}msgid "Hello"\nmsgstr "${msgstr}"\n`;

    it('when po/messages.pot has catalogs beside it, then po/{locale}.po with the POT as the source, pt_BR spelled as gettext does', async () => {
      const root = await tree({
        'po/messages.pot': catalog('', 'nplurals=INTEGER; plural=EXPRESSION;'),
        'po/pl.po': catalog(
          'pl',
          'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
          'Cześć',
        ),
        'po/pt_BR.po': catalog('pt_BR', 'nplurals=2; plural=(n > 1);', 'Olá'),
        'po/zh_Hant.po': catalog('zh_Hant', 'nplurals=1; plural=0;', '你好'),
        'po/broken.po': 'msgid "x"\n',
        'build/po/de.po': catalog('de', 'nplurals=2; plural=(n != 1);', 'Hallo'),
      });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets).toEqual([
        {
          fileSet: { path: 'po/{locale}.po', format: 'po', source: 'po/messages.pot' },
          locales: ['pl', 'pt-BR', 'zh-Hant'],
          files: ['po/messages.pot', 'po/pl.po', 'po/pt_BR.po', 'po/zh_Hant.po'],
        },
      ]);
      expect(proposal.sourceLocale).toBeUndefined();
      expect(proposal.targetLocales).toEqual(['pl', 'pt-BR', 'zh-Hant']);
      expect(proposal.notes).toEqual([
        'po/messages.pot names no locale: the source locale is the one --source names (en when not given)',
      ]);
    });

    it('when only a POT exists, then {locale}.po beside it', async () => {
      const root = await tree({ 'locale/app.pot': catalog('', '') });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
        { path: 'locale/{locale}.po', format: 'po', source: 'locale/app.pot' },
      ]);
    });

    it('when the catalogs are in {locale}/LC_MESSAGES below the POT, then that layout with the POT as the source', async () => {
      const root = await tree({
        'locale/django.pot': catalog('', ''),
        'locale/pl/LC_MESSAGES/django.po': catalog('pl', 'nplurals=1; plural=0;', 'Cześć'),
        'locale/pt_BR/LC_MESSAGES/django.po': catalog('pt_BR', 'nplurals=1; plural=0;', 'Olá'),
      });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
        { path: 'locale/{locale}/LC_MESSAGES/django.po', format: 'po', source: 'locale/django.pot' },
      ]);
      expect(proposal.targetLocales).toEqual(['pl', 'pt-BR']);
    });

    it("when a Sphinx project's POT is in _build/gettext and its catalogs in locales/{locale}/LC_MESSAGES, then the POT is their source", async () => {
      const root = await tree({
        'docs/_build/gettext/index.pot': catalog('', ''),
        'docs/locales/pl/LC_MESSAGES/index.po': catalog('pl', 'nplurals=1; plural=0;', 'Cześć'),
        'docs/locales/pt_BR/LC_MESSAGES/index.po': catalog('pt_BR', 'nplurals=1; plural=0;', 'Olá'),
      });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets).toEqual([
        {
          fileSet: {
            path: 'docs/locales/{locale}/LC_MESSAGES/index.po',
            format: 'po',
            source: 'docs/_build/gettext/index.pot',
          },
          locales: ['pl', 'pt-BR'],
          files: [
            'docs/_build/gettext/index.pot',
            'docs/locales/pl/LC_MESSAGES/index.po',
            'docs/locales/pt_BR/LC_MESSAGES/index.po',
          ],
        },
      ]);
    });

    it('when a Django app has locale/{locale}/LC_MESSAGES/django.po and djangojs.po with no POT, then a file set per domain, English the source', async () => {
      const root = await tree({
        'locale/en/LC_MESSAGES/django.po': catalog('en', 'nplurals=2; plural=(n != 1);'),
        'locale/pl/LC_MESSAGES/django.po': catalog('pl', 'nplurals=1; plural=0;', 'Cześć'),
        'locale/pt_BR/LC_MESSAGES/django.po': catalog('pt_BR', 'nplurals=1; plural=0;', 'Olá'),
        'locale/en/LC_MESSAGES/djangojs.po': catalog('en', 'nplurals=2; plural=(n != 1);'),
      });
      const proposal = await detectLayout(root);
      expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
        { path: 'locale/{locale}/LC_MESSAGES/django.po', format: 'po', namespace: 'django' },
        { path: 'locale/{locale}/LC_MESSAGES/djangojs.po', format: 'po', namespace: 'djangojs' },
      ]);
      expect(proposal.sourceLocale).toBe('en');
      expect(proposal.targetLocales).toEqual(['pl', 'pt-BR']);
    });
  });
});

describe('detectLayout: Xcode String Catalogs', () => {
  const catalog = (sourceLanguage: string, localizations: string[], version = '1.0') => ({
    sourceLanguage,
    strings: {
      Cancel: {
        localizations: Object.fromEntries(
          localizations.map((locale) => [locale, { stringUnit: { state: 'translated', value: 'x' } }]),
        ),
      },
      Done: {},
    },
    version,
  });

  it('when an iOS app has a Localizable.xcstrings, then one xcstrings file set of that file, its sourceLanguage the source locale, and build copies are not looked at', async () => {
    const root = await tree({
      'App/Resources/Localizable.xcstrings': catalog('en', ['de', 'fr', 'zh-Hans']),
      'App/App.swift': 'import SwiftUI\n',
      'DerivedData/App/Build/Localizable.xcstrings': catalog('en', ['it']),
      'Pods/SomeKit/Resources/Localizable.xcstrings': catalog('en', ['es']),
      'build/Localizable.xcstrings': catalog('en', ['ja']),
      '.build/checkouts/Lib/Localizable.xcstrings': catalog('en', ['ko']),
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets).toEqual([
      {
        fileSet: { path: 'App/Resources/Localizable.xcstrings', format: 'xcstrings' },
        locales: ['de', 'en', 'fr', 'zh-Hans'],
        files: ['App/Resources/Localizable.xcstrings'],
      },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de', 'fr', 'zh-Hans']);
    expect(proposal.notes).toEqual([]);
  });

  it('when the catalog is written in German, then de is the source locale, even with no German localization in it', async () => {
    const root = await tree({ 'Localizable.xcstrings': catalog('de', ['en']) });
    const proposal = await detectLayout(root);
    expect(proposal.sourceLocale).toBe('de');
    expect(proposal.targetLocales).toEqual(['en']);
  });

  it('when an app has two catalogs, then each is a namespace named after its file', async () => {
    const root = await tree({
      'App/Localizable.xcstrings': catalog('en', ['de']),
      'App/InfoPlist.xcstrings': catalog('en', ['de', 'pl']),
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'App/InfoPlist.xcstrings', format: 'xcstrings', namespace: 'InfoPlist' },
      { path: 'App/Localizable.xcstrings', format: 'xcstrings', namespace: 'Localizable' },
    ]);
    expect(proposal.targetLocales).toEqual(['de', 'pl']);
  });

  it('when a catalog is of a version Tolk does not know, then it is left out with a note naming the version', async () => {
    const root = await tree({ 'Localizable.xcstrings': catalog('en', ['de'], '9.9') });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets).toEqual([]);
    expect(proposal.notes).toHaveLength(1);
    expect(proposal.notes[0]).toMatch(
      /^Localizable\.xcstrings was left out: .*version "9\.9".*supported: 1\.0, 1\.1/,
    );
  });
});
