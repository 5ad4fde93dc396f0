import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { Properties } from 'properties-file/parser';
import { afterAll, describe, expect, it } from 'vitest';
import type { FormatOptions } from '../../src/formats/index.js';
import { propertiesFormat } from '../../src/formats/properties.js';
import { expectFinalNewline, lineDiff, linesOf } from './line-diff.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-properties-in-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(bytes: string | Buffer, options: FormatOptions = {}): Record<string, unknown> {
  return propertiesFormat.read({
    bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    locale: 'en',
    path: 'messages.properties',
    options,
  });
}

/** The values of a file as our reader reads them, annotations left out. */
function valuesOf(bytes: string | Buffer, options: FormatOptions = {}): Record<string, unknown> {
  return Object.fromEntries(Object.entries(read(bytes, options)).filter(([key]) => !key.startsWith('@')));
}

/** The target `existing` written for `values` (a key absent: no value) from `source`. */
function write(
  source: string,
  existing: string | Buffer,
  values: Record<string, string | undefined>,
  options: FormatOptions = {},
  locale = 'de',
  synced?: (key: string) => boolean,
): Buffer {
  const bytes = Buffer.from(source);
  const parsed = parseSourceDocument(read(bytes, options));
  return propertiesFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => values[key],
    target: targetKeys(parsed, locale),
    existing: typeof existing === 'string' ? Buffer.from(existing) : existing,
    ...(synced ? { synced } : {}),
    options,
  });
}

/** Each file's values as translate-toolkit's `prop2po` reads them (Java's reading, UTF-8). */
function prop2po(files: Buffer[]): Record<string, string>[] {
  const jobs = files.map((bytes, index) => {
    const input = join(dir, `f${index}-${Math.random().toString(36).slice(2)}.properties`);
    writeFileSync(input, bytes);
    return [input, `${input}.po`];
  });
  const script = [
    'import json, sys',
    'from translate.convert import prop2po',
    'from translate.storage import po',
    'for job in json.loads(sys.argv[1]):',
    '    with open(job[0], "rb") as source, open(job[1], "wb") as target:',
    '        prop2po.convertprop(source, target, None, personality="java-utf8")',
    '    units = po.pofile(open(job[1], "rb").read()).units',
    '    print(json.dumps([[u.getlocations()[0], u.source] for u in units if not u.isheader()]))',
  ].join('\n');
  const out = execFileSync('/usr/bin/python3', ['-c', script, JSON.stringify(jobs)], { encoding: 'utf8' });
  return out
    .trimEnd()
    .split('\n')
    .map((line) =>
      Object.fromEntries(
        (JSON.parse(line) as [string, string][]).map(([key, value]) => [key.replace(/\\(.)/g, '$1'), value]),
      ),
    );
}

const SOURCE = 'app.title = Shop\napp.cart = Cart\napp.total = Total: {0}\napp.empty = Nothing here\n';

describe('properties format: a target on disk is edited in place', () => {
  it('when nothing changes, then the file comes back byte for byte, whatever its layout', () => {
    const existing = Buffer.from(
      '\ufeff# Übersetzt von Anna\r\n\r\napp.empty:Nichts hier\r\n  app.title   Laden\r\n! Summe\r\napp.total = Summe: \\\r\n     {0}\r\napp.cart=Warenkorb',
    );
    const values = {
      'app.title': 'Laden',
      'app.cart': 'Warenkorb',
      'app.total': 'Summe: {0}',
      'app.empty': 'Nichts hier',
    };
    expect(write(SOURCE, existing, values)).toEqual(existing);
  });

  it("when a value changes, then only its line changes, in its separator, spacing and the file's \\u escaping", () => {
    const existing =
      '# de\napp.title:Laden\napp.cart  =  Korb\napp.total Summe\\: {0}\napp.empty=Leer\\u00e9\n';
    const written = write(SOURCE, existing, {
      'app.title': 'Geschäft',
      'app.cart': 'Warenkorb ✓',
      'app.total': '=Summe: {0}',
      'app.empty': 'Leeré',
    });
    expect(written.toString()).toBe(
      '# de\napp.title:Gesch\\u00e4ft\napp.cart  =  Warenkorb \\u2713\napp.total \\=Summe: {0}\napp.empty=Leer\\u00e9\n',
    );
    // Raw UTF-8 where the file has it; capitals where its escapes have them.
    expect(
      write(SOURCE, 'app.title = Café\napp.cart = x\n', {
        'app.title': 'Geschäft',
        'app.cart': 'x',
      }).toString(),
    ).toBe('app.title = Geschäft\napp.cart = x\n');
    expect(write(SOURCE, 'app.title = Caf\\u00E9\n', { 'app.title': 'Geschäft' }).toString()).toBe(
      'app.title = Gesch\\u00E4ft\n',
    );
  });

  it('when a multi-line value changes, then its continuation lines are replaced as a whole', () => {
    const existing =
      'app.title = Laden\napp.total = Die Summe \\\n    ist {0} \\\n    Euro\napp.cart = Korb\n';
    expect(
      write(SOURCE, existing, {
        'app.title': 'Laden',
        'app.total': 'Summe: {0}',
        'app.cart': 'Korb',
      }).toString(),
    ).toBe('app.title = Laden\napp.total = Summe: {0}\napp.cart = Korb\n');
  });

  it("when keys are new, then each goes after the nearest key before it in the source, in its neighbour's layout", () => {
    // The target's order is not the source's: a new key follows its source predecessor wherever it is.
    const existing = '# de\n\napp.total:Summe\n\n    app.title  =  Laden\n';
    const written = write(SOURCE, existing, {
      'app.title': 'Laden',
      'app.cart': 'Korb',
      'app.total': 'Summe',
      'app.empty': 'Leer',
    });
    expect(written.toString()).toBe(
      '# de\n\napp.total:Summe\napp.empty:Leer\n\n    app.title  =  Laden\n    app.cart  =  Korb\n',
    );
  });

  it('when a new key has no key before it in the target, then it goes before the nearest one after it, above its comments', () => {
    const existing = '# Header\n\n# about the cart\napp.cart=Korb\n';
    expect(write(SOURCE, existing, { 'app.title': 'Laden', 'app.cart': 'Korb' }).toString()).toBe(
      '# Header\n\napp.title=Laden\n# about the cart\napp.cart=Korb\n',
    );
  });

  it("when the target has none of the source's keys, then new keys go at the end, keeping a missing final newline", () => {
    expect(write(SOURCE, '# nur ein Kommentar', { 'app.title': 'Laden' }).toString()).toBe(
      '# nur ein Kommentar\napp.title = Laden',
    );
    // A key of the translator's own stays, and gives the new keys its layout.
    expect(write(SOURCE, 'other=1\r\n', { 'app.title': 'Laden', 'app.cart': 'Korb' }).toString()).toBe(
      'other=1\r\napp.title=Laden\r\napp.cart=Korb\r\n',
    );
  });

  it('when keys are gone from the source (synced) or have no value, then they go with the comment lines right above them', () => {
    const existing =
      '# Header\n\n# about title\n! more\napp.title=Laden\n\n# about old\nold.key=alt\napp.cart=Korb';
    const synced = (key: string) => key === 'old.key';
    expect(write(SOURCE, existing, { 'app.title': 'Laden' }, {}, 'de', synced).toString()).toBe(
      '# Header\n\n# about title\n! more\napp.title=Laden\n\n',
    );
    // The blank lines stay, as every line of no gone key does.
    expect(write(SOURCE, existing, { 'app.cart': 'Korb' }, {}, 'de', synced).toString()).toBe(
      '# Header\n\n\napp.cart=Korb',
    );
    // A gone last line takes no other line's break with it.
    expect(write(SOURCE, 'app.cart=Korb\n\napp.title=x', { 'app.cart': 'Korb' }).toString()).toBe(
      'app.cart=Korb\n\n',
    );
  });

  it('when the target holds keys the source lacks that Tolk never synced, then their lines and comments stay byte for byte', () => {
    const existing =
      '# Header\n\n# about mine\nmy.key = meins \\\n    und mehr\napp.title=Laden\nold.key=alt\n';
    expect(
      write(SOURCE, existing, { 'app.title': 'Laden' }, {}, 'de', (key) => key === 'app.title').toString(),
    ).toBe(existing);
    expect(
      write(SOURCE, existing, { 'app.title': 'Geschäft' }, {}, 'de', (key) => key === 'old.key').toString(),
    ).toBe(existing.replace('app.title=Laden\nold.key=alt\n', 'app.title=Geschäft\n'));
  });

  it('when the target gives a key twice, then the value Java keeps is the one changed, and both go when the key goes', () => {
    const existing = 'app.title=Alt\napp.cart=Korb\napp.title=Laden\n';
    expect(write(SOURCE, existing, { 'app.title': 'Geschäft', 'app.cart': 'Korb' }).toString()).toBe(
      'app.title=Alt\napp.cart=Korb\napp.title=Geschäft\n',
    );
    expect(write(SOURCE, existing, { 'app.cart': 'Korb' }).toString()).toBe('app.cart=Korb\n');
  });

  it("when line endings are mixed, then each line keeps its own and a new line takes the file's first kind", () => {
    const existing = 'app.title=Laden\r\napp.cart=Korb\napp.total=Summe\r\n@meta=kept\n';
    expect(
      write(SOURCE, existing, {
        'app.title': 'Laden',
        'app.cart': 'Warenkorb',
        'app.total': 'Summe',
        'app.empty': 'Leer',
      }).toString(),
    ).toBe('app.title=Laden\r\napp.cart=Warenkorb\napp.total=Summe\r\napp.empty=Leer\r\n@meta=kept\n');
  });

  it("when the target on disk does not read, then it is written in the source's layout", () => {
    const broken = 'app.title = \\u12G4\n';
    expect(write(SOURCE, broken, { 'app.title': 'Laden', 'app.cart': 'Korb' }).toString()).toBe(
      'app.title = Laden\napp.cart = Korb\n',
    );
  });

  it('when the file set is ISO-8859-1, then the file stays ISO-8859-1 and Latin-1 characters stay raw', () => {
    const options: FormatOptions = { encoding: 'iso-8859-1' };
    const existing = Buffer.from('app.title=Caf\xe9\napp.cart=Korb\n', 'latin1');
    const written = write(SOURCE, existing, { 'app.title': 'Café', 'app.cart': 'Körbe ✓' }, options);
    expect(written).toEqual(Buffer.from('app.title=Caf\xe9\napp.cart=K\xf6rbe \\u2713\n', 'latin1'));
  });

  it("when i18next plural forms change, then the target's forms are edited in place", () => {
    const source = 'files_one = one file\nfiles_other = {{count}} files\ntitle = Files\n';
    const existing = 'title = Pliki\nfiles_other = {{count}} pliku\nfiles_one = 1 plik\n';
    const written = write(
      source,
      existing,
      {
        files_one: '1 plik',
        files_few: '{{count}} pliki',
        files_many: '{{count}} plików',
        files_other: '{{count}} pliku',
        title: 'Pliki',
      },
      {},
      'pl',
    );
    expect(written.toString()).toBe(
      'title = Pliki\nfiles_other = {{count}} pliku\nfiles_one = 1 plik\nfiles_few = {{count}} pliki\nfiles_many = {{count}} plików\n',
    );
  });
});

describe('properties format: any change to any target on disk', () => {
  const piece = fc.constantFrom(
    ' ',
    '\\',
    '=',
    ':',
    '#',
    '!',
    '\t',
    '\n',
    'é',
    'Ω',
    '✓',
    '🎉',
    'a',
    'Wort',
    '{0}',
  );
  const texts = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
  const layout = fc.record({
    separator: fc.constantFrom(' = ', '=', ':', ' ', ' : ', '\t=\t'),
    comment: fc.constantFrom('', '#', '!'),
    blankBefore: fc.boolean(),
    continuation: fc.boolean(),
    indent: fc.constantFrom('', '  ', '\t'),
  });
  const fileStyle = fc.record({
    eol: fc.constantFrom('\n', '\r\n'),
    finalNewline: fc.boolean(),
    bom: fc.boolean(),
    ascii: fc.boolean(),
    upperHex: fc.boolean(),
  });
  /** How a file of `style` spells a value (or a key). */
  const escapeText = (text: string, style: { ascii: boolean; upperHex: boolean }, key = false) => {
    let out = '';
    for (let at = 0; at < text.length; at++) {
      const char = text[at]!;
      const code = char.charCodeAt(0);
      if (char === '\\') out += '\\\\';
      else if (char === '\n') out += '\\n';
      else if (char === '\t') out += '\\t';
      else if (char === ' ' && (at === 0 || key)) out += '\\ ';
      else if ((char === '=' || char === ':') && (at === 0 || key)) out += `\\${char}`;
      else if ((char === '#' || char === '!') && at === 0 && key) out += `\\${char}`;
      else if (style.ascii && code > 0x7f) {
        const hex = code.toString(16).padStart(4, '0');
        out += `\\u${style.upperHex ? hex.toUpperCase() : hex}`;
      } else out += char;
    }
    return out;
  };

  const scenario = fc.integer({ min: 1, max: 7 }).chain((count) =>
    fc.record({
      sourceValues: fc.array(texts, { minLength: count, maxLength: count }),
      // The target's entries: some of the source's (by index) and keys it no longer has (negative).
      order: fc.shuffledSubarray([...Array.from({ length: count }, (_, i) => i), -1, -2]),
      entries: fc.array(fc.tuple(texts, layout), { minLength: count + 2, maxLength: count + 2 }),
      changes: fc.array(fc.tuple(fc.constantFrom('keep', 'change', 'drop'), texts), {
        minLength: count,
        maxLength: count,
      }),
      style: fileStyle,
      /** Of the keys the source lacks: Tolk synced them (they go), or never did (they stay). */
      synced: fc.tuple(fc.boolean(), fc.boolean()),
    }),
  );

  it('when values change, keys come and go in a target of any layout, then only their lines change (a key the source lacks only when synced) and Java readers read exactly the values', () => {
    const cases: { written: Buffer; expected: Record<string, string> }[] = [];
    fc.assert(
      fc.property(scenario, ({ sourceValues, order, entries, changes, style, synced }) => {
        const keyOf = (index: number) => (index >= 0 ? `key.${index}` : `old key ${-index}`);
        const source = sourceValues
          .map((value, index) => `${keyOf(index)} = ${escapeText(value, { ascii: false, upperHex: false })}`)
          .join('\n');
        // The target file, and the lines of each of its keys and of the comments above them.
        const lines = ['# Translators: Anna, Ben', ''];
        const linesOfKey = new Map<string, { pair: number[]; comments: number[] }>();
        const old = new Map<string, string>();
        for (const index of order) {
          const [value, look] = entries[index + 2]!;
          const key = keyOf(index);
          old.set(key, value);
          if (look.blankBefore) lines.push('');
          const comments = look.comment ? [lines.push(`${look.comment} about ${key}`) - 1] : [];
          const escaped = escapeText(value, style);
          const head = `${look.indent}${escapeText(key, style, true)}${look.separator}`;
          const pair =
            look.continuation && escaped !== ''
              ? [lines.push(`${head}\\`) - 1, lines.push(`    ${escaped}`) - 1]
              : [lines.push(`${head}${escaped}`) - 1];
          linesOfKey.set(key, { pair, comments });
        }
        const existing = Buffer.from(
          `${style.bom ? '\ufeff' : ''}${lines.join(style.eol)}${style.finalNewline ? style.eol : ''}`,
        );
        const values: Record<string, string | undefined> = {};
        changes.forEach(([change, text], index) => {
          const key = keyOf(index);
          values[key] = change === 'keep' ? old.get(key) : change === 'change' ? text : undefined;
        });
        // A key the source lacks stays as it is unless Tolk synced it.
        const isSynced = (key: string) => key.startsWith('old key ') && synced[Number(key.slice(8)) - 1]!;
        const wanted = { ...values };
        for (const [key, value] of old) if (!(key in values) && !isSynced(key)) wanted[key] = value;
        const expected = Object.fromEntries(
          Object.entries(wanted).filter((entry): entry is [string, string] => entry[1] !== undefined),
        );
        const touched = new Set(
          [...new Set([...old.keys(), ...Object.keys(wanted)])].filter((key) => old.get(key) !== wanted[key]),
        );

        const written = write(source, existing, values, {}, 'de', isSynced);
        const text = written.toString('utf8');
        if (touched.size === 0) expect(written).toEqual(existing);
        expect(valuesOf(written)).toEqual(expected);
        // Only the lines of touched keys: a changed or gone key's own lines, a gone key's comments.
        const allowed = new Set<number>();
        for (const key of touched) {
          const at = linesOfKey.get(key);
          if (!at) continue;
          at.pair.forEach((line) => allowed.add(line));
          if (wanted[key] === undefined) at.comments.forEach((line) => allowed.add(line));
        }
        const after = linesOf(text.replace(/^\ufeff/, ''));
        const diff = lineDiff(linesOf(lines.join('\n') + (style.finalNewline ? '\n' : '')), after);
        for (const line of diff.removed)
          expect(allowed, `line ${line} of\n${existing}\n→\n${text}`).toContain(line);
        for (const line of diff.added) {
          const key = new Properties(after[line]!).getProperties()[0]?.key;
          expect(key !== undefined && touched.has(key) && wanted[key] !== undefined, after[line]).toBe(true);
        }
        // Its byte order mark, line breaks and final newline are the file's.
        expect(text.startsWith('\ufeff')).toBe(style.bom);
        expectFinalNewline(existing.toString(), text, style.eol);
        expect(text.replaceAll(style.eol, '')).not.toMatch(/[\r\n]/);
        cases.push({ written, expected });
      }),
      { numRuns: 100, seed: 27 },
    );
    // translate-toolkit reads every result as Java does, but for a pair of \u escapes beyond the
    // BMP, which it cannot join (read by our reader above).
    const checked = cases.filter((one) => !/\\u[dD][89a-fA-F]/.test(one.written.toString()));
    expect(checked.length).toBeGreaterThan(50);
    prop2po(checked.map((one) => one.written)).forEach((reference, index) => {
      expect(reference, checked[index]!.written.toString()).toEqual(checked[index]!.expected);
    });
  });
});

describe('properties format: a large target on disk', () => {
  it('when 50,000 keys are new to a target of one key, then they are placed in linear time', () => {
    // Ten times the keys take about ten times as long (a search from each new key: a hundred
    // times); measured against a tenth of them in the same run, so a slow machine is no failure.
    const placed = (count: number) => {
      const keys = Array.from({ length: count }, (_, i) => `key.${i}`);
      const source = keys.map((key) => `${key} = v`).join('\n');
      const values = Object.fromEntries(keys.map((key) => [key, `w ${key}`]));
      const target = (n: number) => `# de\n\nkey.${n - 1} : w key.${n - 1}\n`;
      const started = performance.now();
      const written = write(source, target(count), values);
      return { written, values, ms: performance.now() - started };
    };
    const small = placed(5_000);
    const { written, values, ms } = placed(50_000);
    const lines = written.toString().split('\n');
    expect(lines.slice(0, 3)).toEqual(['# de', '', 'key.0 : w key.0']);
    expect(lines.at(-2)).toBe('key.49999 : w key.49999');
    expect(valuesOf(written)).toEqual(values);
    expect(ms / small.ms).toBeLessThan(30);
  });
});
