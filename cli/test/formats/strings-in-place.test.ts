import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { keyOfName } from '../../src/formats/key-names.js';
import { decodeApple, encodeApple } from '../../src/formats/apple-text.js';
import { stringsFormat } from '../../src/formats/strings.js';
import { expectFinalNewline, lineDiff, linesOf } from './line-diff.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-strings-in-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(bytes: string | Buffer): Record<string, unknown> {
  return stringsFormat.read({
    bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    locale: 'en',
    path: 'en.lproj/Localizable.strings',
    options: {},
  });
}

function valuesOf(bytes: string | Buffer): Record<string, unknown> {
  return Object.fromEntries(Object.entries(read(bytes)).filter(([key]) => !key.startsWith('@')));
}

/** The target `existing` written for `values` (a key absent: no value) from `source`. */
function write(
  source: string,
  existing: string | Buffer,
  values: Record<string, string | undefined>,
  synced?: (key: string) => boolean,
): Buffer {
  const bytes = Buffer.from(source);
  const parsed = parseSourceDocument(read(bytes));
  return stringsFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale: 'de',
    valueOf: (key) => values[key],
    target: targetKeys(parsed, 'de', { i18nextPlurals: false }),
    existing: typeof existing === 'string' ? Buffer.from(existing) : existing,
    ...(synced ? { synced } : {}),
    options: {},
  });
}

/**
 * Each file's pairs as translate-toolkit reads strings files (`prop2po`'s conversion with the
 * strings personality, in one interpreter): its key as the file has it, and its value.
 */
function prop2po(files: Buffer[]): Record<string, string>[] {
  const jobs = files.map((bytes, index) => {
    const input = join(dir, `f${index}-${Math.random().toString(36).slice(2)}.strings`);
    writeFileSync(input, bytes);
    // Told the encoding: translate-toolkit does not find UTF-16 without a byte order mark.
    const { encoding, bom } = decodeApple(bytes, input);
    const python =
      encoding === 'utf8'
        ? bom
          ? 'utf-8-sig'
          : 'utf-8'
        : bom
          ? 'utf-16'
          : encoding === 'utf16le'
            ? 'utf-16-le'
            : 'utf-16-be';
    return [input, `${input}.po`, python];
  });
  const script = [
    'import json, sys',
    'from translate.convert import prop2po',
    'from translate.storage import po',
    'for job in json.loads(sys.argv[1]):',
    '    with open(job[0], "rb") as source, open(job[1], "wb") as target:',
    '        prop2po.convertprop(source, target, None, personality="strings", encoding=job[2])',
    '    units = po.pofile(open(job[1], "rb").read()).units',
    '    print(json.dumps([[u.getlocations()[0], u.source] for u in units if not u.isheader()]))',
  ].join('\n');
  const out = execFileSync('/usr/bin/python3', ['-c', script, JSON.stringify(jobs)], { encoding: 'utf8' });
  return out
    .trimEnd()
    .split('\n')
    .map((line) => Object.fromEntries(JSON.parse(line) as [string, string][]));
}

const SOURCE = '"title" = "Shop";\n"cart" = "Cart";\n"total" = "Total: %@";\n"empty" = "Nothing here";\n';

describe('strings format: a target on disk is edited in place', () => {
  it('when nothing changes, then the file comes back byte for byte, in UTF-8 and UTF-16', () => {
    const text =
      '/* Übersetzt von Anna */\r\n\r\n"empty"="Nichts hier";\r\n  "title"   =   "Laden" ;\r\n// Summe\r\n"total" = "Summe: %@";\r\ncart = Warenkorb;';
    const values = { title: 'Laden', cart: 'Warenkorb', total: 'Summe: %@', empty: 'Nichts hier' };
    for (const existing of [
      Buffer.from(text),
      Buffer.from(`\ufeff${text}`),
      Buffer.from(`\ufeff${text}`, 'utf16le'),
      Buffer.from(`\ufeff${text}`, 'utf16le').swap16(),
    ]) {
      expect(write(SOURCE, existing, values)).toEqual(existing);
    }
  });

  it("when a value changes, then only its value changes, in the file's quoting and escapes", () => {
    const existing = '"title"="Laden";\n"cart"   =   "Korb" ;\ntotal = Summe;\n"empty" = "Leer\\U00E9";\n';
    const written = write(SOURCE, existing, {
      title: 'Geschäft "neu"',
      cart: 'Warenkorb\n✓',
      total: 'Summe',
      empty: 'Leeré',
    });
    expect(written.toString()).toBe(
      '"title"="Gesch\\U00E4ft \\"neu\\"";\n"cart"   =   "Warenkorb\\n\\U2713" ;\ntotal = Summe;\n"empty" = "Leer\\U00E9";\n',
    );
    // Raw UTF-8 where the file has it; a bare value stays bare while it is a word.
    expect(
      write(SOURCE, '"title" = "Café";\ntotal = Summe;\n', {
        title: 'Geschäft',
        total: 'Summe: %@',
      }).toString(),
    ).toBe('"title" = "Geschäft";\ntotal = "Summe: %@";\n');
  });

  it("when keys are new, then each goes after the nearest key before it in the source, in its neighbour's layout", () => {
    const existing = '/* de */\n\n"total"="Summe"; // Summe\n\n\t"title"  =  "Laden" ;';
    const written = write(SOURCE, existing, { title: 'Laden', cart: 'Korb', total: 'Summe', empty: 'Leer' });
    expect(written.toString()).toBe(
      '/* de */\n\n"total"="Summe"; // Summe\n"empty"="Leer";\n\n\t"title"  =  "Laden" ;\n\t"cart"  =  "Korb" ;',
    );
  });

  it('when a new key has no key before it in the target, then it goes before the nearest one after it, above its comments', () => {
    const existing = '/* Header */\n\n/* about the cart */\n"cart" = "Korb";\n';
    expect(write(SOURCE, existing, { title: 'Laden', cart: 'Korb' }).toString()).toBe(
      '/* Header */\n\n"title" = "Laden";\n/* about the cart */\n"cart" = "Korb";\n',
    );
  });

  it("when the target has none of the source's keys, then new keys go at the end, in its pairs' layout", () => {
    // `old` was the source's, synced, and is gone from it.
    const synced = (key: string) => key === 'old';
    expect(write(SOURCE, '"old"="alt";\r\n// Ende\r\n', { title: 'Laden' }, synced).toString()).toBe(
      '// Ende\r\n"title"="Laden";\r\n',
    );
    expect(write(SOURCE, '/* nur ein Kommentar */', { title: 'Laden', cart: 'Korb' }).toString()).toBe(
      '/* nur ein Kommentar */\n"title" = "Laden";\n"cart" = "Korb";',
    );
  });

  it('when keys are gone from the source (synced) or have no value, then they go with the comments right above them', () => {
    const existing =
      '/* Header */\n\n/* about title */\n// more\n"title" = "Laden";\n\n/* about old */\n"old" = "alt";\n"cart" = "Korb"; "empty" = "Leer";\n';
    const synced = (key: string) => key === 'old';
    expect(write(SOURCE, existing, { title: 'Laden', empty: 'Leer' }, synced).toString()).toBe(
      '/* Header */\n\n/* about title */\n// more\n"title" = "Laden";\n\n "empty" = "Leer";\n',
    );
    expect(write(SOURCE, existing, { cart: 'Korb' }, synced).toString()).toBe(
      '/* Header */\n\n\n"cart" = "Korb";\n',
    );
  });

  it('when the target holds keys the source lacks that Tolk never synced, then they stay byte for byte with their comments', () => {
    const existing =
      '/* Header */\n\n/* about mine */\n"mine" = "meins";\n"title" = "Laden";\n"old" = "alt"; /* trailing */\n';
    expect(write(SOURCE, existing, { title: 'Laden' }, (key) => key === 'title').toString()).toBe(existing);
    expect(write(SOURCE, existing, { title: 'Geschäft' }).toString()).toBe(
      existing.replace('"Laden"', '"Geschäft"'),
    );
  });

  it('when the target is UTF-16 and the source UTF-8, then the target stays UTF-16 with its byte order mark', () => {
    const existing = Buffer.from('\ufeff"title" = "Laden";\n', 'utf16le').swap16();
    const written = write(SOURCE, existing, { title: 'Geschäft', cart: 'Korb' });
    expect(written).toEqual(
      Buffer.from('\ufeff"title" = "Geschäft";\n"cart" = "Korb";\n', 'utf16le').swap16(),
    );
  });

  it("when the target gives a key twice, then the value Apple's reader keeps is the one changed, and both go when the key goes", () => {
    const existing = '"title" = "Alt";\n"cart" = "Korb";\n"title" = "Laden";\n';
    expect(write(SOURCE, existing, { title: 'Geschäft', cart: 'Korb' }).toString()).toBe(
      '"title" = "Alt";\n"cart" = "Korb";\n"title" = "Geschäft";\n',
    );
    expect(write(SOURCE, existing, { cart: 'Korb' }).toString()).toBe('"cart" = "Korb";\n');
  });

  it("when line endings are mixed, then each line keeps its own and a new line takes the file's first kind", () => {
    const existing = '"title" = "Laden";\r\n"cart" = "Korb";\n"total" = "Summe";\r\n';
    expect(
      write(SOURCE, existing, {
        title: 'Laden',
        cart: 'Warenkorb',
        total: 'Summe',
        empty: 'Leer',
      }).toString(),
    ).toBe('"title" = "Laden";\r\n"cart" = "Warenkorb";\n"total" = "Summe";\r\n"empty" = "Leer";\r\n');
  });

  it("when the target on disk does not read, then it is written in the source's layout", () => {
    expect(write(SOURCE, '"title" = "never closed;\n', { title: 'Laden', cart: 'Korb' }).toString()).toBe(
      '"title" = "Laden";\n"cart" = "Korb";\n',
    );
  });
});

describe('strings format: any change to any target on disk', () => {
  const piece = fc.constantFrom(
    ' ',
    '"',
    '\\',
    '\n',
    '\t',
    ';',
    '=',
    'é',
    'Ω',
    '✓',
    '🎉',
    'a',
    'Wort',
    '%@',
    '%1$d',
  );
  const texts = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
  const layout = fc.record({
    equals: fc.constantFrom(' = ', '=', '   =   ', '\t= '),
    semicolon: fc.constantFrom(';', ' ;'),
    comment: fc.constantFrom('', '/* about NAME */', '// about NAME', '/* about NAME\n   more on NAME */'),
    blankBefore: fc.boolean(),
    indent: fc.constantFrom('', '  ', '\t'),
  });
  const fileStyle = fc.record({
    eol: fc.constantFrom('\n', '\r\n'),
    finalNewline: fc.boolean(),
    bom: fc.boolean(),
    encoding: fc.constantFrom('utf8' as const, 'utf16le' as const, 'utf16be' as const),
    ascii: fc.boolean(),
    upperHex: fc.boolean(),
  });
  /** A quoted string of a file of `style`. */
  const quote = (text: string, style: { ascii: boolean; upperHex: boolean }) => {
    let out = '"';
    for (let at = 0; at < text.length; at++) {
      const char = text[at]!;
      const code = char.charCodeAt(0);
      if (char === '"' || char === '\\') out += `\\${char}`;
      else if (char === '\n') out += '\\n';
      else if (char === '\t') out += '\\t';
      else if (style.ascii && code > 0x7f) {
        const hex = code.toString(16).padStart(4, '0');
        out += `\\U${style.upperHex ? hex.toUpperCase() : hex}`;
      } else out += char;
    }
    return `${out}"`;
  };

  const scenario = fc.integer({ min: 1, max: 7 }).chain((count) =>
    fc.record({
      sourceValues: fc.array(texts, { minLength: count, maxLength: count }),
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

  it('when values change, keys come and go in a target of any layout, then only their lines change (a key the source lacks only when synced) and translate-toolkit reads exactly the values', () => {
    const cases: { written: Buffer; expected: Record<string, string> }[] = [];
    fc.assert(
      fc.property(scenario, ({ sourceValues, order, entries, changes, style, synced }) => {
        // Keys as apps write them: English sentences, some ending in a dot.
        const nameOf = (index: number) =>
          index >= 0 ? (index % 2 ? `Item ${index}.` : `item_${index}`) : `Old key ${-index}`;
        const source = sourceValues
          .map(
            (value, index) =>
              `${quote(nameOf(index), style)} = ${quote(value, { ascii: false, upperHex: false })};`,
          )
          .join('\n');
        const lines = ['/* Translators: Anna, Ben */', ''];
        const linesOfKey = new Map<string, { pair: number; comments: number[] }>();
        const old = new Map<string, string>();
        for (const index of order) {
          const [value, look] = entries[index + 2]!;
          const name = nameOf(index);
          old.set(name, value);
          if (look.blankBefore) lines.push('');
          const comments = look.comment
            ? look.comment
                .replaceAll('NAME', name)
                .split('\n')
                .map((line) => lines.push(line) - 1)
            : [];
          const pair =
            lines.push(
              `${look.indent}${quote(name, style)}${look.equals}${quote(value, style)}${look.semicolon}`,
            ) - 1;
          linesOfKey.set(name, { pair, comments });
        }
        const text = `${lines.join(style.eol)}${style.finalNewline ? style.eol : ''}`;
        const existing = encodeApple(text, { text, encoding: style.encoding, bom: style.bom });
        const values: Record<string, string | undefined> = {};
        const byName: Record<string, string | undefined> = {};
        changes.forEach(([change, value], index) => {
          const name = nameOf(index);
          byName[name] = change === 'keep' ? old.get(name) : change === 'change' ? value : undefined;
          values[keyOfName(name)] = byName[name];
        });
        // A key the source lacks stays as it is unless Tolk synced it.
        const syncedNames = [1, 2].filter((n) => synced[n - 1]).map((n) => `Old key ${n}`);
        for (const [name, value] of old)
          if (!(name in byName) && !syncedNames.includes(name)) byName[name] = value;
        const expectedNames = Object.fromEntries(
          Object.entries(byName).filter((entry): entry is [string, string] => entry[1] !== undefined),
        );
        const touched = new Set(
          [...new Set([...old.keys(), ...Object.keys(byName)])].filter(
            (name) => old.get(name) !== byName[name],
          ),
        );

        const written = write(source, existing, values, (key) =>
          syncedNames.some((name) => keyOfName(name) === key),
        );
        if (touched.size === 0) expect(written).toEqual(existing);
        const after = decodeApple(written, 'written');
        expect([after.encoding, after.bom]).toEqual([style.encoding, style.bom]);
        expect(valuesOf(written)).toEqual(
          Object.fromEntries(Object.entries(expectedNames).map(([name, value]) => [keyOfName(name), value])),
        );
        const allowed = new Set<number>();
        for (const name of touched) {
          const at = linesOfKey.get(name);
          if (!at) continue;
          allowed.add(at.pair);
          if (byName[name] === undefined) at.comments.forEach((line) => allowed.add(line));
        }
        const newLines = linesOf(after.text);
        const diff = lineDiff(linesOf(text), newLines);
        for (const line of diff.removed)
          expect(allowed, `line ${line} of\n${text}\n→\n${after.text}`).toContain(line);
        for (const line of diff.added) {
          const pairs = Object.entries(valuesOf(newLines[line]!));
          expect(pairs.length, `${JSON.stringify(text)} → ${JSON.stringify(after.text)}`).toBe(1);
          const name = Object.keys(expectedNames).find((candidate) => keyOfName(candidate) === pairs[0]![0]);
          expect(name !== undefined && touched.has(name), newLines[line]).toBe(true);
        }
        expectFinalNewline(text, after.text, style.eol);
        expect(after.text.replaceAll(style.eol, '')).not.toMatch(/[\r\n]/);
        cases.push({ written, expected: expectedNames });
      }),
      { numRuns: 100, seed: 27 },
    );
    // translate-toolkit reads them so too, but for a pair of \U escapes beyond the BMP, which it
    // cannot join, a space before `;`, which it reads into the value, and a value ending in an
    // escaped backslash (`"x\\";`), which it reads as ending in a quote (Apple's reader reads
    // them as ours does above).
    const checked = cases.filter(
      (one) => !/\\U[dD][89a-fA-F]|" ;|\\\\";/.test(decodeApple(one.written, 'x').text),
    );
    expect(checked.length).toBeGreaterThan(40);
    prop2po(checked.map((one) => one.written)).forEach((reference, index) => {
      expect(reference, decodeApple(checked[index]!.written, 'x').text).toEqual(checked[index]!.expected);
    });
  });
});

describe('strings format: a large target on disk', () => {
  it('when 50,000 keys are new to a target of one key, then they are placed in linear time', () => {
    // Ten times the keys take about ten times as long (a search from each new key: a hundred
    // times); measured against a tenth of them in the same run, so a slow machine is no failure.
    const placed = (count: number) => {
      const keys = Array.from({ length: count }, (_, i) => `key_${i}`);
      const source = keys.map((key) => `"${key}" = "v";`).join('\n');
      const values = Object.fromEntries(keys.map((key) => [key, `w ${key}`]));
      const target = (n: number) => `/* de */\n\n"key_${n - 1}"="w key_${n - 1}";\n`;
      const started = performance.now();
      const written = write(source, target(count), values);
      return { written, values, ms: performance.now() - started };
    };
    const small = placed(5_000);
    const { written, values, ms } = placed(50_000);
    const lines = written.toString().split('\n');
    expect(lines.slice(0, 3)).toEqual(['/* de */', '', '"key_0"="w key_0";']);
    expect(lines.at(-2)).toBe('"key_49999"="w key_49999";');
    expect(valuesOf(written)).toEqual(values);
    expect(ms / small.ms).toBeLessThan(30);
  });
});
