/**
 * DESIGN §16 for gettext catalogs: a target on disk changes only where its translations change —
 * its header and credits, its order, comments, obsolete entries and line endings stay, and msgfmt
 * still takes it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { poFormat } from '../../src/formats/po.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-po-in-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** msgfmt's verdict on a catalog (gettext is installed here and by `.ci/run`). */
function msgfmt(bytes: Buffer, name: string) {
  const input = join(dir, name);
  writeFileSync(input, bytes);
  const result = spawnSync(
    '/usr/bin/msgfmt',
    ['--check-format', '--check-header', '-o', '/dev/null', input],
    {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    },
  );
  return { status: result.status, stderr: result.stderr };
}

const HEADER = [
  'msgid ""',
  'msgstr ""',
  '"Project-Id-Version: shop 1.0\\n"',
  '"POT-Creation-Date: 2026-01-05 10:00+0000\\n"',
  '"Language: \\n"',
  '"MIME-Version: 1.0\\n"',
  '"Content-Type: text/plain; charset=UTF-8\\n"',
  '"Content-Transfer-Encoding: 8bit\\n"',
];

/** A template of `msgids`, each with a reference comment. */
function template(msgids: readonly string[]): string {
  return [
    ...HEADER,
    '',
    ...msgids.flatMap((id, at) => [`#: src/app.c:${at + 1}`, `msgid "${id}"`, 'msgstr ""', '']),
  ].join('\n');
}

function write(
  pot: string,
  existing: string,
  values: Record<string, string | undefined>,
  options: { revisionHeader?: boolean; synced?: (key: string) => boolean } = {},
): string {
  const parsed = parseSourceDocument(
    poFormat.read({ bytes: Buffer.from(pot), locale: 'en', path: 'messages.pot', options: {} }),
  );
  return poFormat
    .write({
      source: Buffer.from(pot),
      sourceLocale: 'en',
      locale: 'de',
      valueOf: (key) => values[key],
      target: targetKeys(parsed, 'de'),
      existing: Buffer.from(existing),
      ...(options.synced ? { synced: options.synced } : {}),
      options: options.revisionHeader === undefined ? {} : { revisionHeader: options.revisionHeader },
    })
    .toString('utf8');
}

const GERMAN = [
  '# German translation of the shop.',
  '# Translators:',
  '# Ada Lovelace <ada@example.com>, 2025',
  'msgid ""',
  'msgstr ""',
  '"Project-Id-Version: shop 0.9\\n"',
  '"POT-Creation-Date: 2025-01-01 10:00+0000\\n"',
  '"PO-Revision-Date: 2025-06-01 12:00+0200\\n"',
  '"Last-Translator: Ada Lovelace <ada@example.com>\\n"',
  '"Language: de\\n"',
  '"MIME-Version: 1.0\\n"',
  '"Content-Type: text/plain; charset=UTF-8\\n"',
  '"Content-Transfer-Encoding: 8bit\\n"',
  '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
  '',
  '# Checked with the shop team.',
  '#: src/app.c:3',
  'msgid "Checkout"',
  'msgstr "Zur Kasse"',
  '',
  '#: src/app.c:1',
  'msgid "Cart"',
  'msgstr "Warenkorb"',
  '',
  '# Gone from the template.',
  '#: src/old.c:9',
  'msgid "Wishlist"',
  'msgstr "Wunschzettel"',
  '',
  '#, fuzzy',
  '#: src/app.c:4',
  'msgid "Pay now"',
  'msgstr "Jetzt zahlen?"',
  '',
  '#~ msgid "Old offer"',
  '#~ msgstr "Altes Angebot"',
  '',
].join('\n');

describe('po: a target on disk edited in place', () => {
  it('when values change, keys come and go, then only those entries change: credits, header, order, comments and obsolete entries stay', () => {
    const pot = template(['Cart', 'Coupon', 'Checkout', 'Pay now']);
    // "Wishlist" was the template's, synced, and is gone from it.
    const out = write(
      pot,
      GERMAN,
      { Cart: 'Einkaufswagen', Coupon: 'Gutschein', Checkout: 'Zur Kasse', 'Pay now': 'Jetzt zahlen' },
      { synced: (key) => key === 'Wishlist' },
    );
    expect(out).toBe(
      [
        ...GERMAN.split('\n').slice(0, 15),
        '# Checked with the shop team.',
        '#: src/app.c:3',
        'msgid "Checkout"',
        'msgstr "Zur Kasse"',
        '',
        '#: src/app.c:1',
        'msgid "Cart"',
        'msgstr "Einkaufswagen"',
        '',
        '#: src/app.c:2',
        'msgid "Coupon"',
        'msgstr "Gutschein"',
        '',
        '#: src/app.c:4',
        'msgid "Pay now"',
        'msgstr "Jetzt zahlen"',
        '',
        '#~ msgid "Old offer"',
        '#~ msgstr "Altes Angebot"',
        '',
      ].join('\n'),
    );
    expect(msgfmt(Buffer.from(out), 'de.po').status).toBe(0);
  });

  it('when the target holds an entry the template lacks that Tolk never synced, then its lines and comments stay byte for byte', () => {
    const pot = template(['Cart', 'Checkout', 'Pay now']);
    const values = { Cart: 'Warenkorb', Checkout: 'Zur Kasse' };
    expect(write(pot, GERMAN, values, { synced: (key) => key === 'Cart' })).toBe(GERMAN);
    // Its translation changes nothing around it: a value written next to it.
    const out = write(pot, GERMAN, { ...values, Cart: 'Einkaufswagen' });
    expect(out).toBe(GERMAN.replace('msgstr "Warenkorb"', 'msgstr "Einkaufswagen"'));
  });

  it('when nothing changes, then every byte stays: CRLF, no final newline, a fuzzy entry with no new translation', () => {
    const existing = GERMAN.replaceAll('\n', '\r\n').replace(/\r\n$/, '');
    const pot = template(['Cart', 'Checkout', 'Pay now', 'Wishlist']);
    // "Pay now" has no value: its fuzzy suggestion is no translation, and stays for the translator.
    const out = write(pot, existing, { Cart: 'Warenkorb', Checkout: 'Zur Kasse', Wishlist: 'Wunschzettel' });
    expect(out).toBe(existing);
  });

  it('when the file set asks for the revision header, then a catalog whose translations change gets its PO-Revision-Date and Last-Translator, and only then', () => {
    const pot = template(['Cart', 'Checkout', 'Pay now', 'Wishlist']);
    const same = { Cart: 'Warenkorb', Checkout: 'Zur Kasse', Wishlist: 'Wunschzettel' };
    expect(write(pot, GERMAN, same, { revisionHeader: true })).toBe(GERMAN);
    const out = write(pot, GERMAN, { ...same, Cart: 'Einkaufswagen' }, { revisionHeader: true });
    const today = new Date().toISOString().slice(0, 10);
    expect(out).toMatch(new RegExp(`"PO-Revision-Date: ${today} \\d\\d:\\d\\d\\+0000\\\\n"`));
    expect(out).toContain('"Last-Translator: Tolk\\n"');
    expect(out).toContain('# Translators:\n# Ada Lovelace <ada@example.com>, 2025\n');
    const changed = out.split('\n').filter((line, at) => line !== GERMAN.split('\n')[at]);
    expect(changed).toEqual([
      expect.stringMatching(/^"PO-Revision-Date: /),
      '"Last-Translator: Tolk\\n"',
      'msgstr "Einkaufswagen"',
    ]);
    expect(msgfmt(Buffer.from(out), 'revision.po').status).toBe(0);
  });

  it('when a target lacks every key of the source, then new entries go at the end, before its final newline', () => {
    const existing = [...HEADER.slice(0, 4), '"Language: de\\n"', ...HEADER.slice(5), ''].join('\n');
    const out = write(template(['Cart', 'Checkout']), existing, { Cart: 'Warenkorb', Checkout: 'Zur Kasse' });
    expect(out).toBe(
      `${existing}\n#: src/app.c:1\nmsgid "Cart"\nmsgstr "Warenkorb"\n\n#: src/app.c:2\nmsgid "Checkout"\nmsgstr "Zur Kasse"\n`,
    );
    expect(msgfmt(Buffer.from(out), 'end.po').status).toBe(0);
  });

  it('when any target layout meets any changes, then the lines of entries not written stay, in their order (those the template lacks unless synced), and each value reads back', () => {
    const words = ['Cart', 'Coupon', 'Checkout', 'Pay', 'Help', 'Search', 'Orders', 'Account'];
    const scenario = fc.record({
      source: fc.uniqueArray(fc.constantFrom(...words), { minLength: 1 }),
      target: fc.uniqueArray(fc.constantFrom(...words)),
      commented: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      values: fc.array(fc.constantFrom('A', 'B', undefined), { minLength: 8, maxLength: 8 }),
      /** Of a target entry the template lacks: Tolk synced it (it goes), or never did (it stays). */
      synced: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    });
    fc.assert(
      fc.property(scenario, ({ source, target, commented, values, synced }) => {
        const before = (word: string) => `Alt ${word}`;
        const entry = (word: string) => [
          ...(commented[words.indexOf(word)] ? [`# note on ${word}`] : []),
          `msgid "${word}"`,
          `msgstr "${before(word)}"`,
        ];
        const existing = [
          ...HEADER.slice(0, 4),
          '"Language: de\\n"',
          ...HEADER.slice(5),
          '',
          ...target.flatMap((word) => [...entry(word), '']),
        ].join('\n');
        const valueOf = Object.fromEntries(
          source.map((word) => {
            const choice = values[words.indexOf(word)];
            return [word, choice === undefined ? undefined : choice === 'A' ? before(word) : `Neu ${word}`];
          }),
        );
        const isSynced = (word: string) => synced[words.indexOf(word)]!;
        const own = target.filter((word) => !source.includes(word) && !isSynced(word));
        const out = write(template(source), existing, valueOf, { synced: isSynced });
        // Entries kept as they were, a translator's own among them: their lines, in the target's order.
        const untouched = target.filter((word) => valueOf[word] === before(word) || own.includes(word));
        const keptLines = untouched.flatMap(entry);
        const outLines = out.split('\n');
        let at = 0;
        for (const line of outLines) if (line === keptLines[at]) at++;
        expect(at).toBe(keptLines.length);
        // The header stays byte for byte.
        expect(out.startsWith(existing.slice(0, existing.indexOf('\n\n')))).toBe(true);
        // What reads back is the values written.
        const read = Object.fromEntries(
          Object.entries(
            poFormat.read({ bytes: Buffer.from(out), locale: 'de', path: 'de.po', options: {} }),
          ).filter(([key]) => !key.startsWith('@')),
        );
        const expected = Object.fromEntries([
          ...source.flatMap((word) => (valueOf[word] === undefined ? [] : [[word, valueOf[word]]])),
          ...own.map((word) => [word, before(word)]),
        ]);
        expect(read).toEqual(expected);
        expect(msgfmt(Buffer.from(out), 'property.po').status).toBe(0);
      }),
      { numRuns: 150 },
    );
  });
});
