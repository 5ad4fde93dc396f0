import { describe, expect, it } from 'vitest';
import type { GlossaryEntry } from '@tolk/contracts';
import { checkAnswer } from '../../src/ai/check-answer.js';
import {
  compileGlossary,
  entriesUsedIn,
  glossaryMiss,
  glossarySection,
  renderingFor,
} from '../../src/translate/glossary.js';

function entry(fields: Partial<GlossaryEntry> & { term: string }): GlossaryEntry {
  return {
    entryId: `gle_${fields.term}`,
    caseSensitive: false,
    keepAsIs: false,
    note: null,
    translations: {},
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  };
}

const CART = entry({ term: 'cart', translations: { de: 'Warenkorb', pt: 'carrinho' } });
const TOLK = entry({ term: 'Tolk', caseSensitive: true, keepAsIs: true });
const GLOSSARY = compileGlossary([CART, TOLK, entry({ term: 'C++', note: 'the language' })]);

describe('entriesUsedIn', () => {
  it.each([
    ['Your cart is empty', ['cart']],
    ['Your CART', ['cart']],
    ['Cartridge and cartes', []],
    ['e-cart.', ['cart']],
    ['Tolk rocks', ['Tolk']],
    ['tolk rocks', []],
    ['Books by Tolkien', []],
    ['Learn C++ today', ['C++']],
    ['Warenkorb', []],
    ['{cart} and {{cart}} and {cart, number}', []],
    ['{count, plural, one {# cart} other {# items}}', ['cart']],
  ])(
    'when the text is %j, then the terms used are %j (whole words, case as the entry says)',
    (text, terms) => {
      expect(entriesUsedIn(GLOSSARY, [text]).map((e) => e.term)).toEqual(terms);
    },
  );
});

describe('renderingFor', () => {
  it('when the locale has a rendering, it; a regional locale without one, its language’s; none, undefined', () => {
    expect(renderingFor(CART, 'de')).toBe('Warenkorb');
    expect(renderingFor(CART, 'pt-BR')).toBe('carrinho');
    expect(renderingFor(CART, 'fr')).toBeUndefined();
    expect(renderingFor(TOLK, 'fr')).toBe('Tolk');
  });
});

describe('glossarySection', () => {
  it('when texts use terms, then only those entries that say something for the locale are listed', () => {
    expect(glossarySection(GLOSSARY, ['Your cart', 'C++ and Tolk'], 'de')).toBe(
      'Glossary: where a text uses one of these terms, its translation must use exactly the de rendering ' +
        'given (inflect it only where the grammar requires):\n' +
        '- "cart" → "Warenkorb"\n- "Tolk": keep as is, untranslated\n- "C++" (note: the language)',
    );
    expect(glossarySection(GLOSSARY, ['Your cart'], 'fr')).toBeUndefined();
    expect(glossarySection(GLOSSARY, ['Nothing here'], 'de')).toBeUndefined();
  });
});

describe('glossaryMiss and checkAnswer', () => {
  it('when the translation has the rendering (any case, inside a compound), then nothing; without it, the miss named', () => {
    expect(glossaryMiss(GLOSSARY, 'Your cart', 'Ihr warenkorb', 'de')).toBeUndefined();
    expect(glossaryMiss(GLOSSARY, 'Your cart', 'Warenkorbseite', 'de')).toBeUndefined();
    expect(glossaryMiss(GLOSSARY, 'Your cart and Tolk', 'Ihr Korb und tolk', 'de')).toBe(
      'does not follow the glossary: "cart" must be "Warenkorb"; "Tolk" must stay as is',
    );
    expect(glossaryMiss(GLOSSARY, 'Your cart', 'Votre panier', 'fr')).toBeUndefined();
  });

  it('when an answer misses a term, then that key is a glossary problem carrying the translation; the others pass', () => {
    const requested = new Map([
      ['cart', 'Your cart'],
      ['bye', 'Goodbye'],
    ]);
    const checked = checkAnswer(
      requested,
      JSON.stringify({ cart: 'Ihr Korb', bye: 'Tschüss' }),
      'de',
      [],
      (source, translation) => glossaryMiss(GLOSSARY, source, translation, 'de'),
    );
    expect([...checked.accepted]).toEqual([['bye', 'Tschüss']]);
    expect(checked.problems).toEqual([
      {
        key: 'cart',
        kind: 'glossary',
        translation: 'Ihr Korb',
        message: 'does not follow the glossary: "cart" must be "Warenkorb"',
      },
    ]);
  });

  it('when a plural group’s form misses a term, then the group is withheld whole and only that form named', () => {
    const requested = new Map([
      ['item_one', 'One cart item'],
      ['item_other', '{{count}} cart items'],
    ]);
    const group = {
      stem: 'item',
      type: 'cardinal' as const,
      sources: ['item_one', 'item_other'],
      forms: [
        { key: 'item_one', category: 'one' as const },
        { key: 'item_other', category: 'other' as const },
      ],
    };
    const answer = { item_one: 'Ein Warenkorb-Artikel', item_other: '{{count}} Korb-Artikel' };
    const checked = checkAnswer(requested, JSON.stringify(answer), 'de', [group], (source, translation) =>
      glossaryMiss(GLOSSARY, source, translation, 'de'),
    );
    expect(checked.accepted.size).toBe(0);
    expect(checked.problems.map((p) => [p.key, p.kind])).toEqual([['item_other', 'glossary']]);
    expect(Object.fromEntries(checked.withheld ?? [])).toEqual(answer);
  });
});
