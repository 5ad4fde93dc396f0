import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import * as plist from 'plist';
import { afterAll, describe, expect, it } from 'vitest';
import { stringsdictFormat } from '../../src/formats/stringsdict.js';
import { plistutilRoundTrip } from '../support/platform-tools.js';
import { realApp, realAppsPresent } from '../support/real-apps.js';
import { lineDiff, linesOf } from './line-diff.js';

const dir = mkdtempSync(join(tmpdir(), 'tolk-stringsdict-in-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file as libplist's `plistutil` reads it (to a binary plist and back), parsed. */
function plistutil(bytes: Buffer): Record<string, unknown> {
  const input = join(dir, `f-${Math.random().toString(36).slice(2)}.stringsdict`);
  writeFileSync(input, bytes);
  return plist.parse(plistutilRoundTrip(input)) as Record<string, unknown>;
}

function read(bytes: string | Buffer, locale = 'en'): Record<string, unknown> {
  return stringsdictFormat.read({
    bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    locale,
    path: `${locale}.lproj/Localizable.stringsdict`,
    options: {},
  });
}

function write(
  source: string,
  existing: string | Buffer | undefined,
  values: Record<string, string | undefined>,
  locale = 'de',
  synced?: (key: string) => boolean,
): Buffer {
  const bytes = Buffer.from(source);
  const parsed = parseSourceDocument(read(bytes));
  return stringsdictFormat.write({
    source: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => values[key],
    target: targetKeys(parsed, locale, { i18nextPlurals: false }),
    existing: typeof existing === 'string' ? Buffer.from(existing) : existing,
    ...(synced ? { synced } : {}),
    options: {},
  });
}

type Forms = [string, string][];
type Layout = { unit: string; eol: string; doctype: boolean; finalNewline: boolean };
const XCODE: Layout = { unit: '\t', eol: '\n', doctype: true, finalNewline: true };
const MASTODON: Layout = { unit: '  ', eol: '\n', doctype: true, finalNewline: true };

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** An entry's lines: one variable `count`, its forms; the root dict's children at `unit`. */
function entryLines(name: string, forms: Forms, unit: string, comment?: string): string[] {
  const [a, b, c] = [unit, unit.repeat(2), unit.repeat(3)];
  return [
    ...(comment ? [`${a}<!-- ${comment} -->`] : []),
    `${a}<key>${name}</key>`,
    `${a}<dict>`,
    `${b}<key>NSStringLocalizedFormatKey</key>`,
    `${b}<string>%#@count@</string>`,
    `${b}<key>count</key>`,
    `${b}<dict>`,
    `${c}<key>NSStringFormatSpecTypeKey</key>`,
    `${c}<string>NSStringPluralRuleType</string>`,
    `${c}<key>NSStringFormatValueTypeKey</key>`,
    `${c}<string>ld</string>`,
    ...forms.flatMap(([category, text]) => [
      `${c}<key>${category}</key>`,
      `${c}<string>${escape(text)}</string>`,
    ]),
    `${b}</dict>`,
    `${a}</dict>`,
  ];
}

function file(entries: [string, Forms, string?][], layout: Layout): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    ...(layout.doctype
      ? [
          '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
        ]
      : []),
    '<plist version="1.0">',
    // Mastodon's files indent the root dict too; Xcode's do not.
    layout.unit === '\t' ? '<dict>' : `${layout.unit}<dict>`,
    ...entries.flatMap(([name, forms, comment]) =>
      entryLines(name, forms, layout.unit === '\t' ? '\t' : layout.unit, comment).map((line) =>
        layout.unit === '\t' ? line : layout.unit + line,
      ),
    ),
    layout.unit === '\t' ? '</dict>' : `${layout.unit}</dict>`,
    '</plist>',
  ];
  return lines.join(layout.eol) + (layout.finalNewline ? layout.eol : '');
}

const plural = (forms: Forms) => `{count, plural, ${forms.map(([c, t]) => `${c} {${t}}`).join(' ')}}`;

/** What plistutil must read for an entry written with `forms`. */
const expected = (forms: Forms) => ({
  NSStringLocalizedFormatKey: '%#@count@',
  count: {
    NSStringFormatSpecTypeKey: 'NSStringPluralRuleType',
    NSStringFormatValueTypeKey: 'ld',
    ...Object.fromEntries(forms),
  },
});

const SOURCE = file(
  [
    [
      'files',
      [
        ['one', '%ld file'],
        ['other', '%ld files'],
      ],
    ],
    [
      'photos',
      [
        ['one', '%ld photo'],
        ['other', '%ld photos'],
      ],
    ],
    [
      'votes',
      [
        ['one', '%ld vote'],
        ['other', '%ld votes'],
      ],
    ],
  ],
  XCODE,
);
const DE: [string, Forms, string?][] = [
  [
    'files',
    [
      ['one', '%ld Datei'],
      ['other', '%ld Dateien'],
    ],
    'Dateien',
  ],
  [
    'photos',
    [
      ['one', '%ld Foto'],
      ['other', '%ld Fotos'],
    ],
  ],
  [
    'votes',
    [
      ['one', '%ld Stimme'],
      ['other', '%ld Stimmen'],
    ],
  ],
];
const deValues = (entries: [string, Forms, string?][]) =>
  Object.fromEntries(entries.map(([name, forms]) => [name, plural(forms)]));

describe('stringsdict targets on disk edited in place', () => {
  it('when nothing changes, then the target is written back byte for byte, in its own indentation', () => {
    for (const layout of [
      XCODE,
      MASTODON,
      { unit: '    ', eol: '\r\n', doctype: false, finalNewline: false },
    ]) {
      const target = file(DE, layout);
      expect(write(SOURCE, target, deValues(DE)).toString()).toBe(target);
    }
  });

  it('when one plural form changes, then only its <string> line changes', () => {
    const target = file(DE, MASTODON);
    const changed = DE.map(([name, forms]) =>
      name === 'photos' ? ([name, [['one', '%ld Bild'], forms[1]!]] as [string, Forms]) : [name, forms],
    ) as [string, Forms][];
    const out = write(SOURCE, target, deValues(changed)).toString();
    const diff = lineDiff(linesOf(target), linesOf(out));
    expect(diff.removed.map((at) => linesOf(target)[at])).toEqual(['        <string>%ld Foto</string>']);
    expect(diff.added.map((at) => linesOf(out)[at])).toEqual(['        <string>%ld Bild</string>']);
    expect((plistutil(Buffer.from(out)).photos as Record<string, unknown>).count).toMatchObject({
      one: '%ld Bild',
      other: '%ld Fotos',
    });
  });

  it('when an entry is new, then it is inserted after the one before it in the source, in the file’s indentation', () => {
    const target = file([DE[0]!, DE[2]!], MASTODON);
    const out = write(SOURCE, target, deValues(DE)).toString();
    expect(out).toBe(file(DE, MASTODON));
  });

  it('when the first entry is new, then it goes before the next one the target has, above its comments', () => {
    const target = file([DE[1]!, DE[2]!], XCODE);
    const withComment = target.replace('\t<key>photos', '\t<!-- Fotos -->\n\t<key>photos');
    const out = write(SOURCE, withComment, deValues(DE)).toString();
    expect(out).toBe(
      file([DE[0]!.slice(0, 2) as [string, Forms], DE[1]!, DE[2]!], XCODE).replace(
        '\t<key>photos',
        '\t<!-- Fotos -->\n\t<key>photos',
      ),
    );
  });

  it('when an entry is gone from the source (synced) or left out, then it goes with its lines and the comment above it; never synced, it stays byte for byte', () => {
    const target = file(
      [
        ...DE,
        [
          'gone',
          [
            ['one', 'x'],
            ['other', 'y'],
          ],
          'weg',
        ],
      ],
      MASTODON,
    );
    const values = { ...deValues(DE), files: undefined };
    const out = write(SOURCE, target, values, 'de', (key) => key === 'gone').toString();
    expect(out).toBe(file([DE[1]!, DE[2]!], MASTODON));
    // A translator's own entry: Tolk never synced it.
    const own = write(SOURCE, target, values, 'de', (key) => key === 'files').toString();
    expect(own).toBe(
      file(
        [
          DE[1]!,
          DE[2]!,
          [
            'gone',
            [
              ['one', 'x'],
              ['other', 'y'],
            ],
            'weg',
          ],
        ],
        MASTODON,
      ),
    );
  });

  it('when the locale has more plural categories than the target holds, then only the missing forms are added', () => {
    const ru = file(
      [
        [
          'files',
          [
            ['one', '%ld файл'],
            ['other', '%ld файла'],
          ],
        ],
      ],
      MASTODON,
    );
    const forms: Forms = [
      ['one', '%ld файл'],
      ['few', '%ld файла'],
      ['many', '%ld файлов'],
      ['other', '%ld файла'],
    ];
    const out = write(SOURCE, ru, { files: plural(forms) }, 'ru').toString();
    const diff = lineDiff(linesOf(ru), linesOf(out));
    expect(diff.removed).toEqual([]);
    expect(diff.added.map((at) => linesOf(out)[at]!.trim())).toEqual([
      '<key>few</key>',
      '<string>%ld файла</string>',
      '<key>many</key>',
      '<string>%ld файлов</string>',
    ]);
    expect(out).toBe(file([['files', forms]], MASTODON));
  });

  it('when a form the locale lacks is in the target, then its key and string lines go', () => {
    const target = file(
      [
        [
          'files',
          [
            ['zero', 'keine'],
            ['one', '%ld Datei'],
            ['other', '%ld Dateien'],
          ],
        ],
      ],
      XCODE,
    );
    const out = write(SOURCE, target, { files: plural(DE[0]![1]) }).toString();
    expect(out).toBe(file([['files', DE[0]![1]]], XCODE));
  });

  it('when the target has a byte order mark, CRLF and no final newline, then they stay', () => {
    const layout = { unit: '\t', eol: '\r\n', doctype: true, finalNewline: false };
    const target = `\uFEFF${file(DE, layout)}`;
    const changed = DE.map(([name, forms, comment]) => [
      name,
      name === 'votes' ? [forms[0]!, ['other', '%ld Stimmen & <mehr>']] : forms,
      comment,
    ]) as [string, Forms, string?][];
    const out = write(SOURCE, target, deValues(changed)).toString();
    expect(out).toBe(`\uFEFF${file(changed, layout)}`);
    // libplist does not read a byte order mark; Tolk's reader does.
    expect(read(out, 'de').votes).toBe(plural(changed[2]![1]));
  });

  it('when the target does not parse, then it is written in the source’s layout as a new file', () => {
    const broken = '<?xml version="1.0"?>\n<plist><dict><key>files</key>\n';
    expect(write(SOURCE, broken, deValues(DE)).toString()).toBe(
      write(SOURCE, undefined, deValues(DE)).toString(),
    );
  });

  it('when any set of entries changes, comes or goes in any layout, then the diff touches only those entries (one the source lacks only when synced) and plistutil reads every value', () => {
    const text = fc
      .stringMatching(/^[A-Za-zäöü%&<>" ]{1,12}$/)
      .map((value) => value.replace(/^ +| +$/g, '') || 'x');
    const forms = fc.tuple(text, text).map(
      ([one, other]) =>
        [
          ['one', one],
          ['other', other],
        ] as Forms,
    );
    const names = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}(\.[a-z]{1,4})?$/), {
      minLength: 1,
      maxLength: 6,
    });
    const layout = fc.record({
      unit: fc.constantFrom('\t', '  ', '    '),
      eol: fc.constantFrom('\n', '\r\n'),
      doctype: fc.boolean(),
      finalNewline: fc.boolean(),
    });
    const scenario = names.chain((all) =>
      fc.record({
        layout,
        source: fc.constant(all),
        extra: fc.uniqueArray(fc.stringMatching(/^x[a-z]{1,4}$/), { maxLength: 2 }),
        /** Of the entries the source lacks: Tolk synced them (they go), or never did (they stay). */
        extraSynced: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
        target: fc.shuffledSubarray(all),
        old: fc.array(forms, { minLength: all.length, maxLength: all.length }),
        fresh: fc.array(forms, { minLength: all.length, maxLength: all.length }),
        change: fc.array(fc.constantFrom('same', 'changed', 'one', 'none'), {
          minLength: all.length,
          maxLength: all.length,
        }),
        comments: fc.array(fc.boolean(), { minLength: all.length, maxLength: all.length }),
      }),
    );
    fc.assert(
      fc.property(scenario, (s) => {
        const source = file(
          s.source.map((name) => [
            name,
            [
              ['one', `%ld ${name}`],
              ['other', `%ld ${name}s`],
            ],
          ]),
          XCODE,
        );
        const oldOf = new Map(s.source.map((name, at) => [name, s.old[at]!]));
        const targetEntries: [string, Forms, string?][] = [
          ...s.target.map(
            (name) =>
              [name, oldOf.get(name)!, s.comments[s.source.indexOf(name)] ? `about ${name}` : undefined] as [
                string,
                Forms,
                string?,
              ],
          ),
          ...s.extra.map(
            (name) =>
              [
                name,
                [
                  ['one', 'a'],
                  ['other', 'b'],
                ],
                `about ${name}`,
              ] as [string, Forms, string?],
          ),
        ];
        const before = file(targetEntries, s.layout);
        const values: Record<string, string | undefined> = {};
        const wanted = new Map<string, Forms>();
        s.source.forEach((name, at) => {
          const old = oldOf.get(name)!;
          const kind = s.change[at]!;
          const forms: Forms | undefined =
            kind === 'none'
              ? undefined
              : kind === 'same'
                ? old
                : kind === 'one'
                  ? [s.fresh[at]![0]!, old[1]!]
                  : s.fresh[at]!;
          if (forms) wanted.set(name, forms);
          values[name] = forms && plural(forms);
        });
        const synced = s.extra.filter((_, at) => s.extraSynced[at]);
        for (const name of s.extra)
          if (!synced.includes(name))
            wanted.set(name, [
              ['one', 'a'],
              ['other', 'b'],
            ]);
        const out = write(source, before, values, 'de', (key) => synced.includes(key));
        const after = out.toString();
        // plistutil reads exactly the entries written.
        const readBack = plistutil(out);
        expect(Object.keys(readBack).sort()).toEqual([...wanted.keys()].sort());
        for (const [name, forms] of wanted) expect(readBack[name]).toEqual(expected(forms));
        // Lines change only in the entries written differently, removed or new.
        const touched = new Set<string>(synced);
        for (const name of s.source) {
          const inTarget = s.target.includes(name);
          const forms = wanted.get(name);
          if (!inTarget ? forms : !forms || JSON.stringify(forms) !== JSON.stringify(oldOf.get(name)))
            touched.add(name);
        }
        // Each line's entry: from its comment or key to the next one, none after the root dict.
        const rootClose = s.layout.unit === '\t' ? '</dict>' : `${s.layout.unit}</dict>`;
        const untouched = (text: string) => {
          let owner: string | null = null;
          return linesOf(text).filter((line) => {
            const comment = /^\s*<!-- about (\S+) -->$/.exec(line);
            const key = /^\s*<key>([^<]+)<\/key>$/.exec(line);
            if (comment) owner = comment[1]!;
            else if (key && (s.source.includes(key[1]!) || s.extra.includes(key[1]!))) owner = key[1]!;
            else if (line === rootClose) owner = null;
            return owner === null || !touched.has(owner);
          });
        };
        expect(untouched(after)).toEqual(untouched(before));
        if (touched.size === 0) expect(after).toBe(before);
        // Line endings and the final newline stay.
        if (s.layout.eol === '\r\n') expect(after.replaceAll('\r\n', '')).not.toContain('\n');
        if (wanted.size > 0 && s.target.length > 0)
          expect(after.endsWith(s.layout.eol)).toBe(s.layout.finalNewline);
      }),
      { numRuns: 100 },
    );
  });
});

describe('stringsdict: a large target on disk', () => {
  it('when 5,000 entries are new to a target of one entry, then they are placed in source order in about linear time', () => {
    // Ten times the entries take about ten times as long (quadratic placing — each new entry
    // looking for its neighbours, each edit copying the text — a hundred times); measured against
    // a tenth of them in the same run, so a slow machine is no failure.
    const forms = (name: string): Forms => [
      ['one', `%ld ${name} de`],
      ['other', `%ld ${name} des`],
    ];
    const placed = (count: number) => {
      const names = Array.from({ length: count }, (_, at) => `key.${at}`);
      const sourceForms = names.map((name): [string, Forms] => [
        name,
        [
          ['one', `%ld ${name}`],
          ['other', `%ld ${name}s`],
        ],
      ]);
      const middle = names[count / 2]!;
      const target = file([[middle, forms(middle)]], MASTODON);
      const values = Object.fromEntries(names.map((name) => [name, plural(forms(name))]));
      const started = performance.now();
      const out = write(file(sourceForms, XCODE), target, values);
      return { names, out, ms: performance.now() - started };
    };
    const small = placed(500);
    const { names, out, ms } = placed(5000);
    expect(out.toString()).toBe(
      file(
        names.map((name) => [name, forms(name)]),
        MASTODON,
      ),
    );
    expect(ms / small.ms).toBeLessThan(30);
  });
});

const present = realAppsPresent();

describe.skipIf(!present)('Mastodon for iOS’ .stringsdict files, taken as they are', () => {
  const resources = () =>
    join(realApp('apple-strings'), 'MastodonSDK/Sources/MastodonLocalization/Resources');
  const fileOf = (locale: string) =>
    readFileSync(join(resources(), `${locale}.lproj/Localizable.stringsdict`));

  it('when a target is written with its own values, then it keeps its bytes; one form changed is one line', () => {
    const source = fileOf('en').toString();
    for (const locale of ['de', 'ja', 'ru', 'ar']) {
      const existing = fileOf(locale);
      const own = read(existing, locale) as Record<string, string>;
      expect(write(source, existing, own, locale).equals(existing)).toBe(true);
      const [key, message] = Object.entries(own).find(([name]) => !name.startsWith('@'))!;
      const out = write(
        source,
        existing,
        { ...own, [key]: message.replace('other {', 'other {NEU ') },
        locale,
      );
      const diff = lineDiff(linesOf(existing.toString()), linesOf(out.toString()));
      expect([diff.removed.length, diff.added.length]).toEqual([1, 1]);
      expect(linesOf(out.toString())[diff.added[0]!]).toMatch(/^\s*<string>NEU /);
    }
  });
});
