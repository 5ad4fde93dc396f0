/**
 * detectLayout on the usual layouts around the real apps' (built here): JSON namespace folders
 * wherever they live, i18next keys with dots, Android modules, Java bundles of any name, Flutter's
 * intl_utils settings, Symfony's and Angular's XLIFF, gettext's po/ folder.
 */
import { describe, expect, it } from 'vitest';
import { detectLayout } from '../../src/init/detect-layout.js';
import { temporaryTrees } from '../support/temp-tree.js';

const tree = temporaryTrees('tolk-usual-');

describe('detectLayout: JSON namespace folders', () => {
  it.each([
    'public/locales',
    'src/i18n',
    'frontend/src/i18n/locales',
    'src/assets/i18n',
    'packages/ui/translations',
    'app/lang',
  ])('when the locale folders are in %s, then {locale}/{namespace}.json there', async (dir) => {
    const root = await tree({
      [`${dir}/en/common.json`]: { save: 'Save', cancel: 'Cancel' },
      [`${dir}/en/home.json`]: { title: 'Welcome' },
      [`${dir}/de/common.json`]: { save: 'Speichern' },
      [`${dir}/pt-BR/home.json`]: { title: 'Bem-vindo' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: `${dir}/{locale}/{namespace}.json`, format: 'json' },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de', 'pt-BR']);
    expect(proposal.notes).toEqual([]);
  });

  it('when i18next keys are sentences with dots (keySeparator: false) and some are plural, then the folder is found as i18next all the same', async () => {
    const root = await tree({
      'web/src/i18n/locales/en/translation.json': {
        'Please paste your token.': 'Please paste your token.',
        'Deleted {{ count }} item._one': 'x',
        '{{count}} node_one': '{{count}} node',
        '{{count}} node_other': '{{count}} nodes',
        'Current//context:cluster': 'Current',
      },
      'web/src/i18n/locales/pl/translation.json': {
        'Please paste your token.': 'Wklej swój token.',
        '{{count}} node_one': '{{count}} węzeł',
        '{{count}} node_few': '{{count}} węzły',
        '{{count}} node_many': '{{count}} węzłów',
        '{{count}} node_other': '{{count}} węzła',
      },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets).toEqual([
      {
        fileSet: { path: 'web/src/i18n/locales/{locale}/{namespace}.json', format: 'i18next' },
        locales: ['en', 'pl'],
        files: ['web/src/i18n/locales/en/translation.json', 'web/src/i18n/locales/pl/translation.json'],
      },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['pl']);
    expect(proposal.notes).toEqual([]);
  });

  it('when react-intl ids end in _one or _many with no _other (Mastodon), then plain json, not i18next plurals', async () => {
    const root = await tree({
      'app/javascript/app/locales/en.json': {
        'account.familiar_followers_one': 'Followed by {name1}',
        'account.familiar_followers_many':
          'Followed by {name1}, {name2}, and {othersCount, plural, one {one other} other {# others}}',
        'server_banner.is_one_of_many': 'one of many',
      },
      'app/javascript/app/locales/de.json': { 'account.familiar_followers_one': 'Gefolgt von {name1}' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'app/javascript/app/locales/{locale}.json', format: 'json' },
    ]);
  });

  it('when a JSON file that is not text (an array, numbers) is named like a locale, then it is left out, the locale files kept', async () => {
    const root = await tree({
      'src/locales/en.json': { hello: 'Hello' },
      'src/locales/de.json': { hello: 'Hallo' },
      'src/locales/whitelist_de.json': [],
      'src/locales/sizes.fr.json': { width: 10 },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'src/locales/{locale}.json', format: 'json' },
    ]);
    expect(proposal.notes.map((note) => note.split(' was left out')[0]).sort()).toEqual([
      'src/locales/sizes.fr.json',
      'src/locales/whitelist_de.json',
    ]);
  });
});

describe('detectLayout: Android, Java, Flutter, XLIFF, gettext', () => {
  const resources = (attributes = '') =>
    `<?xml version="1.0" encoding="utf-8"?>\n<resources${attributes}>\n    <string name="hello">Hello</string>\n</resources>\n`;

  it('when an Android app has several modules, then a file set per module, each a namespace named after it', async () => {
    const root = await tree({
      'app/src/main/res/values/strings.xml': resources(),
      'app/src/main/res/values-de/strings.xml': resources(),
      'app/src/main/res/values-zh-rCN/strings.xml': resources(),
      'feature/settings/src/main/res/values/strings.xml': resources(),
      'feature/settings/src/main/res/values-de/strings.xml': resources(),
      'feature/settings/src/main/res/values-pt-rBR/strings.xml': resources(),
      'app/src/test/res/values-fr/strings.xml': resources(),
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      {
        path: 'app/src/main/res/values-{locale}/strings.xml',
        format: 'android',
        source: 'app/src/main/res/values/strings.xml',
        namespace: 'app',
      },
      {
        path: 'feature/settings/src/main/res/values-{locale}/strings.xml',
        format: 'android',
        source: 'feature/settings/src/main/res/values/strings.xml',
        namespace: 'feature-settings',
      },
    ]);
    expect(proposal.sourceLocale).toBeUndefined();
    expect(proposal.targetLocales).toEqual(['de', 'pt-BR', 'zh-CN']);
  });

  it('when values/strings.xml declares tools:locale, then that is the source locale, and a values-en is left as it is when it is English', async () => {
    const spanish = await detectLayout(
      await tree({
        'app/src/main/res/values/strings.xml': resources(
          ' xmlns:tools="http://schemas.android.com/tools" tools:locale="es"',
        ),
        'app/src/main/res/values-en/strings.xml': resources(),
      }),
    );
    expect(spanish.sourceLocale).toBe('es');
    expect(spanish.targetLocales).toEqual(['en']);

    const english = await detectLayout(
      await tree({
        'app/src/main/res/values/strings.xml': resources(),
        'app/src/main/res/values-en/strings.xml': resources(),
        'app/src/main/res/values-de/strings.xml': resources(),
      }),
    );
    expect(english.sourceLocale).toBe('en');
    expect(english.targetLocales).toEqual(['de']);
    expect(english.notes).toEqual([
      'app/src/main/res/values-en/strings.xml is left as it is: app/src/main/res/values/strings.xml is the source of en',
    ]);
  });

  it('when Java bundles of any base name have no base file (Labels_en, Labels_de, Labels_pt_BR), then the English file is the source', async () => {
    const dir = 'modules/ui/src/main/resources/org/example/app/ui/i18n';
    const root = await tree({
      [`${dir}/Labels_en.properties`]: 'save=Save\ncancel=Cancel\n',
      [`${dir}/Labels_de.properties`]: 'save=Speichern\n',
      [`${dir}/Labels_pt_BR.properties`]: 'save=Salvar\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets).toEqual([
      {
        fileSet: { path: `${dir}/Labels_{locale}.properties`, format: 'properties' },
        locales: ['de', 'en', 'pt-BR'],
        files: [
          `${dir}/Labels_de.properties`,
          `${dir}/Labels_en.properties`,
          `${dir}/Labels_pt_BR.properties`,
        ],
      },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de', 'pt-BR']);
  });

  it('when a bundle has a base file and an English one (Name.properties, Name_en.properties), then the base is the source of en and the English file is left as it is', async () => {
    const root = await tree({
      'src/main/resources/Name.properties': 'save=Save\n',
      'src/main/resources/Name_en.properties': 'save=Save\n',
      'src/main/resources/Name_de.properties': 'save=Speichern\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      {
        path: 'src/main/resources/Name_{locale}.properties',
        format: 'properties',
        source: 'src/main/resources/Name.properties',
      },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de']);
    expect(proposal.notes).toEqual([
      'src/main/resources/Name_en.properties is left as it is: src/main/resources/Name.properties is the source of en',
    ]);
  });

  it("when a Flutter app uses intl_utils (pubspec.yaml's flutter_intl), then its arb_dir and main_locale", async () => {
    const root = await tree({
      'pubspec.yaml': 'name: app\nflutter_intl:\n  enabled: true\n  arb_dir: lib/i18n\n  main_locale: de\n',
      'lib/i18n/intl_de.arb': { '@@locale': 'de', hello: 'Hallo', bye: 'Tschüss' },
      'lib/i18n/intl_en.arb': { '@@locale': 'en', hello: 'Hello' },
      'lib/i18n/intl_zh_Hant.arb': { '@@locale': 'zh_Hant', hello: '你好' },
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'lib/i18n/intl_{locale}.arb', format: 'arb' },
    ]);
    expect(proposal.sourceLocale).toBe('de');
    expect(proposal.targetLocales).toEqual(['en', 'zh-Hant']);
  });

  const xliff = (source: string, target?: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n` +
    `  <file source-language="${source}"${target ? ` target-language="${target}"` : ''} datatype="plaintext" original="x">\n` +
    `    <body><trans-unit id="hello"><source>Hello</source>${target ? '<target>Hallo</target>' : ''}</trans-unit></body>\n` +
    '  </file>\n</xliff>\n';

  it("when an Angular app's messages.xlf says source-language, then that is the source locale", async () => {
    const root = await tree({
      'src/locale/messages.xlf': xliff('de'),
      'src/locale/messages.en.xlf': xliff('de', 'en'),
      'src/locale/messages.fr.xlf': xliff('de', 'fr'),
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'src/locale/messages.{locale}.xlf', format: 'xliff', source: 'src/locale/messages.xlf' },
    ]);
    expect(proposal.sourceLocale).toBe('de');
    expect(proposal.targetLocales).toEqual(['en', 'fr']);
  });

  it('when a Symfony app has translations/messages.en.xlf and validators.en.xlf with their locales, then a file set per domain, English the source', async () => {
    const root = await tree({
      'translations/messages.en.xlf': xliff('en', 'en'),
      'translations/messages.de.xlf': xliff('en', 'de'),
      'translations/validators.en.xlf': xliff('en', 'en'),
      'translations/validators.de.xlf': xliff('en', 'de'),
      'translations/validators.pl.xlf': xliff('en', 'pl'),
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
      { path: 'translations/messages.{locale}.xlf', format: 'xliff', namespace: 'messages' },
      { path: 'translations/validators.{locale}.xlf', format: 'xliff', namespace: 'validators' },
    ]);
    expect(proposal.sourceLocale).toBe('en');
    expect(proposal.targetLocales).toEqual(['de', 'pl']);
  });

  it('when a GNOME-style po/ folder has the POT, LINGUAS and an en_GB catalog, then po/{locale}.po with the POT as the source and en-GB a target', async () => {
    const catalog = (language: string) =>
      `msgid ""\nmsgstr ""\n"Language: ${language}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr "${language ? 'Hi' : ''}"\n`;
    const root = await tree({
      'po/app.pot': catalog(''),
      'po/LINGUAS': 'de en_GB\n',
      'po/POTFILES.in': 'src/main.c\n',
      'po/de.po': catalog('de'),
      'po/en_GB.po': catalog('en_GB'),
      'src/main.c': 'int main(void) { return 0; }\n',
    });
    const proposal = await detectLayout(root);
    expect(proposal.fileSets).toEqual([
      {
        fileSet: { path: 'po/{locale}.po', format: 'po', source: 'po/app.pot' },
        locales: ['de', 'en-GB'],
        files: ['po/app.pot', 'po/de.po', 'po/en_GB.po'],
      },
    ]);
    expect(proposal.sourceLocale).toBeUndefined();
    expect(proposal.targetLocales).toEqual(['de', 'en-GB']);
  });
});
