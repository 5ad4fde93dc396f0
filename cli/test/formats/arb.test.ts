import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { pluralCategories, pluralExamples } from '@tolk/locale-file';
import { describe, expect, it } from 'vitest';
import { arbFormat } from '../../src/formats/arb.js';
import { formatNamed } from '../../src/formats/index.js';
import { readError, readFile, writeBack, writeTarget } from './json-format-harness.js';

/** A Flutter template, `lib/l10n/app_en.arb`, as gen-l10n's documentation writes one. */
const template = `{
  "@@locale": "en",
  "@@last_modified": "2026-11-20T10:00:00Z",
  "appTitle": "Shrine",
  "@appTitle": {
    "description": "The title of the application"
  },
  "hello": "Hello {userName}",
  "@hello": {
    "description": "A message with a single parameter",
    "placeholders": {
      "userName": {
        "type": "String",
        "example": "Bob"
      }
    }
  },
  "nWombats": "{count, plural, =0{no wombats} =1{1 wombat} other{{count} wombats}}",
  "@nWombats": {
    "description": "A plural message",
    "placeholders": {
      "count": {
        "type": "num",
        "format": "compact"
      }
    }
  },
  "pronoun": "{gender, select, male{he} female{she} other{they}}",
  "@pronoun": {
    "description": "A gendered message",
    "placeholders": {
      "gender": {
        "type": "String"
      }
    }
  },
  "price": "Price: {value}",
  "@price": {
    "placeholders": {
      "value": {
        "type": "double",
        "format": "compactCurrency",
        "optionalParameters": {
          "decimalDigits": 2
        }
      }
    }
  },
  "helloWorldOn": "Hello World on {date}",
  "@helloWorldOn": {
    "placeholders": {
      "date": {
        "type": "DateTime",
        "format": "yMMMMd"
      }
    }
  },
  "unread": "You have {count, plural, =0{no new messages} one{{count} new message} other{{count} new messages}} from {sender}",
  "@unread": {
    "placeholders": {
      "count": {
        "type": "int"
      },
      "sender": {}
    }
  },
  "quote": "Don''t say '{'braces'}' — café ☕",
  "empty": ""
}
`;

/** A translator: the source's message with every plural argument given `locale`'s own categories. */
function translatedMessage(source: string, locale: string): string {
  const elements = parse(source, { ignoreTag: true });
  return `${locale}: ${printElements(elements, locale)}`;
}

function printElements(elements: MessageFormatElement[], locale: string): string {
  return elements
    .map((element) => {
      switch (element.type) {
        case TYPE.literal:
          return element.value.replaceAll("'", "''").replace(/[{}]/g, (brace) => `'${brace}'`);
        case TYPE.argument:
          return `{${element.value}}`;
        case TYPE.plural: {
          const forms = pluralCategories(locale).map(
            (category) => `${category}{${category} {${element.value}}}`,
          );
          return `{${element.value}, plural, ${forms.join(' ')}}`;
        }
        case TYPE.select: {
          const options = Object.entries(element.options).map(
            ([option, { value }]) => `${option}{${printElements(value, locale)}}`,
          );
          return `{${element.value}, select, ${options.join(' ')}}`;
        }
        default:
          throw new Error(`no test translation for element type ${element.type}`);
      }
    })
    .join('');
}

/** The target document for `locale`, with every message translated by `translatedMessage`. */
function targetDocument(locale: string): Record<string, unknown> {
  const { parsed } = readFile(arbFormat, template);
  const sources = new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
  const text = writeTarget(arbFormat, template, locale, (key) => {
    const source = sources.get(key);
    return source === undefined || source === '' ? source : translatedMessage(source, locale);
  });
  return JSON.parse(text) as Record<string, unknown>;
}

describe('arb format: round trips', () => {
  it.each([
    ['the Flutter template', template],
    ['four spaces and no final newline', template.replace(/^ +/gm, (indent) => indent + indent).trimEnd()],
    ['tabs', template.replace(/^ +/gm, (indent) => '\t'.repeat(indent.length / 2))],
  ])('when %s is written back from its own values, then the bytes are the same', (_, text) => {
    expect(writeBack(arbFormat, text).toString('utf8')).toBe(text);
  });

  it('when the template is read, then messages are keys, ICU plurals stay one key and descriptions are context', () => {
    const { parsed } = readFile(arbFormat, template);
    expect(parsed.keys).toEqual([
      'appTitle',
      'hello',
      'nWombats',
      'pronoun',
      'price',
      'helloWorldOn',
      'unread',
      'quote',
      'empty',
    ]);
    expect(parsed.annotations.get('appTitle')).toEqual({ description: 'The title of the application' });
    expect(parsed.metadata.get('@@locale')).toBe('en');
  });
});

describe('arb format: targets as gen-l10n reads them', () => {
  it.each([
    ['pl', 'pl'],
    ['pt-BR', 'pt_BR'],
    ['zh-Hant', 'zh_Hant'],
    ['ar', 'ar'],
  ])(
    'when a %s target is written, then its file name and @@locale agree and its @key metadata is the template’s',
    (locale, spelled) => {
      const document = targetDocument(locale);
      const fileName = `app_${arbFormat.spellLocale(locale)}.arb`;
      expect(fileName).toBe(`app_${spelled}.arb`);
      // gen-l10n: the locale after the file name's last "_<language>" must equal @@locale.
      expect(document['@@locale']).toBe(spelled);
      expect(arbFormat.readLocale(fileName.slice('app_'.length, -'.arb'.length))).toBe(locale);

      const source = readFile(arbFormat, template).document;
      for (const [name, value] of Object.entries(document)) {
        if (name.startsWith('@@')) continue;
        if (name.startsWith('@')) {
          expect(value).toEqual(source[name]);
          expect(document).toHaveProperty([name.slice(1)]);
        } else {
          expect(typeof value).toBe('string');
        }
      }
      expect(Object.keys(document).filter((name) => name.startsWith('@') && !name.startsWith('@@'))).toEqual(
        Object.keys(source).filter((name) => name.startsWith('@') && !name.startsWith('@@')),
      );
      expect(document['@@last_modified']).toBe('2026-11-20T10:00:00Z');
    },
  );

  it.each(['pl', 'ru', 'ar', 'ja', 'pt-BR'])(
    'when a %s target is written, then intl-messageformat formats every message with that language’s forms',
    (locale) => {
      const document = targetDocument(locale);
      const cardinal = new Intl.PluralRules(locale);
      const samples = [0, 1, 2, 5, 22, 1.5, ...pluralExamples(locale).map((example) => example.example)];
      const values = { userName: 'Ola', gender: 'female', value: 3, date: '1 stycznia', sender: 'Jan' };
      for (const [name, message] of Object.entries(document)) {
        if (name.startsWith('@') || message === '') continue;
        for (const count of samples) {
          const formatted = new IntlMessageFormat(message as string, locale).format({ ...values, count });
          expect(formatted).toMatch(new RegExp(`^${locale}: `));
          if (name === 'nWombats' || name === 'unread')
            expect(formatted).toContain(`${cardinal.select(count)} `);
        }
      }
    },
  );

  it('when a message has no translation, then its @key metadata is left out with it', () => {
    const text = writeTarget(arbFormat, template, 'de', (key) =>
      key === 'appTitle' ? 'Schrein' : undefined,
    );
    expect(text).toBe(
      '{\n  "@@locale": "de",\n  "@@last_modified": "2026-11-20T10:00:00Z",\n  "appTitle": "Schrein",\n' +
        '  "@appTitle": {\n    "description": "The title of the application"\n  }\n}\n',
    );
  });

  it('when the template has no @@locale, then the target has none either (gen-l10n takes the file name)', () => {
    const text = writeTarget(arbFormat, '{\n  "title": "Shrine"\n}\n', 'pt-BR', () => 'Santuário');
    expect(text).toBe('{\n  "title": "Santuário"\n}\n');
  });
});

describe('arb format: bad input', () => {
  it('when a message is a nested object, then it is left out with a finding at its line and column', () => {
    const { document, findings } = readFile(
      arbFormat,
      '{\n  "@@locale": "en",\n  "home": {\n    "title": "Home"\n  },\n  "b": "B"\n}',
    );
    expect(document).toEqual({ '@@locale': 'en', b: 'B' });
    expect(findings).toMatchObject([
      {
        key: 'home',
        kind: 'format',
        message: '"home" is an object, not a message (a text); left out',
        line: 3,
        column: 11,
      },
    ]);
  });

  it('when a message is a number, then it is left out with a finding, while numbers in placeholders are metadata', () => {
    expect(readFile(arbFormat, '{"count": 3, "b": "B"}').findings).toMatchObject([
      { key: 'count', message: '"count" is a number, not a text; left out' },
    ]);
    expect(readFile(arbFormat, template).parsed.annotations.get('price')).toMatchObject({
      placeholders: { value: { optionalParameters: { decimalDigits: 2 } } },
    });
  });

  it('when @@locale names another locale than the file, then an error finding says what gen-l10n expects and the file is read', () => {
    const { parsed, findings } = readFile(arbFormat, '{\n  "@@locale": "de",\n  "a": "A"\n}', 'pt-BR');
    expect(parsed.keys).toEqual(['a']);
    expect(findings).toEqual([
      {
        key: null,
        kind: 'format',
        severity: 'error',
        message:
          '@@locale is "de", but the file is the pt-BR file (expected "pt_BR"; Flutter\'s gen-l10n refuses a mismatch)',
        file: 'locales/pt-BR.json',
        line: 2,
        column: 3,
      },
    ]);
    const declared = readFile(arbFormat, '{"@@locale": "pt_BR", "a": "A"}', 'pt-BR');
    expect(declared.document['@@locale']).toBe('pt_BR');
    expect(declared.findings).toEqual([]);
  });

  it('when a key is given twice, then the last is kept with a finding; a file that is not JSON has its line and column', () => {
    const { document, findings } = readFile(arbFormat, '{\n  "a": "A",\n  "@a": {},\n  "a": "B"\n}');
    expect(document).toEqual({ a: 'B', '@a': {} });
    expect(findings).toMatchObject([{ key: 'a', kind: 'duplicate', line: 4, column: 3 }]);
    expect(readError(arbFormat, '{\n  "a": "A",\n}').message).toBe(
      'locales/en.json:3:1: not valid JSON: Expected double-quoted property name',
    );
  });

  it('when an annotation annotates no message (a message not translated yet), then it is left out with a finding', () => {
    const { document, findings } = readFile(arbFormat, '{"a": "A", "@b": {"description": "gone"}}');
    expect(document).toEqual({ a: 'A' });
    expect(findings).toMatchObject([
      { key: '@b', message: '"@b" annotates "b", which is not in its object; left out', line: 1, column: 12 },
    ]);
  });
});

describe('arb format: locale spelling', () => {
  it('when locales are spelled, then subtags are joined with underscores as Flutter names its files', () => {
    expect(['en', 'pt-BR', 'zh-Hant', 'es-419', 'sr-Latn-RS'].map(arbFormat.spellLocale)).toEqual([
      'en',
      'pt_BR',
      'zh_Hant',
      'es_419',
      'sr_Latn_RS',
    ]);
  });

  it('when spellings are read, then the underscore form is read back and other spellings are none', () => {
    expect(['en', 'pt_BR', 'zh_Hant', 'es_419', 'sr_Latn_RS'].map(arbFormat.readLocale)).toEqual([
      'en',
      'pt-BR',
      'zh-Hant',
      'es-419',
      'sr-Latn-RS',
    ]);
    expect(['pt-BR', 'pt_br', 'app', 'l10n'].map(arbFormat.readLocale)).toEqual([
      undefined,
      undefined,
      'app',
      undefined,
    ]);
    expect(formatNamed('arb')).toBe(arbFormat);
    expect(arbFormat.extensions).toEqual(['.arb']);
  });
});
