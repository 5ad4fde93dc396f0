import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ProviderError,
  TranslationRejectedError,
  createModel,
  translateBatch,
  type KeyProblem,
  type PluralGroupRequest,
} from '../../src/ai/index.js';
import {
  answers,
  redirectTo,
  startAnthropicStandIn,
  structuredProviders,
  type ProviderStandIn,
} from '../support/provider-stand-ins.js';

/**
 * The same behaviour through the AI SDK's OpenAI (Chat Completions) and Anthropic (Messages)
 * providers, each against a stand-in speaking its wire protocol. The models are built exactly as
 * the CLI builds them, with the provider's real URL; only fetch sends the request to the stand-in.
 */
const providers = structuredProviders;

describe.each(providers)('translateBatch with $provider', ({ provider, start }) => {
  let standIn: ProviderStandIn;
  beforeEach(async () => {
    standIn = await start();
  });
  afterEach(async () => {
    await standIn.close();
  });

  function model(modelId?: string) {
    return createModel({
      provider,
      apiKey: 'key-123',
      fetch: redirectTo(standIn),
      ...(modelId && { model: modelId }),
    }).model;
  }

  function translate(
    strings: Record<string, string>,
    more: Partial<Parameters<typeof translateBatch>[0]> = {},
  ) {
    return translateBatch({ model: model(), sourceLocale: 'en', targetLocale: 'de', strings, ...more });
  }

  it('when the answer is good, then it returns every translation and the usage, in one request', async () => {
    const result = await translate({ greeting: 'Hello {name}', 'nav.home': 'Home' });

    expect(result.translations).toEqual({ greeting: '[de] Hello {name}', 'nav.home': '[de] Home' });
    expect(result.attempts).toBe(1);
    expect(standIn.requests).toHaveLength(1);
    const reported = standIn.requests[0]!.reply.usage!;
    expect(result.usage).toEqual(reported);
    expect(reported.inputTokens).toBeGreaterThan(0);
    expect(reported.outputTokens).toBeGreaterThan(0);
  });

  it('when translating, then the request carries exactly the strings as one JSON object by id, the instructions, the context and the key, and asks for JSON without a schema', async () => {
    await translate(
      { 'cart.title': 'Your cart', 'cart.empty': 'Nothing here' },
      {
        instructions: 'Use the informal "du".',
        context: { 'cart.title': 'Heading of the cart page', 'other.key': 'not in this batch' },
      },
    );

    expect(standIn.stringsReceived()).toEqual([{ 'cart.title': 'Your cart', 'cart.empty': 'Nothing here' }]);
    const request = standIn.requests[0]!;
    const prompt = JSON.stringify(request.body);
    expect(prompt).toContain('Use the informal \\"du\\".');
    expect(prompt).toContain('Heading of the cart page');
    expect(prompt).not.toContain('not in this batch');
    expect(prompt).toContain('Target locale: de');
    expect(prompt).toContain('{\\"cart\\":{\\"1 title\\":\\"Your cart\\",\\"2 empty\\":\\"Nothing here\\"}}');
    expect(prompt).toContain('{\\"1\\":\\"Heading of the cart page\\"}');
    if (provider === 'openai') {
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe('Bearer key-123');
      expect(request.body).toMatchObject({ model: 'gpt-6-luna', response_format: { type: 'json_object' } });
    } else {
      expect(request.path).toBe('/v1/messages');
      expect(request.headers['x-api-key']).toBe('key-123');
      expect(request.body).toMatchObject({ model: 'claude-haiku-4-5' });
      expect(request.body).not.toHaveProperty('output_config');
      expect(request.body).not.toHaveProperty('tools');
    }
  });

  it('when an answer drops a placeholder, then only that key is asked again, naming the problem, and the good answer is kept', async () => {
    standIn.script(answers.dropPlaceholder('welcome'));
    const failures: { attempt: number; problems: KeyProblem[] }[] = [];

    const result = await translate(
      { welcome: 'Welcome back, {name}!', bye: 'Goodbye' },
      { onAttemptFailed: (info) => failures.push(info) },
    );

    expect(result.translations).toEqual({ welcome: '[de] Welcome back, {name}!', bye: '[de] Goodbye' });
    expect(result.attempts).toBe(2);
    expect(standIn.stringsReceived()).toEqual([
      { welcome: 'Welcome back, {name}!', bye: 'Goodbye' },
      { welcome: 'Welcome back, {name}!' },
    ]);
    expect(failures).toEqual([
      {
        attempt: 1,
        problems: [expect.objectContaining({ key: 'welcome', kind: 'placeholders', missing: ['{name}'] })],
      },
    ]);
    expect(JSON.stringify(standIn.requests[1]!.body)).toContain('lost {name}');
    const [first, second] = standIn.requests.map((r) => r.reply.usage!);
    expect(result.usage).toEqual({
      inputTokens: first!.inputTokens + second!.inputTokens,
      outputTokens: first!.outputTokens + second!.outputTokens,
    });
  });

  it("when a person's translation is given as reference, then every request for its key carries it and the answer is still checked", async () => {
    standIn.script(answers.dropPlaceholder('welcome'));
    const reference = { welcome: 'Schön, dass du wieder da bist, {name}!' };
    const result = await translate(
      { welcome: 'Welcome back, {name}!', bye: 'Goodbye' },
      { references: new Map([...Object.entries(reference), ['gone', 'Nicht gefragt']]) },
    );

    expect(result.translations).toEqual({ welcome: '[de] Welcome back, {name}!', bye: '[de] Goodbye' });
    expect(standIn.stringsReceived()).toEqual([
      { welcome: 'Welcome back, {name}!', bye: 'Goodbye' },
      { welcome: 'Welcome back, {name}!' },
    ]);
    // Only the references of the keys asked, by id, as one JSON object (escaped once more in the body).
    const asJson = JSON.stringify(JSON.stringify({ 1: reference.welcome })).slice(1, -1);
    for (const request of standIn.requests) {
      const body = JSON.stringify(request.body);
      expect(body).toContain("A person's translations of these texts");
      expect(body).toContain(asJson);
      expect(body).not.toContain('Nicht gefragt');
      expect(body).toContain('it is the reference: keep its wording');
    }
  });

  it('when no reference is given, then the prompt has no reference section', async () => {
    await translate({ bye: 'Goodbye' }, { references: new Map([['other', 'Andere']]) });
    const body = JSON.stringify(standIn.requests[0]!.body);
    expect(body).not.toContain("A person's translations of these texts");
    expect(body).not.toContain('it is the reference');
  });

  it('when every answer drops the placeholder, then it rejects naming the key after maxAttempts requests, keeping the good keys', async () => {
    standIn.answerAlways(answers.dropPlaceholder('welcome'));

    const error = await translate({ welcome: 'Welcome back, {name}!', bye: 'Goodbye' }).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(TranslationRejectedError);
    const rejected = error as TranslationRejectedError;
    expect(rejected.attempts).toBe(3);
    expect(standIn.requests).toHaveLength(3);
    expect(rejected.problems).toEqual([
      expect.objectContaining({ key: 'welcome', kind: 'placeholders', missing: ['{name}'], unexpected: [] }),
    ]);
    expect(rejected.message).toContain('"welcome"');
    expect(rejected.translations).toEqual({ bye: '[de] Goodbye' });
    expect(rejected.usage.inputTokens).toBeGreaterThan(0);
  });

  it('when maxAttempts is 1 and the answer is bad, then it makes one request and rejects', async () => {
    standIn.answerAlways(answers.dropPlaceholder('a'));

    await expect(translate({ a: '<b>Bold</b>' }, { maxAttempts: 1 })).rejects.toMatchObject({
      name: 'TranslationRejectedError',
      attempts: 1,
      problems: [{ key: 'a', kind: 'placeholders', missing: ['<b>'] }],
    });
    expect(standIn.requests).toHaveLength(1);
  });

  it('when the answer misses a key, then only that key is asked again', async () => {
    standIn.script(answers.withoutKey('b'));

    const result = await translate({ a: 'One', b: 'Two', c: 'Three' });

    expect(result.translations).toEqual({ a: '[de] One', b: '[de] Two', c: '[de] Three' });
    expect(standIn.stringsReceived()[1]).toEqual({ b: 'Two' });
  });

  it('when the answer adds a key that was not asked for, then it is dropped and the answer still counts', async () => {
    standIn.script(answers.withValue('injected', 'surprise'));

    const result = await translate({ a: 'One' });

    expect(result.translations).toEqual({ a: '[de] One' });
    expect(Object.keys(result.translations)).toEqual(['a']);
    expect(result.attempts).toBe(1);
  });

  it('when an answer is not JSON or has a non-string value, then those keys are asked again', async () => {
    standIn.script(answers.malformed(), answers.withValue('b', { nested: 'x' }));
    const kinds: string[][] = [];

    const result = await translate(
      { a: 'One', b: 'Two' },
      { onAttemptFailed: ({ problems }) => kinds.push(problems.map((p) => `${p.key}:${p.kind}`)) },
    );

    expect(result.translations).toEqual({ a: '[de] One', b: '[de] Two' });
    expect(result.attempts).toBe(3);
    expect(kinds).toEqual([['a:unreadable-answer', 'b:unreadable-answer'], ['b:not-a-string']]);
  });

  it('when the provider answers 429 twice, then the SDK retries and the third request succeeds', async () => {
    standIn.script(answers.rateLimited(), answers.rateLimited());

    const result = await translate({ a: 'One' });

    expect(result.translations).toEqual({ a: '[de] One' });
    expect(result.attempts).toBe(1);
    expect(standIn.requests.map((r) => r.reply.status)).toEqual([429, 429, 200]);
  });

  it('when the provider keeps failing with 500, then it throws ProviderError after the retries', async () => {
    standIn.answerAlways(answers.serverError(500));

    const error = await translate({ a: 'One' }, { maxRetries: 2 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'unavailable', status: 500, requests: 3 });
    expect(standIn.requests).toHaveLength(3);
  });

  it('when the key is refused, then it throws ProviderError unauthorized without retrying', async () => {
    standIn.answerAlways({ status: 401, message: 'Invalid API key' });

    const error = await translate({ a: 'One' }).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'ProviderError', code: 'unauthorized', status: 401 });
    expect((error as Error).message).toContain('Invalid API key');
    expect(standIn.requests).toHaveLength(1);
  });

  it('when a plural gets other categories in the target language, then it is accepted; when its argument is renamed, then it is asked again', async () => {
    const source = '{count, plural, one {# file for {user}} other {# files for {user}}}';
    const polish =
      '{count, plural, one {# plik dla {user}} few {# pliki dla {user}} many {# plików dla {user}} other {# pliku dla {user}}}';
    standIn.script(
      { translate: () => ({ files: polish.replace('{count,', '{n,'), title: 'Pliki' }) },
      { translate: () => ({ files: polish }) },
    );

    const result = await translate({ files: source, title: 'Files' }, { targetLocale: 'pl' });

    expect(result.translations).toEqual({ files: polish, title: 'Pliki' });
    expect(standIn.stringsReceived()[1]).toEqual({ files: source });
  });

  it('when a Polish answer lacks plural categories, then only that key is asked again naming them, and a complete one is kept', async () => {
    const source = '{count, plural, one {# file} other {# files}}';
    const polish = '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}';
    standIn.script(
      { translate: () => ({ files: '{count, plural, one {# plik} other {# pliki}}', title: 'Pliki' }) },
      { translate: () => ({ files: polish }) },
    );

    const result = await translate({ files: source, title: 'Files' }, { targetLocale: 'pl' });

    expect(result.translations).toEqual({ files: polish, title: 'Pliki' });
    expect(standIn.stringsReceived()[1]).toEqual({ files: source });
    expect(JSON.stringify(standIn.requests[1]!.body)).toContain('{count, plural} lacks few, many');
  });

  it('when every answer lacks a category, then it rejects naming the key and the categories', async () => {
    standIn.answerAlways({ translate: () => ({ files: '{count, plural, one {# plik} other {# pliki}}' }) });

    const error = await translate(
      { files: '{count, plural, one {# file} other {# files}}' },
      { targetLocale: 'pl', maxAttempts: 2 },
    ).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TranslationRejectedError);
    expect((error as Error).message).toContain('"files": {count, plural} lacks few, many');
    expect(standIn.requests).toHaveLength(2);
  });

  describe('plural forms of the target locale (DESIGN §11)', () => {
    const cart = { 'cart.item_one': '{{count}} item', 'cart.item_other': '{{count}} items', title: 'Cart' };
    const polishGroup: PluralGroupRequest = {
      stem: 'cart.item',
      type: 'cardinal',
      sources: ['cart.item_one', 'cart.item_other'],
      forms: (['one', 'few', 'many', 'other'] as const).map((category) => ({
        key: `cart.item_${category}`,
        category,
      })),
    };
    const polishKeys = polishGroup.forms.map((form) => form.key);

    it('when a group is asked for Polish, then the prompt shows every source form, names each Polish category with an example number and the keys to answer, and the answer holds the four forms', async () => {
      const result = await translate(cart, { targetLocale: 'pl', plurals: [polishGroup] });

      expect(result.translations).toEqual({
        'cart.item_one': '[pl:one] {{count}} item',
        'cart.item_few': '[pl:few] {{count}} items',
        'cart.item_many': '[pl:many] {{count}} items',
        'cart.item_other': '[pl:other] {{count}} items',
        title: '[pl] Cart',
      });
      expect(standIn.stringsReceived()).toEqual([cart]);
      expect(standIn.pluralsReceived()).toEqual([{ 'cart.item': polishKeys }]);
      const prompt = JSON.stringify(standIn.requests[0]!.body);
      expect(prompt).toContain(
        'Plural categories of pl, each with a number that takes it: one (1), few (2), many (5), other (1.5).',
      );
      expect(prompt).not.toContain('Ordinal categories');
      // The group is one id, sent with its English forms and answered with the Polish categories.
      expect(prompt).toContain('{\\"1\\":[\\"one\\",\\"few\\",\\"many\\",\\"other\\"]}');
      expect(prompt).toContain(
        '\\"1 item\\":{\\"one\\":\\"{{count}} item\\",\\"other\\":\\"{{count}} items\\"}',
      );
    });

    it('when the first answer leaves out a category, then only that group is asked again, naming the form, and the complete answer is kept', async () => {
      standIn.script(answers.withoutPluralForm('many'));
      const failures: KeyProblem[][] = [];

      const result = await translate(cart, {
        targetLocale: 'pl',
        plurals: [polishGroup],
        onAttemptFailed: ({ problems }) => failures.push(problems),
      });

      expect(result.attempts).toBe(2);
      expect(Object.keys(result.translations).sort()).toEqual([...polishKeys, 'title'].sort());
      expect(result.translations['cart.item_many']).toBe('[pl:many] {{count}} items');
      expect(failures).toEqual([[expect.objectContaining({ key: 'cart.item_many', kind: 'missing' })]]);
      expect(standIn.stringsReceived()[1]).toEqual({
        'cart.item_one': '{{count}} item',
        'cart.item_other': '{{count}} items',
      });
      expect(standIn.pluralsReceived()[1]).toEqual({ 'cart.item': polishKeys });
      expect(JSON.stringify(standIn.requests[1]!.body)).toContain(
        'missing from the answer: the many form (pl: one, few, many, other)',
      );
    });

    it('when every answer leaves out a category, then it rejects with the group’s forms left out of the good translations', async () => {
      standIn.answerAlways(answers.withoutPluralForm('few'));

      const error = await translate(cart, {
        targetLocale: 'pl',
        plurals: [polishGroup],
        maxAttempts: 2,
      }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(TranslationRejectedError);
      expect((error as TranslationRejectedError).translations).toEqual({ title: '[pl] Cart' });
      expect((error as Error).message).toContain('"cart.item_few": missing from the answer: the few form');
    });

    it('when an ordinal group is asked, then the prompt names the target’s ordinal categories and the answer holds exactly them', async () => {
      const places = {
        place_ordinal_one: '{{count}}st',
        place_ordinal_two: '{{count}}nd',
        place_ordinal_few: '{{count}}rd',
        place_ordinal_other: '{{count}}th',
      };
      const group: PluralGroupRequest = {
        stem: 'place_ordinal',
        type: 'ordinal',
        sources: Object.keys(places),
        forms: [
          { key: 'place_ordinal_one', category: 'one' },
          { key: 'place_ordinal_other', category: 'other' },
        ],
      };

      const result = await translate(places, { targetLocale: 'fr', plurals: [group] });

      expect(result.translations).toEqual({
        place_ordinal_one: '[fr:one] {{count}}st',
        place_ordinal_other: '[fr:other] {{count}}th',
      });
      const prompt = JSON.stringify(standIn.requests[0]!.body);
      expect(prompt).toContain(
        'Ordinal categories of fr (selectordinal, _ordinal_ keys): one (1), other (2).',
      );
      expect(prompt).not.toContain('Plural categories of fr');
    });

    it('when a plain key holds an ICU plural, then the prompt names the target’s categories and the answer has every one; without plurals, neither', async () => {
      const result = await translate(
        { files: '{count, plural, one {# file} other {# files}}' },
        { targetLocale: 'pl' },
      );

      expect(result.translations).toEqual({
        files: '[pl] {count, plural, one {# file} few {# files} many {# files} other {# files}}',
      });
      const prompt = JSON.stringify(standIn.requests[0]!.body);
      expect(prompt).toContain(
        'Plural categories of pl, each with a number that takes it: one (1), few (2), many (5), other (1.5).',
      );
      expect(prompt).not.toContain('Plural groups');

      await translate({ title: 'Files' }, { targetLocale: 'pl' });
      expect(JSON.stringify(standIn.requests[1]!.body)).not.toContain('Plural categories');
    });
  });

  it('when a key is named __proto__, then it is sent and read back as a key like any other', async () => {
    const strings = JSON.parse(
      '{"__proto__": "Prototype {x}", "constructor": "Builder", "toString": "Text"}',
    ) as Record<string, string>;

    const result = await translate(strings);

    expect(Object.keys(result.translations).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getOwnPropertyDescriptor(result.translations, '__proto__')?.value).toBe(
      '[de] Prototype {x}',
    );
    expect(result.translations.constructor).toBe('[de] Builder');
    expect(Object.keys(standIn.stringsReceived()[0]!)).toEqual(['__proto__', 'constructor', 'toString']);
  });

  it('when there is nothing to translate, then no request is made', async () => {
    const result = await translate({});

    expect(result).toEqual({
      translations: {},
      usage: { inputTokens: 0, outputTokens: 0 },
      attempts: 0,
      glossaryMisses: [],
    });
    expect(standIn.requests).toHaveLength(0);
  });

  it('when the signal is aborted, then it stops with the abort reason', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));

    await expect(translate({ a: 'One' }, { signal: controller.signal })).rejects.toThrow(
      'stopped by the user',
    );
  });
});

describe('translateBatch with anthropic, provider specifics', () => {
  let anthropic: ProviderStandIn;
  beforeEach(async () => {
    anthropic = await startAnthropicStandIn();
  });
  afterEach(async () => {
    await anthropic.close();
  });

  it('when Anthropic is overloaded (529), then the SDK retries', async () => {
    anthropic.script(answers.overloaded());
    const { model } = createModel({ provider: 'anthropic', apiKey: 'k', baseUrl: anthropic.baseURL });

    const result = await translateBatch({
      model,
      sourceLocale: 'en',
      targetLocale: 'fr',
      strings: { a: 'One' },
    });

    expect(result.translations).toEqual({ a: '[fr] One' });
    expect(anthropic.requests.map((r) => r.reply.status)).toEqual([529, 200]);
  });

  it('when the model predates native structured output, then the answer is asked as JSON text, without the json tool, and read', async () => {
    const { model } = createModel({
      provider: 'anthropic',
      model: 'claude-3-haiku-20240307',
      apiKey: 'k',
      baseUrl: anthropic.baseURL,
    });

    const result = await translateBatch({
      model,
      sourceLocale: 'en',
      targetLocale: 'fr',
      strings: { 'a.b': 'Hi {name}' },
    });

    expect(result.translations).toEqual({ 'a.b': '[fr] Hi {name}' });
    expect(anthropic.requests[0]!.body).not.toHaveProperty('tools');
  });
});

/** Sends what the SDK would send to the provider's real host to the stand-in instead, path and all. */
