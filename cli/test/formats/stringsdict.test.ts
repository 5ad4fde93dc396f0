import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError, formatNamed } from '../../src/formats/index.js';
import { stringsdictFormat } from '../../src/formats/stringsdict.js';
import { plistutilRoundTrip } from '../support/platform-tools.js';
import { readWithFindings as readFileWithFindings } from './read-with-findings.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-stringsdict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `plistutil` (libplist) converts the file to a binary plist and back: it must parse it. */
function plistutil(bytes: Buffer): string {
  const input = join(dir, `f-${Math.random().toString(36).slice(2)}.stringsdict`);
  writeFileSync(input, bytes);
  return plistutilRoundTrip(input);
}

function readWithFindings(text: string) {
  return readFileWithFindings(stringsdictFormat, text, {
    locale: 'de',
    path: 'App/de.lproj/Localizable.stringsdict',
  });
}

function read(bytes: string | Buffer) {
  return stringsdictFormat.read({
    bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    locale: 'en',
    path: 'App/en.lproj/Localizable.stringsdict',
    options: {},
  });
}

function write(source: string, locale: string, values?: Record<string, string>) {
  const bytes = Buffer.from(source);
  const parsed = parseSourceDocument(read(bytes));
  const own = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  return stringsdictFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => (values ? values[key] : own.get(key)),
    target: targetKeys(parsed, locale),
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

const variable = (name: string, valueType: string, forms: [string, string][]) => [
  `\t\t<key>${name}</key>`,
  '\t\t<dict>',
  '\t\t\t<key>NSStringFormatSpecTypeKey</key>',
  '\t\t\t<string>NSStringPluralRuleType</string>',
  '\t\t\t<key>NSStringFormatValueTypeKey</key>',
  `\t\t\t<string>${valueType}</string>`,
  ...forms.flatMap(([category, text]) => [`\t\t\t<key>${category}</key>`, `\t\t\t<string>${text}</string>`]),
  '\t\t</dict>',
];

const PROLOG = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
  '<plist version="1.0">',
  '<dict>',
];

/** A stringsdict as Xcode writes it: tabs, the Apple DOCTYPE. */
const SOURCE = [
  ...PROLOG,
  '\t<key>items_count</key>',
  '\t<dict>',
  '\t\t<key>NSStringLocalizedFormatKey</key>',
  '\t\t<string>%#@items@</string>',
  ...variable('items', 'lld', [
    ['one', '%lld item'],
    ['other', '%lld items'],
  ]),
  '\t</dict>',
  '\t<key>files_in_folders</key>',
  '\t<dict>',
  '\t\t<key>NSStringLocalizedFormatKey</key>',
  '\t\t<string>%@ has %#@files@ in %#@folders@ {ok}</string>',
  ...variable('files', 'd', [
    ['zero', 'no files'],
    ['one', '%d file'],
    ['other', '%d files'],
  ]),
  ...variable('folders', 'd', [
    ['one', 'one folder'],
    ['other', '%d folders'],
  ]),
  '\t</dict>',
  '</dict>',
  '</plist>',
  '',
].join('\n');

describe('stringsdict format: round trips', () => {
  it('when a file is written from its own values, then the bytes are the same and plistutil reads it', () => {
    const written = write(SOURCE, 'en');
    expect(written.toString('utf8')).toBe(SOURCE);
    expect(plistutil(written)).toContain('<string>%lld items</string>');
    // Indented with spaces (as some editors save it): kept too.
    const spaced = SOURCE.replaceAll('\t', '  ');
    expect(write(spaced, 'en').toString('utf8')).toBe(spaced);
  });

  it('when a file is read, then each entry is one key holding an ICU plural', () => {
    const document = read(SOURCE);
    expect(document).toEqual({
      items_count: '{items, plural, one {%lld item} other {%lld items}}',
      files_in_folders:
        "%@ has {files, plural, zero {no files} one {%d file} other {%d files}} in {folders, plural, one {one folder} other {%d folders}} '{'ok'}'",
    });
    expect(parseSourceDocument(document).keys).toEqual(['items_count', 'files_in_folders']);
  });
});

describe('stringsdict format: keys', () => {
  it('when keys are English sentences or end in a plural suffix, then they round trip and the server accepts them', () => {
    const entry = (key: string, forms: [string, string][]) => [
      `\t<key>${key}</key>`,
      '\t<dict>',
      '\t\t<key>NSStringLocalizedFormatKey</key>',
      '\t\t<string>%#@n@</string>',
      ...variable('n', 'd', forms),
      '\t</dict>',
    ];
    const source = [
      ...PROLOG,
      ...entry('%d files deleted.', [
        ['one', '%d file deleted.'],
        ['other', '%d files deleted.'],
      ]),
      ...entry('...', [
        ['one', 'one'],
        ['other', 'more'],
      ]),
      ...entry('files_one', [
        ['one', 'a'],
        ['other', 'b'],
      ]),
      ...entry('files_other', [
        ['one', 'c'],
        ['other', 'd'],
      ]),
      '</dict>',
      '</plist>',
      '',
    ].join('\n');
    const written = write(source, 'en');
    expect(written.toString('utf8')).toBe(source);
    const parsed = parseSourceDocument(read(source));
    expect(parsed.keys).toEqual([
      '%d files deleted\u2024',
      '\u2024\u2024\u2024',
      'files\u02CDone',
      'files\u02CDother',
    ]);
    expect(targetKeys(parsed, 'pl').keys).toEqual(parsed.keys);
    const polish = write(source, 'pl', { '%d files deleted\u2024': '{n, plural, other {%d usunięto.}}' });
    const back = plistutil(polish);
    expect(back).toContain('<key>%d files deleted.</key>');
    expect(back).not.toContain('<key>...</key>');
  });
});

describe('stringsdict format: targets', () => {
  it("when a target is written, then every variable has the target's categories and plistutil reads it", () => {
    const polish = {
      items_count:
        '{items, plural, one {%lld element} few {%lld elementy} many {%lld elementów} other {%lld elementu}}',
      files_in_folders:
        "{files, plural, one {%d plik} few {%d pliki} many {%d plików} other {%d pliku}} w {folders, plural, one {jednym folderze} other {%d folderach}} dla %@ '{ok}'",
    };
    const written = write(SOURCE, 'pl', polish);
    const text = written.toString('utf8');
    expect(text.startsWith(PROLOG.join('\n'))).toBe(true);
    expect(text).toContain(
      [
        '\t\t<key>NSStringLocalizedFormatKey</key>',
        '\t\t<string>%#@items@</string>',
        ...variable('items', 'lld', [
          ['one', '%lld element'],
          ['few', '%lld elementy'],
          ['many', '%lld elementów'],
          ['other', '%lld elementu'],
        ]),
      ].join('\n'),
    );
    // Polish has no `zero`, and the message has none: English's `zero` is not written.
    expect(text).toContain('<string>%#@files@ w %#@folders@ dla %@ {ok}</string>');
    expect(text).not.toContain('<key>zero</key>');
    // `folders` lacks few and many: they are written as `other`.
    expect(text).toContain(
      variable('folders', 'd', [
        ['one', 'jednym folderze'],
        ['few', '%d folderach'],
        ['many', '%d folderach'],
        ['other', '%d folderach'],
      ]).join('\n'),
    );
    expect(read(written)).toEqual({
      items_count: polish.items_count,
      files_in_folders:
        "{files, plural, one {%d plik} few {%d pliki} many {%d plików} other {%d pliku}} w {folders, plural, one {jednym folderze} few {%d folderach} many {%d folderach} other {%d folderach}} dla %@ '{'ok'}'",
    });
    const reference = plistutil(written);
    expect(reference).toContain('<string>%lld elementów</string>');
    expect(reference).toContain('<string>%#@files@ w %#@folders@ dla %@ {ok}</string>');
  });

  it('when a language with only other drops the plural, then its text is every category; keys with no value are left out', () => {
    const written = write(SOURCE, 'ja', { items_count: '%lld 個の項目' });
    const text = written.toString('utf8');
    expect(text).not.toContain('files_in_folders');
    expect(text).toContain(variable('items', 'lld', [['other', '%lld 個の項目']]).join('\n'));
    expect(read(written)).toEqual({ items_count: '{items, plural, other {%lld 個の項目}}' });
    plistutil(written);
    // Arabic has all six categories.
    const arabic = write(SOURCE, 'ar', {
      items_count:
        '{items, plural, zero {لا عناصر} one {عنصر} two {عنصران} few {%lld عناصر} many {%lld عنصرًا} other {%lld عنصر}}',
    }).toString('utf8');
    for (const category of ['zero', 'one', 'two', 'few', 'many', 'other']) {
      expect(arabic).toContain(`<key>${category}</key>`);
    }
    plistutil(Buffer.from(arabic));
  });

  it('when a locale is spelled in a path, then it is the lproj directory name', () => {
    expect(formatNamed('stringsdict')).toBe(stringsdictFormat);
    expect(stringsdictFormat.spellLocale('zh-Hant')).toBe('zh-Hant');
    expect(stringsdictFormat.readLocale('pt-BR')).toBe('pt-BR');
    expect(stringsdictFormat.readLocale('Base')).toBeUndefined();
  });
});

describe('stringsdict format: bad input', () => {
  it('when an entry has no NSStringLocalizedFormatKey, then it is left out with a finding at its line', () => {
    const source = SOURCE.replace(
      '<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@items@</string>\n',
      '',
    );
    const { document, findings } = readWithFindings(source);
    expect(Object.keys(document)).toEqual(['files_in_folders']);
    expect(findings).toEqual([
      {
        key: null,
        kind: 'format',
        severity: 'warning',
        message:
          'the entry "items_count" has no NSStringLocalizedFormatKey (a string such as "%#@items@"); left out',
        file: 'App/de.lproj/Localizable.stringsdict',
        line: 5,
        column: 2,
      },
    ]);
  });

  it('when a variable is missing or not a plural rule, then the entry is left out with a finding naming the variable', () => {
    const missing = SOURCE.replace('%#@folders@ {ok}', '%#@folder@ {ok}');
    const { document, findings } = readWithFindings(missing);
    expect(Object.keys(document)).toEqual(['items_count']);
    expect(findings).toMatchObject([
      {
        key: 'files_in_folders',
        message:
          'the entry "files_in_folders" names the variable "folder", which is not a dict of the entry; left out',
      },
    ]);
  });

  it('when a variable has no other, then its forms are kept and an error finding names the entry', () => {
    const noOther = SOURCE.replace('\t\t\t<key>other</key>\n\t\t\t<string>%lld items</string>\n', '');
    expect(noOther).not.toBe(SOURCE);
    const { document, findings } = readWithFindings(noOther);
    expect(document['items_count']).toBe('{items, plural, one {%lld item}}');
    expect(findings).toMatchObject([
      {
        key: 'items_count',
        kind: 'plural',
        severity: 'error',
        message:
          'the entry "items_count" has the variable "items" without an "other" string, which every language uses; its one are kept',
        line: 5,
      },
    ]);
  });

  it('when a DOCTYPE declares entities (billion laughs) or a value names an unknown entity, then the file is refused at its place', () => {
    const lol = ['<!ENTITY lol "lol">'];
    for (let level = 1; level <= 9; level++) {
      lol.push(`<!ENTITY lol${level} "${`&lol${level === 1 ? '' : level - 1};`.repeat(10)}">`);
    }
    const bomb = SOURCE.replace(
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      `<!DOCTYPE plist [\n${lol.join('\n')}\n]>`,
    ).replace('%lld items', '&lol9;');
    expect(bomb).toContain('&lol9;');
    const refused = failure(() => read(bomb));
    expect(refused.reason).toContain('has a DOCTYPE with declarations of its own');
    expect(refused.position).toEqual({ line: 2, column: 1 });
    const unknown = failure(() => read(SOURCE.replace('%lld items', '&lol9;')));
    expect(unknown.reason).toMatch(/^is not well-formed XML: .*lol9/);
    expect(unknown.position?.line).toBe(
      SOURCE.split('\n').findIndex((line) => line.includes('%lld items')) + 1,
    );
  });

  it('when the XML is malformed, then the error says where; external entities are never loaded', () => {
    const broken = SOURCE.replace('<string>%lld item</string>', '<string>%lld item</strin>');
    const error = failure(() => read(broken));
    expect(error.position?.line).toBeGreaterThan(1);
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'SECRET');
    const xxe = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<!DOCTYPE plist [<!ENTITY xxe SYSTEM "file://${secret}">]>`,
      '<plist version="1.0"><dict><key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>&xxe;</string></dict></dict></plist>',
    ].join('\n');
    let leaked = false;
    try {
      leaked = JSON.stringify(read(xxe)).includes('SECRET');
    } catch (caught) {
      expect(caught).toBeInstanceOf(FormatError);
    }
    expect(leaked).toBe(false);
  });
});
