import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_PROVIDERS } from '@tolk/contracts';
import {
  keyListResponseSchema,
  keyReadingResponseSchema,
  storedKeyResponseSchema,
} from '../src/entry-points/http/schemas.js';
import { expectError, providerKey, startByokService, type ByokService } from './byok-harness.js';

let service: ByokService;
beforeAll(async () => {
  service = await startByokService();
});
afterAll(async () => {
  await service?.close();
});

const keyPath = (provider: string) => `/v1/user/byok/${provider}`;

describe('GET /v1/user/byok/:provider', () => {
  it('when the user has no key for the provider, then 200 {hasKey:false, apiKey:""}', async () => {
    const user = await service.newUser();
    for (const provider of AI_PROVIDERS) {
      const response = await service.call('GET', keyPath(provider), { as: user.as });
      expect(response.status).toBe(200);
      expect(response.body).toStrictEqual({ hasKey: false, apiKey: '' });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('when a key is stored, then 200 with exactly hasKey and the decrypted key', async () => {
    const user = await service.newUser();
    const apiKey = providerKey('sk-proj-');
    expect((await service.put(user.as, 'openai', apiKey)).status).toBe(200);

    const response = await service.call('GET', keyPath('openai'), { as: user.as });
    expect(response.status).toBe(200);
    expect(keyReadingResponseSchema.parse(response.body)).toStrictEqual({ hasKey: true, apiKey });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when keys are stored for every provider, then each reads back its own', async () => {
    const user = await service.newUser();
    const keys = Object.fromEntries(AI_PROVIDERS.map((provider) => [provider, providerKey(`${provider}-`)]));
    for (const provider of AI_PROVIDERS) {
      expect((await service.put(user.as, provider, keys[provider])).status).toBe(200);
    }
    for (const provider of AI_PROVIDERS) {
      const response = await service.call('GET', keyPath(provider), { as: user.as });
      expect(response.body).toStrictEqual({ hasKey: true, apiKey: keys[provider] });
    }
  });

  it("when another user has a key for the provider, then this user's answer knows nothing of it", async () => {
    const owner = await service.newUser();
    const other = await service.newUser();
    await service.put(owner.as, 'anthropic', providerKey('sk-ant-'));
    const response = await service.call('GET', keyPath('anthropic'), { as: other.as });
    expect(response.body).toStrictEqual({ hasKey: false, apiKey: '' });
  });

  it('when a key holds non-ASCII characters, then it reads back unchanged', async () => {
    const user = await service.newUser();
    const apiKey = 'ключ-ü-東京-𝄞-key';
    expect((await service.put(user.as, 'mistral', apiKey)).status).toBe(200);
    const response = await service.call('GET', keyPath('mistral'), { as: user.as });
    expect(response.body).toStrictEqual({ hasKey: true, apiKey });
  });
});

describe('PUT /v1/user/byok/:provider', () => {
  it('when a key is stored, then 200 {provider, hasKey:true, hint: its last 4 characters, updatedAt}', async () => {
    const user = await service.newUser();
    const before = Date.now();
    const response = await service.put(user.as, 'deepseek', 'sk-deepseek-0123456789abcdefWXYZ');
    const after = Date.now();

    expect(response.status).toBe(200);
    const body = storedKeyResponseSchema.parse(response.body);
    expect(body).toStrictEqual({
      provider: 'deepseek',
      hasKey: true,
      hint: 'WXYZ',
      updatedAt: expect.any(Number),
    });
    expect(body.updatedAt).toBeGreaterThanOrEqual(before);
    expect(body.updatedAt).toBeLessThanOrEqual(after);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when a key is stored again, then the new one replaces it, with its own hint and a later updatedAt', async () => {
    const user = await service.newUser();
    const first = await service.put(user.as, 'google', 'AIzaSyFirstKey-aaaa1111');
    // The clock moves past the first write, so that a later updatedAt can show.
    await expect.poll(() => Date.now(), { interval: 1 }).toBeGreaterThan(first.body.updatedAt);
    const second = await service.put(user.as, 'google', 'AIzaSySecondKey-bbbb2222');

    expect(second.body.hint).toBe('2222');
    expect(second.body.updatedAt).toBeGreaterThan(first.body.updatedAt);
    const read = await service.call('GET', keyPath('google'), { as: user.as });
    expect(read.body).toStrictEqual({ hasKey: true, apiKey: 'AIzaSySecondKey-bbbb2222' });
    const list = await service.call('GET', '/v1/user/byok', { as: user.as });
    expect(list.body.keys.filter((key: { hasKey: boolean }) => key.hasKey)).toStrictEqual([
      { provider: 'google', hasKey: true, hint: '2222', updatedAt: second.body.updatedAt },
    ]);
  });

  it('when the key comes with surrounding whitespace (a pasted line break), then the trimmed key is stored', async () => {
    const user = await service.newUser();
    const response = await service.put(user.as, 'openrouter', '  sk-or-v1-abcdefgh1234\r\n');
    expect(response.body.hint).toBe('1234');
    const read = await service.call('GET', keyPath('openrouter'), { as: user.as });
    expect(read.body).toStrictEqual({ hasKey: true, apiKey: 'sk-or-v1-abcdefgh1234' });
  });

  it('when the key ends in characters outside the BMP, then the hint is its last 4 characters, none cut in half', async () => {
    const user = await service.newUser();
    const response = await service.put(user.as, 'openai', 'sk-music-𝄞𝄢𝄫𝄪');
    expect(response.body.hint).toBe('𝄞𝄢𝄫𝄪');
  });

  it('when the key is 8 or 4096 characters long (the bounds), then it is stored', async () => {
    const user = await service.newUser();
    const shortest = 'abcd1234';
    const longest = `sk-${'x'.repeat(4089)}tail`;
    expect(longest).toHaveLength(4096);
    expect((await service.put(user.as, 'openai', shortest)).body.hint).toBe('1234');
    expect((await service.put(user.as, 'anthropic', longest)).body.hint).toBe('tail');
    expect((await service.call('GET', keyPath('anthropic'), { as: user.as })).body.apiKey).toBe(longest);
  });

  it('when the body has fields besides apiKey, then they are ignored', async () => {
    const user = await service.newUser();
    const response = await service.call('PUT', keyPath('openai'), {
      as: user.as,
      body: { apiKey: 'sk-extra-fields-0000', provider: 'anthropic', hint: 'nope' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ provider: 'openai', hint: '0000' });
  });
});

describe('DELETE /v1/user/byok/:provider', () => {
  it('when a key is stored, then 204 with no body, and the key is gone', async () => {
    const user = await service.newUser();
    await service.put(user.as, 'openai', providerKey());
    const response = await service.call('DELETE', keyPath('openai'), { as: user.as });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('cache-control')).toBe('no-store');

    expect((await service.call('GET', keyPath('openai'), { as: user.as })).body).toStrictEqual({
      hasKey: false,
      apiKey: '',
    });
    expect(await service.row(user.userId, 'openai')).toBeUndefined();
  });

  it('when there is no key (never stored, or deleted already), then 204 all the same', async () => {
    const user = await service.newUser();
    expect((await service.call('DELETE', keyPath('mistral'), { as: user.as })).status).toBe(204);
    await service.put(user.as, 'mistral', providerKey());
    expect((await service.call('DELETE', keyPath('mistral'), { as: user.as })).status).toBe(204);
    expect((await service.call('DELETE', keyPath('mistral'), { as: user.as })).status).toBe(204);
  });

  it("when one provider's key is deleted, then the user's other keys and other users' keys stay", async () => {
    const user = await service.newUser();
    const other = await service.newUser();
    const anthropicKey = providerKey('sk-ant-');
    const othersKey = providerKey();
    await service.put(user.as, 'openai', providerKey());
    await service.put(user.as, 'anthropic', anthropicKey);
    await service.put(other.as, 'openai', othersKey);

    await service.call('DELETE', keyPath('openai'), { as: user.as });
    expect((await service.call('GET', keyPath('anthropic'), { as: user.as })).body.apiKey).toBe(anthropicKey);
    expect((await service.call('GET', keyPath('openai'), { as: other.as })).body.apiKey).toBe(othersKey);
  });
});

describe('GET /v1/user/byok', () => {
  it('when the user has no key, then 200 with every provider, in a fixed order, hasKey false', async () => {
    const user = await service.newUser();
    const response = await service.call('GET', '/v1/user/byok', { as: user.as });
    expect(response.status).toBe(200);
    expect(keyListResponseSchema.parse(response.body)).toStrictEqual({
      keys: AI_PROVIDERS.map((provider) => ({ provider, hasKey: false, hint: null, updatedAt: null })),
    });
    expect(response.body.keys.map((key: { provider: string }) => key.provider)).toStrictEqual([
      'openai',
      'anthropic',
      'google',
      'mistral',
      'deepseek',
      'openrouter',
    ]);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when keys are stored, then those show hint and updatedAt, the others null, and no key anywhere', async () => {
    const user = await service.newUser();
    const other = await service.newUser();
    const googleKey = 'AIzaSy-list-test-key-G00g';
    const deepseekKey = 'sk-list-test-key-dEEp';
    const google = await service.put(user.as, 'google', googleKey);
    const deepseek = await service.put(user.as, 'deepseek', deepseekKey);
    await service.put(other.as, 'openai', providerKey());

    const response = await service.call('GET', '/v1/user/byok', { as: user.as });
    expect(keyListResponseSchema.parse(response.body)).toStrictEqual({
      keys: [
        { provider: 'openai', hasKey: false, hint: null, updatedAt: null },
        { provider: 'anthropic', hasKey: false, hint: null, updatedAt: null },
        { provider: 'google', hasKey: true, hint: 'G00g', updatedAt: google.body.updatedAt },
        { provider: 'mistral', hasKey: false, hint: null, updatedAt: null },
        { provider: 'deepseek', hasKey: true, hint: 'dEEp', updatedAt: deepseek.body.updatedAt },
        { provider: 'openrouter', hasKey: false, hint: null, updatedAt: null },
      ],
    });
    expect(response.text).not.toContain(googleKey);
    expect(response.text).not.toContain(deepseekKey);
  });
});

describe('who may call', () => {
  const ROUTES: [string, string, unknown?][] = [
    ['GET', '/v1/user/byok'],
    ['GET', keyPath('openai')],
    ['PUT', keyPath('openai'), { apiKey: 'sk-from-a-project-token' }],
    ['DELETE', keyPath('openai')],
  ];

  it.each(ROUTES)('when a project API token calls %s %s, then 403 FORBIDDEN', async (method, path, body) => {
    const response = await service.call(method, path, { as: await service.asProjectToken(), body });
    expectError(response, 403, 'FORBIDDEN');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when a project API token sends an unknown provider or a bad body, then still 403, and nothing is stored', async () => {
    const as = await service.asProjectToken();
    const count = async () => (await service.db.query(`SELECT 1 FROM provider_keys`)).rows.length;
    const before = await count();
    for (const [method, path, body] of [
      ['GET', keyPath('acme')],
      ['PUT', keyPath('acme'), { apiKey: 1 }],
      ['PUT', keyPath('openai'), []],
      ['DELETE', keyPath('OpenAI')],
    ] as const) {
      expectError(await service.call(method, path, { as, body }), 403, 'FORBIDDEN');
    }
    // A PUT with a valid body, too: nothing of a project token's request reaches the database.
    expectError(await service.put(as, 'openai', providerKey()), 403, 'FORBIDDEN');
    expect(await count()).toBe(before);
  });

  it("when a project API token tries to delete a user's key, then the key stays", async () => {
    const user = await service.newUser();
    const apiKey = providerKey();
    await service.put(user.as, 'openai', apiKey);
    await service.call('DELETE', keyPath('openai'), { as: await service.asProjectToken() });
    expect((await service.call('GET', keyPath('openai'), { as: user.as })).body.apiKey).toBe(apiKey);
  });

  it.each(ROUTES)(
    'when %s %s comes without a valid principal, then 401 UNAUTHORIZED',
    async (method, path, body) => {
      expectError(await service.call(method, path, { body }), 401, 'UNAUTHORIZED');
      const forged = { 'x-tolk-principal': 'not-a-signed-token', 'x-user-id': 'usr_1' };
      expectError(await service.call(method, path, { as: forged, body }), 401, 'UNAUTHORIZED');
    },
  );
});

describe('methods and paths', () => {
  it('when a method the route does not serve is used, then 405 with Allow', async () => {
    const user = await service.newUser();
    const post = await service.call('POST', keyPath('openai'), {
      as: user.as,
      body: { apiKey: 'sk-12345678' },
    });
    expectError(post, 405, 'METHOD_NOT_ALLOWED');
    expect(post.headers.get('allow')).toBe('GET, PUT, DELETE, HEAD');
    expect(post.headers.get('cache-control')).toBe('no-store');

    const putList = await service.call('PUT', '/v1/user/byok', { as: user.as, body: {} });
    expectError(putList, 405, 'METHOD_NOT_ALLOWED');
    expect(putList.headers.get('allow')).toBe('GET, HEAD');
  });

  it('when the path goes deeper than a provider, then 404 NOT_FOUND with no-store', async () => {
    const user = await service.newUser();
    const response = await service.call('GET', '/v1/user/byok/openai/extra', { as: user.as });
    expectError(response, 404, 'NOT_FOUND');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when /healthz and /readyz are asked, then both answer 200', async () => {
    expect((await service.call('GET', '/healthz')).status).toBe(200);
    expect((await service.call('GET', '/readyz')).body).toStrictEqual({ status: 'ready' });
  });
});
