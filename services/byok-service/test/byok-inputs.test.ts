import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '@tolk/testing';
import { expectError, providerKey, startByokService, type ByokService } from './byok-harness.js';

let service: ByokService;
beforeAll(async () => {
  service = await startByokService();
});
afterAll(async () => {
  await service?.close();
});

const ALLOWED = 'must be one of openai, anthropic, google, mistral, deepseek, openrouter';

async function storedRows(userId: string): Promise<number> {
  const { rows } = await service.db.query(`SELECT 1 FROM provider_keys WHERE user_id = $1`, [userId]);
  return rows.length;
}

/** A PUT with a raw body and content type, as a client could send it. */
async function rawPut(as: Record<string, string>, rawBody: string, contentType = 'application/json') {
  return request(`${service.url}/v1/user/byok/openai`, {
    method: 'PUT',
    rawBody,
    headers: { ...as, 'content-type': contentType },
  });
}

describe('the provider in the path', () => {
  it.each([
    ['GET', 'acme'],
    ['PUT', 'acme'],
    ['DELETE', 'acme'],
    ['GET', 'OpenAI'],
    ['PUT', 'ANTHROPIC'],
    ['GET', 'open%20ai'],
    ['GET', '%00'],
    ['GET', 'x'.repeat(300)],
  ])(
    'when %s names provider %s, then 400 VALIDATION_ERROR naming the allowed ones',
    async (method, provider) => {
      const user = await service.newUser();
      const response = await service.call(method, `/v1/user/byok/${provider}`, {
        as: user.as,
        body: method === 'PUT' ? { apiKey: providerKey() } : undefined,
      });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe(`path.provider: ${ALLOWED}`);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await storedRows(user.userId)).toBe(0);
    },
  );

  it('when the provider is malformed and so is the body, then the provider is what is reported', async () => {
    const user = await service.newUser();
    const response = await service.call('PUT', '/v1/user/byok/acme', { as: user.as, body: { apiKey: 42 } });
    expect(response.body.error.message).toBe(`path.provider: ${ALLOWED}`);
  });

  it('when the path holds a malformed percent-encoding, then 400 VALIDATION_ERROR', async () => {
    const user = await service.newUser();
    expectError(
      await service.call('GET', '/v1/user/byok/%E0%A4%A', { as: user.as }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('PUT bodies', () => {
  it.each([
    ['a truncated object', '{"apiKey": "sk-abcdefgh",'],
    ['a trailing comma', '{"apiKey": "sk-abcdefgh",}'],
    ['single quotes', "{'apiKey': 'sk-abcdefgh'}"],
    ['not JSON at all', 'apiKey=sk-abcdefgh'],
  ])('when the JSON is malformed (%s), then 400 INVALID_JSON and nothing stored', async (_case, rawBody) => {
    const user = await service.newUser();
    const response = await rawPut(user.as, rawBody);
    expectError(response, 400, 'INVALID_JSON');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await storedRows(user.userId)).toBe(0);
  });

  it.each([
    ['an array', '[]'],
    ['an array holding the object', '[{"apiKey":"sk-abcdefgh"}]'],
    ['a string', '"sk-abcdefgh"'],
    ['a number', '42'],
    ['true', 'true'],
    ['null', 'null'],
  ])(
    'when the body is %s, then 400 VALIDATION_ERROR "body: must be a JSON object"',
    async (_case, rawBody) => {
      const user = await service.newUser();
      const response = await rawPut(user.as, rawBody);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe('body: must be a JSON object');
      expect(await storedRows(user.userId)).toBe(0);
    },
  );

  it('when there is no body at all, then 400 VALIDATION_ERROR "body: a JSON body is required"', async () => {
    const user = await service.newUser();
    const response = await service.call('PUT', '/v1/user/byok/openai', { as: user.as });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe('body: a JSON body is required');
  });

  it.each([
    ['missing', {}, 'body.apiKey: is required'],
    ['null', { apiKey: null }, 'body.apiKey: must be a string'],
    ['a number', { apiKey: 12345678 }, 'body.apiKey: must be a string'],
    ['a boolean', { apiKey: true }, 'body.apiKey: must be a string'],
    ['an object', { apiKey: { value: 'sk-abcdefgh' } }, 'body.apiKey: must be a string'],
    ['an array', { apiKey: ['sk-abcdefgh'] }, 'body.apiKey: must be a string'],
    ['empty', { apiKey: '' }, 'body.apiKey: must not be empty'],
    ['only whitespace', { apiKey: ' \t\r\n ' }, 'body.apiKey: must not be empty'],
    ['shorter than 8 characters', { apiKey: 'sk-1234' }, 'body.apiKey: must be at least 8 characters'],
    [
      '8 characters only with the whitespace',
      { apiKey: '  sk-12 ' },
      'body.apiKey: must be at least 8 characters',
    ],
    ['4097 characters', { apiKey: `sk-${'y'.repeat(4094)}` }, 'body.apiKey: must be at most 4096 characters'],
  ])('when apiKey is %s, then 400 VALIDATION_ERROR naming it', async (_case, body, message) => {
    const user = await service.newUser();
    const response = await service.call('PUT', '/v1/user/byok/openai', { as: user.as, body });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe(message);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await storedRows(user.userId)).toBe(0);
  });

  it.each([
    ['a NUL', 'sk-secret-\u0000-tail'],
    ['a line break inside', 'sk-secret-\n-tail'],
    ['a tab inside', 'sk-secret-\t-tail'],
    ['an escape', 'sk-secret-\u001b[31m-tail'],
    ['DEL', 'sk-secret-\u007f-tail'],
    ['a C1 control (NEL)', 'sk-secret-\u0085-tail'],
  ])(
    'when apiKey holds %s, then 400 VALIDATION_ERROR that does not repeat the key',
    async (_case, apiKey) => {
      const user = await service.newUser();
      const response = await service.call('PUT', '/v1/user/byok/openai', { as: user.as, body: { apiKey } });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe(
        'body.apiKey: must not contain control characters (line breaks, tabs, NUL, ...)',
      );
      expect(response.text).not.toContain('sk-secret');
      expect(await storedRows(user.userId)).toBe(0);
    },
  );

  it('when apiKey holds a lone surrogate (which would not survive as UTF-8), then 400 VALIDATION_ERROR', async () => {
    const user = await service.newUser();
    const response = await rawPut(user.as, '{"apiKey":"sk-secret-\\ud800-tail"}');
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe(
      'body.apiKey: must be well-formed Unicode, not a lone surrogate (\\ud800)',
    );
    expect(await storedRows(user.userId)).toBe(0);
  });

  it.each([
    ['text/plain', '{"apiKey":"sk-abcdefgh"}'],
    ['application/x-www-form-urlencoded', 'apiKey=sk-abcdefgh'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\ncontent-disposition: form-data; name="apiKey"\r\n\r\nsk-abcdefgh\r\n--x--',
    ],
  ])('when the body is sent as %s, then 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, rawBody) => {
    const user = await service.newUser();
    const response = await rawPut(user.as, rawBody, contentType);
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await storedRows(user.userId)).toBe(0);
  });

  it('when the JSON comes in a charset body-parser cannot read, then 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const user = await service.newUser();
    const response = await rawPut(user.as, '{"apiKey":"sk-abcdefgh"}', 'application/json; charset=latin1');
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('when the body is over 64 KiB, then 413 PAYLOAD_TOO_LARGE and nothing stored', async () => {
    const user = await service.newUser();
    const response = await rawPut(user.as, JSON.stringify({ apiKey: 'k'.repeat(70_000) }));
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await storedRows(user.userId)).toBe(0);
  });

  it('when a 4096-character key is sent entirely as \\u escapes, then it still fits the body limit', async () => {
    const user = await service.newUser();
    const apiKey = 'é'.repeat(4096);
    const escaped = `{"apiKey":"${'\\u00e9'.repeat(4096)}"}`;
    const response = await rawPut(user.as, escaped);
    expect(response.status).toBe(200);
    expect((await service.call('GET', '/v1/user/byok/openai', { as: user.as })).body.apiKey).toBe(apiKey);
  });

  it('when a key was stored and a later PUT is refused, then the stored key is unchanged', async () => {
    const user = await service.newUser();
    const apiKey = providerKey();
    await service.put(user.as, 'openai', apiKey);
    expectError(await service.put(user.as, 'openai', ''), 400, 'VALIDATION_ERROR');
    expectError(await rawPut(user.as, '{"apiKey":'), 400, 'INVALID_JSON');
    expect((await service.call('GET', '/v1/user/byok/openai', { as: user.as })).body.apiKey).toBe(apiKey);
  });
});
