/**
 * What makes a translation run cheap (bench:translate): the model answers by short ids that the
 * CLI maps back to keys, and identical texts without context are asked once.
 */
import { describe, expect, it } from 'vitest';
import { answerItems, decodeAnswer, type PluralGroupRequest } from '../../src/ai/translation-prompt.js';
import { shareIdenticalTexts, type TranslationUnit } from '../../src/translate/units.js';

const group: PluralGroupRequest = {
  stem: 'cart.item',
  type: 'cardinal',
  sources: ['cart.item_one', 'cart.item_other'],
  forms: ['one', 'few', 'many', 'other'].map((category) => ({
    key: `cart.item_${category}`,
    category: category as 'one',
  })),
};

describe('decodeAnswer', () => {
  const items = answerItems(['title', 'cart.item_one', 'cart.item_other', 'bye'], [group]);

  it('when the answer is by ids, then plain ids become their keys and a group its form keys', () => {
    const answer = '{"1":"Titel","2":{"one":"a","few":"b","many":"c","other":"d"},"3":"Tschüss"}';

    expect(JSON.parse(decodeAnswer(answer, items))).toEqual({
      title: 'Titel',
      'cart.item_one': 'a',
      'cart.item_few': 'b',
      'cart.item_many': 'c',
      'cart.item_other': 'd',
      bye: 'Tschüss',
    });
  });

  it('when an id was not asked for or a group is answered with a string, then the id stays and the group has no forms', () => {
    expect(JSON.parse(decodeAnswer('```json\n{"1":"Titel","2":"x","9":"y"}\n```', items))).toEqual({
      title: 'Titel',
      '9': 'y',
    });
  });

  it('when the answer is no JSON object, then its text is handed on unchanged for the check to name', () => {
    expect(decodeAnswer('{"1": "Tit', items)).toBe('{"1": "Tit');
    expect(decodeAnswer('["a"]', items)).toBe('["a"]');
  });
});

describe('shareIdenticalTexts', () => {
  const unit = (key: string): TranslationUnit => ({ sources: [key], keys: [key] });
  const texts: Record<string, string> = { a: 'Save', b: 'Cancel', c: 'Save', d: 'Save', e: 'Cancel' };

  it('when shareable keys have the same text, then the first is asked and the others are its copies', () => {
    const units = shareIdenticalTexts(
      ['a', 'b', 'c', 'd', 'e'].map(unit),
      (key) => texts[key]!,
      () => true,
    );

    expect(units).toEqual([
      { sources: ['a'], keys: ['a'], copies: ['c', 'd'] },
      { sources: ['b'], keys: ['b'], copies: ['e'] },
    ]);
  });

  it('when a unit may not be shared (a context note, a person’s translation), then it is asked on its own', () => {
    const units = shareIdenticalTexts(
      ['a', 'c', 'd'].map(unit),
      (key) => texts[key]!,
      (candidate) => candidate.keys[0] !== 'c',
    );

    expect(units.map((u) => [u.keys[0], u.copies])).toEqual([
      ['a', ['d']],
      ['c', undefined],
    ]);
  });
});
