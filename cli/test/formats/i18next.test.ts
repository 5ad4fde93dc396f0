import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { i18nextFormat } from '../../src/formats/i18next.js';
import { readError, readFile, writeBack, writeTarget } from './json-format-harness.js';

/** An i18next v4 namespace: plural groups with and without `_zero`, ordinals, context, nesting. */
const namespace = `{
  "cart": {
    "title": "Your cart",
    "items_zero": "Your cart is empty",
    "items_one": "{{count}} item",
    "items_other": "{{count}} items",
    "total": "Total: {{amount, currency(USD)}}"
  },
  "messages_one": "One new message",
  "messages_other": "{{count}} new messages",
  "place_ordinal_one": "{{count}}st place",
  "place_ordinal_two": "{{count}}nd place",
  "place_ordinal_few": "{{count}}rd place",
  "place_ordinal_other": "{{count}}th place",
  "friend_male": "A boyfriend",
  "friend_female": "A girlfriend",
  "summary": "$t(cart.title): $t(messages, {\\"count\\": {{count}} })",
  "empty": ""
}
`;

/** A translator that writes, for every key of the target, which key it is and the count. */
const tagged = (key: string) => `[${key}] {{count}}`;

async function i18nextFor(locale: string, document: unknown) {
  const missing: string[] = [];
  const instance = i18next.createInstance();
  await instance.init({
    lng: locale,
    fallbackLng: false,
    resources: { [locale]: { translation: document as Record<string, unknown> } },
    saveMissing: true,
    missingKeyHandler: (_lngs, _ns, key) => missing.push(key),
    interpolation: { escapeValue: false },
  });
  return { t: instance.t.bind(instance), missing };
}

describe('i18next format: round trips', () => {
  it.each([
    ['two spaces', namespace],
    ['four spaces and no final newline', namespace.replace(/^ +/gm, (indent) => indent + indent).trimEnd()],
    ['tabs', namespace.replaceAll('  ', '\t')],
  ])(
    'when a namespace with %s is written back from its own values, then the bytes are the same',
    (_, text) => {
      expect(writeBack(i18nextFormat, text).toString('utf8')).toBe(text);
    },
  );

  it('when a namespace is read, then plural keys stay keys and the document passes the server rules', () => {
    const { parsed } = readFile(i18nextFormat, namespace);
    expect(parsed.keys.slice(0, 7)).toEqual([
      'cart.title',
      'cart.items_zero',
      'cart.items_one',
      'cart.items_other',
      'cart.total',
      'messages_one',
      'messages_other',
    ]);
  });
});

describe('i18next format: targets read by i18next', () => {
  it.each(['pl', 'ru', 'ar', 'ja', 'pt-BR'])(
    'when a %s target is written, then i18next gives its own plural form for every count without falling back',
    async (locale) => {
      const text = writeTarget(i18nextFormat, namespace, locale, tagged);
      const { t, missing } = await i18nextFor(locale, JSON.parse(text));
      const cardinal = new Intl.PluralRules(locale);
      const ordinal = new Intl.PluralRules(locale, { type: 'ordinal' });
      for (const count of [0, 1, 2, 5, 22, 1.5]) {
        const items = count === 0 ? 'cart.items_zero' : `cart.items_${cardinal.select(count)}`;
        expect(t('cart.items', { count })).toBe(`[${items}] ${count}`);
        expect(t('messages', { count })).toBe(`[messages_${cardinal.select(count)}] ${count}`);
        expect(t('place', { count, ordinal: true })).toBe(
          `[place_ordinal_${ordinal.select(count)}] ${count}`,
        );
      }
      expect(missing).toEqual([]);
    },
  );

  it('when a Polish target is written, then its forms are Polish, in CLDR order, at the group place, in the source style', () => {
    const text = writeTarget(i18nextFormat, namespace, 'pl', (key) =>
      key.startsWith('cart.') || key.startsWith('place') ? tagged(key) : undefined,
    );
    expect(text).toBe(`{
  "cart": {
    "title": "[cart.title] {{count}}",
    "items_zero": "[cart.items_zero] {{count}}",
    "items_one": "[cart.items_one] {{count}}",
    "items_few": "[cart.items_few] {{count}}",
    "items_many": "[cart.items_many] {{count}}",
    "items_other": "[cart.items_other] {{count}}",
    "total": "[cart.total] {{count}}"
  },
  "place_ordinal_other": "[place_ordinal_other] {{count}}"
}
`);
  });

  it('when an Arabic target is written, then a group without a source zero gets Arabic zero as one of its forms', () => {
    const keys = Object.keys(JSON.parse(writeTarget(i18nextFormat, namespace, 'ar', tagged)) as object);
    expect(keys.filter((key) => key.startsWith('messages_'))).toEqual([
      'messages_zero',
      'messages_one',
      'messages_two',
      'messages_few',
      'messages_many',
      'messages_other',
    ]);
  });

  it('when plural recognition is off for the project, then the target has the source keys', () => {
    const text = writeTarget(i18nextFormat, namespace, 'pl', tagged, { i18nextPlurals: false });
    const keys = Object.keys(JSON.parse(text) as object);
    expect(keys.filter((key) => key.startsWith('messages_'))).toEqual(['messages_one', 'messages_other']);
  });

  it('when a form has no translation yet, then it is left out and i18next reports it missing rather than using another', async () => {
    const text = writeTarget(i18nextFormat, namespace, 'pl', (key) =>
      key === 'messages_few' ? undefined : tagged(key),
    );
    const { t, missing } = await i18nextFor('pl', JSON.parse(text));
    expect(t('messages', { count: 2 })).toBe('messages');
    expect(missing).toContain('messages_few');
    expect(JSON.parse(text)).not.toHaveProperty('messages_few');
  });
});

describe('i18next format: bad input and spelling', () => {
  it('when a plural form is not a string, then it is left out with a finding at its line and column', () => {
    const { parsed, findings } = readFile(
      i18nextFormat,
      '{\n  "items_one": "{{count}} item",\n  "items_other": 2\n}',
    );
    expect(parsed.keys).toEqual(['items_one']);
    expect(findings).toMatchObject([
      {
        key: 'items_other',
        kind: 'format',
        message: '"items_other" is a number, not a text; left out',
        line: 3,
        column: 18,
      },
    ]);
  });

  it('when a plural form is given twice, then the last is kept and a finding names it', () => {
    const { document, findings } = readFile(
      i18nextFormat,
      '{"items_one": "a", "items_other": "b", "items_one": "c"}',
    );
    expect(document).toEqual({ items_one: 'c', items_other: 'b' });
    expect(findings).toMatchObject([{ key: 'items_one', kind: 'duplicate', line: 1, column: 40 }]);
  });

  it('when the file is not JSON, then the error has its line and column', () => {
    expect(readError(i18nextFormat, '{\n  "a": "A"\n  "b": "B"\n}').message).toBe(
      "locales/en.json:3:3: not valid JSON: Expected ',' or '}' after property value",
    );
  });

  it('when locales are spelled, then they are BCP 47 as the locales/{locale}/{namespace}.json layout has them', () => {
    expect(i18nextFormat.spellLocale('pt-BR')).toBe('pt-BR');
    expect(i18nextFormat.readLocale('zh-Hant')).toBe('zh-Hant');
    expect(i18nextFormat.readLocale('pt_BR')).toBeUndefined();
    expect(formatNamed('i18next')).toBe(i18nextFormat);
  });
});
