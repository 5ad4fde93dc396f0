import { describe, expect, it } from 'vitest';
import {
  comparePluralFormPlaceholders,
  findPlaceholderMismatches,
  findPluralGroups,
  parseSourceDocument,
  pluralGroupShapes,
  rebuildTranslation,
  targetKeys,
  unusedPluralForms,
} from '../src/index.js';

const source = parseSourceDocument({
  title: 'Cart',
  cart: { item_one: '{{count}} item', item_other: '{{count}} items', total: 'Total' },
  place_ordinal_one: '{{count}}st',
  place_ordinal_two: '{{count}}nd',
  place_ordinal_few: '{{count}}rd',
  place_ordinal_other: '{{count}}th',
  lonely_other: 'Only other: no group',
});

describe('i18next plural groups', () => {
  it('finds cardinal and ordinal groups; a lone _other is a plain key', () => {
    const groups = findPluralGroups(source.keys);
    expect(groups.map((g) => [g.base, g.type, g.forms.map((f) => f.category)])).toEqual([
      ['cart.item', 'cardinal', ['one', 'other']],
      ['place', 'ordinal', ['one', 'two', 'few', 'other']],
    ]);
  });

  it("gives each target locale its own forms, in CLDR order, at the group's place", () => {
    expect(targetKeys(source, 'pl').keys).toEqual([
      'title',
      'cart.item_one',
      'cart.item_few',
      'cart.item_many',
      'cart.item_other',
      'cart.total',
      'place_ordinal_other',
      'lonely_other',
    ]);
    expect(targetKeys(source, 'ja').keys).toEqual([
      'title',
      'cart.item_other',
      'cart.total',
      'place_ordinal_other',
      'lonely_other',
    ]);
    expect(targetKeys(source, 'ar').keys.filter((k) => k.startsWith('cart.item'))).toEqual(
      ['zero', 'one', 'two', 'few', 'many', 'other'].map((c) => `cart.item_${c}`),
    );
    expect(targetKeys(source, 'cy', {}).keys.filter((k) => k.startsWith('place'))).toEqual(
      ['zero', 'one', 'two', 'few', 'many', 'other'].map((c) => `place_ordinal_${c}`),
    );
  });

  it('keeps the source keys when recognition is off', () => {
    expect(targetKeys(source, 'pl', { i18nextPlurals: false }).keys).toEqual(source.keys);
  });

  it("keeps a source's _zero for every target: i18next looks it up for 0 in any language", () => {
    const withZero = parseSourceDocument({ n_zero: 'None', n_one: 'One', n_other: '{{count}}' });
    expect(targetKeys(withZero, 'de').keys).toEqual(['n_zero', 'n_one', 'n_other']);
    expect(targetKeys(withZero, 'ja').keys).toEqual(['n_zero', 'n_other']);
  });

  it('names the forms an upload has that the target does not use', () => {
    expect(unusedPluralForms(targetKeys(source, 'de'), ['cart.item_few', 'cart.item_one', 'nope'])).toEqual([
      { key: 'cart.item_few', categories: ['one', 'other'] },
    ]);
  });

  it('writes the target forms where the group stood', () => {
    const target = targetKeys(source, 'pl');
    const written = rebuildTranslation(source, (key) => `<${key}>`, { target });
    expect(Object.keys((written as { cart: object }).cart)).toEqual([
      'item_one',
      'item_few',
      'item_many',
      'item_other',
      'total',
    ]);
  });

  it('holds each form to the placeholders every source form shares', () => {
    expect(
      comparePluralFormPlaceholders(['One item', '{{count}} items'], '{{count}} przedmioty'),
    ).toBeUndefined();
    expect(comparePluralFormPlaceholders(['{{count}} item', '{{count}} items'], 'przedmioty')).toEqual({
      missing: ['{{count}}'],
      unexpected: [],
    });
    const target = targetKeys(source, 'pl');
    const mismatches = findPlaceholderMismatches(
      source,
      new Map([
        ['cart.item_few', '{{count}} przedmioty {{x}}'],
        ['cart.item_many', '{{count}} przedmiotów'],
      ]),
      target,
    );
    expect(mismatches).toEqual([{ key: 'cart.item_few', missing: [], unexpected: ['{{x}}'] }]);
  });

  it("describes a group's shape, so a removed form can outdate it", () => {
    const before = parseSourceDocument({ n_zero: 'None', n_one: 'One', n_other: 'Many' });
    const after = parseSourceDocument({ n_one: 'One', n_other: 'Many' });
    expect(pluralGroupShapes(before.keys).get('cardinal:n')).not.toEqual(
      pluralGroupShapes(after.keys).get('cardinal:n'),
    );
  });
});
