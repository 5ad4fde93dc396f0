import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ProviderError,
  TranslationRejectedError,
  createModel,
  translateBatchForLocales,
  type PluralGroupRequest,
  type TranslateBatchResult,
  type TranslateLocalesInput,
} from '../../src/ai/index.js';
import {
  answers,
  redirectTo,
  structuredProviders,
  type ProviderStandIn,
  type TranslateFn,
} from '../support/provider-stand-ins.js';

/**
 * A multi-locale request (the few keys a changed source leaves, into every locale at once): the
 * texts go once, each locale's own parts under its name, and each locale's answer is checked as
 * one locale's; what it leaves is asked again for that locale alone.
 */
const providers = structuredProviders;

const strings = {
  welcome: 'Welcome back, {name}!',
  'cart.item_one': '{{count}} item',
  'cart.item_other': '{{count}} items',
};

function group(categories: PluralGroupRequest['forms'][number]['category'][]): PluralGroupRequest {
  return {
    stem: 'cart.item',
    type: 'cardinal',
    sources: ['cart.item_one', 'cart.item_other'],
    forms: categories.map((category) => ({ key: `cart.item_${category}`, category })),
  };
}

const targets = [
  { targetLocale: 'de', plurals: [group(['one', 'other'])] },
  { targetLocale: 'pl', plurals: [group(['one', 'few', 'many', 'other'])] },
  { targetLocale: 'ja', plurals: [group(['other'])] },
];

const translateAll = (answers.translated() as { translate: TranslateFn }).translate;

/** The default translation, with `{name}` lost in `locale`'s `welcome`. */
function dropping(locale: string): { translate: TranslateFn } {
  return {
    translate: (asked, target, plurals) => {
      const answer = translateAll(asked, target, plurals) as Record<string, string>;
      if (target === locale) answer.welcome = answer.welcome!.replace('{name}', 'friend');
      return answer;
    },
  };
}

describe.each(providers)('translateBatchForLocales with $provider', ({ provider, start }) => {
  let standIn: ProviderStandIn;
  beforeEach(async () => {
    standIn = await start();
  });
  afterEach(async () => {
    await standIn.close();
  });

  function translate(more: Partial<TranslateLocalesInput> = {}) {
    const { model } = createModel({ provider, apiKey: 'key-123', fetch: redirectTo(standIn) });
    return translateBatchForLocales({ model, sourceLocale: 'en', strings, targets, ...more });
  }

  const result = (outcome: TranslateBatchResult | Error | undefined) => {
    expect(outcome).not.toBeInstanceOf(Error);
    return outcome as TranslateBatchResult;
  };

  it("when three locales are asked at once, then one request sends the texts once with each locale's plural forms, and each locale's answer has its own forms", async () => {
    const { usage, outcomes } = await translate();

    expect(standIn.requests).toHaveLength(1);
    const request = standIn.requests[0]!;
    expect(request.locales).toEqual(['de', 'pl', 'ja']);
    expect(request.pluralsByLocale).toEqual({
      de: { 'cart.item': ['cart.item_one', 'cart.item_other'] },
      pl: { 'cart.item': ['cart.item_one', 'cart.item_few', 'cart.item_many', 'cart.item_other'] },
      ja: { 'cart.item': ['cart.item_other'] },
    });
    const prompt = JSON.stringify(request.body);
    expect(prompt.split('Welcome back, {name}!')).toHaveLength(2);
    expect(prompt).toContain('from en to de, pl and ja');
    expect(prompt).toContain('Target locales: de, pl, ja');
    expect(prompt).toContain('Plural categories of pl, each with a number that takes it: one (1), few (2)');
    expect(usage).toEqual(request.reply.usage);

    expect(result(outcomes.get('de')).translations).toEqual({
      welcome: '[de] Welcome back, {name}!',
      'cart.item_one': '[de:one] {{count}} item',
      'cart.item_other': '[de:other] {{count}} items',
    });
    expect(result(outcomes.get('pl')).translations).toMatchObject({
      'cart.item_few': '[pl:few] {{count}} items',
      'cart.item_many': '[pl:many] {{count}} items',
    });
    expect(result(outcomes.get('ja')).translations).toEqual({
      welcome: '[ja] Welcome back, {name}!',
      'cart.item_other': '[ja:other] {{count}} items',
    });
    // The shared request's tokens are counted once, in `usage`, not in any locale's result.
    for (const locale of ['de', 'pl', 'ja'])
      expect(result(outcomes.get(locale)).usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  it("when one locale's answer loses a placeholder, then only that locale's key is asked again, alone and naming the problem", async () => {
    standIn.script(dropping('pl'));
    const failures: { locale: string; attempt: number }[] = [];

    const { outcomes } = await translate({
      targets: targets.map((target) => ({
        ...target,
        onAttemptFailed: ({ attempt }) => failures.push({ locale: target.targetLocale, attempt }),
      })),
    });

    expect(standIn.requests).toHaveLength(2);
    expect(standIn.requests[1]!.locales).toEqual(['pl']);
    expect(standIn.stringsReceived()[1]).toEqual({ welcome: 'Welcome back, {name}!' });
    expect(JSON.stringify(standIn.requests[1]!.body)).toContain('lost {name}');
    expect(failures).toEqual([{ locale: 'pl', attempt: 1 }]);
    const pl = result(outcomes.get('pl'));
    expect(pl.translations.welcome).toBe('[pl] Welcome back, {name}!');
    expect(pl.translations['cart.item_few']).toBe('[pl:few] {{count}} items');
    expect(pl.attempts).toBe(2);
    expect(pl.usage).toEqual(standIn.requests[1]!.reply.usage);
    expect(result(outcomes.get('de')).attempts).toBe(1);
  });

  it('when the answer leaves a locale out, then that locale is asked alone', async () => {
    standIn.script({
      content: JSON.stringify({
        de: {
          '1': '[de] Willkommen, {name}!',
          '2': { one: '{{count}} Artikel', other: '{{count}} Artikel' },
        },
      }),
    });

    const { outcomes } = await translate({ targets: targets.slice(0, 2) });

    expect(standIn.requests.map((r) => r.locales)).toEqual([['de', 'pl'], ['pl']]);
    expect(result(outcomes.get('de')).translations).toEqual({
      welcome: '[de] Willkommen, {name}!',
      'cart.item_one': '{{count}} Artikel',
      'cart.item_other': '{{count}} Artikel',
    });
    expect(result(outcomes.get('pl')).translations.welcome).toBe('[pl] Welcome back, {name}!');
  });

  it("when the answer is no JSON and there is one attempt, then each locale's outcome is a rejection naming its keys", async () => {
    standIn.script(answers.malformed());

    const { outcomes } = await translate({ maxAttempts: 1 });

    expect(standIn.requests).toHaveLength(1);
    for (const locale of ['de', 'pl', 'ja']) {
      const outcome = outcomes.get(locale);
      expect(outcome).toBeInstanceOf(TranslationRejectedError);
      expect((outcome as TranslationRejectedError).problems.map((p) => p.key)).toContain('welcome');
    }
  });

  it('when the provider fails the shared request, then it rejects with ProviderError', async () => {
    standIn.answerAlways(answers.serverError(500));

    await expect(translate({ maxRetries: 0 })).rejects.toBeInstanceOf(ProviderError);
  });
});
