import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { xcstringsFormat } from '../../src/formats/xcstrings.js';
import { realApp, realAppsPresent } from '../support/real-apps.js';
import { lineDiff, linesOf } from './line-diff.js';

const unit = (indent: string, state: string, value: string, last = true) => [
  `${indent}"stringUnit" : {`,
  `${indent}  "state" : "${state}",`,
  `${indent}  "value" : ${JSON.stringify(value)}`,
  `${indent}}${last ? '' : ','}`,
];

const plural = (indent: string, forms: [string, string, string][]) => [
  `${indent}"variations" : {`,
  `${indent}  "plural" : {`,
  ...forms.flatMap(([category, state, text], index) => [
    `${indent}    "${category}" : {`,
    ...unit(`${indent}      `, state, text),
    `${indent}    }${index < forms.length - 1 ? ',' : ''}`,
  ]),
  `${indent}  }`,
  `${indent}}`,
];

/** A catalog laid out as Ice Cubes' (Xcode's layout): three locales, states and extraction states. */
const CATALOG = [
  '{',
  '  "sourceLanguage" : "en",',
  '  "strings" : {',
  '    "%lld new posts" : {',
  '      "localizations" : {',
  '        "de" : {',
  ...plural('          ', [
    ['one', 'needs_review', '%lld neuer Beitrag'],
    ['other', 'needs_review', '%lld neue Beiträge'],
  ]),
  '        },',
  '        "en" : {',
  ...plural('          ', [
    ['one', 'translated', '%lld new post'],
    ['other', 'translated', '%lld new posts'],
  ]),
  '        },',
  '        "fr" : {',
  ...plural('          ', [
    ['one', 'translated', '%lld nouveau message'],
    ['other', 'translated', '%lld nouveaux messages'],
  ]),
  '        }',
  '      }',
  '    },',
  '    "account.follow" : {',
  '      "extractionState" : "manual",',
  '      "localizations" : {',
  '        "de" : {',
  ...unit('          ', 'needs_review', 'Folgen'),
  '        },',
  '        "en" : {',
  ...unit('          ', 'translated', 'Follow'),
  '        },',
  '        "fr" : {',
  ...unit('          ', 'translated', 'Suivre'),
  '        }',
  '      }',
  '    },',
  '    "Cancel" : {',
  '      "extractionState" : "stale",',
  '      "localizations" : {',
  '        "en" : {',
  ...unit('          ', 'translated', 'Cancel'),
  '        },',
  '        "fr" : {',
  ...unit('          ', 'translated', 'Annuler'),
  '        }',
  '      }',
  '    },',
  '    "Done" : {',
  '',
  '    }',
  '  },',
  '  "version" : "1.0"',
  '}',
].join('\n');

function read(bytes: Buffer, locale: string): Record<string, string> {
  return xcstringsFormat.read({ bytes, locale, path: 'Localizable.xcstrings', options: {} }) as Record<
    string,
    string
  >;
}

/** `locale` written into `catalog` with its own values changed by `changes` (undefined: none). */
function write(catalog: string | Buffer, locale: string, changes: Record<string, string | undefined> = {}) {
  const bytes = Buffer.from(catalog);
  const parsed = parseSourceDocument(read(bytes, 'en'));
  const values: Record<string, string | undefined> = { ...read(bytes, locale), ...changes };
  return xcstringsFormat.write({
    source: bytes,
    existing: bytes,
    sourceLocale: 'en',
    locale,
    valueOf: (key) => values[key],
    target: targetKeys(parsed, locale),
    options: {},
  });
}

/** The lines gone and added, trimmed; the common head and tail set aside first (a 2 MB catalog). */
function changedLines(before: string, after: string) {
  let old = linesOf(before);
  let now = linesOf(after);
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  ) {
    tail++;
  }
  old = old.slice(head, old.length - tail);
  now = now.slice(head, now.length - tail);
  const diff = lineDiff(old, now);
  return {
    removed: diff.removed.map((at) => old[at]!.trim()),
    added: diff.added.map((at) => now[at]!.trim()),
  };
}

describe('xcstrings catalogs on disk edited in place', () => {
  it('when a locale is written with the values it has, then the catalog keeps its bytes', () => {
    for (const locale of ['de', 'fr']) expect(write(CATALOG, locale).toString()).toBe(CATALOG);
    const crlf = CATALOG.replaceAll('\n', '\r\n');
    expect(write(crlf, 'de').toString()).toBe(crlf);
  });

  it('when one locale’s value changes, then only its value and state lines change, other locales and extraction states stay', () => {
    const out = write(CATALOG, 'de', { 'account.follow': 'Folge ich' }).toString();
    expect(changedLines(CATALOG, out)).toEqual({
      removed: ['"state" : "needs_review",', '"value" : "Folgen"'],
      added: ['"state" : "translated",', '"value" : "Folge ich"'],
    });
    expect(read(Buffer.from(out), 'fr')).toEqual(read(Buffer.from(CATALOG), 'fr'));
  });

  it('when one plural form changes, then only that form’s lines change and the other form keeps its state', () => {
    const out = write(CATALOG, 'de', {
      '%lld new posts': '{count, plural, one {%lld neuer Beitrag} other {%lld neue Posts}}',
    }).toString();
    expect(changedLines(CATALOG, out)).toEqual({
      removed: ['"state" : "needs_review",', '"value" : "%lld neue Beiträge"'],
      added: ['"state" : "translated",', '"value" : "%lld neue Posts"'],
    });
  });

  it('when a locale gets a value it did not have, then only its localization’s lines are added, in Xcode’s place', () => {
    const out = write(CATALOG, 'de', { Cancel: 'Abbrechen' }).toString();
    const { removed, added } = changedLines(CATALOG, out);
    expect(removed).toEqual([]);
    expect(added).toEqual([
      '"de" : {',
      '"stringUnit" : {',
      '"state" : "translated",',
      '"value" : "Abbrechen"',
      '}',
      '},',
    ]);
    expect(
      out.indexOf(
        '"de" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "Abbrechen"',
      ),
    ).toBeLessThan(out.indexOf('"value" : "Cancel"'));
  });

  it('when the catalog holds a key the source read lacks, then it stays byte for byte, synced or not: every key of a catalog is its source’s', () => {
    // The catalog is its own source: a key gone from the source is gone from the file with every
    // localization of it, so there is no entry for Tolk to remove.
    const bytes = Buffer.from(CATALOG);
    const source = Buffer.from(CATALOG.replace(/ {4}"Cancel" : \{[^]*?\n {4}\},\n/, ''));
    expect(source.toString()).not.toContain('"Cancel"');
    const values = read(bytes, 'fr');
    for (const synced of [() => true, () => false]) {
      const out = xcstringsFormat.write({
        source,
        existing: bytes,
        sourceLocale: 'en',
        locale: 'fr',
        valueOf: (key) => (key === 'Cancel' ? undefined : values[key]),
        target: targetKeys(parseSourceDocument(read(source, 'en')), 'fr'),
        synced,
        options: {},
      });
      expect(out.toString()).toBe(CATALOG);
    }
  });

  it('when a locale with other plural categories is written, then only its forms change', () => {
    const out = write(CATALOG, 'fr', {
      '%lld new posts':
        '{count, plural, one {%lld nouveau message} many {%lld de nouveaux messages} other {%lld nouveaux messages}}',
    }).toString();
    const { removed, added } = changedLines(CATALOG, out);
    expect(removed).toEqual([]);
    expect(added).toEqual([
      '"many" : {',
      '"stringUnit" : {',
      '"state" : "translated",',
      '"value" : "%lld de nouveaux messages"',
      '}',
      '},',
    ]);
  });
});

describe('xcstrings in place: any catalog, any changes', () => {
  it('when one locale of any catalog gets any values, then only its value and state lines change, and every locale reads back as written', () => {
    const names = ['Cancel', 'Done', 'account.follow', 'Save %@', 'Delete'];
    const scenario = fc.record({
      keys: fc.uniqueArray(fc.constantFrom(...names), { minLength: 1 }),
      de: fc.array(fc.constantFrom('none', 'translated', 'needs_review'), { minLength: 5, maxLength: 5 }),
      change: fc.array(fc.constantFrom('same', 'new'), { minLength: 5, maxLength: 5 }),
      crlf: fc.boolean(),
    });
    fc.assert(
      fc.property(scenario, ({ keys, de, change, crlf }) => {
        const sorted = [...keys].sort();
        const entries = sorted.flatMap((key, index) => {
          const state = de[names.indexOf(key)]!;
          const localizations = [
            ...(state === 'none' ? [] : [['de', state, `${key} (de)`]]),
            ['en', 'translated', key],
            ['fr', 'translated', `${key} (fr)`],
          ];
          return [
            `    ${JSON.stringify(key)} : {`,
            '      "localizations" : {',
            ...localizations.flatMap(([locale, unitState, value], at) => [
              `        "${locale}" : {`,
              ...unit('          ', unitState!, value!),
              `        }${at < localizations.length - 1 ? ',' : ''}`,
            ]),
            '      }',
            `    }${index < sorted.length - 1 ? ',' : ''}`,
          ];
        });
        const lines = [
          '{',
          '  "sourceLanguage" : "en",',
          '  "strings" : {',
          ...entries,
          '  },',
          '  "version" : "1.0"',
          '}',
        ];
        const catalog = lines.join(crlf ? '\r\n' : '\n');
        const changes = Object.fromEntries(
          sorted.map((key) => {
            const known = de[names.indexOf(key)] !== 'none';
            const same = change[names.indexOf(key)] === 'same';
            return [key, known && same ? `${key} (de)` : `${key} (neu)`];
          }),
        );
        const out = write(catalog, 'de', changes).toString();
        expect(read(Buffer.from(out), 'de')).toEqual(changes);
        for (const locale of ['en', 'fr'])
          expect(read(Buffer.from(out), locale)).toEqual(read(Buffer.from(catalog), locale));
        // What goes is a value or its state; what comes is those, or a new de localization.
        const { removed, added } = changedLines(catalog, out);
        for (const line of removed) expect(line).toMatch(/^"(state|value)" : /);
        const allowed = /^("(state|value)" : |"de" : \{|"stringUnit" : \{|\},?$)/;
        for (const line of added) expect(line).toMatch(allowed);
        if (crlf) expect(out.replaceAll('\r\n', '')).not.toContain('\n');
      }),
      { numRuns: 100 },
    );
  });
});

const present = realAppsPresent();

describe.skipIf(!present)('Ice Cubes’ catalog, taken as it is', () => {
  const file = () =>
    readFileSync(
      join(realApp('apple-xcstrings'), 'IceCubesApp/Resources/Localization/Localizable.xcstrings'),
    );

  it('when a locale is written with its own values, then the catalog keeps its bytes', () => {
    const bytes = file();
    for (const locale of ['de', 'ja', 'pl']) expect(write(bytes, locale).equals(bytes)).toBe(true);
  });

  it('when one value of a locale changes, then only its lines change', () => {
    const bytes = file();
    const own = read(bytes, 'de');
    const text = Object.keys(own).find((key) => !key.startsWith('@') && own[key] === 'Folgen')!;
    const out = write(bytes, 'de', { [text]: 'Folge ich' }).toString();
    const { removed, added } = changedLines(bytes.toString(), out);
    expect(removed.filter((line) => !line.startsWith('"state"'))).toEqual(['"value" : "Folgen"']);
    expect(added.filter((line) => !line.startsWith('"state"'))).toEqual(['"value" : "Folge ich"']);
  });
});
