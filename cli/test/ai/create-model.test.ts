import { afterEach, describe, expect, it } from 'vitest';
import { AI_PROVIDERS } from '@tolk/contracts';
import {
  PROVIDERS,
  ProviderError,
  createModel,
  translateBatch,
  type ProviderName,
} from '../../src/ai/index.js';
import {
  startGoogleStandIn,
  startOpenAIStandIn,
  type ProviderStandIn,
} from '../support/provider-stand-ins.js';

const standIns: ProviderStandIn[] = [];
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((s) => s.close()));
});

async function standIn(start: () => Promise<ProviderStandIn>): Promise<ProviderStandIn> {
  const started = await start();
  standIns.push(started);
  return started;
}

function translateOne(model: ReturnType<typeof createModel>['model']) {
  return translateBatch({ model, sourceLocale: 'en', targetLocale: 'nl', strings: { hi: 'Hi {name}' } });
}

describe('PROVIDERS', () => {
  it('when listed, then they are the BYOK providers, each with its key variable and a default model', () => {
    expect(PROVIDERS.map((p) => p.name)).toEqual([...AI_PROVIDERS]);
    expect(Object.fromEntries(PROVIDERS.map((p) => [p.name, p.envVar]))).toEqual({
      openai: 'OPENAI_API_KEY',
      anthropic: 'ANTHROPIC_API_KEY',
      google: 'GOOGLE_GENERATIVE_AI_API_KEY',
      mistral: 'MISTRAL_API_KEY',
      deepseek: 'DEEPSEEK_API_KEY',
      openrouter: 'OPENROUTER_API_KEY',
    });
    for (const provider of PROVIDERS) expect(provider.defaultModel).not.toBe('');
  });
});

describe('createModel', () => {
  // Mistral, DeepSeek and OpenRouter speak Chat Completions at <baseURL>/chat/completions.
  it.each<{ provider: ProviderName; model: string }>([
    { provider: 'mistral', model: 'mistral-small-latest' },
    { provider: 'deepseek', model: 'deepseek-v4-flash' },
    { provider: 'openrouter', model: 'openai/gpt-6-luna' },
  ])(
    'when $provider is given a base URL, then it sends Chat Completions there with the key',
    async ({ provider, model }) => {
      const server = await standIn(startOpenAIStandIn);
      const created = createModel({ provider, apiKey: `${provider}-key`, baseUrl: server.baseURL });

      const result = await translateOne(created.model);

      expect(created.modelId).toBe(model);
      expect(result.translations).toEqual({ hi: '[nl] Hi {name}' });
      const request = server.requests[0]!;
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe(`Bearer ${provider}-key`);
      expect(request.body).toMatchObject({
        model,
        response_format: { type: expect.stringMatching(/^json_/) },
      });
      expect(server.stringsReceived()).toEqual([{ hi: 'Hi {name}' }]);
    },
  );

  it('when google is given a base URL, then it calls generateContent there with the key', async () => {
    const server = await standIn(startGoogleStandIn);
    const created = createModel({ provider: 'google', apiKey: 'g-key', baseUrl: server.baseURL });

    const result = await translateOne(created.model);

    expect(result.translations).toEqual({ hi: '[nl] Hi {name}' });
    const request = server.requests[0]!;
    expect(request.path).toBe(`/v1beta/models/${created.modelId}:generateContent`);
    expect(request.headers['x-goog-api-key']).toBe('g-key');
    expect(request.body).toMatchObject({ generationConfig: { responseMimeType: 'application/json' } });
  });

  it('when google translates a key named __proto__, then the answer is asked in JSON mode and read back', async () => {
    const server = await standIn(startGoogleStandIn);
    const { model } = createModel({ provider: 'google', apiKey: 'g-key', baseUrl: server.baseURL });
    const strings = JSON.parse('{"__proto__": "Proto", "ok": "Fine"}') as Record<string, string>;

    const result = await translateBatch({ model, sourceLocale: 'en', targetLocale: 'nl', strings });

    expect(Object.getOwnPropertyDescriptor(result.translations, '__proto__')?.value).toBe('[nl] Proto');
    expect(server.requests[0]!.body).toMatchObject({
      generationConfig: { responseMimeType: 'application/json' },
    });
    expect(server.requests[0]!.body).not.toHaveProperty('generationConfig.responseSchema');
  });

  it('when openai is given a base URL, then any OpenAI-compatible server is called with the smallest JSON schema (LM Studio rejects JSON mode) and no key', async () => {
    const server = await standIn(startOpenAIStandIn);
    const created = createModel({ provider: 'openai', model: 'llama3.2', baseUrl: server.baseURL });

    const result = await translateOne(created.model);

    expect(result.translations).toEqual({ hi: '[nl] Hi {name}' });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({
      model: 'llama3.2',
      response_format: { type: 'json_schema', json_schema: { schema: { type: 'object' } } },
    });
  });

  it('when an OpenAI-compatible server is given a key, then it is sent as a bearer token', async () => {
    const server = await standIn(startOpenAIStandIn);
    const { model } = createModel({
      provider: 'openai',
      model: 'qwen3',
      baseUrl: server.baseURL,
      apiKey: 'lm-key',
    });

    await translateOne(model);

    expect(server.requests[0]!.headers.authorization).toBe('Bearer lm-key');
  });

  it('when an OpenAI-compatible server has no model named, then it refuses to guess', () => {
    expect(() => createModel({ provider: 'openai', baseUrl: 'http://localhost:11434/v1' })).toThrow(
      expect.objectContaining({ name: 'ProviderError', code: 'misconfigured' }),
    );
  });

  it('when a provider has no key, then it names the variable to set', () => {
    expect(() => createModel({ provider: 'deepseek' })).toThrow(/DEEPSEEK_API_KEY/);
    expect(() => createModel({ provider: 'anthropic', apiKey: '' })).toThrow(ProviderError);
  });

  it('when no model is named, then the provider default is used', () => {
    for (const { name, defaultModel } of PROVIDERS) {
      expect(createModel({ provider: name, apiKey: 'k' }).modelId).toBe(defaultModel);
    }
  });

  it('when the provider cannot be reached, then it throws ProviderError network', async () => {
    const server = await standIn(startOpenAIStandIn);
    const baseUrl = server.baseURL;
    await server.close();
    standIns.splice(0);
    const { model } = createModel({ provider: 'mistral', apiKey: 'k', baseUrl });

    const error = await translateBatch({
      model,
      sourceLocale: 'en',
      targetLocale: 'nl',
      strings: { a: 'A' },
      maxRetries: 0,
    }).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'ProviderError', code: 'network' });
  });
});
