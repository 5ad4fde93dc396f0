import { describe, expect, it } from 'vitest';
import { comparePlaceholders, extractPlaceholders, findPlaceholderMismatches } from '@tolk/locale-file';
import { seededRandom } from './source-builders.js';

describe('extractPlaceholders', () => {
  it.each([
    ['plain text', 'Hello, world'],
    ['an empty string', ''],
    ['apostrophes', "Don't stop, it's fine"],
    ['comparisons', 'a < b and 5 > 3, x<y, 1 <= 2'],
    ['percent signs', '50% off, 100%, 20 %'],
    ['an escaped percent sign', '50%% off'],
    ['empty braces', 'a {} b { } c {{}}'],
    ['braces around words with spaces', '{not a placeholder}'],
    ['an HTML comment', '<!-- note -->'],
    ['a lone less-than sign at the end', 'a <'],
  ])('when the text has only %s, then there is no placeholder', (_, text) => {
    expect(extractPlaceholders(text)).toEqual([]);
  });

  it.each([
    ['Hello {name}', ['{name}']],
    ['Hello { name }', ['{name}']],
    ['{0} and {1}', ['{0}', '{1}']],
    ['{count, number}', ['{count}']],
    ['{price, number, ::currency/EUR}', ['{price}']],
    ['{d, date, short} at {t, time}', ['{d}', '{t}']],
    ["{n, number, '{'#'}'}", ['{n}']],
    ['{name} and {name} again', ['{name}']],
  ])('when the text is %j, then the ICU arguments are %j', (text, expected) => {
    expect(extractPlaceholders(text)).toEqual(expected);
  });

  it.each([
    ['{count, plural, one {# item} other {# items}}', ['{count}']],
    ['{count, plural, =0 {none} one {# item} few {# items} many {# items} other {# items}}', ['{count}']],
    ['{count, plural, offset:1 one {you} other {you and # others}}', ['{count}']],
    ['{gender, select, male {He} female {She} other {They}}', ['{gender}']],
    ['{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', ['{n}']],
    ['{n, plural, one {{name} has # item} other {{name} has # items}}', ['{n}', '{name}']],
    [
      '{g, select, male {{n, plural, one {his {item}} other {his # {items}}}} other {their}}',
      ['{g}', '{item}', '{items}', '{n}'],
    ],
    ['{n, plural,one{# item}other{# items}}', ['{n}']],
  ])(
    'when the text is the plural or select %j, then the argument and nested placeholders count, selectors do not',
    (text, expected) => {
      expect(extractPlaceholders(text)).toEqual(expected);
    },
  );

  it.each([
    ["'{name}' is literal", []],
    ["'{literal text}' and {x}", ['{x}']],
    ["'{'{name}'}'", ['{name}']],
    ["it''s {name}''s", ['{name}']],
    ["Don't {verb}, it's {noun}", ['{noun}', '{verb}']],
    ["'}' {x}", ['{x}']],
    ["'|{x}|' {y}", ['{y}']],
    ["text '{ then the quote never closes {x} %s <b>", []],
    ["'quoted '' {with} apostrophe' {x}", ['{with}', '{x}']],
    ["{n, plural, one {'#' {x}} other {'{'y'}'}}", ['{n}', '{x}']],
    ["{n, plural, one {'#{x}' a} other {}}", ['{n}']],
    ["{s, select, a {'#{x}' a} other {}}", ['{s}', '{x}']],
    ["Delete '{{name}}'?", ['{{name}}']],
  ])('when the text is %j, then ICU apostrophe quoting leaves %j', (text, expected) => {
    expect(extractPlaceholders(text)).toEqual(expected);
  });

  it.each([
    ['{{name}}', ['{{name}}']],
    ['{{ name }} and {{name}}', ['{{name}}']],
    ['{{- html}}', ['{{- html}}']],
    ['{{count, number}}', ['{{count, number}}']],
    ['{{x}} and {x}', ['{x}', '{{x}}']],
    ['<a href="{{url}}">link</a>', ['{{url}}', '<a>', '</a>']],
  ])('when the text is %j, then double-brace placeholders are their own kind: %j', (text, expected) => {
    expect(extractPlaceholders(text)).toEqual(expected);
  });

  it.each([
    ['%s', ['%s']],
    ['%s and %s', ['%s', '%s']],
    ['%d %i %u %f %x %c %@', ['%@', '%c', '%d', '%f', '%i', '%u', '%x']],
    ['%X %o %e %g %p', ['%X', '%e', '%g', '%o', '%p']],
    ['https://example.com/a%2Fb%3Ac%2C%3Dd', []],
    ['%1$s then %2$d then %1$s', ['%1$s', '%2$d']],
    ['%10$s %2$s %s', ['%s', '%2$s', '%10$s']],
    ['%5.2f %-10s %05d %+d %.3s', ['%d', '%d', '%f', '%s', '%s']],
    ['%1$.2f', ['%1$f']],
    ['%ld %lld %lu %zu', ['%ld', '%lld', '%lu', '%zu']],
    ['100%% of %s', ['%s']],
    ['%%s is not a placeholder', []],
    ['50% sure, %s', ['%s']],
    ['<a href="%1$s">', ['%1$s', '<a>']],
  ])('when the text is %j, then printf placeholders are %j', (text, expected) => {
    expect(extractPlaceholders(text)).toEqual(expected);
  });

  it.each([
    ['{n, plural, one {%d item} other {%d items}}', ['{n}', '%d']],
    ['{n, plural, one {%d} other {%d of %d}} %d', ['{n}', '%d', '%d', '%d']],
    ['{s, select, a {%s} other {}}', ['{s}', '%s']],
  ])(
    'when unnumbered printf appears in plural branches (%j), then the largest branch counts',
    (text, expected) => {
      expect(extractPlaceholders(text)).toEqual(expected);
    },
  );

  it.each([
    ['<b>bold</b>', ['<b>', '</b>']],
    ['line<br/>break<br />again', ['<br/>']],
    ['line<br>break', ['<br>']],
    ['<a href="https://example.com/?a=1&b=2" target="_blank">x</a>', ['<a>', '</a>']],
    ['<a title="a > b">x</a>', ['<a>', '</a>']],
    ["<a title='x' >y</a >", ['<a>', '</a>']],
    ['<0>click</0> <1/>', ['<0>', '</0>', '<1/>']],
    ['<Link>x</Link> <link>', ['<Link>', '</Link>', '<link>']],
    ['<my-tag>x</my-tag>', ['<my-tag>', '</my-tag>']],
    ['a <b>c</b> < d > e', ['<b>', '</b>']],
    ['<<b>>', ['<b>']],
  ])('when the text is %j, then tags are %j by name and kind', (text, expected) => {
    expect(extractPlaceholders(text)).toEqual(expected);
  });

  it('when every kind is present, then the list is sorted by kind, then name, then tag kind', () => {
    expect(extractPlaceholders('</b> %1$s {{x}} <b> {count} %s <a/> {b}')).toEqual([
      '{b}',
      '{count}',
      '{{x}}',
      '%s',
      '%1$s',
      '<a/>',
      '<b>',
      '</b>',
    ]);
    expect(extractPlaceholders('<b>{count}</b> {{x}} %1$s')).toEqual([
      '{count}',
      '{{x}}',
      '%1$s',
      '<b>',
      '</b>',
    ]);
  });

  it.each([
    ['a plural missing its closing brace', '{count, plural, one {# item} other {# items}', []],
    ['a plural whose branch lost a brace', '{n, plural, one {{name} item} other {{name} items}', ['{name}']],
    ['an unclosed argument', 'Hello {name', []],
    ['an extra closing brace', 'Hello {name}}', ['{name}']],
    ['a doubled opening brace', 'Hello {{name}', ['{name}']],
    ['triple braces', '{{{x}}}', ['{{x}}']],
    ['a name with spaces', '{first name}', []],
    ['a missing argument type', '{n, , x}', []],
    ['a selector without a sub-message', '{n, plural, one}', []],
    ['a stray brace inside a sub-message', '{n, plural, one {a { } other {c}} {x}', ['{c}', '{x}']],
    ['an unclosed quote in a style', "{n, number, 'abc}", []],
    ['a ChoiceFormat style', '{n, choice, 0#none|1<{n, number} files}', ['{n}']],
  ])('when the text has %s, then it does not throw and finds what is well formed', (_, text, expected) => {
    expect(extractPlaceholders(text)).toEqual(expected);
  });

  it('when arguments nest deeper than the parser goes, then the deep part is text and nothing throws', () => {
    const depth = 5000;
    const text = `${Array.from({ length: depth }, (_, i) => `{a${i}, select, x {`).join('')}{z}${'}}'.repeat(depth)}`;
    const found = extractPlaceholders(text);
    expect(found).toContain('{z}');
    expect(found).not.toContain('{a0}');
    expect(extractPlaceholders(text)).toEqual(found);
  });

  it('when random strings of syntax characters are read, then nothing throws and each result is repeatable', () => {
    const random = seededRandom(7);
    const alphabet = [
      '{',
      '}',
      "'",
      '#',
      '%',
      '<',
      '>',
      '/',
      ',',
      ' ',
      'a',
      's',
      '1',
      '$',
      'plural',
      'select',
      'one',
    ];
    for (let round = 0; round < 2000; round++) {
      const length = Math.floor(random() * 40);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
      const first = extractPlaceholders(text);
      expect(extractPlaceholders(text), text).toEqual(first);
      expect(comparePlaceholders(text, text), text).toBeUndefined();
    }
  });

  it.each([
    ['unclosed plural arguments', '{a, select, x {'.repeat(20_000)],
    ['unclosed styles', '{a, number, '.repeat(20_000)],
    ['unclosed quotes in sub-messages', "{a, select, x {'{".repeat(20_000)],
    ['a long run of printf digits', `%${'0'.repeat(200_000)}`],
    ['unclosed tags', '<a href="'.repeat(20_000)],
  ])('when a value is a long run of %s, then it is read (in linear time) as text', (_, text) => {
    expect(extractPlaceholders(text)).toEqual([]);
  });
});

describe('comparePlaceholders', () => {
  it.each([
    ['the same text', 'Hello {name}', 'Hello {name}'],
    ['no placeholders on either side', 'Save', 'Speichern'],
    ['placeholders in another order', '{a} of {b}', '{b} von {a}'],
    ['positional printf in another order', '%1$s of %2$s', '%2$s von %1$s'],
    ['unnumbered printf in another order', '%s of %d', '%d von %s'],
    ['a placeholder used twice in the translation', 'Hi {name}', '{name}, hallo {name}'],
    [
      'a plural with other categories (German)',
      '{n, plural, one {# item} other {# items}}',
      '{n, plural, one {# Artikel} other {# Artikel}}',
    ],
    [
      'a plural with other categories (Polish)',
      '{n, plural, one {# item} other {# items}}',
      '{n, plural, one {# element} few {# elementy} many {# elementów} other {# elementu}}',
    ],
    ['a plural dropped (Japanese)', '{n, plural, one {# item} other {# items}}', '{n}件'],
    [
      'printf in plural branches of different counts',
      '{n, plural, one {%d item} other {%d items}}',
      '{n, plural, one {%d} few {%d} many {%d} other {%d}}',
    ],
    ['an ICU type added', '{n} items', '{n, number} Artikel'],
    ['double braces with other spacing', '{{ count }} items', '{{count}} Artikel'],
    [
      'translated tag attributes',
      '<a href="/en" title="Help">help</a>',
      '<a href="/de" title="Hilfe">Hilfe</a>',
    ],
    ['self-closing tags written with and without a space', 'a<br/>b', 'a<br />b'],
    ['a literal percent sign written differently', '50%% off', '50 % Rabatt'],
    ['quotes around a double-brace placeholder', "Delete '{{name}}'?", 'Supprimer « {{name}} » ?'],
    ['apostrophes in the translation', '{name} is here', "{name} n'est pas là, c''est"],
  ])('when the translation has %s, then they match', (_, source, translation) => {
    expect(comparePlaceholders(source, translation)).toBeUndefined();
  });

  it.each([
    ['a placeholder is dropped', 'Hello {name}', 'Hallo', ['{name}'], []],
    ['a placeholder is renamed', 'Hello {name}', 'Hallo {nom}', ['{name}'], ['{nom}']],
    ['a placeholder is added', 'Hello', 'Hallo {name}', [], ['{name}']],
    ['single braces become double', 'Hi {x}', 'Hallo {{x}}', ['{x}'], ['{{x}}']],
    ['an unnumbered printf is dropped', '%s and %s', '%s und', ['%s'], []],
    ['an unnumbered printf is added', '%s', '%s %s', [], ['%s']],
    ['a printf conversion changes', '%d files', '%s Dateien', ['%d'], ['%s']],
    ['a printf length modifier is dropped', '%ld files', '%d Dateien', ['%ld'], ['%d']],
    ['a positional printf changes position', '%1$s', '%2$s', ['%1$s'], ['%2$s']],
    ['a tag is renamed', '<b>x</b>', '<strong>x</strong>', ['<b>', '</b>'], ['<strong>', '</strong>']],
    ['a closing tag is dropped', '<b>x</b>', '<b>x', ['</b>'], []],
    ['a self-closing tag becomes an open tag', 'a<br/>b', 'a<br>b', ['<br/>'], ['<br>']],
    [
      'a nested placeholder is dropped from a plural',
      '{n, plural, one {{name}: #} other {{name}: #}}',
      '{n, plural, one {#} other {#}}',
      ['{name}'],
      [],
    ],
    [
      'a plural loses a closing brace',
      '{n, plural, one {# item} other {# items}}',
      '{n, plural, one {# Artikel} other {# Artikel}',
      ['{n}'],
      [],
    ],
    ['an argument is quoted into text', 'Hello {name}', "Hallo '{name}'", ['{name}'], []],
    [
      'a placeholder inside a tag attribute is dropped',
      '<a href="{{url}}">x</a>',
      '<a href="#">x</a>',
      ['{{url}}'],
      [],
    ],
  ])('when %s, then the difference names it', (_, source, translation, missing, unexpected) => {
    expect(comparePlaceholders(source, translation)).toEqual({ missing, unexpected });
  });

  it('when several placeholders differ, then both lists are sorted like extractPlaceholders', () => {
    expect(comparePlaceholders('<b>{b}</b> {a} %2$s %s %s', '{c} %1$s <i>')).toEqual({
      missing: ['{a}', '{b}', '%s', '%s', '%2$s', '<b>', '</b>'],
      unexpected: ['{c}', '%1$s', '<i>'],
    });
  });
});

describe('findPlaceholderMismatches', () => {
  const source = {
    keys: ['greeting', 'count', 'plain', 'link', 'gone'],
    values: ['Hello {name}', '{n, plural, one {# item} other {# items}}', 'Save', '<a>%1$s</a>', '{x}'],
  };

  it('when translations come as a Map, then mismatches come in source key order, for keys in both only', () => {
    const translations = new Map([
      ['link', '<a>%2$s</a>'],
      ['extra', '{whatever}'],
      ['plain', 'Speichern {oops}'],
      ['greeting', 'Hallo {name}'],
      ['count', '{n, plural, one {# Artikel} other {# Artikel}}'],
    ]);
    expect(findPlaceholderMismatches(source, translations)).toEqual([
      { key: 'plain', missing: [], unexpected: ['{oops}'] },
      { key: 'link', missing: ['%1$s'], unexpected: ['%2$s'] },
    ]);
  });

  it('when translations come as entries in another order, then they are matched by key', () => {
    const translations = {
      keys: ['extra', 'link', 'greeting', 'gone-not', 'plain'],
      values: ['{whatever}', '<a>%1$s</a>', 'Hallo', '{x}', 'Speichern'],
    };
    expect(findPlaceholderMismatches(source, translations)).toEqual([
      { key: 'greeting', missing: ['{name}'], unexpected: [] },
    ]);
  });

  it('when translations come as entries in the same order, then each key is checked against its own value', () => {
    const translations = {
      keys: [...source.keys],
      values: ['Hallo {name}', '{n}', 'Speichern', '<a>%1$s', '{y}'],
    };
    expect(findPlaceholderMismatches(source, translations)).toEqual([
      { key: 'link', missing: ['</a>'], unexpected: [] },
      { key: 'gone', missing: ['{x}'], unexpected: ['{y}'] },
    ]);
  });

  it('when keys are named like Object.prototype members, then they are plain keys', () => {
    const named = { keys: ['__proto__', 'constructor', 'toString'], values: ['{a}', '{b}', 'x'] };
    const translations = new Map([
      ['__proto__', '{b}'],
      ['toString', 'y'],
    ]);
    expect(findPlaceholderMismatches(named, translations)).toEqual([
      { key: '__proto__', missing: ['{a}'], unexpected: ['{b}'] },
    ]);
  });

  it('when nothing is translated, then there is no mismatch', () => {
    expect(findPlaceholderMismatches(source, new Map())).toEqual([]);
    expect(findPlaceholderMismatches(source, { keys: [], values: [] })).toEqual([]);
  });

  it('when 50,000 keys are checked, mostly without placeholders, then exactly the planted mismatches come back', () => {
    const count = 50_000;
    const keys: string[] = [];
    const values: string[] = [];
    const translated: string[] = [];
    const expected: Array<{ key: string; missing: string[]; unexpected: string[] }> = [];
    for (let i = 0; i < count; i++) {
      keys.push(`screen_${i % 500}.item_${i}`);
      if (i % 50 === 0) {
        values.push(`Hello {name}, you have <b>%d</b> new messages (${i})`);
        if (i % 1000 === 0) {
          translated.push(`Hallo {nom}, Sie haben <b>%d</b> neue Nachrichten (${i})`);
          expected.push({ key: keys[i]!, missing: ['{name}'], unexpected: ['{nom}'] });
        } else {
          translated.push(`Hallo {name}, Sie haben <b>%d</b> neue Nachrichten (${i})`);
        }
      } else {
        values.push(`Label number ${i} for the settings screen`);
        translated.push(`Beschriftung Nummer ${i} für den Einstellungsbildschirm`);
      }
    }
    const translations = new Map(keys.map((key, i) => [key, translated[i]!]));

    expect(expected).toHaveLength(50);
    expect(findPlaceholderMismatches({ keys, values }, translations)).toEqual(expected);
    expect(findPlaceholderMismatches({ keys, values }, { keys, values: translated })).toEqual(expected);
  });
});
