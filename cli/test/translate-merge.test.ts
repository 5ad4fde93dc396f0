import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import { describe, expect, it } from 'vitest';
import { describeDiff } from '../src/commands/push.js';
import { contextNotes, planBatches, shareBatches } from '../src/translate/batches.js';
import { hashValue } from '../src/files/sync-state.js';
import { mergeTranslations } from '../src/translate/merge.js';

const source = parseSourceDocument({
  '@@locale': 'en',
  checkout: {
    '@pay': { description: 'Button', maxLength: 12 },
    pay: 'Pay {amount}',
    title: 'Checkout',
  },
  '@checkout': { description: 'The checkout page' },
  steps: ['One', 'Two', 'Three'],
  'flat.key': 'Flat',
});

describe('mergeTranslations', () => {
  it('when translations come from everywhere, then the file keeps the source nesting and order, fresh over local over server', () => {
    const merged = mergeTranslations({
      source,
      locale: 'de',
      target: targetKeys(source, 'de'),
      server: new Map([
        ['checkout.title', 'Kasse (server)'],
        ['steps.0', 'Eins'],
        ['flat.key', 'Flach'],
        ['gone', 'Weg'],
      ]),
      local: new Map([
        ['checkout.title', 'Kasse (lokal)'],
        ['steps.1', 'Zwei'],
      ]),
      translated: new Map([['checkout.pay', 'Zahle {amount}']]),
      failed: new Set(),
    });
    expect(merged.document).toEqual({
      '@@locale': 'de',
      checkout: { pay: 'Zahle {amount}', title: 'Kasse (lokal)' },
      steps: { '0': 'Eins', '1': 'Zwei' },
      'flat.key': 'Flach',
    });
    expect(JSON.stringify(merged.document)).toBe(
      '{"@@locale":"de","checkout":{"pay":"Zahle {amount}","title":"Kasse (lokal)"},"steps":{"0":"Eins","1":"Zwei"},"flat.key":"Flach"}',
    );
    expect(merged.keyCount).toBe(5);
  });

  it('when the local value is the one last synced and the server changed since, then the server wins; local work still wins', () => {
    const merged = mergeTranslations({
      source,
      locale: 'de',
      target: targetKeys(source, 'de'),
      server: new Map([
        ['checkout.title', 'Kasse (neu im Dashboard)'],
        ['flat.key', 'Flach (server)'],
      ]),
      local: new Map([
        ['checkout.title', 'Kasse'],
        ['flat.key', 'Flach (von Hand)'],
      ]),
      translated: new Map(),
      failed: new Set(),
      synced: new Map([
        ['checkout.title', hashValue('Kasse')],
        ['flat.key', hashValue('Flach (server)')],
      ]),
    });
    expect(merged.document).toEqual({
      '@@locale': 'de',
      checkout: { title: 'Kasse (neu im Dashboard)' },
      'flat.key': 'Flach (von Hand)',
    });
  });

  it('when a batch failed, then none of its keys is written, not even the older value', () => {
    const merged = mergeTranslations({
      source,
      locale: 'de',
      target: targetKeys(source, 'de'),
      server: new Map([['checkout.pay', 'Bezahle {amount}']]),
      local: new Map([['checkout.pay', 'Bezahle {amount}']]),
      translated: new Map([['checkout.title', 'Kasse']]),
      failed: new Set(['checkout.pay']),
    });
    expect(merged.document).toEqual({ '@@locale': 'de', checkout: { title: 'Kasse' } });
  });

  it("when a local value has other placeholders than the source, then it is kept over the server's: a person's, stored with its finding", () => {
    const merged = mergeTranslations({
      source,
      locale: 'de',
      target: targetKeys(source, 'de'),
      server: new Map([['checkout.pay', 'Zahle {amount}']]),
      local: new Map([['checkout.pay', 'Zahle {betrag}']]),
      translated: new Map(),
      failed: new Set(),
    });
    expect(merged.document).toEqual({ '@@locale': 'de', checkout: { pay: 'Zahle {betrag}' } });
    expect(merged.ownKeys).toBe(1);
  });

  it('when the source (ARB) has @@locale, then the file has the target locale in the same place, whatever the local file had', () => {
    const arb = parseSourceDocument({
      title: 'Hi',
      '@@locale': 'en',
      '@title': { description: 'd' },
      bye: 'Bye',
    });
    const merged = mergeTranslations({
      source: arb,
      locale: 'pt-BR',
      target: targetKeys(arb, 'pt-BR'),
      server: new Map(),
      local: new Map([['title', 'Oi']]),
      translated: new Map([['bye', 'Tchau']]),
      failed: new Set(),
    });
    expect(JSON.stringify(merged.document)).toBe('{"title":"Oi","@@locale":"pt-BR","bye":"Tchau"}');
    expect(merged.keyCount).toBe(2);
  });

  it('when the source has no @@locale, then the file has none either', () => {
    const plain = parseSourceDocument({ '@@last_modified': 'today', title: 'Hi' });
    const merged = mergeTranslations({
      source: plain,
      locale: 'de',
      target: targetKeys(plain, 'de'),
      server: new Map(),
      local: undefined,
      translated: new Map([['title', 'Hallo']]),
      failed: new Set(),
    });
    expect(merged.document).toStrictEqual({ title: 'Hallo' });
  });

  it('when every element of an array is there, then it stays an array', () => {
    const all = new Map(source.keys.map((key) => [key, key.toUpperCase()]));
    const merged = mergeTranslations({
      source,
      locale: 'de',
      target: targetKeys(source, 'de'),
      server: all,
      local: undefined,
      translated: new Map(),
      failed: new Set(),
    });
    expect((merged.document as { steps: unknown }).steps).toEqual(['STEPS.0', 'STEPS.1', 'STEPS.2']);
  });
});

describe('planBatches', () => {
  const value = (key: string) => (key.startsWith('long') ? 'x'.repeat(5000) : 'short');
  const unit = (key: string) => ({ sources: [key], keys: [key] });

  it('when there are many keys, then batches hold at most 200 keys in source order', () => {
    const keys = Array.from({ length: 450 }, (_, i) => `k${i}`);
    const batches = planBatches(keys.map(unit), value);
    expect(batches.map((batch) => batch.length)).toEqual([200, 200, 50]);
    expect(batches.flat().map((u) => u.keys[0])).toEqual(keys);
  });

  it('when texts are long, then a batch stays within the character budget and a huge text goes alone', () => {
    const batches = planBatches(['a', 'long1', 'long2', 'b'].map(unit), value, {
      maxKeys: 40,
      maxChars: 6000,
    });
    expect(batches.map((batch) => batch.map((u) => u.keys[0]))).toEqual([
      ['a', 'long1'],
      ['long2', 'b'],
    ]);
    expect(planBatches([unit('long1')], value, { maxKeys: 40, maxChars: 10 })).toEqual([[unit('long1')]]);
  });
});

describe('shareBatches', () => {
  const value = (key: string) => (key.startsWith('long') ? 'x'.repeat(2995) : 'short');
  const unit = (key: string) => ({ sources: [key], keys: [key] });
  const one = (...keys: string[]) => [keys.map(unit)];

  it('when locales have the same one batch, then they are asked together as far as the limits allow, and every other locale alone', () => {
    const work = [one('a', 'b'), one('a', 'b'), one('a', 'c'), [[unit('a')], [unit('b')]], one('a', 'b')];
    expect(shareBatches(work, value)).toEqual([[0, 1, 4], [2], [3]]);
    // Four locales of a 3,000-character batch fill 12,000 characters: a fifth starts a group.
    const long = Array.from({ length: 5 }, () => one('long1'));
    expect(shareBatches(long, value)).toEqual([[0, 1, 2, 3], [4]]);
    // 150 keys into two locales is 300 keys to answer: more than one batch's 200.
    const many = Array.from({ length: 150 }, (_, i) => `k${i}`);
    expect(shareBatches([one(...many), one(...many)], value)).toEqual([[0], [1]]);
  });

  it('when a plural group takes other forms in a locale, then it still shares the batch: the source texts are the same', () => {
    const group = (forms: string[]) => [
      [{ sources: ['n_one', 'n_other'], keys: forms.map((form) => `n_${form}`) }],
    ];
    expect(shareBatches([group(['one', 'other']), group(['one', 'few', 'many', 'other'])], value)).toEqual([
      [0, 1],
    ]);
  });
});

describe('contextNotes', () => {
  it('when a key and its group are annotated, then the note tells both, the group first', () => {
    expect(contextNotes(source, ['checkout.pay', 'checkout.title', 'flat.key'])).toEqual({
      'checkout.pay': 'The checkout page Button (maxLength: 12)',
      'checkout.title': 'The checkout page',
    });
  });
});

describe('describeDiff', () => {
  it('when few keys changed, then each is listed, else they are counted', () => {
    expect(describeDiff({ added: ['a'], modified: ['b'], deleted: ['c'] })).toEqual([
      '  + a',
      '  ~ b',
      '  - c',
    ]);
    const many = Array.from({ length: 30 }, (_, i) => `k${i}`);
    expect(describeDiff({ added: many, modified: ['b'], deleted: [] })).toEqual([
      '  + 30 added',
      '  ~ 1 modified',
    ]);
  });
});
