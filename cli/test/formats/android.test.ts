import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import { afterAll, describe, expect, it } from 'vitest';
import { androidFormat } from '../../src/formats/android.js';
import { FormatError, formatNamed } from '../../src/formats/index.js';
import { aapt2Compile, xmllint as runXmllint } from '../support/platform-tools.js';
import { readWithFindings as readFileWithFindings } from './read-with-findings.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-android-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = `<?xml version="1.0" encoding="utf-8"?>
<!-- Copyright 2026 The App Authors -->

<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2"
    xmlns:tools="http://schemas.android.com/tools">
    <string name="app_name" translatable="false">Tolk Notes</string>
    <!-- Title of the screen that lists notes -->
    <string name="notes_title">Your notes</string>
    <string name="welcome">Welcome, <b><xliff:g id="user" example="Ana">%1$s</xliff:g></b>!</string>
    <string name="dont_lose">Don\\'t lose your \\"draft\\"</string>
    <string name="two_lines">First line\\nSecond line</string>
    <string name="at_sign">\\@handle &amp; \\?query</string>
    <string name="padded">"  spaced  out  "</string>
    <string name="html"><![CDATA[<i>Rich</i> text & more]]></string>
    <string name="alias">@string/notes_title</string>
    <color name="accent">#FF0000</color>
    <!-- Shown under the list -->
    <plurals name="notes_count">
        <item quantity="one">%d note</item>
        <item quantity="other">%d notes</item>
    </plurals>
    <string-array name="sort_orders">
        <item>By date</item>
        <item>By title</item>
    </string-array>
    <string name="empty"></string>
</resources>
`;

function read(text: string | Buffer, path = 'app/src/main/res/values/strings.xml') {
  return androidFormat.read({
    bytes: typeof text === 'string' ? Buffer.from(text) : text,
    locale: 'en',
    path,
    options: {},
  });
}

function readWithFindings(text: string) {
  return readFileWithFindings(androidFormat, text, {
    locale: 'pl',
    path: 'app/src/main/res/values-pl/strings.xml',
  });
}

function write(source: string, locale: string, values?: Record<string, string>) {
  const bytes = Buffer.from(source);
  const parsed = parseSourceDocument(read(bytes));
  const own = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  return androidFormat
    .write({
      source: bytes,
      sourceLocale: 'en',
      locale,
      valueOf: (key) => (values ? values[key] : own.get(key)),
      target: targetKeys(parsed, locale),
      options: {},
    })
    .toString('utf8');
}

function failure(run: () => unknown): FormatError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return error as FormatError;
  }
  throw new Error('expected a FormatError');
}

type Compiled = {
  strings: Map<string, string>;
  plurals: Map<string, Record<string, string>>;
  arrays: Map<string, string[]>;
};

/**
 * What aapt2 makes of a strings.xml: `aapt2 compile` must accept it, and `aapt2 dump apc` of the
 * compiled resources gives each value as the app reads it (styled text without its tags).
 */
function aapt2(xml: string, qualifier: string): Compiled {
  const values = join(mkdtempSync(join(dir, 'res-')), 'res', `values-${qualifier}`);
  mkdirSync(values, { recursive: true });
  writeFileSync(join(values, 'strings.xml'), xml);
  const { compile, dump } = aapt2Compile(join(values, 'strings.xml'));
  expect(compile.stderr).toBe('');
  expect(compile.status).toBe(0);
  // aapt2 prints values raw, a line break in one followed by the dump's indentation.
  const text = dump.replace(/\n {8}(?! *(?:resource|\(|type|\[|zero=|one=|two=|few=|many=|other=))/g, '\n');
  const result: Compiled = { strings: new Map(), plurals: new Map(), arrays: new Map() };
  for (const match of text.matchAll(
    /resource \S+ string\/(\S+)\n\s+\([^)]*\) (?:\(styled string\) )?"([\s\S]*?)" (?:[\w-]+:[\d,]+ )*src=/g,
  )) {
    result.strings.set(match[1]!, match[2]!);
  }
  for (const match of text.matchAll(
    /resource \S+ plurals\/(\S+)\n\s+\([^)]*\) \(plurals\)[^\n]*\n((?:\s+\w+="[^\n]*"\n)+)/g,
  )) {
    const forms: Record<string, string> = {};
    for (const form of match[2]!.matchAll(/(\w+)="(.*)"\n/g)) forms[form[1]!] = form[2]!;
    result.plurals.set(match[1]!, forms);
  }
  for (const match of text.matchAll(
    /resource \S+ array\/(\S+)\n\s+\([^)]*\) \(array\)[^\n]*\n\s+\["(.*)"\]\n/g,
  )) {
    result.arrays.set(match[1]!, match[2]!.split('", "'));
  }
  return result;
}

function xmllint(xml: string): void {
  const file = join(mkdtempSync(join(dir, 'lint-')), 'strings.xml');
  writeFileSync(file, xml);
  const run = runXmllint(file);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
}

describe('android format: reading', () => {
  it('is registered under its name', () => {
    expect(formatNamed('android')).toBe(androidFormat);
  });

  it('reads strings, plurals as ICU, arrays as numbered keys, comments as context; leaves out what is not to translate', () => {
    const document = read(SOURCE);
    expect(document).toEqual({
      notes_title: 'Your notes',
      '@notes_title': { description: 'Title of the screen that lists notes' },
      welcome: 'Welcome, <b><xliff:g id="user" example="Ana">%1$s</xliff:g></b>!',
      dont_lose: 'Don\'t lose your "draft"',
      two_lines: 'First line\nSecond line',
      at_sign: '@handle & ?query',
      padded: '  spaced  out  ',
      html: '<i>Rich</i> text & more',
      notes_count: '{count, plural, one {%d note} other {%d notes}}',
      '@notes_count': { description: 'Shown under the list' },
      'sort_orders.0': 'By date',
      'sort_orders.1': 'By title',
      empty: '',
    });
    // The server takes it as a source document.
    const parsed = parseSourceDocument(document);
    expect(parsed.keys).toContain('sort_orders.1');
  });

  it('collapses whitespace outside quotes as aapt2 does', () => {
    const document = read('<resources><string name="a">\n  Two\n   words  </string></resources>');
    expect(document).toEqual({ a: 'Two words' });
    expect(
      aapt2('<resources><string name="a">\n  Two\n   words  </string></resources>', 'fr').strings.get('a'),
    ).toBe('Two words');
  });
  it('reads names ending in a plural suffix (items_one, items_other) as plain strings, never an i18next plural group', () => {
    const source =
      '<resources>\n    <string name="items_one">One item</string>\n    <string name="items_other">Other items</string>\n</resources>\n';
    const parsed = parseSourceDocument(read(source));
    expect(parsed.values).toEqual(['One item', 'Other items']);
    // A Polish target is asked for the keys of the source, not for items_few and items_many.
    expect(targetKeys(parsed, 'pl').groups).toEqual([]);
    expect(targetKeys(parsed, 'pl').keys).toEqual(parsed.keys);
    const values = Object.fromEntries(parsed.keys.map((key, at) => [key, `[pl] ${parsed.values[at]!}`]));
    const written = write(source, 'pl', values);
    expect(written).toBe(source.replaceAll('>One', '>[pl] One').replaceAll('>Other', '>[pl] Other'));
    expect(write(source, 'en')).toBe(source);
  });
});

describe('android format: writing', () => {
  it('gives back the source bytes from its own values, the untranslatable left out', () => {
    const written = write(SOURCE, 'en');
    const expected = SOURCE.replace(
      '    <string name="app_name" translatable="false">Tolk Notes</string>\n',
      '',
    )
      .replace('    <string name="alias">@string/notes_title</string>\n', '')
      .replace('    <color name="accent">#FF0000</color>\n', '');
    expect(written).toBe(expected);
    xmllint(written);
    const compiled = aapt2(written, 'en');
    expect(compiled.strings.get('dont_lose')).toBe('Don\'t lose your "draft"');
    expect(compiled.strings.get('at_sign')).toBe('@handle & ?query');
    expect(compiled.strings.get('padded')).toBe('  spaced  out  ');
    expect(compiled.strings.get('welcome')).toBe('Welcome, %1$s!');
    expect(compiled.plurals.get('notes_count')).toEqual({ one: '%d note', other: '%d notes' });
  });

  it("writes a Polish target: escapes, markup kept, CDATA, the target's plural quantities, keys with no value left out", () => {
    const values: Record<string, string> = {
      notes_title: 'Twoje notatki',
      welcome: 'Witaj, <b><xliff:g id="user" example="Ana">%1$s</xliff:g></b>!',
      dont_lose: 'Nie zgub "szkicu" – to ważne\'',
      two_lines: 'Pierwsza\nDruga\tkolumna',
      at_sign: '@uchwyt & ?zapytanie <3',
      padded: ' z odstępem  ',
      html: '<i>Bogaty</i> tekst & ]]> więcej',
      notes_count: '{count, plural, one {%d notatka} few {%d notatki} many {%d notatek} other {%d notatki}}',
      'sort_orders.0': 'Według daty',
      'sort_orders.1': 'Według tytułu',
    };
    const written = write(SOURCE, 'pl', values);
    xmllint(written);
    expect(written).toContain(
      '    <!-- Title of the screen that lists notes -->\n    <string name="notes_title">Twoje notatki</string>\n',
    );
    expect(written).not.toContain('name="empty"');
    expect(written).toContain(
      '        <item quantity="one">%d notatka</item>\n        <item quantity="few">%d notatki</item>\n        <item quantity="many">%d notatek</item>\n        <item quantity="other">%d notatki</item>\n    </plurals>',
    );
    const compiled = aapt2(written, 'pl');
    expect(compiled.strings.get('notes_title')).toBe('Twoje notatki');
    expect(compiled.strings.get('welcome')).toBe('Witaj, %1$s!');
    expect(compiled.strings.get('dont_lose')).toBe('Nie zgub "szkicu" – to ważne\'');
    expect(compiled.strings.get('two_lines')).toBe('Pierwsza\nDruga\tkolumna');
    expect(compiled.strings.get('at_sign')).toBe('@uchwyt & ?zapytanie <3');
    expect(compiled.strings.get('padded')).toBe(' z odstępem  ');
    expect(compiled.strings.get('html')).toBe('<i>Bogaty</i> tekst & ]]> więcej');
    expect(compiled.strings.has('empty')).toBe(false);
    expect(compiled.plurals.get('notes_count')).toEqual({
      one: '%d notatka',
      few: '%d notatki',
      many: '%d notatek',
      other: '%d notatki',
    });
    expect(compiled.arrays.get('sort_orders')).toEqual(['Według daty', 'Według tytułu']);
    // Read back, the target says what was written.
    const back = read(written);
    for (const [key, value] of Object.entries(values)) {
      if (key !== 'notes_count') expect(back[key]).toBe(value);
    }
  });

  it('when a translation has text around its plural, then each quantity is a whole sentence with that text', () => {
    const written = write(SOURCE, 'pl', {
      notes_count:
        'Masz {count, plural, one {%d notatkę} few {%d notatki} many {%d notatek} other {%d notatki}}.',
    });
    xmllint(written);
    expect(aapt2(written, 'pl').plurals.get('notes_count')).toEqual({
      one: 'Masz %d notatkę.',
      few: 'Masz %d notatki.',
      many: 'Masz %d notatek.',
      other: 'Masz %d notatki.',
    });
  });

  it('leaves out an array with an item missing, and a Japanese plural has only other', () => {
    const written = write(SOURCE, 'ja', {
      notes_count: '{count, plural, other {%d 件のメモ}}',
      'sort_orders.0': '日付順',
    });
    xmllint(written);
    expect(written).not.toContain('string-array');
    expect(written).toContain(
      '<plurals name="notes_count">\n        <item quantity="other">%d 件のメモ</item>\n    </plurals>',
    );
    const compiled = aapt2(written, 'ja');
    expect(compiled.plurals.get('notes_count')).toEqual({ other: '%d 件のメモ' });
    expect([...compiled.strings.keys()]).toEqual([]);
  });
});

describe('android format: edge cases', () => {
  it('keeps a byte order mark and CRLF line ends, fills an empty element, keeps references in an array', () => {
    const source =
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<resources>\r\n  <string name="e"/>\r\n  <string-array name="a">\r\n    <item>@string/e</item>\r\n    <item>Two</item>\r\n  </string-array>\r\n  <string-array name="fixed" translatable="false"><item>x</item></string-array>\r\n</resources>\r\n';
    expect(read(source)).toEqual({ e: '', 'a.1': 'Two' });
    expect(write(source, 'en')).toBe(
      source.replace(
        '  <string-array name="fixed" translatable="false"><item>x</item></string-array>\r\n',
        '',
      ),
    );
    const written = write(source, 'de', { e: 'Leer', 'a.1': 'Zwei' });
    expect(written).toBe(
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<resources>\r\n  <string name="e">Leer</string>\r\n  <string-array name="a">\r\n    <item>@string/e</item>\r\n    <item>Zwei</item>\r\n  </string-array>\r\n</resources>\r\n',
    );
    xmllint(written);
    expect(aapt2(written, 'de').strings.get('e')).toBe('Leer');
  });

  it("reads a plural's apostrophes and braces as ICU text, and gives a category a message lacks its other branch", () => {
    const source =
      '<resources>\n    <plurals name="left">\n        <item quantity="one">Only {%d} item\\\'s left</item>\n        <item quantity="other">#%d items\\\' left</item>\n    </plurals>\n</resources>\n';
    const document = read(source);
    expect(document).toEqual({
      left: "{count, plural, one {Only '{'%d'}' item's left} other {'#'%d items' left}}",
    });
    expect(write(source, 'en')).toBe(source);
    const written = write(source, 'pl', {
      left: "{count, plural, one {Został '{'%d'}' element} other {Zostało '#'%d elementów}}",
    });
    xmllint(written);
    expect(aapt2(written, 'pl').plurals.get('left')).toEqual({
      one: 'Został {%d} element',
      few: 'Zostało #%d elementów',
      many: 'Zostało #%d elementów',
      other: 'Zostało #%d elementów',
    });
  });

  it('writes a file with no resources as it is', () => {
    expect(write('<resources/>\n', 'pl', {})).toBe('<resources/>\n');
  });
});

describe('android format: locales', () => {
  it.each([
    ['pl', 'pl'],
    ['pt-BR', 'pt-rBR'],
    ['zh-Hant', 'b+zh+Hant'],
    ['es-419', 'b+es+419'],
  ])('spells %s as %s and reads it back', (locale, spelled) => {
    expect(androidFormat.spellLocale(locale)).toBe(spelled);
    expect(androidFormat.readLocale(spelled)).toBe(locale);
  });

  it.each(['pt-BR', 'pt_BR', 'night', 'b+', 'en-rbr'])('reads no locale from %s', (spelled) => {
    expect(androidFormat.readLocale(spelled)).toBeUndefined();
  });
});

describe('android format: bad input', () => {
  it('names the line and column of malformed XML', () => {
    const error = failure(() => read('<resources>\n  <string name="a">x</strin>\n</resources>\n'));
    expect(error.message).toMatch(
      /^app\/src\/main\/res\/values\/strings\.xml:2:\d+: is not well-formed XML: /,
    );
    expect(error.position?.line).toBe(2);
  });

  it('refuses a DOCTYPE: no DTD, no external entity (XXE)', () => {
    const error = failure(() =>
      read(
        '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<resources><string name="a">&x;</string></resources>',
      ),
    );
    expect(error.message).toContain('has a DOCTYPE');
    expect(error.position).toEqual({ line: 2, column: 1 });
  });

  it('reads a name given twice, a plural without other and an unknown quantity as findings at their lines; refuses a root that is not resources', () => {
    const twice = readWithFindings(
      '<resources>\n<string name="a">x</string>\n<string name="a">y</string>\n</resources>',
    );
    expect(twice.document).toEqual({ a: 'x' });
    expect(twice.findings).toEqual([
      {
        key: 'a',
        kind: 'duplicate',
        severity: 'error',
        message:
          'the name "a" is given twice (lines 2, 3); the first is kept, and aapt2 refuses the file until one goes',
        file: 'app/src/main/res/values-pl/strings.xml',
        line: 3,
        column: 1,
      },
    ]);
    const noOther = readWithFindings(
      '<resources>\n<plurals name="p">\n  <item quantity="one">%d plik</item>\n  <item quantity="few">%d pliki</item>\n</plurals>\n</resources>',
    );
    expect(noOther.document).toEqual({ p: '{count, plural, one {%d plik} few {%d pliki}}' });
    expect(noOther.findings).toEqual([
      {
        key: 'p',
        kind: 'plural',
        severity: 'error',
        message:
          '<plurals name="p"> has no item of quantity "other", which every language uses; its one, few are kept',
        file: 'app/src/main/res/values-pl/strings.xml',
        line: 2,
        column: 1,
      },
    ]);
    const lots = readWithFindings(
      '<resources>\n<plurals name="p"><item quantity="lots">x</item><item quantity="other">y</item><item quantity="other">z</item></plurals>\n</resources>',
    );
    expect(lots.document).toEqual({ p: '{count, plural, other {y}}' });
    expect(lots.findings.map((finding) => [finding.kind, finding.severity, finding.line])).toEqual([
      ['format', 'warning', 2],
      ['duplicate', 'error', 2],
    ]);
    expect(lots.findings[0]!.message).toContain('an item of quantity "lots"');
    const unread = readWithFindings(
      '<resources>\n<item type="string" name="x">X</item>\n<color name="c">#fff</color>\n<string>no name</string>\n<string name="ok">OK</string>\n</resources>',
    );
    expect(unread.document).toEqual({ ok: 'OK' });
    expect(unread.findings.map((finding) => [finding.key, finding.kind, finding.line])).toEqual([
      ['x', 'format', 2],
      [null, 'format', 4],
    ]);
    expect(failure(() => read('<manifest/>')).message).toContain(
      'has no <resources> root element (it is <manifest>)',
    );
  });

  it('writes a plural without other with the forms its value has', () => {
    const source =
      '<resources>\n    <plurals name="p">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>\n</resources>\n';
    expect(write(source, 'pl', { p: '{count, plural, one {%d plik} few {%d pliki} many {%d plików}}' })).toBe(
      '<resources>\n    <plurals name="p">\n        <item quantity="one">%d plik</item>\n        <item quantity="few">%d pliki</item>\n        <item quantity="many">%d plików</item>\n    </plurals>\n</resources>\n',
    );
  });

  it('refuses an unknown entity at its place, and reads values of 200,000 characters in a few megabytes', () => {
    const entity = failure(() => read('<resources>\n<string name="a">&lol9;</string>\n</resources>'));
    expect(entity.message).toContain('is not well-formed XML');
    expect(entity.position?.line).toBe(2);
    const long = 'x '.repeat(100_000);
    const before = process.memoryUsage().heapUsed;
    const document = read(`<resources><string name="a">${long}</string></resources>`);
    expect(document['a']).toBe(long.trim());
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses bytes that are not UTF-8', () => {
    const error = failure(() => read(Buffer.from([0x3c, 0x72, 0x3e, 0xff, 0x3c, 0x2f, 0x72, 0x3e])));
    expect(error.message).toContain('is not UTF-8 text');
  });
});
