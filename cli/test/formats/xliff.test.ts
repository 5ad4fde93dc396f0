import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findIcuProblems,
  findPlaceholderMismatches,
  parseSourceDocument,
  targetKeys,
} from '@tolk/locale-file';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError, formatNamed } from '../../src/formats/index.js';
import { xliffFormat } from '../../src/formats/xliff.js';
import { xliff2po as runXliff2po, xmllint as runXmllint } from '../support/platform-tools.js';
import { readWithFindings as readFileWithFindings } from './read-with-findings.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-xliff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(bytes: Buffer | string): string {
  const path = join(dir, `f-${Math.random().toString(36).slice(2)}.xlf`);
  writeFileSync(path, bytes);
  return path;
}

/** `xmllint --noout`: the file is well-formed XML (its exit status and what it says). */
function xmllint(bytes: Buffer) {
  const { status, stderr } = runXmllint(file(bytes));
  return { status, stderr };
}

/** What xmllint's XPath finds in a file (namespaces ignored by `local-name()`). */
function xpath(bytes: Buffer, expression: string): string {
  return execFileSync('xmllint', ['--xpath', expression, file(bytes)], { encoding: 'utf8' }).trimEnd();
}

/** What translate-toolkit's `xliff2po` makes of an XLIFF 1.2 file: each unit's msgid and msgstr. */
function xliff2po(bytes: Buffer): Record<string, { msgid: string; msgstr: string }> {
  return runXliff2po(file(bytes));
}

const ANGULAR_12 = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="greeting" datatype="html">
        <source>Hello <x id="INTERPOLATION" equiv-text="{{ name }}"/>, you have <x id="INTERPOLATION_1" equiv-text="{{ count }}"/> messages</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">3</context>
        </context-group>
        <note priority="1" from="description">The greeting on the home page</note>
        <note priority="1" from="meaning">home</note>
      </trans-unit>
      <trans-unit id="cart.checkout" datatype="html">
        <source>Go to <g id="START_LINK" ctype="x-a" equiv-text="&lt;a&gt;">checkout</g> &amp; pay &gt; now</source>
      </trans-unit>
      <trans-unit id="logo" translate="no">
        <source>ACME</source>
      </trans-unit>
      <trans-unit id="plain">
        <source>Sign out</source>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

const ANGULAR_20 = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">
  <file id="ngi18n" original="ng.template">
    <unit id="greeting">
      <notes>
        <note category="location">src/app/app.component.html:3</note>
        <note category="description">The greeting on the home page</note>
      </notes>
      <segment>
        <source>Hello <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>, <pc id="1" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" type="fmt" dispStart="&lt;b&gt;" dispEnd="&lt;/b&gt;">welcome</pc> back</source>
      </segment>
    </unit>
    <unit id="plain">
      <segment>
        <source>Sign out</source>
      </segment>
    </unit>
  </file>
</xliff>
`;

function read(text: string | Buffer) {
  return xliffFormat.read({
    bytes: typeof text === 'string' ? Buffer.from(text) : text,
    locale: 'en',
    path: 'src/locale/messages.xlf',
    options: {},
  });
}

function write(source: string, locale: string, values?: Record<string, string>, existing?: string) {
  const bytes = Buffer.from(source);
  const parsed = parseSourceDocument(read(bytes));
  const own = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  return xliffFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => (values ? values[key] : own.get(key)),
    target: targetKeys(parsed, locale),
    ...(existing === undefined ? {} : { existing: Buffer.from(existing) }),
    options: {},
  });
}

function readWithFindings(text: string) {
  return readFileWithFindings(xliffFormat, text, { locale: 'en', path: 'src/locale/messages.xlf' });
}

function readAs(locale: string, text: string | Buffer) {
  return xliffFormat.read({
    bytes: typeof text === 'string' ? Buffer.from(text) : text,
    locale,
    path: `src/locale/messages.${locale}.xlf`,
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

describe('xliff format', () => {
  it('is registered, and spells locales as Angular names its files (messages.pt-BR.xlf)', () => {
    expect(formatNamed('xliff')).toBe(xliffFormat);
    expect(xliffFormat.extensions).toEqual(['.xlf', '.xliff']);
    expect(xliffFormat.spellLocale('pt-BR')).toBe('pt-BR');
    expect(xliffFormat.readLocale('pt-BR')).toBe('pt-BR');
    expect(xliffFormat.readLocale('pt_BR')).toBeUndefined();
  });

  it('when a 1.2 file is read, then ids are keys, notes are context and inline codes are numbered tags', () => {
    const document = read(ANGULAR_12);
    expect(document).toEqual({
      greeting: 'Hello <x1/>, you have <x2/> messages',
      '@greeting': {
        description:
          'The greeting on the home page\nmeaning: home\n<x1/> stands for {{ name }}\n<x2/> stands for {{ count }}',
      },
      'cart.checkout': 'Go to <g1>checkout</g1> & pay > now',
      '@cart.checkout': { description: '<g1> stands for <a>' },
      plain: 'Sign out',
    });
    const parsed = parseSourceDocument(document);
    expect(parsed.keys).toEqual(['greeting', 'cart.checkout', 'plain']);
  });

  it('when a 2.0 file is read, then unit ids are keys and notes and codes are context', () => {
    expect(read(ANGULAR_20)).toEqual({
      greeting: 'Hello <x1/>, <g2>welcome</g2> back',
      '@greeting': {
        description:
          'src/app/app.component.html:3\nThe greeting on the home page\n<x1/> stands for {{ name }}\n<g2> stands for <b>',
      },
      plain: 'Sign out',
    });
  });

  it('when a translation drops or swaps a code, then the server placeholder rule sees it', () => {
    const parsed = parseSourceDocument(read(ANGULAR_12));
    const mismatches = findPlaceholderMismatches(
      parsed,
      new Map([['greeting', 'Cześć <x1/>, masz <x1/> wiadomości']]),
    );
    expect(mismatches.map((mismatch) => mismatch.key)).toEqual(['greeting']);
  });

  it('when a file is written from its own values, then the bytes are the same (1.2, 2.0, BOM, CRLF)', () => {
    for (const source of [
      ANGULAR_12,
      ANGULAR_20,
      `\uFEFF${ANGULAR_12}`,
      ANGULAR_20.replaceAll('\n', '\r\n'),
    ]) {
      expect(write(source, 'en').toString()).toBe(source);
    }
  });

  it('when a 1.2 target is written, then it keeps the layout, codes are written back exactly and xliff2po reads every value', () => {
    const written = write(ANGULAR_12, 'pl', {
      greeting: 'Cześć <x1/>, masz <x2/> wiadomości',
      'cart.checkout': 'Przejdź do <g1>kasy</g1> & <zapłać>',
      plain: 'Wyloguj',
    });
    const text = written.toString();
    expect(text).toContain(
      '<file source-language="en" datatype="plaintext" original="ng2.template" target-language="pl">',
    );
    expect(text).toContain(
      [
        '        <source>Hello <x id="INTERPOLATION" equiv-text="{{ name }}"/>, you have <x id="INTERPOLATION_1" equiv-text="{{ count }}"/> messages</source>',
        '        <target state="translated">Cześć <x id="INTERPOLATION" equiv-text="{{ name }}"/>, masz <x id="INTERPOLATION_1" equiv-text="{{ count }}"/> wiadomości</target>',
        '        <context-group purpose="location">',
      ].join('\n'),
    );
    expect(text).toContain(
      '<target state="translated">Przejdź do <g id="START_LINK" ctype="x-a" equiv-text="&lt;a&gt;">kasy</g> &amp; &lt;zapłać&gt;</target>',
    );
    // Everything else is the source's bytes.
    expect(
      text.replace(/\n +<target state="translated">.*<\/target>/g, '').replace(' target-language="pl"', ''),
    ).toBe(ANGULAR_12);
    expect(xmllint(written)).toEqual({ status: 0, stderr: '' });
    expect(xliff2po(written)).toEqual({
      greeting: { msgid: 'Hello , you have messages', msgstr: 'Cześć , masz wiadomości' },
      'cart.checkout': { msgid: 'Go to checkout & pay > now', msgstr: 'Przejdź do kasy & <zapłać>' },
      logo: { msgid: 'ACME', msgstr: '' },
      plain: { msgid: 'Sign out', msgstr: 'Wyloguj' },
    });
    expect(read(written)).toMatchObject({ greeting: 'Hello <x1/>, you have <x2/> messages' });
  });

  it('when a 1.2 target is written for a source that has targets and a key has none, then targets are replaced and the unit left out', () => {
    const source = ANGULAR_12.replace(
      '<source>Sign out</source>',
      '<source>Sign out</source>\n        <target state="final">Log out</target>',
    );
    const written = write(source, 'pt-BR', { greeting: 'Olá <x1/>, <x2/>', plain: 'Sair' });
    const text = written.toString();
    expect(text).toContain('target-language="pt-BR"');
    expect(text).toContain(
      '<source>Sign out</source>\n        <target state="translated">Sair</target>\n      </trans-unit>',
    );
    expect(text).not.toContain('cart.checkout');
    expect(text).not.toContain('Log out');
    expect(text).toContain('      <trans-unit id="logo" translate="no">');
    expect(xmllint(written).status).toBe(0);
    const units = xliff2po(written);
    expect(Object.keys(units)).toEqual(['greeting', 'logo', 'plain']);
    expect(units.plain!.msgstr).toBe('Sair');
  });

  it('when a 2.0 target is written, then trgLang is set, segments are translated, codes written back, and it is well-formed', () => {
    const written = write(ANGULAR_20, 'pl', {
      greeting: 'Witaj <x1/>, <g2>ponownie</g2>',
      plain: 'Wyloguj & wyjdź',
    });
    const text = written.toString();
    expect(text).toContain(
      '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="pl">',
    );
    expect(text).toContain(
      [
        '      <segment state="translated">',
        '        <source>Hello <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>, <pc id="1" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" type="fmt" dispStart="&lt;b&gt;" dispEnd="&lt;/b&gt;">welcome</pc> back</source>',
        '        <target>Witaj <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>, <pc id="1" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" type="fmt" dispStart="&lt;b&gt;" dispEnd="&lt;/b&gt;">ponownie</pc></target>',
        '      </segment>',
      ].join('\n'),
    );
    expect(xmllint(written)).toEqual({ status: 0, stderr: '' });
    // xliff2po reads no XLIFF 2.0 (it gives no unit), so the target is checked by its structure.
    expect(xliff2po(written)).toEqual({});
    expect(xpath(written, 'string(/*[local-name()="xliff"]/@trgLang)')).toBe('pl');
    expect(
      xpath(written, 'count(//*[local-name()="segment"][@state="translated"]/*[local-name()="target"])'),
    ).toBe('2');
    expect(xpath(written, 'string(//*[local-name()="unit"][@id="plain"]//*[local-name()="target"])')).toBe(
      'Wyloguj & wyjdź',
    );
  });

  it('when a file is malformed XML, then the error names the line and column', () => {
    const error = failure(() =>
      read(ANGULAR_12.replace('<source>Sign out</source>', '<source>Sign out</sorce>')),
    );
    expect(error.message).toMatch(/^src\/locale\/messages\.xlf:21:\d+: is not well-formed XML: /);
    expect(error.position?.line).toBe(21);
    expect(
      xmllint(Buffer.from(ANGULAR_12.replace('<source>Sign out</source>', '<source>Sign out</sorce>')))
        .stderr,
    ).toContain(':21:');
  });

  it('when a file has an unknown version or is no XLIFF, then it is refused', () => {
    expect(failure(() => read(ANGULAR_12.replace('version="1.2"', 'version="3.0"'))).message).toBe(
      'src/locale/messages.xlf:2:1: is XLIFF version "3.0"; Tolk reads XLIFF 1.2 and 2.0',
    );
    expect(failure(() => read('<resources><string name="a">A</string></resources>')).message).toBe(
      'src/locale/messages.xlf:1:1: has the root <resources>, not <xliff>',
    );
  });

  it('when an id is given twice, then the first unit is kept with an error finding naming both lines, and targets have it once', () => {
    const source = ANGULAR_12.replace('<trans-unit id="plain">', '<trans-unit id="greeting">');
    const { document, findings } = readWithFindings(source);
    expect(Object.keys(document).filter((key) => !key.startsWith('@'))).toEqual([
      'greeting',
      'cart.checkout',
    ]);
    expect(findings).toEqual([
      {
        key: 'greeting',
        kind: 'duplicate',
        severity: 'error',
        message:
          'the id "greeting" is given twice (lines 5, 20); the first unit is kept, and Angular refuses the file until one goes; left out',
        file: 'src/locale/messages.xlf',
        line: 20,
        column: 7,
      },
    ]);
    expect(
      write(source, 'pl', { greeting: 'Cześć <x1/>' })
        .toString()
        .match(/id="greeting"/g),
    ).toHaveLength(1);
    const twoFiles = ANGULAR_20.replace('<unit id="plain">', '<unit id="greeting">');
    expect(readWithFindings(twoFiles).findings).toMatchObject([{ kind: 'duplicate', line: 13, column: 5 }]);
  });

  it('when a file has a DTD or an external entity, then it is refused and nothing is read (no XXE)', () => {
    writeFileSync(join(dir, 'secret.txt'), 'SECRET');
    const xxe = ANGULAR_12.replace(
      '<xliff',
      `<!DOCTYPE xliff [<!ENTITY secret SYSTEM "file://${join(dir, 'secret.txt')}">]>\n<xliff`,
    ).replace('Sign out', '&secret;');
    const error = failure(() => read(xxe));
    expect(error.message).toContain('has a <!DOCTYPE>');
    expect(error.message).not.toContain('SECRET');
    // An entity no DTD declares is an error too.
    expect(failure(() => read(ANGULAR_12.replace('Sign out', '&secret;'))).message).toMatch(
      /undefined entity/,
    );
  });

  it('when a unit has no id or a 2.0 unit several segments, then it is left out with a finding', () => {
    const noId = readWithFindings(ANGULAR_12.replace('<trans-unit id="plain">', '<trans-unit>'));
    expect(noId.document).not.toHaveProperty('plain');
    expect(noId.findings).toMatchObject([
      { key: null, kind: 'format', message: 'a <trans-unit> has no id; left out', line: 20, column: 7 },
    ]);
    const segments = ANGULAR_20.replace(
      '<source>Sign out</source>\n      </segment>',
      '<source>Sign out</source>\n      </segment>\n      <segment><source>Now</source></segment>',
    );
    const several = readWithFindings(segments);
    expect(several.document).not.toHaveProperty('plain');
    expect(several.findings[0]!.message).toMatch(/the unit "plain" has several segments/);
  });

  it('when a unit is an Angular ICU plural, then its value is an ICU message and a target has the target locale forms', () => {
    const source = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="items" datatype="html">
        <source>{VAR_PLURAL, plural, =0 {no items} one {one item} other {<x id="INTERPOLATION" equiv-text="{{ count }}"/> items}}</source>
      </trans-unit>
    </body>
  </file>
</xliff>
`;
    const document = read(source);
    expect(document.items).toBe('{VAR_PLURAL, plural, =0 {no items} one {one item} other {<x1/> items}}');
    const parsed = parseSourceDocument(document);
    const polish =
      '{VAR_PLURAL, plural, =0 {brak} one {jeden} few {<x1/> elementy} many {<x1/> elementów} other {<x1/> elementu}}';
    expect(findIcuProblems(parsed, new Map([['items', polish]]), 'pl')).toEqual([]);
    const written = write(source, 'pl', { items: polish });
    expect(written.toString()).toContain(
      '<target state="translated">{VAR_PLURAL, plural, =0 {brak} one {jeden} few {<x id="INTERPOLATION" equiv-text="{{ count }}"/> elementy} many {<x id="INTERPOLATION" equiv-text="{{ count }}"/> elementów} other {<x id="INTERPOLATION" equiv-text="{{ count }}"/> elementu}}</target>',
    );
    expect(xmllint(written).status).toBe(0);
    expect(xliff2po(written).items!.msgstr).toBe(
      '{VAR_PLURAL, plural, =0 {brak} one {jeden} few { elementy} many { elementów} other { elementu}}',
    );
  });

  it('when a unit has an empty source, then it is read as an empty value', () => {
    const source = ANGULAR_12.replace('<source>Sign out</source>', '<source/>');
    expect(read(source)).toMatchObject({ plain: '' });
    expect(write(source, 'en').toString()).toBe(source);
  });

  it('when the source already names a target language and segment states, then they are replaced, not added twice', () => {
    const twelve = ANGULAR_12.replace(
      'original="ng2.template"',
      "original='ng2.template' target-language = 'de'",
    );
    const written12 = write(twelve, 'pl').toString();
    expect(written12).toContain(
      `<file source-language="en" datatype="plaintext" original='ng2.template' target-language = "pl">`,
    );
    const twenty = ANGULAR_20.replace('srcLang="en"', 'srcLang="en" trgLang="de"').replaceAll(
      '<segment>',
      '<segment state="initial">',
    );
    const written20 = write(twenty, 'pl');
    expect(written20.toString()).toContain('srcLang="en" trgLang="pl">');
    expect(written20.toString().match(/<segment state="translated">/g)).toHaveLength(2);
    expect(written20.toString()).not.toContain('initial');
    expect(xmllint(written20).status).toBe(0);
  });

  it('when a 1.2 unit has alternative translations, then they are kept and the target goes after the source', () => {
    const source = ANGULAR_12.replace(
      '<source>Sign out</source>',
      '<source>Sign out</source>\n        <alt-trans><source>Sign out</source><target xml:lang="pl">Wyjdź</target></alt-trans>',
    );
    expect(read(source)).toMatchObject({ plain: 'Sign out' });
    const written = write(source, 'pl', { plain: 'Wyloguj' }).toString();
    expect(written).toContain(
      '<source>Sign out</source>\n        <target state="translated">Wyloguj</target>\n        <alt-trans><source>Sign out</source><target xml:lang="pl">Wyjdź</target></alt-trans>',
    );
  });

  it('when a source text reads as an inline code token, then the unit is left out rather than written back as a code', () => {
    const source = ANGULAR_12.replace('<source>Sign out</source>', '<source>Use &lt;x1/&gt; here</source>');
    const { document, findings } = readWithFindings(source);
    expect(document).not.toHaveProperty('plain');
    expect(findings).toMatchObject([
      {
        key: 'plain',
        message: expect.stringMatching(
          /^the unit "plain" has the text "<x1\/>", which Tolk writes for an inline code/,
        ),
        line: 20,
      },
    ]);
    expect(write(source, 'pl', { greeting: 'Cześć <x1/>' }).toString()).not.toContain('id="plain"');
  });

  it('when ids are English sentences or end in a plural suffix, then they are keys the server holds and round trip', () => {
    const source = ANGULAR_12.replace('id="plain"', 'id="Saved."')
      .replace('id="greeting"', 'id="items_one"')
      .replace('id="cart.checkout"', 'id="items_other"');
    expect(write(source, 'en').toString()).toBe(source);
    const parsed = parseSourceDocument(read(source));
    expect(parsed.keys).toEqual(['items\u02CDone', 'items\u02CDother', 'Saved\u2024']);
    expect(targetKeys(parsed, 'pl').keys).toEqual(parsed.keys);
    const written = write(source, 'pl', { 'Saved\u2024': 'Zapisano.' });
    expect(xliff2po(written)['Saved.']).toEqual({ msgid: 'Sign out', msgstr: 'Zapisano.' });
  });

  it('when a target file is read, then its values are its targets; untranslated units and states that are no translation give none', () => {
    const polish = write(ANGULAR_12, 'pl', {
      greeting: 'Cześć <x1/>, masz <x2/> wiadomości',
      'cart.checkout': 'Przejdź do <g1>kasy</g1> & <zapłać>',
    })
      .toString()
      .replace(
        '<source>Sign out</source>',
        '<source>Sign out</source>\n        <target state="new">Sign out</target>',
      );
    expect(readAs('pl', polish)).toEqual({
      greeting: 'Cześć <x1/>, masz <x2/> wiadomości',
      '@greeting': read(ANGULAR_12)['@greeting'],
      'cart.checkout': 'Przejdź do <g1>kasy</g1> & <zapłać>',
      '@cart.checkout': read(ANGULAR_12)['@cart.checkout'],
    });
    // A translator's target with its codes in another order, and a 2.0 target.
    const swapped = polish.replace(
      'Cześć <x id="INTERPOLATION" equiv-text="{{ name }}"/>, masz <x id="INTERPOLATION_1" equiv-text="{{ count }}"/> wiadomości',
      'Masz <x id="INTERPOLATION_1" equiv-text="{{ count }}"/> wiadomości, <x id="INTERPOLATION" equiv-text="{{ name }}"/>',
    );
    expect(readAs('pl', swapped).greeting).toBe('Masz <x2/> wiadomości, <x1/>');
    const twenty = write(ANGULAR_20, 'pl', { greeting: 'Witaj <x1/>, <g2>ponownie</g2>' });
    expect(readAs('pl', twenty)).toMatchObject({ greeting: 'Witaj <x1/>, <g2>ponownie</g2>' });
    expect(readAs('pl', twenty)).not.toHaveProperty('plain');
    // Read as the source's locale, a file is its sources.
    expect(read(twenty)).toEqual({
      greeting: read(ANGULAR_20).greeting,
      '@greeting': read(ANGULAR_20)['@greeting'],
    });
  });

  it("when the target file on disk has final or signed-off targets (1.2), then they are kept as they are, and a translate='no' unit's target too", () => {
    const existing = write(ANGULAR_12, 'pl', {
      greeting: 'Cześć <x1/>, masz <x2/> wiadomości',
      'cart.checkout': 'Do <g1>kasy</g1>',
      plain: 'Wyloguj',
    })
      .toString()
      .replace('<target state="translated">Cześć', '<target state="final">Witaj')
      .replace('<target state="translated">Wyloguj', '<target state="signed-off">Wyloguj się')
      .replace('<source>ACME</source>', '<source>ACME</source>\n        <target>ACME Polska</target>');
    const asked: string[] = [];
    const written = xliffFormat
      .write({
        source: Buffer.from(ANGULAR_12),
        sourceLocale: 'en',
        locale: 'pl',
        valueOf: (key) => {
          asked.push(key);
          return key === 'cart.checkout'
            ? 'Przejdź do <g1>kasy</g1>'
            : key === 'greeting'
              ? 'Nowe <x1/> <x2/>'
              : undefined;
        },
        target: targetKeys(parseSourceDocument(read(ANGULAR_12)), 'pl'),
        existing: Buffer.from(existing),
        options: {},
      })
      .toString();
    expect(asked).not.toContain('logo');
    expect(written).toContain(
      '<target state="final">Witaj <x id="INTERPOLATION" equiv-text="{{ name }}"/>, masz <x id="INTERPOLATION_1" equiv-text="{{ count }}"/> wiadomości</target>',
    );
    expect(written).not.toContain('Nowe');
    // Kept though the server has no value for it.
    expect(written).toContain('<target state="signed-off">Wyloguj się</target>');
    expect(written).toContain(
      '<target state="translated">Przejdź do <g id="START_LINK" ctype="x-a" equiv-text="&lt;a&gt;">kasy</g></target>',
    );
    expect(written).toContain('<source>ACME</source>\n        <target>ACME Polska</target>');
    expect(xmllint(Buffer.from(written))).toEqual({ status: 0, stderr: '' });
    expect(xliff2po(Buffer.from(written))).toMatchObject({
      plain: { msgid: 'Sign out', msgstr: 'Wyloguj się' },
      logo: { msgid: 'ACME', msgstr: 'ACME Polska' },
    });
    // Written again over itself, nothing moves.
    expect(
      write(
        ANGULAR_12,
        'pl',
        { 'cart.checkout': 'Przejdź do <g1>kasy</g1>', greeting: 'x' },
        written,
      ).toString(),
    ).toBe(written);
  });

  it('when the target file on disk has a final 2.0 segment, then its target and state are kept', () => {
    const existing = write(ANGULAR_20, 'pl', { greeting: 'Witaj <x1/>, <g2>ponownie</g2>', plain: 'Wyloguj' })
      .toString()
      .replace(
        '<segment state="translated">\n        <source>Sign out',
        '<segment state="final">\n        <source>Sign out',
      )
      .replace('<target>Wyloguj</target>', '<target>Wyloguj się</target>');
    const written = write(
      ANGULAR_20,
      'pl',
      { greeting: 'Cześć <x1/>, <g2>znowu</g2>', plain: 'Wyjdź' },
      existing,
    );
    const text = written.toString();
    expect(text).toContain(
      '<segment state="final">\n        <source>Sign out</source>\n        <target>Wyloguj się</target>',
    );
    expect(text).toContain('znowu');
    expect(text).not.toContain('Wyjdź');
    expect(xmllint(written)).toEqual({ status: 0, stderr: '' });
    expect(
      xpath(written, 'string(//*[local-name()="unit"][@id="plain"]/*[local-name()="segment"]/@state)'),
    ).toBe('final');
  });

  it("when a group is translate='no', then its units are no keys and get no target", () => {
    const source = ANGULAR_12.replace(
      '      <trans-unit id="plain">',
      '      <group id="brand" translate="no">\n        <trans-unit id="brand.name"><source>ACME</source></trans-unit>\n      </group>\n      <trans-unit id="plain">',
    );
    expect(Object.keys(read(source))).toEqual([
      'greeting',
      '@greeting',
      'cart.checkout',
      '@cart.checkout',
      'plain',
    ]);
    const written = write(source, 'pl', { plain: 'Wyloguj' }).toString();
    expect(written).toContain('<trans-unit id="brand.name"><source>ACME</source></trans-unit>');
    // Not Tolk's text: read as it is, whatever it holds.
    for (const odd of [
      source.replace('<source>ACME</source>', '<note>no source</note>'),
      source.replace('<source>ACME</source>', '<source>&lt;x1/&gt;</source>'),
    ]) {
      expect(write(odd, 'en').toString()).toBe(odd);
    }
    expect(xmllint(Buffer.from(written)).status).toBe(0);
  });
});
