import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PRINCIPAL_HEADER } from '@tolk/contracts';
import { createPrincipalSigner, createServiceApp, parseInput, requireUser, route } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { listen, request } from '@tolk/testing';

const SECRET = 's'.repeat(40);

describe('createServiceApp', () => {
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const router = Router();
    route(router, '/v1/things', {
      post: (req, res) => {
        const body = parseInput(z.object({ name: z.string().min(1) }), req.body);
        res.status(201).json(body);
      },
    });
    route(router, '/v1/mine', { get: (req, res) => res.json(requireUser(req)) });
    route(router, '/v1/boom', {
      get: () => {
        throw new Error('database password is hunter2');
      },
    });
    const app = createServiceApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      router,
      internalSecret: SECRET,
      bodyLimitBytes: 1024,
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  function expectEnvelope(body: unknown, code: string) {
    expect(body).toEqual({ error: { code, message: expect.any(String) } });
  }

  it.each([
    [
      'malformed JSON',
      { rawBody: '{"name":', headers: { 'content-type': 'application/json' } },
      400,
      'INVALID_JSON',
    ],
    ['a wrong type', { body: { name: 42 } }, 400, 'VALIDATION_ERROR'],
    ['an array body', { body: [1, 2] }, 400, 'VALIDATION_ERROR'],
    ['a string body', { body: 'name' }, 400, 'VALIDATION_ERROR'],
    [
      'a text/plain body',
      { rawBody: 'name', headers: { 'content-type': 'text/plain' } },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['a body over the limit', { body: { name: 'x'.repeat(2000) } }, 413, 'PAYLOAD_TOO_LARGE'],
  ] as const)('when sent %s, then the envelope and status say so', async (_name, init, status, code) => {
    const response = await request(`${server.url}/v1/things`, { method: 'POST', ...init });
    expect(response.status).toBe(status);
    expectEnvelope(response.body, code);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('when a field is invalid, then the message names it', async () => {
    const response = await request(`${server.url}/v1/things`, { method: 'POST', body: { name: '' } });
    expect(response.body.error.message).toMatch(/^body\.name: /);
  });

  it('when the method is not served, then 405 with Allow', async () => {
    const response = await request(`${server.url}/v1/things`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expectEnvelope(response.body, 'METHOD_NOT_ALLOWED');
  });

  it('when the route is unknown, then 404 NOT_FOUND', async () => {
    const response = await request(`${server.url}/v1/nothing`);
    expect(response.status).toBe(404);
    expectEnvelope(response.body, 'NOT_FOUND');
  });

  it('when a handler fails, then 500 INTERNAL_ERROR without internals', async () => {
    const response = await request(`${server.url}/v1/boom`);
    expect(response.status).toBe(500);
    expectEnvelope(response.body, 'INTERNAL_ERROR');
    expect(response.text).not.toContain('hunter2');
  });

  it('when the principal token is signed with the shared secret, then the user is known', async () => {
    const token = await createPrincipalSigner(SECRET)({ kind: 'user', userId: 'usr_1' });
    const response = await request(`${server.url}/v1/mine`, { headers: { [PRINCIPAL_HEADER]: token } });
    expect(response.body).toEqual({ userId: 'usr_1' });
  });

  it('when the principal token is forged or a plain header, then 401', async () => {
    const forged = await createPrincipalSigner('f'.repeat(40))({ kind: 'user', userId: 'usr_1' });
    for (const value of [forged, 'usr_1', '{"kind":"user","userId":"usr_1"}']) {
      const response = await request(`${server.url}/v1/mine`, { headers: { [PRINCIPAL_HEADER]: value } });
      expect(response.status).toBe(401);
      expectEnvelope(response.body, 'UNAUTHORIZED');
    }
  });

  it('when the caller is a project token, then a user route answers 403', async () => {
    const token = await createPrincipalSigner(SECRET)({
      kind: 'project_token',
      tokenId: 'tok_1',
      projectId: 'prj_1',
      permissions: 'read',
    });
    const response = await request(`${server.url}/v1/mine`, { headers: { [PRINCIPAL_HEADER]: token } });
    expect(response.status).toBe(403);
  });
});
