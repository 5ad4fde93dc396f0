import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError, formatNamed } from '../../src/formats/index.js';
import { indexCategories, parsePluralForms, poFormat } from '../../src/formats/po.js';
import { readWithFindings as readFileWithFindings } from './read-with-findings.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-po-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MSGFMT = '/usr/bin/msgfmt';
const MSGUNFMT = '/usr/bin/msgunfmt';

/** gettext's tools are installed here and in CI (`.ci/run`); missing, the test fails and says so. */
function tool(path: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: install Debian's gettext package`);
  return path;
}

/** msgfmt's checks on a file: the exit status and what it printed (statistics included). */
function msgfmt(bytes: Buffer, name: string) {
  const input = join(dir, name);
  writeFileSync(input, bytes);
  const result = spawnSync(
    tool(MSGFMT),
    ['--check-format', '--check-header', '--statistics', '-o', `${input}.mo`, input],
    { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
  );
  return { status: result.status, stderr: result.stderr, mo: `${input}.mo` };
}

const POT = `# Messages of the shop.
# Copyright (C) 2026 The Shop
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: shop 1.0\\n"
"Report-Msgid-Bugs-To: \\n"
"POT-Creation-Date: 2026-01-05 10:00+0000\\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
"Language-Team: LANGUAGE <LL@li.org>\\n"
"Language: \\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"

#. The title of the home page.
#: src/home.c:12
msgid "Welcome to the shop."
msgstr ""

# Keep it short: it is a button.
#: src/menu.c:40
msgctxt "menu"
msgid "Open"
msgstr ""

#: src/dialog.c:8
msgctxt "dialog"
msgid "Open"
msgstr ""

#. %d is the number of items.
#: src/cart.c:40 src/cart.c:52
#, c-format
msgid "One item in your cart"
msgid_plural "%d items in your cart"
msgstr[0] ""
msgstr[1] ""

#: src/help.c:3
msgid ""
"A long help text that goes on for more than one line, so that gettext wraps "
"it over several lines of the file."
msgstr ""

#: src/user.c:9
#, python-format
msgid "Hello, %(name)s!"
msgstr ""
`;

const SOURCE_PO = `msgid ""
msgstr ""
"Language: en\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#. Greeting
msgid "greeting"
msgstr "Hello there"

msgid "item"
msgid_plural "items"
msgstr[0] "%d item"
msgstr[1] "%d items"

#, fuzzy
msgid "draft"
msgstr "An old draft"
`;

function read(text: string, path = 'locale/messages.pot', locale = 'en') {
  return poFormat.read({ bytes: Buffer.from(text), locale, path, options: {} });
}

function readWithFindings(text: string, path = 'locale/messages.pot', locale = 'en') {
  return readFileWithFindings(poFormat, text, { locale, path });
}

function write(source: string, locale: string, values?: Record<string, string>, existing?: string) {
  const bytes = Buffer.from(source);
  const parsed = parseSourceDocument(read(source));
  const own = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  return poFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => (values ? values[key] : own.get(key)),
    target: targetKeys(parsed, locale),
    existing: existing === undefined ? undefined : Buffer.from(existing),
    options: {},
  });
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

const OPEN_MENU = 'menu\u0004Open';
const CART = 'One item in your cart';

describe('po: reading', () => {
  it('is registered, spells pt_BR and reads .po and .pot', () => {
    expect(formatNamed('po')).toBe(poFormat);
    expect(poFormat.spellLocale('pt-BR')).toBe('pt_BR');
    expect(poFormat.readLocale('pt_BR')).toBe('pt-BR');
    expect(poFormat.readLocale('pt-BR')).toBeUndefined();
    expect(poFormat.extensions).toEqual(['.po', '.pot']);
  });

  it('reads a POT: msgids as values, contexts in keys, comments as descriptions, plurals as ICU', () => {
    const document = read(POT);
    expect(document).toEqual({
      'Welcome to the shop\u2024': 'Welcome to the shop.',
      '@Welcome to the shop\u2024': { description: 'The title of the home page.' },
      [OPEN_MENU]: 'Open',
      [`@${OPEN_MENU}`]: { description: 'Keep it short: it is a button.' },
      'dialog\u0004Open': 'Open',
      [CART]: '{count, plural, one {One item in your cart} other {%d items in your cart}}',
      [`@${CART}`]: { description: '%d is the number of items.' },
      'A long help text that goes on for more than one line, so that gettext wraps it over several lines of the file\u2024':
        'A long help text that goes on for more than one line, so that gettext wraps it over several lines of the file.',
      'Hello, %(name)s!': 'Hello, %(name)s!',
    });
    const parsed = parseSourceDocument(document);
    expect(parsed.keys).toHaveLength(6);
    expect(parsed.annotations.get(OPEN_MENU)).toEqual({ description: 'Keep it short: it is a button.' });
  });

  it('reads a source-language PO: msgstr values, its plural forms by its Plural-Forms, fuzzy entries not translated', () => {
    const document = read(SOURCE_PO, 'locale/en.po');
    expect(document).toEqual({
      greeting: 'Hello there',
      '@greeting': { description: 'Greeting' },
      item: '{count, plural, one {%d item} other {%d items}}',
    });
    expect(parseSourceDocument(document).keys).toEqual(['greeting', 'item']);
  });

  it("when a source-language catalog leaves its msgstrs empty (Django's makemessages -l en), then read as the project's source its msgids are the values", () => {
    const django = `msgid ""
msgstr ""
"Language: en\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#. Shown on the home page
#: shop/views.py:12
msgid "Welcome"
msgstr ""

msgid "Goodbye"
msgstr "Bye for now"

#, fuzzy
msgid "Draft"
msgstr "Old draft"

#: shop/views.py:20
#, python-format
msgid "%(count)s item"
msgid_plural "%(count)s items"
msgstr[0] ""
msgstr[1] ""
`;
    const path = 'locale/en/LC_MESSAGES/django.po';
    const asSource = poFormat.read({
      bytes: Buffer.from(django),
      locale: 'en',
      path,
      options: {},
      source: true,
    });
    expect(asSource).toEqual({
      Welcome: 'Welcome',
      '@Welcome': { description: 'Shown on the home page' },
      Goodbye: 'Bye for now',
      Draft: 'Draft',
      '%(count)s item': '{count, plural, one {%(count)s item} other {%(count)s items}}',
    });
    // Read as a target of its locale, an empty msgstr is no translation.
    expect(poFormat.read({ bytes: Buffer.from(django), locale: 'en', path, options: {} })).toEqual({
      Goodbye: 'Bye for now',
    });
  });

  it('reads a Polish target: msgstr[n] by its Plural-Forms to CLDR categories', () => {
    const polish = `msgid ""
msgstr ""
"Language: pl\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

msgid "file"
msgid_plural "files"
msgstr[0] "%d plik"
msgstr[1] "%d pliki"
msgstr[2] "%d plików"

msgid "untranslated"
msgstr ""
`;
    expect(read(polish, 'locale/pl.po', 'pl')).toEqual({
      file: '{count, plural, one {%d plik} few {%d pliki} many {%d plików}}',
    });
  });

  it('maps gettext indexes to CLDR categories by evaluating the expression', () => {
    const polish = parsePluralForms(
      'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
    )!;
    expect(indexCategories(polish, 'pl')).toEqual(['one', 'few', 'many']);
    expect(indexCategories(parsePluralForms('nplurals=2; plural=(n > 1);')!, 'pt-BR')).toEqual([
      'one',
      'other',
    ]);
    expect(indexCategories(parsePluralForms('nplurals=2; plural=(n == 1 ? 1 : 0);')!, 'en')).toEqual([
      'other',
      'one',
    ]);
    expect(parsePluralForms('nplurals=2; plural=process.exit(1);')).toBeUndefined();
  });
});

describe('po: writing', () => {
  it('gives back a source-language PO byte for byte from its own values', () => {
    // The fuzzy entry has no value: it is left out, so the file without it is what comes back.
    const withoutDraft = SOURCE_PO.slice(0, SOURCE_PO.indexOf('\n#, fuzzy'));
    expect(write(withoutDraft, 'en').toString()).toBe(withoutDraft);
    const crlf = withoutDraft.trimEnd().replaceAll('\n', '\r\n');
    expect(write(crlf, 'en').toString()).toBe(crlf);
    // A changed value keeps the file's line ends.
    expect(
      write(crlf, 'en', { greeting: 'Hi', item: '{count, plural, one {# item} other {# items}}' }).toString(),
    ).toBe(
      crlf
        .replace('"Hello there"', '"Hi"')
        .replace('"%d item"', '"{count} item"')
        .replace('"%d items"', '"{count} items"'),
    );
  });

  it('writes a Brazilian Portuguese target: header set, layout kept, untranslated entries left out', () => {
    const values = {
      'Welcome to the shop\u2024': 'Bem-vindo à loja.',
      [OPEN_MENU]: 'Abrir',
      [CART]: '{count, plural, one {Um item no carrinho} other {%d itens no carrinho}}',
      'Hello, %(name)s!': 'Olá, %(name)s!',
    };
    const out = write(POT, 'pt-BR', values).toString();
    expect(out).toContain('"Language: pt_BR\\n"');
    expect(out).toContain('"Plural-Forms: nplurals=2; plural=(n > 1);\\n"');
    expect(out).not.toContain('fuzzy');
    expect(out).toContain(
      '#. The title of the home page.\n#: src/home.c:12\nmsgid "Welcome to the shop."\nmsgstr "Bem-vindo à loja."\n',
    );
    expect(out).toContain(
      '#, c-format\nmsgid "One item in your cart"\nmsgid_plural "%d items in your cart"\nmsgstr[0] "Um item no carrinho"\nmsgstr[1] "%d itens no carrinho"\n',
    );
    expect(out).not.toContain('dialog');
    expect(out).not.toContain('A long help text');
    expect(out).not.toMatch(/\n\n\n/);
    const checked = msgfmt(Buffer.from(out), 'pt_BR.po');
    expect(checked.stderr).toContain('4 translated messages');
    expect(checked.status).toBe(0);
    // Read back as a target, the values are the ones written.
    expect(read(out, 'locale/pt_BR.po', 'pt-BR')).toMatchObject({
      [OPEN_MENU]: 'Abrir',
      [CART]: '{count, plural, one {Um item no carrinho} other {%d itens no carrinho}}',
    });
  });

  it('writes a Polish target with three msgstr forms that msgfmt accepts and msgunfmt reads back', () => {
    const values = {
      'Welcome to the shop\u2024': 'Witamy w sklepie.',
      [OPEN_MENU]: 'Otwórz',
      'dialog\u0004Open': 'Otwórz plik',
      [CART]:
        '{count, plural, one {Jeden produkt w koszyku} few {%d produkty w koszyku} many {%d produktów w koszyku} other {%d produktu w koszyku}}',
      'A long help text that goes on for more than one line, so that gettext wraps it over several lines of the file\u2024':
        'Długi tekst pomocy, który ciągnie się przez więcej niż jedną linię, więc gettext zawija go na kilka linii pliku. "Cytat" i \\ ukośnik.',
      'Hello, %(name)s!': 'Cześć, %(name)s!',
    };
    const out = write(POT, 'pl', values);
    // The header line is wrapped at 79 columns as gettext's tools wrap it.
    expect(out.toString()).toContain(
      '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 "\n"|| n%100>=20) ? 1 : 2);\\n"\n',
    );
    const checked = msgfmt(out, 'pl.po');
    expect(checked.status, checked.stderr).toBe(0);
    expect(checked.stderr).toContain('6 translated messages');
    const back = execFileSync(tool(MSGUNFMT), [checked.mo], { encoding: 'utf8' });
    expect(back).toContain(
      'msgstr[0] "Jeden produkt w koszyku"\nmsgstr[1] "%d produkty w koszyku"\nmsgstr[2] "%d produktów w koszyku"',
    );
    expect(back).toContain('"Cytat\\" i \\\\ ukośnik.');
    expect(read(out.toString(), 'locale/pl.po', 'pl')[CART]).toBe(
      '{count, plural, one {Jeden produkt w koszyku} few {%d produkty w koszyku} many {%d produktów w koszyku}}',
    );
    // Every line of the written file fits gettext's 79 columns.
    for (const line of out.toString().split('\n')) expect(line.length).toBeLessThanOrEqual(79);
  });

  it('when a translation has text around its plural, then each msgstr[n] is a whole sentence with that text, and msgfmt checks its format', () => {
    const out = write(POT, 'pl', {
      [CART]:
        'Koszyk: {count, plural, one {jeden produkt} few {%d produkty} many {%d produktów} other {%d produktu}}!',
    });
    expect(out.toString()).toContain(
      'msgstr[0] "Koszyk: jeden produkt!"\nmsgstr[1] "Koszyk: %d produkty!"\nmsgstr[2] "Koszyk: %d produktów!"\n',
    );
    const checked = msgfmt(out, 'pl-around.po');
    expect(checked.status, checked.stderr).toBe(0);
  });

  it("keeps the translators' header of the target on disk (credits, Last-Translator, Language-Team, its dates) byte for byte", () => {
    const existing = [
      '# German translation of the shop.',
      '# Translators:',
      '# Ada Lovelace <ada@example.com>, 2025',
      'msgid ""',
      'msgstr ""',
      '"Project-Id-Version: shop 0.9\\n"',
      '"POT-Creation-Date: 2025-01-01 10:00+0000\\n"',
      '"PO-Revision-Date: 2025-06-01 12:00+0200\\n"',
      '"Last-Translator: Ada Lovelace <ada@example.com>\\n"',
      '"Language-Team: German (https://app.transifex.com/shop/teams/1/de/)\\n"',
      '"Language: de\\n"',
      '"MIME-Version: 1.0\\n"',
      '"Content-Type: text/plain; charset=UTF-8\\n"',
      '"Content-Transfer-Encoding: 8bit\\n"',
      '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
      '',
      'msgid "Welcome to the shop."',
      'msgstr "Willkommen im Laden."',
      '',
    ].join('\n');
    const out = write(POT, 'de', { 'Welcome to the shop.': 'Willkommen!' }, existing).toString();
    const header = out.slice(0, out.indexOf('\n\n'));
    expect(header).toContain('# Translators:\n# Ada Lovelace <ada@example.com>, 2025\n');
    expect(header).not.toContain('#, fuzzy');
    for (const field of [
      'Project-Id-Version: shop 0.9',
      'POT-Creation-Date: 2025-01-01 10:00+0000',
      'PO-Revision-Date: 2025-06-01 12:00+0200',
      'Last-Translator: Ada Lovelace <ada@example.com>',
      'Language-Team: German (https://app.transifex.com/shop/teams/1/de/)',
      'Language: de',
      'Plural-Forms: nplurals=2; plural=(n != 1);',
    ]) {
      expect(header).toContain(`"${field}\\n"`);
    }
    const checked = msgfmt(Buffer.from(out), 'de-header.po');
    expect(checked.stderr).not.toContain('initial default value');
    expect(checked.status, checked.stderr).toBe(0);
  });

  it("keeps an existing target's Plural-Forms and writes msgstr[n] in its order", () => {
    const existing = `msgid ""\nmsgstr ""\n"Language: en_GB\\n"\n"Plural-Forms: nplurals=2; plural=(n == 1 ? 1 : 0);\\n"\n`;
    const out = write(POT, 'en-GB', { [CART]: '{count, plural, one {One item} other {%d items}}' }, existing);
    expect(out.toString()).toContain('msgstr[0] "%d items"\nmsgstr[1] "One item"');
    expect(msgfmt(out, 'en_GB.po').status).toBe(0);
  });

  it('writes Arabic with six forms and Japanese with one that msgfmt accepts', () => {
    const cart = '{count, plural, zero {z} one {o} two {t} few {f %d} many {m %d} other {%d}}';
    const arabic = write(POT, 'ar', { [CART]: cart });
    expect(arabic.toString()).toContain(
      'msgstr[0] "z"\nmsgstr[1] "o"\nmsgstr[2] "t"\nmsgstr[3] "f %d"\nmsgstr[4] "m %d"\nmsgstr[5] "%d"',
    );
    expect(msgfmt(arabic, 'ar.po').status).toBe(0);
    const japanese = write(POT, 'ja', { [CART]: '{count, plural, other {%d 個}}' });
    expect(japanese.toString()).toContain('msgstr[0] "%d 個"\n');
    expect(msgfmt(japanese, 'ja.po').status).toBe(0);
  });

  it('gives a target of a catalog without a header one', () => {
    const source = '#: a.c:1\nmsgid "file"\nmsgid_plural "files"\nmsgstr[0] ""\nmsgstr[1] ""\n';
    const out = write(source, 'pl', {
      file: '{count, plural, one {plik} few {pliki} many {plików} other {pliku}}',
    });
    expect(out.toString()).toBe(
      [
        'msgid ""',
        'msgstr ""',
        '"Language: pl\\n"',
        '"MIME-Version: 1.0\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 "',
        '"|| n%100>=20) ? 1 : 2);\\n"',
        '',
        '#: a.c:1',
        'msgid "file"',
        'msgid_plural "files"',
        'msgstr[0] "plik"',
        'msgstr[1] "pliki"',
        'msgstr[2] "plików"',
        '',
      ].join('\n'),
    );
    const checked = msgfmt(out, 'pl-no-header.po');
    expect(checked.status, checked.stderr).toBe(0);
    expect(checked.stderr).toContain('1 translated message');
  });
});

describe('po: any text', () => {
  it('writes any value (quotes, backslashes, tabs, long lines) so that it reads back and msgfmt takes it', () => {
    const source =
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr ""\n';
    const pieces = fc.constantFrom('\\', '"', '\t', ' ', 'word', 'ł', '\\n', '%d', 'a'.repeat(30));
    const texts = fc.array(pieces, { minLength: 1, maxLength: 40 }).map((parts) => parts.join(''));
    const values: string[] = [];
    fc.assert(
      fc.property(texts, (text) => {
        const out = write(source, 'pl', { a: text });
        expect(read(out.toString(), 'locale/pl.po', 'pl')).toEqual({ a: text });
        for (const line of out.toString().split('\n')) expect(line.length).toBeLessThanOrEqual(79);
        values.push(out.toString());
      }),
      // A line cut with no space to cut at falls on an escape (`\\"`, `\\\\`) at column 77.
      {
        numRuns: 150,
        examples: [[`${'x'.repeat(75)}"end`], [`${'x'.repeat(74)}\\\\end`], [`${'x'.repeat(75)}\\end`]],
      },
    );
    // msgfmt reads them all (one run of the tool for a file of every value, each with its own msgid).
    const entries = values.map((file, index) =>
      file.slice(file.indexOf('msgid "a"')).replace('msgid "a"', `msgid "a${index}"`),
    );
    const all = `${source.slice(0, source.indexOf('\n\n'))}\n"Language: pl\\n"\n\n${entries.join('\n')}`;
    const checked = msgfmt(Buffer.from(all), 'any.po');
    expect(checked.status, checked.stderr).toBe(0);
    expect(checked.stderr).toContain(`${values.length} translated messages`);
  });
});

describe('po: bad input', () => {
  it('reads msgids as keys the way every free-text format does: dots the server cannot hold and plural suffixes escaped', () => {
    const pot = [
      'msgid "Saved."',
      'msgstr ""',
      '',
      'msgid "e.g. a file"',
      'msgstr ""',
      '',
      'msgctxt "menu.file"',
      'msgid "..."',
      'msgstr ""',
      '',
      'msgid "items_one"',
      'msgstr ""',
      '',
      'msgid "items_other"',
      'msgstr ""',
      '',
    ].join('\n');
    const parsed = parseSourceDocument(read(pot));
    expect(parsed.keys).toEqual([
      'Saved\u2024',
      'e.g. a file',
      'menu.file\u0004\u2024\u2024\u2024',
      'items\u02CDone',
      'items\u02CDother',
    ]);
    expect(parsed.values).toEqual(['Saved.', 'e.g. a file', '...', 'items_one', 'items_other']);
    expect(targetKeys(parsed, 'pl').keys).toEqual(parsed.keys);
    const values = Object.fromEntries(parsed.keys.map((key, at) => [key, `[pl] ${parsed.values[at]!}`]));
    const back = read(write(pot, 'pl', values).toString(), 'locale/pl.po', 'pl');
    expect(Object.values(back)).toEqual(parsed.values.map((value) => `[pl] ${value}`));
    const unread = readWithFindings('msgid "items\u02CDone"\nmsgstr ""\n\nmsgid "b"\nmsgstr ""\n');
    expect(unread.document).toEqual({ b: 'b' });
    expect(unread.findings).toMatchObject([
      { key: null, kind: 'format', line: 1, message: expect.stringContaining('U+02CD') },
    ]);
  });

  it('reads past a broken header line, with a finding at its line', () => {
    const { document, findings } = readWithFindings(
      'msgid ""\nmsgstr ""\n"Language: de\\n"\n"no colon here\\n"\n\nmsgid "a"\nmsgstr "A"\n',
      'locale/de.po',
      'de',
    );
    expect(document).toEqual({ a: 'A' });
    expect(findings).toMatchObject([
      {
        key: null,
        kind: 'format',
        severity: 'warning',
        message: expect.stringContaining('a header line "no colon here" is not a "Name: value" line'),
        line: 4,
        column: 1,
      },
    ]);
  });

  it('leaves the plural entries out of a catalog whose Plural-Forms is broken, with an error finding at its line', () => {
    const { document, findings } = readWithFindings(
      'msgid ""\nmsgstr ""\n"Language: pl\\n"\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : ;\\n"\n\n' +
        'msgid "a"\nmsgstr "A"\n\nmsgid "file"\nmsgid_plural "files"\nmsgstr[0] "plik"\nmsgstr[1] "pliki"\nmsgstr[2] "plików"\n',
      'locale/pl.po',
      'pl',
    );
    expect(document).toEqual({ a: 'A' });
    expect(findings).toMatchObject([
      {
        key: null,
        kind: 'plural',
        severity: 'error',
        message: expect.stringContaining(
          'Plural-Forms "nplurals=3; plural=(n==1 ? 0 : ;" is not "nplurals=N; plural=EXPRESSION;"',
        ),
        line: 4,
      },
    ]);
    expect(readWithFindings('msgid ""\nmsgstr ""\n"Plural-Forms: two forms\\n"\n').findings[0]?.line).toBe(3);
  });

  it('keeps the first of a msgid given twice, and of a msgctxt/msgid pair given twice, with an error finding naming both lines', () => {
    const twice = readWithFindings(
      'msgid "a"\nmsgstr "A"\n\n#: x.c:1\nmsgid "a"\nmsgstr "B"\n',
      'locale/de.po',
      'de',
    );
    expect(twice.document).toEqual({ a: 'A' });
    expect(twice.findings).toEqual([
      {
        key: 'a',
        kind: 'duplicate',
        severity: 'error',
        message:
          'the msgid "a" is given twice (lines 1, 5); the first is kept, and msgfmt refuses the catalog until one goes',
        file: 'locale/de.po',
        line: 5,
        column: 1,
      },
    ]);
    const withContext = readWithFindings(
      'msgctxt "m"\nmsgid "a"\nmsgstr ""\n\nmsgid "a"\nmsgstr ""\n\nmsgctxt "m"\nmsgid "a"\nmsgstr ""\n',
    );
    expect(withContext.findings[0]?.message).toMatch(
      /^the msgid "a" with msgctxt "m" is given twice \(lines 2, 9\)/,
    );
    // A target written from such a source has the entry once.
    const written = write('msgid "a"\nmsgstr ""\n\nmsgid "a"\nmsgstr ""\n', 'de', { a: 'A' }).toString();
    expect(written.match(/msgid "a"/g)).toHaveLength(1);
  });

  it('reads an empty msgstr and a fuzzy entry as not translated, and an empty plural form as a form it lacks', () => {
    const { document, findings } = readWithFindings(
      'msgid ""\nmsgstr ""\n"Language: pl\\n"\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n' +
        'msgid "empty"\nmsgstr ""\n\n#, fuzzy\nmsgid "fuzzy"\nmsgstr "Rozmyte"\n\n' +
        'msgid "file"\nmsgid_plural "files"\nmsgstr[0] "plik"\nmsgstr[1] ""\nmsgstr[2] "plików"\n\n' +
        'msgid "dir"\nmsgid_plural "dirs"\nmsgstr[0] "katalog"\nmsgstr[1] "katalogi"\nmsgstr[2] ""\n',
      'locale/pl.po',
      'pl',
    );
    // Polish gettext forms are one, few and many: no count is `other` (a fraction) in gettext.
    expect(document).toEqual({
      file: '{count, plural, one {plik} many {plików}}',
      dir: '{count, plural, one {katalog} few {katalogi}}',
    });
    expect(findings).toEqual([]);
    const german = readWithFindings(
      'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n' +
        'msgid "file"\nmsgid_plural "files"\nmsgstr[0] "Datei"\nmsgstr[1] ""\n',
      'locale/de.po',
      'de',
    );
    expect(german.document).toEqual({ file: '{count, plural, one {Datei}}' });
    expect(german.findings).toMatchObject([{ key: 'file', kind: 'plural', severity: 'error', line: 8 }]);
  });

  it('refuses a syntax error with its line', () => {
    const error = failure(() => read('msgid "a"\nmsgstr ""\n\nmsgid "b\nmsgstr ""\n'));
    expect(error.reason).toBe(
      'not a PO line: "msgid \\"b" (a keyword and a quoted string, a continued "string", or a # comment)',
    );
    expect(error.position).toEqual({ line: 4, column: 1 });
  });
});
