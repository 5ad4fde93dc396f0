import { describe, expect, it } from 'vitest';
import { labelKeys } from '../src/plural-keys.js';

const english = new Map([
  ['cart.title', 'Your cart'],
  ['cart.item_one', 'One item'],
  ['cart.item_other', '{{count}} items'],
  ['place_ordinal_one', '{{count}}st'],
  ['place_ordinal_two', '{{count}}nd'],
  ['place_ordinal_few', '{{count}}rd'],
  ['place_ordinal_other', '{{count}}th'],
]);

describe('labelKeys', () => {
  it("when Polish lacks an English plural group's forms, then each shows its category, a number selecting it, and the source form it comes from", () => {
    const keys = ['cart.title', 'cart.item_one', 'cart.item_few', 'cart.item_many', 'cart.item_other'];
    const labelled = labelKeys(keys, english, 'pl', { i18nextPlurals: true });

    expect(
      labelled.map(({ key, sourceValue, plural }) => [
        key,
        plural?.category,
        plural?.sourceCategory,
        sourceValue,
      ]),
    ).toEqual([
      ['cart.title', undefined, undefined, 'Your cart'],
      ['cart.item_one', 'one', 'one', 'One item'],
      ['cart.item_few', 'few', 'other', '{{count}} items'],
      ['cart.item_many', 'many', 'other', '{{count}} items'],
      ['cart.item_other', 'other', 'other', '{{count}} items'],
    ]);
    const polish = new Intl.PluralRules('pl');
    for (const { plural } of labelled.slice(1)) {
      expect(plural?.example).toBeTypeOf('number');
      expect(polish.select(plural!.example!)).toBe(plural!.category);
    }
    expect(labelled[1]!.plural!.example).toBe(1);
    expect(labelled[4]!.plural!.example).not.toBe(Math.trunc(labelled[4]!.plural!.example!));
  });

  it("when an ordinal group is listed for Italian, then Italian's ordinal categories are shown with ordinal examples", () => {
    const keys = ['place_ordinal_many', 'place_ordinal_other'];
    const labelled = labelKeys(keys, english, 'it', { i18nextPlurals: true });

    expect(
      labelled.map(({ plural, sourceValue }) => [plural?.category, plural?.sourceCategory, sourceValue]),
    ).toEqual([
      ['many', 'other', '{{count}}th'],
      ['other', 'other', '{{count}}th'],
    ]);
    const italianOrdinals = new Intl.PluralRules('it', { type: 'ordinal' });
    for (const { plural } of labelled)
      expect(italianOrdinals.select(plural!.example!)).toBe(plural!.category);
  });

  it("when the source has a zero form, then a language without CLDR's zero category shows it with 0", () => {
    const source = new Map([
      ['item_zero', 'No items'],
      ['item_one', 'One item'],
      ['item_other', '{{count}} items'],
    ]);
    const [zero] = labelKeys(['item_zero'], source, 'de', { i18nextPlurals: true });
    expect(zero).toEqual({
      key: 'item_zero',
      sourceValue: 'No items',
      plural: { category: 'zero', example: 0, sourceCategory: 'zero' },
    });
  });

  it('when plural recognition is off, or a key only looks like a form, then the keys are plain', () => {
    const off = labelKeys(['cart.item_one', 'cart.item_few'], english, 'pl', { i18nextPlurals: false });
    expect(off).toEqual([{ key: 'cart.item_one', sourceValue: 'One item' }, { key: 'cart.item_few' }]);

    // `status_other` alone is no group: a group needs `_other` and another category.
    const lone = new Map([['status_other', 'Other']]);
    expect(labelKeys(['status_other', 'status_few'], lone, 'pl', { i18nextPlurals: true })).toEqual([
      { key: 'status_other', sourceValue: 'Other' },
      { key: 'status_few' },
    ]);
  });
});
