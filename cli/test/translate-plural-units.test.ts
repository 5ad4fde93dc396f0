/**
 * The target locale's keys in `tolk translate` (DESIGN §11): which units go to the model, how
 * batches keep a plural group whole, and how the file is written with the locale's forms.
 */
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import { describe, expect, it } from 'vitest';
import { buildUserMessage } from '../src/ai/translation-prompt.js';
import { planBatches } from '../src/translate/batches.js';
import { mergeTranslations } from '../src/translate/merge.js';
import { translationUnits } from '../src/translate/units.js';

const source = parseSourceDocument({
  cart: {
    title: 'Your cart',
    item_one: 'One item',
    item_other: '{{count}} items',
    pay: 'Pay {amount}',
  },
  place_ordinal_one: '{{count}}st',
  place_ordinal_two: '{{count}}nd',
  place_ordinal_few: '{{count}}rd',
  place_ordinal_other: '{{count}}th',
});

describe('translationUnits', () => {
  it('when the target is Polish, then a group is one unit showing its source forms and asking for the Polish forms', () => {
    const units = translationUnits(source, targetKeys(source, 'pl'));
    expect(units).toEqual([
      { sources: ['cart.title'], keys: ['cart.title'] },
      {
        sources: ['cart.item_one', 'cart.item_other'],
        keys: ['cart.item_one', 'cart.item_few', 'cart.item_many', 'cart.item_other'],
        plural: {
          stem: 'cart.item',
          type: 'cardinal',
          sources: ['cart.item_one', 'cart.item_other'],
          forms: [
            { key: 'cart.item_one', category: 'one' },
            { key: 'cart.item_few', category: 'few' },
            { key: 'cart.item_many', category: 'many' },
            { key: 'cart.item_other', category: 'other' },
          ],
        },
      },
      { sources: ['cart.pay'], keys: ['cart.pay'] },
      {
        sources: ['place_ordinal_one', 'place_ordinal_two', 'place_ordinal_few', 'place_ordinal_other'],
        keys: ['place_ordinal_other'],
        plural: expect.objectContaining({ stem: 'place_ordinal', type: 'ordinal' }),
      },
    ]);
  });

  it('when one form of a group is missing or a source form outdated, then the whole group is asked again', () => {
    const target = targetKeys(source, 'pl');
    const keysOf = (wanted: string[]) =>
      translationUnits(source, target, new Set(wanted)).flatMap((unit) => unit.keys);
    expect(keysOf(['cart.item_few'])).toEqual([
      'cart.item_one',
      'cart.item_few',
      'cart.item_many',
      'cart.item_other',
    ]);
    // What a server that counts the source's keys reports: the source's form.
    expect(keysOf(['cart.pay', 'place_ordinal_two'])).toEqual(['cart.pay', 'place_ordinal_other']);
    expect(keysOf([])).toEqual([]);
  });

  it('when the project turns plural keys off, then every key is a unit of its own', () => {
    const units = translationUnits(source, targetKeys(source, 'pl', { i18nextPlurals: false }));
    expect(units.map((unit) => unit.keys)).toEqual(source.keys.map((key) => [key]));
    expect(units.some((unit) => unit.plural)).toBe(false);
  });
});

describe('planBatches with plural groups', () => {
  it('when a group would cross the key limit, then it starts the next batch whole', () => {
    const units = translationUnits(source, targetKeys(source, 'pl'));
    const batches = planBatches(units, () => 'text', { maxKeys: 4, maxChars: 6000 });
    expect(batches.map((batch) => batch.flatMap((unit) => unit.keys))).toEqual([
      ['cart.title'],
      ['cart.item_one', 'cart.item_few', 'cart.item_many', 'cart.item_other'],
      ['cart.pay', 'place_ordinal_other'],
    ]);
  });
});

describe('mergeTranslations with the target’s plural forms', () => {
  const polish = {
    'cart.item_one': 'Jeden przedmiot',
    'cart.item_few': '{{count}} przedmioty',
    'cart.item_many': '{{count}} przedmiotów',
    'cart.item_other': '{{count}} przedmiotu',
  };

  it('when a Polish group is translated, then its four forms are written in CLDR order at the group’s place, and forms Polish does not use are dropped', () => {
    const merged = mergeTranslations({
      source,
      locale: 'pl',
      target: targetKeys(source, 'pl'),
      server: new Map([['place_ordinal_one', '{{count}}.']]),
      local: new Map([
        ['cart.title', 'Twój koszyk'],
        ['cart.item_two', '{{count}} przedmioty (dwa)'],
        ['place_ordinal_other', '{{count}}.'],
      ]),
      translated: new Map([...Object.entries(polish), ['cart.pay', 'Zapłać {amount}']]),
      failed: new Set(),
    });
    expect(JSON.stringify(merged.document)).toBe(
      JSON.stringify({
        cart: {
          title: 'Twój koszyk',
          item_one: 'Jeden przedmiot',
          item_few: '{{count}} przedmioty',
          item_many: '{{count}} przedmiotów',
          item_other: '{{count}} przedmiotu',
          pay: 'Zapłać {amount}',
        },
        place_ordinal_other: '{{count}}.',
      }),
    );
    expect(merged.keyCount).toBe(7);
  });

  it("when a local form loses the placeholders the source forms share, then it is kept all the same: a person's, stored with its finding", () => {
    const merged = mergeTranslations({
      source,
      locale: 'pl',
      target: targetKeys(source, 'pl'),
      server: new Map(),
      local: new Map([
        ['cart.item_one', 'Jeden przedmiot'],
        ['cart.item_few', 'kilka przedmiotów'],
        ['cart.item_many', '{{count}} {{what}}'],
        ['cart.item_other', '{{count}} przedmiotu'],
      ]),
      translated: new Map(),
      failed: new Set(),
    });
    expect(merged.document).toEqual({
      cart: {
        item_one: 'Jeden przedmiot',
        item_few: 'kilka przedmiotów',
        item_many: '{{count}} {{what}}',
        item_other: '{{count}} przedmiotu',
      },
    });
  });

  it('when a group failed, then none of its forms is written, not even older ones', () => {
    const target = targetKeys(source, 'de');
    const merged = mergeTranslations({
      source,
      locale: 'de',
      target,
      server: new Map([
        ['cart.item_one', 'Ein Artikel'],
        ['cart.item_other', '{{count}} Artikel'],
      ]),
      local: undefined,
      translated: new Map([['cart.title', 'Dein Warenkorb']]),
      failed: new Set(['cart.item_one', 'cart.item_other']),
    });
    expect(merged.document).toEqual({ cart: { title: 'Dein Warenkorb' } });
  });
});

describe('the prompt for a group with a zero form', () => {
  it('when the source has item_zero, then Polish keeps it (i18next asks it for 0) and the prompt says what it is for', () => {
    const withZero = parseSourceDocument({
      item_zero: 'No items',
      item_one: 'One item',
      item_other: '{{count}} items',
    });
    const [unit] = translationUnits(withZero, targetKeys(withZero, 'pl'));
    const content = buildUserMessage({
      sourceLocale: 'en',
      targetLocale: 'pl',
      strings: new Map(unit!.sources.map((key, index) => [key, withZero.values[index]!])),
      plurals: [unit!.plural!],
      context: new Map(),
      earlierProblems: [],
    }).content as string;
    expect(content).toContain(
      "Plural categories of pl, each with a number that takes it: one (1), few (2), many (5), other (1.5). A group's zero form is for the number 0.",
    );
    expect(content).toContain('{"1":["zero","one","few","many","other"]}');
    expect(content).toContain(
      '{"":{"1 item":{"zero":"No items","one":"One item","other":"{{count}} items"}}}',
    );
  });
});
