import { describe, expect, it } from 'vitest';
import { PLURAL_CATEGORIES, pluralCategories, pluralExamples } from '@tolk/locale-file';

/** `{ one: 1, few: 2 }` for an easy read of the examples. */
function examplesOf(locale: string, type: 'cardinal' | 'ordinal' = 'cardinal') {
  return Object.fromEntries(pluralExamples(locale, type).map(({ category, example }) => [category, example]));
}

describe('pluralCategories', () => {
  it.each([
    ['pl', ['one', 'few', 'many', 'other']],
    ['ru', ['one', 'few', 'many', 'other']],
    ['uk', ['one', 'few', 'many', 'other']],
    ['cs', ['one', 'few', 'many', 'other']],
    ['ar', ['zero', 'one', 'two', 'few', 'many', 'other']],
    ['cy', ['zero', 'one', 'two', 'few', 'many', 'other']],
    ['fr', ['one', 'many', 'other']],
    ['pt', ['one', 'many', 'other']],
    ['pt-PT', ['one', 'many', 'other']],
    ['de', ['one', 'other']],
    ['en', ['one', 'other']],
    ['ja', ['other']],
    ['zh-Hant', ['other']],
    ['sr-Latn', ['one', 'few', 'other']],
    ['es-419', ['one', 'many', 'other']],
  ])('when the locale is %s, then its cardinal categories are %j in CLDR order', (locale, categories) => {
    expect(pluralCategories(locale)).toEqual(categories);
  });

  it.each([
    ['en', ['one', 'two', 'few', 'other']],
    ['cy', ['zero', 'one', 'two', 'few', 'many', 'other']],
    ['uk', ['few', 'other']],
    ['fr', ['one', 'other']],
    ['pl', ['other']],
    ['ja', ['other']],
  ])('when the locale is %s, then its ordinal categories are %j', (locale, categories) => {
    expect(pluralCategories(locale, 'ordinal')).toEqual(categories);
  });

  it('when CLDR has no rules for the language, then it has only other (not the default locale’s forms)', () => {
    expect(pluralCategories('xx')).toEqual(['other']);
    expect(pluralCategories('xx', 'ordinal')).toEqual(['other']);
    expect(pluralExamples('xx')).toEqual([{ category: 'other', example: 1 }]);
  });
});

describe('pluralExamples', () => {
  it.each([
    ['pl', { one: 1, few: 2, many: 5, other: 1.5 }],
    ['ru', { one: 1, few: 2, many: 5, other: 1.5 }],
    ['uk', { one: 1, few: 2, many: 5, other: 1.5 }],
    ['cs', { one: 1, few: 2, many: 1.5, other: 5 }],
    ['ar', { zero: 0, one: 1, two: 2, few: 3, many: 11, other: 100 }],
    ['cy', { zero: 0, one: 1, two: 2, few: 3, many: 6, other: 4 }],
    ['fr', { one: 1, many: 1_000_000, other: 2 }],
    ['pt', { one: 1, many: 1_000_000, other: 2 }],
    ['pt-PT', { one: 1, many: 1_000_000, other: 2 }],
    ['de', { one: 1, other: 2 }],
    ['ja', { other: 1 }],
    ['zh-Hant', { other: 1 }],
  ])('when the locale is %s, then each category has a number Intl puts in it: %j', (locale, examples) => {
    expect(examplesOf(locale)).toEqual(examples);
  });

  it('when the ordinals of en are asked for, then 1st, 2nd, 3rd and 4th stand for them', () => {
    expect(pluralExamples('en', 'ordinal')).toEqual([
      { category: 'one', example: 1 },
      { category: 'two', example: 2 },
      { category: 'few', example: 3 },
      { category: 'other', example: 4 },
    ]);
  });

  it('when any language CLDR knows is asked for, then every category it uses has an example that selects it', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const languages = [...letters].flatMap((a) => [...letters].map((b) => a + b));
    const known = Intl.PluralRules.supportedLocalesOf(languages, { localeMatcher: 'lookup' });
    expect(known.length).toBeGreaterThan(100);
    for (const locale of known) {
      for (const type of ['cardinal', 'ordinal'] as const) {
        const rules = new Intl.PluralRules(locale, { type });
        const examples = pluralExamples(locale, type);
        expect(
          examples.map((e) => e.category),
          `${locale} ${type}`,
        ).toEqual(pluralCategories(locale, type));
        for (const { category, example } of examples) expect(rules.select(example)).toBe(category);
        expect(PLURAL_CATEGORIES).toEqual(expect.arrayContaining(examples.map((e) => e.category)));
      }
    }
  });
});
