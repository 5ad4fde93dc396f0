/**
 * The formats' own states are honoured (DESIGN §15), end to end against the real system with the
 * model stand-in: what a target file marks as not translated (XLIFF `new`, `needs-translation`,
 * 2.0 `initial`, no target; a String Catalog's `new`; gettext's empty msgstr and `#, fuzzy`; an
 * empty string in JSON, ARB, YAML, properties and .strings) is missing: `translate` asks the model
 * for it, and it is never stored as a person's translation nor uploaded by `push` as a local edit.
 * A String Catalog's `needs_review` is a translation a person should look at: kept, as a person's.
 */
import { describe, expect, it } from 'vitest';
import { fileSetProject, systemWithModel } from './support/file-set-project.js';

type Fixture = {
  name: string;
  files: unknown;
  /** The source and the Polish file: `a` translated, `b` and `c` not, each in its format's way. */
  source: [string, string];
  polish: [string, string];
  /** The Polish file after translate with `a` marked as not translated again, and another text. */
  untranslate: (written: string) => string;
  /** A key the file keeps as a person's although it is marked (needs_review): not asked. */
  kept?: string;
  /** The keys of a, b and c on the server, where the format names them otherwise (gettext's msgids). */
  keys?: Record<string, string>;
};

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

const xliff12 = (units: string) =>
  `<?xml version="1.0" encoding="UTF-8" ?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n` +
  `  <file source-language="en" target-language="pl" datatype="plaintext" original="ng2.template">\n    <body>\n${units}    </body>\n  </file>\n</xliff>\n`;
const unit12 = (id: string, source: string, target?: string) =>
  `      <trans-unit id="${id}">\n        <source>${source}</source>\n${target ?? ''}      </trans-unit>\n`;

const xliff20 = (units: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="pl">\n` +
  `  <file id="ngi18n" original="ng.template">\n${units}  </file>\n</xliff>\n`;
const unit20 = (id: string, source: string, segment = '<segment>', target = '') =>
  `    <unit id="${id}">\n      ${segment}\n        <source>${source}</source>\n${target}      </segment>\n    </unit>\n`;

const stringUnit = (state: string, value: string) => ({ stringUnit: { state, value } });
const catalog = (pl: Record<string, unknown>) =>
  JSON.stringify(
    {
      sourceLanguage: 'en',
      strings: Object.fromEntries(
        ['a', 'b', 'c'].map((key) => [
          key,
          {
            localizations: {
              en: stringUnit('translated', `Text ${key.toUpperCase()}`),
              ...(pl[key] ? { pl: pl[key] } : {}),
            },
          },
        ]),
      ),
      version: '1.0',
    },
    null,
    2,
  );

const SOURCE_TEXTS = { a: 'Text A', b: 'Text B', c: 'Text C' };

const FIXTURES: Fixture[] = [
  {
    name: 'json: an empty string',
    files: [{ path: 'locales/{locale}.json', format: 'json' }],
    source: ['locales/en.json', json(SOURCE_TEXTS)],
    polish: ['locales/pl.json', json({ a: 'Tekst A', b: '', c: '' })],
    untranslate: (written) => written.replace(/"a": "[^"]*"/, '"a": ""'),
  },
  {
    name: 'arb: an empty string',
    files: [{ path: 'l10n/app_{locale}.arb', format: 'arb' }],
    source: ['l10n/app_en.arb', json(SOURCE_TEXTS)],
    polish: ['l10n/app_pl.arb', json({ a: 'Tekst A', b: '', c: '' })],
    untranslate: (written) => written.replace(/"a": "[^"]*"/, '"a": ""'),
  },
  {
    name: 'yaml: an empty string',
    files: [{ path: 'config/locales/{locale}.yml', format: 'yaml', rails: true }],
    source: ['config/locales/en.yml', 'en:\n  a: Text A\n  b: Text B\n  c: Text C\n'],
    polish: ['config/locales/pl.yml', 'pl:\n  a: Tekst A\n  b: ""\n  c: \'\'\n'],
    untranslate: (written) => written.replace(/ {2}a: .*/, '  a: ""'),
  },
  {
    name: 'properties: an empty value',
    files: [
      { path: 'i18n/messages_{locale}.properties', format: 'properties', source: 'i18n/messages.properties' },
    ],
    source: ['i18n/messages.properties', 'a=Text A\nb=Text B\nc=Text C\n'],
    polish: ['i18n/messages_pl.properties', 'a=Tekst A\nb=\nc=\n'],
    untranslate: (written) => written.replace(/^a=.*$/m, 'a='),
  },
  {
    name: 'strings: an empty string',
    files: [{ path: 'App/{locale}.lproj/Localizable.strings', format: 'strings' }],
    source: ['App/en.lproj/Localizable.strings', '"a" = "Text A";\n"b" = "Text B";\n"c" = "Text C";\n'],
    polish: ['App/pl.lproj/Localizable.strings', '"a" = "Tekst A";\n"b" = "";\n"c" = "";\n'],
    untranslate: (written) => written.replace(/"a" = "[^"]*";/, '"a" = "";'),
  },
  {
    name: 'po: an empty msgstr and a fuzzy entry',
    files: [{ path: 'po/{locale}.po', format: 'po', source: 'po/messages.pot' }],
    source: [
      'po/messages.pot',
      'msgid ""\nmsgstr ""\n\nmsgid "Text A"\nmsgstr ""\n\nmsgid "Text B"\nmsgstr ""\n\nmsgid "Text C"\nmsgstr ""\n',
    ],
    polish: [
      'po/pl.po',
      'msgid ""\nmsgstr ""\n"Language: pl\\n"\n\nmsgid "Text A"\nmsgstr "Tekst A"\n\nmsgid "Text B"\nmsgstr ""\n\n#, fuzzy\nmsgid "Text C"\nmsgstr "Stary tekst C"\n',
    ],
    untranslate: (written) =>
      written.replace(/msgid "Text A"\nmsgstr "[^"]*"/, '#, fuzzy\nmsgid "Text A"\nmsgstr "Zgadnięty A"'),
    keys: { a: 'Text A', b: 'Text B', c: 'Text C' },
  },
  {
    name: 'xliff 1.2: new, needs-translation and no target',
    files: [{ path: 'locale/messages.{locale}.xlf', format: 'xliff', source: 'locale/messages.xlf' }],
    source: [
      'locale/messages.xlf',
      xliff12(unit12('a', 'Text A') + unit12('b', 'Text B') + unit12('c', 'Text C')),
    ],
    polish: [
      'locale/messages.pl.xlf',
      xliff12(
        unit12('a', 'Text A', '        <target state="translated">Tekst A</target>\n') +
          unit12('b', 'Text B', '        <target state="new">Text B</target>\n') +
          unit12('c', 'Text C', '        <target state="needs-translation">Text C</target>\n'),
      ),
    ],
    untranslate: (written) =>
      written.replace(
        /(<trans-unit id="a">\s*<source>Text A<\/source>\s*)<target[^>]*>[^<]*<\/target>/,
        '$1',
      ),
  },
  {
    name: 'xliff 2.0: initial',
    files: [{ path: 'locale/messages.{locale}.xlf', format: 'xliff', source: 'locale/messages.xlf' }],
    source: [
      'locale/messages.xlf',
      xliff20(unit20('a', 'Text A') + unit20('b', 'Text B') + unit20('c', 'Text C')).replace(
        ' trgLang="pl"',
        '',
      ),
    ],
    polish: [
      'locale/messages.pl.xlf',
      xliff20(
        unit20('a', 'Text A', '<segment state="translated">', '        <target>Tekst A</target>\n') +
          unit20('b', 'Text B', '<segment state="initial">', '        <target>Text B</target>\n') +
          unit20('c', 'Text C', '<segment state="initial">', '        <target>Text C</target>\n'),
      ),
    ],
    untranslate: (written) =>
      written.replace(
        /(<unit id="a">\s*)<segment state="translated">(\s*<source>Text A<\/source>\s*<target>)[^<]*/,
        '$1<segment state="initial">$2Zgadnięty A',
      ),
  },
  {
    name: 'xcstrings: new, and needs_review kept',
    files: [{ path: 'App/Localizable.xcstrings', format: 'xcstrings' }],
    source: ['App/Localizable.xcstrings', catalog({})],
    polish: [
      'App/Localizable.xcstrings',
      catalog({
        a: stringUnit('translated', 'Tekst A'),
        b: stringUnit('new', 'Text B'),
        c: stringUnit('needs_review', 'Tekst C do przejrzenia'),
      }),
    ],
    untranslate: (written) => {
      const parsed = JSON.parse(written) as {
        strings: Record<string, { localizations: Record<string, unknown> }>;
      };
      parsed.strings['a']!.localizations['pl'] = stringUnit('new', 'Zgadnięty A');
      return JSON.stringify(parsed, null, 2);
    },
    kept: 'c',
  },
];

describe('what a file marks as not translated is missing', () => {
  const world = systemWithModel();

  it.each(FIXTURES.map((fixture) => [fixture.name, fixture] as const))(
    '%s: translate asks the model for it, it is never stored as a person’s, and push never uploads it as an edit',
    async (_, fixture) => {
      const {
        tolk,
        translate: translateWith,
        write,
        read,
        stored,
        remove,
      } = await fileSetProject({
        ...world,
        targets: ['pl'],
        files: fixture.files,
        contents: Object.fromEntries([fixture.source]),
      });
      try {
        expect((await tolk('push')).code).toBe(0);
        await write(...fixture.polish);

        world.model.requests.length = 0;
        const translate = await translateWith();
        expect(translate.code, translate.stderr).toBe(0);
        const asked = world.model.stringsReceived().flatMap((strings) => Object.values(strings));
        const notTranslated = ['b', 'c'].filter((key) => key !== fixture.kept);
        expect(asked.sort()).toEqual(notTranslated.map((key) => SOURCE_TEXTS[key as 'b' | 'c']));

        const after = await stored('pl');
        const keyOf = (name: string) => fixture.keys?.[name] ?? name;
        expect(after.values[keyOf('a')]).toBe('Tekst A');
        expect(after.provenance[keyOf('a')]?.by).toBe('human');
        for (const key of notTranslated) {
          expect(after.values[keyOf(key)]).toBe(`[pl] ${SOURCE_TEXTS[key as 'b' | 'c']}`);
          expect(after.provenance[keyOf(key)]?.by).toBe('ai');
        }
        if (fixture.kept) {
          expect(after.values[fixture.kept]).toBe('Tekst C do przejrzenia');
          expect(after.provenance[fixture.kept]?.by).toBe('human');
        }

        // Marked as not translated again, with another text: no edit of a person's to upload.
        const written = (await read(fixture.polish[0])).toString();
        const untranslated = fixture.untranslate(written);
        expect(untranslated).not.toBe(written);
        await write(fixture.polish[0], untranslated);
        const push = await tolk('push', '--json');
        expect(push.code, push.stderr).toBe(0);
        expect(push.json().humanEdits).toEqual([]);
        expect(await stored('pl')).toEqual(after);
      } finally {
        await remove();
      }
    },
  );
});
