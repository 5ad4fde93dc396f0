/**
 * DESIGN §16 for Android resources: a strings.xml on disk changes only where its translations
 * change — its comments, blank lines, indentation, other resources and declaration stay, and
 * aapt2 still compiles it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { androidFormat } from '../../src/formats/android.js';
import { aapt2Compile } from '../support/platform-tools.js';
import { readWithFindings } from './read-with-findings.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-android-in-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** aapt2 compiles the file as a German resource, or says why not. */
function compiles(xml: string): void {
  const values = join(mkdtempSync(join(dir, 'res-')), 'res', 'values-de');
  mkdirSync(values, { recursive: true });
  writeFileSync(join(values, 'strings.xml'), xml);
  const { compile } = aapt2Compile(join(values, 'strings.xml'));
  expect(compile.stderr).toBe('');
  expect(compile.status).toBe(0);
}

function read(xml: string, locale: string): Record<string, unknown> {
  return androidFormat.read({ bytes: Buffer.from(xml), locale, path: 'strings.xml', options: {} });
}

function write(
  source: string,
  existing: string,
  values: Record<string, string | undefined>,
  synced?: (key: string) => boolean,
): string {
  const parsed = parseSourceDocument(read(source, 'en'));
  return androidFormat
    .write({
      source: Buffer.from(source),
      sourceLocale: 'en',
      locale: 'de',
      valueOf: (key) => values[key],
      target: targetKeys(parsed, 'de'),
      existing: Buffer.from(existing),
      ...(synced ? { synced } : {}),
      options: {},
    })
    .toString('utf8');
}

const SOURCE = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="cart">Cart</string>
    <!-- The coupon field's label -->
    <string name="coupon">Coupon</string>
    <string name="checkout">Checkout</string>
    <plurals name="items">
        <item quantity="one">%d item</item>
        <item quantity="other">%d items</item>
    </plurals>
</resources>
`;

const GERMAN = `<?xml version='1.0' encoding='UTF-8'?>
<resources xmlns:tools="http://schemas.android.com/tools">
  <!-- Translated by the community -->

  <string name="checkout">Zur Kasse</string>
  <string name="cart">Warenkorb</string>
  <!-- no longer used -->
  <string name="wishlist">Wunschzettel</string>
  <plurals name="items">
    <item quantity="one">%d Artikel</item>
    <item quantity="other">%d Artikel</item>
  </plurals>
</resources>`;

describe('android: a strings.xml on disk edited in place', () => {
  it('when values change and keys come and go, then only those lines change, in the file’s own layout', () => {
    // `wishlist` was the source's, synced, and is gone from it.
    const out = write(
      SOURCE,
      GERMAN,
      {
        cart: 'Einkaufswagen',
        coupon: 'Gutschein',
        checkout: 'Zur Kasse',
        items: read(GERMAN, 'de')['items'] as string,
      },
      (key) => key === 'wishlist',
    );
    expect(out).toBe(`<?xml version='1.0' encoding='UTF-8'?>
<resources xmlns:tools="http://schemas.android.com/tools">
  <!-- Translated by the community -->

  <string name="checkout">Zur Kasse</string>
  <string name="cart">Einkaufswagen</string>
  <!-- The coupon field's label -->
  <string name="coupon">Gutschein</string>
  <plurals name="items">
    <item quantity="one">%d Artikel</item>
    <item quantity="other">%d Artikel</item>
  </plurals>
</resources>`);
    compiles(out);
  });

  it('when the target holds entries the source lacks that Tolk never synced, then they stay byte for byte with their comments; synced, they go with them', () => {
    const existing = GERMAN.replace(
      '  <plurals name="items">',
      '  <!-- mine -->\n  <string-array name="days">\n    <item>Mo</item>\n    <item>Di</item>\n  </string-array>\n  <plurals name="items">',
    );
    const values = { cart: 'Warenkorb', checkout: 'Zur Kasse', items: read(GERMAN, 'de')['items'] as string };
    expect(write(SOURCE, existing, values, (key) => key === 'cart')).toBe(existing);
    const synced = ['wishlist', 'days.0', 'days.1'];
    expect(write(SOURCE, existing, values, (key) => synced.includes(key))).toBe(
      GERMAN.replace('  <!-- no longer used -->\n  <string name="wishlist">Wunschzettel</string>\n', ''),
    );
    compiles(existing);
  });

  it('when nothing changes, then every byte stays: CRLF, other resources, comments, no final newline', () => {
    const existing = GERMAN.replaceAll('\n', '\r\n').replace(
      '<string name="wishlist">',
      '<color name="brand">#336699</color>\r\n  <string name="wishlist">',
    );
    const source = SOURCE.replace(
      '<string name="checkout">',
      '<string name="wishlist">Wishlist</string>\n    <string name="checkout">',
    );
    const out = write(source, existing, {
      cart: 'Warenkorb',
      checkout: 'Zur Kasse',
      wishlist: 'Wunschzettel',
      items: read(GERMAN, 'de')['items'] as string,
    });
    expect(out).toBe(existing);
  });

  it('when the target has none of the source’s keys, then new entries go before the closing tag in its indentation', () => {
    const existing = '<resources>\n\t<color name="brand">#336699</color>\n</resources>\n';
    const out = write(SOURCE, existing, { cart: 'Warenkorb', checkout: 'Zur Kasse' });
    expect(out).toBe(
      '<resources>\n\t<color name="brand">#336699</color>\n\t<string name="cart">Warenkorb</string>\n\t<string name="checkout">Zur Kasse</string>\n</resources>\n',
    );
    compiles(out);
  });

  it('when a file has text outside any element (aapt2 refuses it), then it is an error at its line and the target written leaves it out', () => {
    const existing = GERMAN.replace(
      '<string name="cart">Warenkorb</string>',
      '<string name="cart">Warenkorb</string>&gt;',
    );
    const findings = readWithFindings(androidFormat, existing, {
      locale: 'de',
      path: 'strings.xml',
    }).findings;
    expect(findings).toContainEqual(
      expect.objectContaining({
        kind: 'format',
        severity: 'error',
        line: 6,
        message: expect.stringContaining('plain text not allowed here'),
      }),
    );
    const values = { cart: 'Warenkorb', checkout: 'Zur Kasse', items: read(GERMAN, 'de')['items'] as string };
    const out = write(SOURCE, existing, values);
    expect(out).toBe(write(SOURCE, GERMAN, values));
    compiles(out);
  });

  it('when any target layout meets any changes, then the lines of entries not written stay, in their order (those the source lacks unless synced), and each value reads back', () => {
    const names = ['cart', 'coupon', 'checkout', 'help', 'search', 'orders'];
    const scenario = fc.record({
      source: fc.uniqueArray(fc.constantFrom(...names), { minLength: 1 }),
      target: fc.uniqueArray(fc.constantFrom(...names)),
      indent: fc.constantFrom('  ', '    ', '\t'),
      commented: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      values: fc.array(fc.constantFrom('same', 'new', undefined), { minLength: 6, maxLength: 6 }),
      /** Of a target entry the source lacks: Tolk synced it (it goes), or never did (it stays). */
      synced: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    });
    fc.assert(
      fc.property(scenario, ({ source, target, indent, commented, values, synced }) => {
        const old = (name: string) => `Alt ${name}`;
        const line = (name: string) => `${indent}<string name="${name}">${old(name)}</string>`;
        const existing = [
          '<resources>',
          ...target.flatMap((name) => [
            ...(commented[names.indexOf(name)] ? [`${indent}<!-- about ${name} -->`] : []),
            line(name),
          ]),
          '</resources>',
          '',
        ].join('\n');
        const sourceXml = [
          '<resources>',
          ...source.map((name) => `    <string name="${name}">${name}</string>`),
          '</resources>',
          '',
        ].join('\n');
        const valueOf = Object.fromEntries(
          source.map((name) => {
            const choice = values[names.indexOf(name)];
            return [name, choice === undefined ? undefined : choice === 'same' ? old(name) : `Neu ${name}`];
          }),
        );
        const isSynced = (name: string) => synced[names.indexOf(name)]!;
        const own = target.filter((name) => !source.includes(name) && !isSynced(name));
        const gone = target.filter((name) => !source.includes(name) && isSynced(name));
        const out = write(sourceXml, existing, valueOf, isSynced);
        // No line left blank by an entry that went (the file had none).
        expect(
          out
            .split('\n')
            .slice(0, -1)
            .filter((row) => row.trim() === ''),
        ).toEqual([]);
        // Entries not written stay, a translator's own with its comment; a synced one goes with its comment.
        const untouched = target.flatMap((name) =>
          valueOf[name] === old(name)
            ? [line(name)]
            : own.includes(name)
              ? [...(commented[names.indexOf(name)] ? [`${indent}<!-- about ${name} -->`] : []), line(name)]
              : [],
        );
        let at = 0;
        for (const row of out.split('\n')) if (row === untouched[at]) at++;
        expect(at).toBe(untouched.length);
        for (const name of gone) expect(out).not.toContain(`"${name}"`);
        for (const name of gone) expect(out).not.toContain(`about ${name} `);
        const expected = Object.fromEntries([
          ...source.flatMap((name) => (valueOf[name] === undefined ? [] : [[name, valueOf[name]]])),
          ...own.map((name) => [name, old(name)]),
        ]);
        const readBack = Object.fromEntries(
          Object.entries(read(out, 'de')).filter(([key]) => !key.startsWith('@')),
        );
        expect(readBack).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
