/**
 * DESIGN §16 for XLIFF 1.2 and 2.0: a target file on disk (Angular's `messages.de.xlf`) changes
 * only where its translations change — its declaration, attribute order, notes, context groups,
 * unit order and line endings stay, and xmllint still reads it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { xliffFormat } from '../../src/formats/xliff.js';
import { needTools, xmllint } from '../support/platform-tools.js';
import { linesOf } from './line-diff.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-xliff-in-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(xml: string, locale: string): Record<string, unknown> {
  return xliffFormat.read({ bytes: Buffer.from(xml), locale, path: 'messages.xlf', options: {} });
}

/** The values of a file read as `locale`'s, without the notes. */
function valuesOf(xml: string, locale: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(read(xml, locale)).filter(([key]) => !key.startsWith('@')));
}

function write(
  source: string,
  existing: string | undefined,
  values: Record<string, string | undefined>,
  synced?: (key: string) => boolean,
): string {
  const parsed = parseSourceDocument(read(source, 'en'));
  return xliffFormat
    .write({
      source: Buffer.from(source),
      sourceLocale: 'en',
      locale: 'de',
      valueOf: (key) => values[key],
      target: targetKeys(parsed, 'de'),
      ...(existing === undefined ? {} : { existing: Buffer.from(existing) }),
      ...(synced ? { synced } : {}),
      options: {},
    })
    .toString('utf8');
}

let files = 0;
function expectXmllintReads(xml: string): void {
  const path = join(dir, `messages-${++files}.xlf`);
  writeFileSync(path, xml);
  expect(xmllint(path)).toMatchObject({ status: 0, stderr: '' });
}

const SOURCE_12 = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="cart" datatype="html">
        <source>Cart</source>
        <context-group purpose="location">
          <context context-type="sourcefile">cart.html</context>
        </context-group>
      </trans-unit>
      <trans-unit id="coupon" datatype="html">
        <source>Coupon for <x id="INTERPOLATION" equiv-text="{{ name }}"/></source>
        <note priority="1" from="description">The coupon field</note>
      </trans-unit>
      <trans-unit id="checkout" datatype="html">
        <source>Checkout</source>
      </trans-unit>
      <trans-unit id="pay" datatype="html">
        <source>Pay</source>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

/** Angular-style German file: units in another order, no declaration, other attribute order, CRLF. */
const GERMAN_12 = [
  '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">',
  '  <file original="ng2.template" datatype="plaintext" source-language="en" target-language="de">',
  '    <body>',
  '      <trans-unit datatype="html" id="checkout">',
  '        <source>Checkout</source>',
  '        <target state="translated">Zur Kasse</target>',
  '        <note from="description" priority="1">kept note</note>',
  '      </trans-unit>',
  '      <trans-unit datatype="html" id="cart">',
  '        <source>Cart</source>',
  '        <target state="translated">Wagen</target>',
  '        <context-group purpose="location">',
  '          <context context-type="sourcefile">cart.html</context>',
  '          <context context-type="linenumber">12</context>',
  '        </context-group>',
  '      </trans-unit>',
  '      <trans-unit datatype="html" id="wishlist">',
  '        <source>Wishlist</source>',
  '        <target state="translated">Wunschzettel</target>',
  '      </trans-unit>',
  '    </body>',
  '  </file>',
  '</xliff>',
].join('\r\n');

const SOURCE_20 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">
  <file id="ngi18n" original="ng.template">
    <unit id="cart">
      <segment>
        <source>Cart</source>
      </segment>
    </unit>
    <unit id="coupon">
      <notes>
        <note category="description">The coupon field</note>
      </notes>
      <segment>
        <source>Coupon</source>
      </segment>
    </unit>
    <unit id="checkout">
      <segment>
        <source>Checkout</source>
      </segment>
    </unit>
  </file>
</xliff>
`;

const GERMAN_20 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" trgLang="de" srcLang="en">
  <file original="ng.template" id="ngi18n">
    <unit id="checkout">
      <segment state="final">
        <source>Checkout</source>
        <target>Zur Kasse</target>
      </segment>
    </unit>
    <unit id="cart">
      <segment>
        <source>Cart</source>
        <target>Wagen</target>
      </segment>
    </unit>
    <unit id="old">
      <segment>
        <source>Old</source>
        <target>Alt</target>
      </segment>
    </unit>
  </file>
</xliff>`;

describe('xliff: a target file on disk edited in place', () => {
  it('when a 1.2 target changes, a unit comes and one goes, then only their lines change, in the file’s own layout and CRLF', (context) => {
    needTools(context, 'xmllint');
    // `wishlist` was the source's, synced, and is gone from it.
    const out = write(
      SOURCE_12,
      GERMAN_12,
      { cart: 'Warenkorb', coupon: 'Gutschein für <x1/> & mehr', checkout: 'Zur Kasse', pay: undefined },
      (key) => key === 'wishlist',
    );
    expect(out).toBe(
      [
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">',
        '  <file original="ng2.template" datatype="plaintext" source-language="en" target-language="de">',
        '    <body>',
        '      <trans-unit datatype="html" id="checkout">',
        '        <source>Checkout</source>',
        '        <target state="translated">Zur Kasse</target>',
        '        <note from="description" priority="1">kept note</note>',
        '      </trans-unit>',
        '      <trans-unit datatype="html" id="cart">',
        '        <source>Cart</source>',
        '        <target state="translated">Warenkorb</target>',
        '        <context-group purpose="location">',
        '          <context context-type="sourcefile">cart.html</context>',
        '          <context context-type="linenumber">12</context>',
        '        </context-group>',
        '      </trans-unit>',
        '      <trans-unit id="coupon" datatype="html">',
        '        <source>Coupon for <x id="INTERPOLATION" equiv-text="{{ name }}"/></source>',
        '        <target state="translated">Gutschein für <x id="INTERPOLATION" equiv-text="{{ name }}"/> &amp; mehr</target>',
        '        <note priority="1" from="description">The coupon field</note>',
        '      </trans-unit>',
        '    </body>',
        '  </file>',
        '</xliff>',
      ].join('\r\n'),
    );
    expectXmllintReads(out);
    expect(valuesOf(out, 'de')).toEqual({
      checkout: 'Zur Kasse',
      cart: 'Warenkorb',
      coupon: 'Gutschein für <x1/> & mehr',
    });
  });

  it('when nothing changes, then every byte stays: 1.2 with CRLF and no final newline, 2.0 with a final target', () => {
    const german12 = { checkout: 'Zur Kasse', cart: 'Wagen' };
    const sourceWithWishlist = SOURCE_12.replace(
      '    </body>',
      '      <trans-unit id="wishlist" datatype="html">\n        <source>Wishlist</source>\n      </trans-unit>\n    </body>',
    );
    expect(write(sourceWithWishlist, GERMAN_12, { ...german12, wishlist: 'Wunschzettel' })).toBe(GERMAN_12);
    expect(
      write(
        SOURCE_20.replace(
          '<unit id="checkout">',
          '<unit id="old"><segment><source>Old</source></segment></unit><unit id="checkout">',
        ),
        GERMAN_20,
        { cart: 'Wagen', old: 'Alt', checkout: 'Anything' },
      ),
    ).toBe(GERMAN_20);
  });

  it('when a 2.0 target changes, then its segment is marked translated where it stands, a new unit is copied from the source and a reviewer’s final target stays', (context) => {
    needTools(context, 'xmllint');
    const out = write(
      SOURCE_20,
      GERMAN_20,
      { cart: 'Warenkorb', coupon: 'Gutschein', checkout: 'Bezahlen' },
      (key) => key === 'old',
    );
    expect(out).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" trgLang="de" srcLang="en">
  <file original="ng.template" id="ngi18n">
    <unit id="checkout">
      <segment state="final">
        <source>Checkout</source>
        <target>Zur Kasse</target>
      </segment>
    </unit>
    <unit id="cart">
      <segment state="translated">
        <source>Cart</source>
        <target>Warenkorb</target>
      </segment>
    </unit>
    <unit id="coupon">
      <notes>
        <note category="description">The coupon field</note>
      </notes>
      <segment state="translated">
        <source>Coupon</source>
        <target>Gutschein</target>
      </segment>
    </unit>
  </file>
</xliff>`);
    expectXmllintReads(out);
    expect(valuesOf(out, 'de')).toEqual({ checkout: 'Zur Kasse', cart: 'Warenkorb', coupon: 'Gutschein' });
  });

  it('when a unit on disk is not translated yet and Tolk has no value for it, then it stays as it is; given one, it gets it and the state translated', () => {
    const german = GERMAN_12.replace(
      '<target state="translated">Wagen</target>',
      '<target state="new">Cart</target>',
    );
    const synced = (key: string) => key === 'wishlist';
    expect(write(SOURCE_12, german, { checkout: 'Zur Kasse', wishlist: 'x' }, synced)).toBe(
      german.replace(/\r\n {6}<trans-unit datatype="html" id="wishlist">[^]*?<\/trans-unit>/, ''),
    );
    const out = write(SOURCE_12, german, { checkout: 'Zur Kasse', cart: 'Warenkorb' }, synced);
    expect(out).toContain('<target state="translated">Warenkorb</target>');
    expect(linesOf(out)).toHaveLength(linesOf(german).length - 4);
  });

  it('when the target holds units the source lacks that Tolk never synced, then they stay byte for byte, 1.2 and 2.0', () => {
    expect(
      write(SOURCE_12, GERMAN_12, { checkout: 'Zur Kasse', cart: 'Wagen' }, (key) => key === 'cart'),
    ).toBe(GERMAN_12);
    const out = write(SOURCE_20, GERMAN_20, { cart: 'Wagen', checkout: 'Zur Kasse', coupon: 'Gutschein' });
    expect(out).toContain(
      '    <unit id="old">\n      <segment>\n        <source>Old</source>\n        <target>Alt</target>',
    );
    expect(valuesOf(out, 'de')).toEqual({
      checkout: 'Zur Kasse',
      cart: 'Wagen',
      old: 'Alt',
      coupon: 'Gutschein',
    });
  });

  it('when the source text of a unit changed, then the target’s <source> is the source’s again', () => {
    const out = write(SOURCE_12.replace('<source>Cart</source>', '<source>Basket</source>'), GERMAN_12, {
      cart: 'Korb',
      checkout: 'Zur Kasse',
    });
    expect(out).toContain('<source>Basket</source>\r\n        <target state="translated">Korb</target>');
  });

  it('when the target has none of the source’s units, then new ones go at the end of its <body> in the source’s indentation', () => {
    const empty =
      '<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file source-language="en" target-language="de" datatype="plaintext" original="x">\n    <body>\n    </body>\n  </file>\n</xliff>\n';
    const out = write(SOURCE_12, empty, { pay: 'Zahlen' });
    expect(out).toBe(
      empty.replace(
        '    </body>',
        '      <trans-unit id="pay" datatype="html">\n        <source>Pay</source>\n        <target state="translated">Zahlen</target>\n      </trans-unit>\n    </body>',
      ),
    );
  });

  it('when the target on disk does not parse, then it is refused at its line and column, not overwritten', () => {
    expect(() => write(SOURCE_12, '<xliff version="1.2">\n<file>', { cart: 'Warenkorb' })).toThrow(
      expect.objectContaining({
        name: 'FormatError',
        message: expect.stringMatching(/^the target file:2:\d+: is not well-formed XML/),
      }),
    );
  });

  it('when a new target is written from a CRLF source with a unit left out, then the unit goes with its whole line break', () => {
    const source = SOURCE_12.replaceAll('\n', '\r\n');
    const out = write(source, undefined, { cart: 'Warenkorb', coupon: 'Gutschein', checkout: 'Zur Kasse' });
    expect(out.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    // Three targets added, the three lines of `pay` gone.
    expect(linesOf(out)).toHaveLength(linesOf(source).length);
    expect(valuesOf(out, 'de')).toEqual({ cart: 'Warenkorb', coupon: 'Gutschein', checkout: 'Zur Kasse' });
  });

  it('when any target layout meets any changes, then xmllint reads the result, every value reads back and only written units’ lines change (one the source lacks only when synced)', (context) => {
    needTools(context, 'xmllint');
    const ids = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
    const disk = fc.record({
      state: fc.constantFrom('translated', 'new', 'final', 'none', 'absent'),
      stale: fc.boolean(),
      value: fc.constantFrom('same', 'other', undefined),
    });
    const scenario = fc.record({
      version: fc.constantFrom('1.2' as const, '2.0' as const),
      source: fc.uniqueArray(fc.constantFrom(...ids), { minLength: 1 }),
      target: fc.uniqueArray(fc.constantFrom(...ids, 'gone'), { maxLength: 7 }),
      units: fc.array(disk, { minLength: 7, maxLength: 7 }),
      indent: fc.constantFrom('  ', '    ', '\t'),
      eol: fc.constantFrom('\n', '\r\n'),
      finalNewline: fc.boolean(),
      declaration: fc.boolean(),
      /** Of a unit the source lacks, by index: Tolk synced it (it goes), or never did (it stays). */
      synced: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
    });
    fc.assert(
      fc.property(
        scenario,
        ({ version, source, target, units, indent, eol, finalNewline, declaration, synced }) => {
          const v12 = version === '1.2';
          const indexOf = (id: string) => (id === 'gone' ? 6 : Number(id.slice(1)));
          const at = (id: string) => units[indexOf(id)]!;
          const isSynced = (id: string) => synced[indexOf(id)]!;
          const sourceText = (id: string) => `Source ${id} & co`;
          const translation = (id: string) => `Ziel ${id} <b>`;
          const unitLines = (id: string, pad: string, onDisk: boolean): string[] => {
            const { state, stale } = at(id);
            const src = `<source>${onDisk && stale ? 'Stale' : sourceText(id).replace('&', '&amp;')}</source>`;
            const tgt = `<target>${translation(id).replace('<', '&lt;').replace('>', '&gt;')}</target>`;
            // `absent`: no target; `none`: a target without a state.
            const has = onDisk && state !== 'absent';
            if (v12) {
              const targetLine = has
                ? [state === 'none' ? tgt : `<target state="${state}">${tgt.slice(8)}`]
                : [];
              return [
                `${pad}<trans-unit datatype="html" id="${id}">`,
                `${pad}${indent}${src}`,
                ...targetLine.map((line) => `${pad}${indent}${line}`),
                `${pad}${indent}<note priority="1" from="description">About ${id}</note>`,
                `${pad}${indent}<context-group purpose="location">`,
                `${pad}${indent}${indent}<context context-type="sourcefile">${id}.html</context>`,
                `${pad}${indent}</context-group>`,
                `${pad}</trans-unit>`,
              ];
            }
            const stateAttribute =
              has && state !== 'none' ? ` state="${state === 'new' ? 'initial' : state}"` : '';
            return [
              `${pad}<unit id="${id}">`,
              `${pad}${indent}<notes>`,
              `${pad}${indent}${indent}<note category="description">About ${id}</note>`,
              `${pad}${indent}</notes>`,
              `${pad}${indent}<segment${stateAttribute}>`,
              `${pad}${indent}${indent}${src}`,
              ...(has ? [`${pad}${indent}${indent}${tgt}`] : []),
              `${pad}${indent}</segment>`,
              `${pad}</unit>`,
            ];
          };
          const file = (
            list: readonly string[],
            onDisk: boolean,
            pad: string,
            sep: string,
            ending: boolean,
          ) => {
            const lines = v12
              ? [
                  ...(onDisk && !declaration ? [] : ['<?xml version="1.0" encoding="UTF-8"?>']),
                  `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">`,
                  `${pad}<file source-language="en"${onDisk ? ' target-language="de"' : ''} datatype="plaintext" original="ng2.template">`,
                  `${pad}${pad}<body>`,
                  ...list.flatMap((id) => unitLines(id, pad.repeat(3), onDisk)),
                  `${pad}${pad}</body>`,
                  `${pad}</file>`,
                  '</xliff>',
                ]
              : [
                  ...(onDisk && !declaration ? [] : ['<?xml version="1.0" encoding="UTF-8"?>']),
                  `<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en"${onDisk ? ' trgLang="de"' : ''}>`,
                  `${pad}<file id="ngi18n" original="ng.template">`,
                  ...list.flatMap((id) => unitLines(id, pad.repeat(2), onDisk)),
                  `${pad}</file>`,
                  '</xliff>',
                ];
            return lines.join(sep) + (ending ? sep : '');
          };
          const sourceFile = file(source, false, '  ', '\n', true);
          const targetFile = file(target, true, indent, eol, finalNewline);
          // What the target on disk holds as a translation, as the reader takes it.
          const onDiskValue = (id: string) => {
            const { state } = at(id);
            if (!target.includes(id) || state === 'absent' || state === 'new') return undefined;
            return translation(id);
          };
          const values: Record<string, string | undefined> = {};
          for (const id of source) {
            const { value } = at(id);
            values[id] =
              value === 'same'
                ? (onDiskValue(id) ?? `Neu ${id}`)
                : value === 'other'
                  ? `Neu ${id} & "q"`
                  : undefined;
          }
          const expected: Record<string, string> = {};
          const written = new Set<string>();
          for (const id of target) {
            const { state, stale } = at(id);
            if (!source.includes(id)) {
              if (isSynced(id)) written.add(id);
              else if (onDiskValue(id) !== undefined) expected[id] = onDiskValue(id)!;
            } else if (state === 'final') {
              expected[id] = translation(id);
              if (stale) written.add(id);
            } else if (values[id] !== undefined) {
              expected[id] = values[id];
              if (stale || values[id] !== onDiskValue(id)) written.add(id);
            } else if (stale || onDiskValue(id) !== undefined) written.add(id);
          }
          for (const id of source) {
            if (!target.includes(id) && values[id] !== undefined) {
              expected[id] = values[id];
              written.add(id);
            }
          }

          const out = write(sourceFile, targetFile, values, isSynced);
          expectXmllintReads(out);
          expect(valuesOf(out, 'de')).toEqual(expected);
          if (written.size === 0) expect(out).toBe(targetFile);
          // The lines of each unit in a file: from its start tag to its end tag.
          const linesOfUnits = (lines: readonly string[], chosen: ReadonlySet<string>) => {
            const rows = new Set<number>();
            let inside: string | undefined;
            lines.forEach((line, row) => {
              const id = /<(?:trans-unit|unit)\b[^>]*\bid="([^"]+)"/.exec(line)?.[1];
              if (id !== undefined) inside = id;
              if (inside !== undefined && chosen.has(inside)) rows.add(row);
              if (/<\/(?:trans-unit|unit)>/.test(line)) inside = undefined;
            });
            return rows;
          };
          const before = linesOf(targetFile);
          const after = linesOf(out);
          // Outside the units written, the lines are the file's, in its order: nothing else changed.
          const writtenBefore = linesOfUnits(before, written);
          const writtenAfter = linesOfUnits(after, written);
          expect(after.filter((_, row) => !writtenAfter.has(row))).toEqual(
            before.filter((_, row) => !writtenBefore.has(row)),
          );
          // The file's line endings stay.
          if (eol === '\r\n') expect(out.replaceAll('\r\n', '')).not.toContain('\n');
          else expect(out).not.toContain('\r');
        },
      ),
      { numRuns: 100 },
    );
  });
});
