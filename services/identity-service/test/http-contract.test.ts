import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '@tolk/testing';
import {
  PASSWORD,
  expectError,
  startIdentityService,
  uniqueEmail,
  type IdentityService,
} from './identity-harness.js';

let identity: IdentityService;
beforeAll(async () => {
  identity = await startIdentityService();
});
afterAll(async () => {
  await identity?.close();
});

const BODY_ROUTES = [
  '/v1/auth/signup',
  '/v1/auth/login',
  '/v1/auth/refresh',
  '/v1/auth/logout',
  '/v1/auth/device/token',
];

describe('request bodies', () => {
  it.each(BODY_ROUTES)('when the JSON is malformed on %s, then 400 INVALID_JSON', async (path) => {
    const response = await request(`${identity.url}${path}`, {
      method: 'POST',
      rawBody: '{"email": "a@example.com",',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400, 'INVALID_JSON');
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('when the body is %s, then 400 VALIDATION_ERROR about the body', async (_case, rawBody) => {
    for (const path of BODY_ROUTES) {
      const response = await request(`${identity.url}${path}`, {
        method: 'POST',
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe('body: must be a JSON object');
    }
  });

  it('when there is no body at all, then 400 VALIDATION_ERROR', async () => {
    const response = await identity.post('/v1/auth/login');
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe('body: a JSON body is required');
  });

  it('when the body is not sent as JSON, then 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const form = await request(`${identity.url}/v1/auth/login`, {
      method: 'POST',
      rawBody: `email=${uniqueEmail()}&password=${PASSWORD}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(form, 415, 'UNSUPPORTED_MEDIA_TYPE');

    const text = await request(`${identity.url}/v1/auth/device`, {
      method: 'POST',
      rawBody: '{}',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('when the JSON has extra fields, then they are ignored', async () => {
    const response = await identity.post('/v1/auth/signup', {
      email: uniqueEmail(),
      password: PASSWORD,
      role: 'admin',
    });
    expect(response.status).toBe(201);
    expect(response.body.user).not.toHaveProperty('role');
  });

  it('when a field is named __proto__, then nothing is polluted and the answer is a 4xx', async () => {
    const response = await request(`${identity.url}/v1/auth/login`, {
      method: 'POST',
      rawBody: '{"__proto__": {"polluted": true}, "email": "a@example.com", "password": "whatever1"}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 401, 'UNAUTHORIZED');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('routes', () => {
  it.each([
    ['GET', '/v1/auth/signup', 'POST'],
    ['PUT', '/v1/auth/login', 'POST'],
    ['DELETE', '/v1/auth/refresh', 'POST'],
    ['GET', '/v1/auth/logout', 'POST'],
    ['GET', '/v1/auth/device', 'POST'],
    ['GET', '/v1/auth/device/token', 'POST'],
    ['PATCH', '/v1/auth/device/approve', 'POST'],
    ['GET', '/v1/auth/device/deny', 'POST'],
    ['POST', '/v1/user/me', 'GET, DELETE, HEAD'],
  ])('when %s %s, then 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const response = await request(`${identity.url}${path}`, { method });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('when a request id is sent, then the same id is echoed on errors', async () => {
    const response = await identity.post('/v1/auth/login', {}, { 'x-request-id': 'req-identity-123' });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.headers.get('x-request-id')).toBe('req-identity-123');
  });

  it('when asked for health and readiness, then both answer 200', async () => {
    expect((await identity.get('/healthz')).status).toBe(200);
    const ready = await identity.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });
});

describe('NUL characters in text', () => {
  let identity: Awaited<ReturnType<typeof startIdentityService>>;

  beforeAll(async () => {
    identity = await startIdentityService();
  });
  afterAll(async () => {
    await identity.close();
  });

  it.each([
    ['/v1/auth/login', { email: 'a\u0000b@example.com', password: 'correct horse battery' }],
    ['/v1/auth/signup', { email: 'nul@example.com', password: 'correct horse battery', name: 'A\u0000' }],
  ])('when %s gets a NUL character, then 400 VALIDATION_ERROR, never a 500', async (path, body) => {
    const response = await identity.post(path, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('NUL') },
    });
  });
});
