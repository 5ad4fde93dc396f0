// Existing target files of the json, i18next and arb formats edited in place (DESIGN §16).
import { describe, expect, it } from 'vitest';
import { arbFormat } from '../../src/formats/arb.js';
import { i18nextFormat } from '../../src/formats/i18next.js';
import { jsonFormat } from '../../src/formats/json.js';
import { editTarget } from './json-format-harness.js';

const source = `{
  "home": {
    "title": "Home",
    "subtitle": "Welcome",
    "cta": "Start"
  },
  "about": "About",
  "contact": "Contact"
}
`;

/** A German target in another layout than the source: 4 spaces, its own order, CRLF, no final newline. */
const german = [
  '{',
  '    "contact": "Kontakt",',
  '',
  '    "home": {',
  '        "cta": "Los",',
  '        "title": "Start"',
  '    },',
  '    "about": "Über"',
  '}',
].join('\r\n');

const values = (entries: Record<string, string>) => (key: string) => entries[key];
const all = {
  'home.title': 'Start',
  'home.cta': 'Los',
  about: 'Über',
  contact: 'Kontakt',
};

describe('json format: an existing target edited in place', () => {
  it('when nothing changes, then the file comes back byte for byte, BOM, CRLF and missing final newline included', () => {
    const bytes = Buffer.from(`\uFEFF${german}`, 'utf8');
    const out = editTarget(jsonFormat, source, bytes, 'de', values(all));
    expect(Buffer.from(out, 'utf8').equals(bytes)).toBe(true);
  });

  it('when a value changes, then only its line changes, in the file order and layout', () => {
    const out = editTarget(jsonFormat, source, german, 'de', values({ ...all, 'home.cta': 'Anfangen' }));
    expect(out).toBe(german.replace('"Los"', '"Anfangen"'));
  });

  it("when a key is new, then it goes after the nearest source key before it that the target has, in its neighbours' indentation and line ending", () => {
    const out = editTarget(
      jsonFormat,
      source,
      german,
      'de',
      values({ ...all, 'home.subtitle': 'Willkommen' }),
    );
    expect(out).toBe(
      german.replace('"title": "Start"', '"title": "Start",\r\n        "subtitle": "Willkommen"'),
    );
  });

  it('when a new key has no source key before it in the target, then it goes before the nearest one after it', () => {
    const nested = '{\n\t"home": {\n\t\t"cta": "Los"\n\t}\n}\n';
    const before = editTarget(
      jsonFormat,
      source,
      nested,
      'de',
      values({ 'home.cta': 'Los', 'home.title': 'Start' }),
    );
    expect(before).toBe('{\n\t"home": {\n\t\t"title": "Start",\n\t\t"cta": "Los"\n\t}\n}\n');
  });

  it('when a key is removed from the source, then its line goes and the comma of the key before it where JSON needs', () => {
    const out = editTarget(jsonFormat, source, german, 'de', values({ ...all, about: undefined as never }));
    expect(out).toBe(german.replace('    },\r\n    "about": "Über"', '    }'));
    const middle = editTarget(
      jsonFormat,
      source,
      german,
      'de',
      values({ ...all, 'home.cta': undefined as never }),
    );
    expect(middle).toBe(german.replace('        "cta": "Los",\r\n', ''));
  });

  it('when a removed key stood next to a blank line, then the blank line stays between the keys around it', () => {
    const before =
      '{\n  "home": {\n    "title": "Start"\n  },\n\n  "about": "Über",\n  "contact": "Kontakt"\n}\n';
    const keep = { 'home.title': 'Start', contact: 'Kontakt' };
    expect(editTarget(jsonFormat, source, before, 'de', values(keep))).toBe(
      before.replace('  "about": "Über",\n', ''),
    );
    const after =
      '{\n  "home": {\n    "title": "Start"\n  },\n  "about": "Über",\n\n  "contact": "Kontakt"\n}\n';
    expect(editTarget(jsonFormat, source, after, 'de', values(keep))).toBe(
      after.replace('  "about": "Über",\n', ''),
    );
    // At the start of the object, the blank line after the key goes with it.
    const first = editTarget(
      jsonFormat,
      source,
      german,
      'de',
      values({ ...all, contact: undefined as never }),
    );
    expect(first).toBe(german.replace('    "contact": "Kontakt",\r\n\r\n', ''));
  });

  it("when a parent object is missing from the target, then it is created at the source's place in the target's indentation", () => {
    const target = '{\n    "about": "Über",\n    "contact": "Kontakt"\n}';
    const out = editTarget(jsonFormat, source, target, 'de', values({ ...all, 'home.subtitle': 'Hallo' }));
    expect(out).toBe(
      '{\n    "home": {\n        "title": "Start",\n        "subtitle": "Hallo",\n        "cta": "Los"\n    },\n' +
        '    "about": "Über",\n    "contact": "Kontakt"\n}',
    );
  });

  it('when the target escapes non-ASCII as \\uXXXX and / as \\/, then a new value is escaped the same way', () => {
    const target = '{"about": "\\u00DCber \\/ uns", "contact": "Kontakt"}';
    const out = editTarget(
      jsonFormat,
      source,
      target,
      'de',
      values({ about: 'Über/Euch', contact: 'Grüße' }),
    );
    expect(out).toBe('{"about": "\\u00DCber\\/Euch", "contact": "Gr\\u00FC\\u00DFe"}');
    expect(JSON.parse(out)).toEqual({ about: 'Über/Euch', contact: 'Grüße' });
    const plain = editTarget(jsonFormat, source, '{"about": "Über/x"}', 'de', values({ about: 'Grüße/y' }));
    expect(plain).toBe('{"about": "Grüße/y"}');
  });

  it('when the target holds keys the source lacks that Tolk never synced, then they stay byte for byte, in objects of their own too', () => {
    const target =
      '{\n  "about": "Über",\n  "mine": "Meins",\n\n  "home": {\n    "cta": "Los",\n    "note": "Notiz"\n  },\n' +
      '  "extra": {\n    "a": "A",\n    "n": 3\n  }\n}\n';
    const synced = (key: string) => key === 'home.cta';
    expect(
      editTarget(jsonFormat, source, target, 'de', values({ about: 'Über', 'home.cta': 'Los' }), { synced }),
    ).toBe(target);
    // Every source key gone or without a value: only the translator's keys stay.
    const left = editTarget(jsonFormat, source, target, 'de', values({}), { synced });
    expect(left).toBe(target.replace('  "about": "Über",\n', '').replace('    "cta": "Los",\n', ''));
  });

  it('when Tolk synced the keys the source lacks, then they are removed, and an object left without keys goes with them', () => {
    const target =
      '{\n  "about": "Über",\n  "old": "Alt",\n  "gone": {\n    "a": "A",\n    "b": "B"\n  },\n' +
      '  "half": {\n    "a": "A",\n    "mine": "Meins"\n  }\n}\n';
    const synced = (key: string) => ['old', 'gone.a', 'gone.b', 'half.a'].includes(key);
    const out = editTarget(jsonFormat, source, target, 'de', values({ about: 'Über' }), { synced });
    expect(out).toBe('{\n  "about": "Über",\n  "half": {\n    "mine": "Meins"\n  }\n}\n');
    const every = (key: string) => key !== 'about';
    expect(editTarget(jsonFormat, source, target, 'de', values({}), { synced: every })).toBe('{\n}\n');
  });

  it("when the target is empty or is not JSON, then a new object is written, or the source's layout as before", () => {
    expect(editTarget(jsonFormat, source, '{}', 'de', values({ about: 'Über' }))).toBe(
      '{\n  "about": "Über"\n}',
    );
    const broken = editTarget(jsonFormat, source, '{"about": ', 'de', values({ about: 'Über' }));
    expect(broken).toBe('{\n  "about": "Über"\n}\n');
  });
});

describe('json format: an existing target in unusual shapes', () => {
  it('when the target gives a key twice, then the last one, which readers keep, is the one written and the first stays', () => {
    const target = '{\n  "about": "Alt",\n  "about": "Über"\n}\n';
    const out = editTarget(jsonFormat, source, target, 'de', values({ about: 'Über uns' }));
    expect(out).toBe('{\n  "about": "Alt",\n  "about": "Über uns"\n}\n');
  });

  it("when the target holds a text where the source nests keys, then the text is replaced by the object in the target's indentation", () => {
    const target = '{\n  "home": "Start",\n  "about": "Über"\n}\n';
    const out = editTarget(
      jsonFormat,
      source,
      target,
      'de',
      values({ 'home.title': 'Start', about: 'Über' }),
    );
    expect(out).toBe('{\n  "home": {\n    "title": "Start"\n  },\n  "about": "Über"\n}\n');
  });

  it('when the target is on one line, then a new key joins it with the separator and colon spacing of its neighbours', () => {
    const target = '{"about":"Über","contact":"Kontakt"}';
    const out = editTarget(
      jsonFormat,
      source,
      target,
      'de',
      values({ about: 'Über', contact: 'Kontakt', 'home.cta': 'Los' }),
    );
    expect(out).toBe('{"home":{"cta":"Los"},"about":"Über","contact":"Kontakt"}');
    expect(JSON.parse(out)).toEqual({ home: { cta: 'Los' }, about: 'Über', contact: 'Kontakt' });
  });
});

describe('i18next format: an existing target edited in place', () => {
  it('when a plural form of the target is new, then it goes in CLDR order at its group, the rest untouched', () => {
    const en =
      '{\n  "items_one": "{{count}} item",\n  "items_other": "{{count}} items",\n  "title": "Cart"\n}\n';
    const target =
      '{\n  "title": "Koszyk",\n  "items_one": "{{count}} element",\n  "items_other": "{{count}} elementów"\n}\n';
    const pl = {
      title: 'Koszyk',
      items_one: '{{count}} element',
      items_few: '{{count}} elementy',
      items_many: '{{count}} elementów',
      items_other: '{{count}} elementów',
    };
    const out = editTarget(i18nextFormat, en, target, 'pl', values(pl));
    expect(out).toBe(
      '{\n  "title": "Koszyk",\n  "items_one": "{{count}} element",\n  "items_few": "{{count}} elementy",\n' +
        '  "items_many": "{{count}} elementów",\n  "items_other": "{{count}} elementów"\n}\n',
    );
  });

  it('when the target holds a plural form its locale does not use, then it goes with the group, synced or not, and a key the source lacks stays', () => {
    const en = '{\n  "items_one": "{{count}} item",\n  "items_other": "{{count}} items"\n}\n';
    const target =
      '{\n  "items_one": "{{count}} Artikel",\n  "items_few": "{{count}} Artikel",\n' +
      '  "items_other": "{{count}} Artikel",\n  "mine_few": "eigen"\n}\n';
    const de = { items_one: '{{count}} Artikel', items_other: '{{count}} Artikel' };
    // i18next never reads `items_few` in German: it is the source group's, written with German's forms.
    expect(editTarget(i18nextFormat, en, target, 'de', values(de))).toBe(
      target.replace('  "items_few": "{{count}} Artikel",\n', ''),
    );
  });
});

describe('arb format: an existing target edited in place', () => {
  const template = `{
  "@@locale": "en",
  "hello": "Hello {name}",
  "@hello": {
    "description": "Greeting",
    "placeholders": { "name": { "type": "String" } }
  },
  "bye": "Bye",
  "@bye": { "description": "Farewell" },
  "new": "New"
}
`;
  const target = `{
  "@@locale": "de",
  "@@last_modified": "2024-01-01",
  "hello": "Hallo {name}",
  "@hello": {"description": "Begrüßung"},
  "bye": "Tschüss"
}
`;

  it('when a message changes, then its line changes and the @key metadata of untouched messages and @@locale stay', () => {
    const out = editTarget(arbFormat, template, target, 'de', values({ hello: 'Hallo {name}', bye: 'Ciao' }));
    expect(out).toBe(
      target.replace('"bye": "Tschüss"', '"bye": "Ciao",\n  "@bye": {\n    "description": "Farewell"\n  }'),
    );
  });

  it("when a message is new, then it goes at the source's place after the @key of the message before it", () => {
    const out = editTarget(
      arbFormat,
      template.replace('"bye": "Bye",\n  "@bye": { "description": "Farewell" },\n', ''),
      target.replace(',\n  "bye": "Tschüss"', ''),
      'de',
      values({ hello: 'Hallo {name}', new: 'Neu' }),
    );
    expect(out).toBe(target.replace('"bye": "Tschüss"', '"new": "Neu"'));
  });

  it('when a message is removed, then its @key metadata goes with it and nothing else changes', () => {
    const out = editTarget(arbFormat, template, target, 'de', values({ bye: 'Tschüss' }));
    expect(out).toBe(
      target.replace('  "hello": "Hallo {name}",\n  "@hello": {"description": "Begrüßung"},\n', ''),
    );
  });

  it('when a message the template lacks was never synced, then it stays with its @key metadata; synced, both go', () => {
    const own = target.replace(
      '  "bye": "Tschüss"\n',
      '  "bye": "Tschüss",\n  "mine": "Meins",\n  "@mine": {"description": "Eigenes"}\n',
    );
    const both = values({ hello: 'Hallo {name}', bye: 'Tschüss' });
    expect(editTarget(arbFormat, template, own, 'de', both, { synced: (key) => key === 'hello' })).toBe(own);
    expect(editTarget(arbFormat, template, own, 'de', both, { synced: (key) => key === 'mine' })).toBe(
      target,
    );
  });
});
