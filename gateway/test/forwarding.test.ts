import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PRINCIPAL_HEADER } from '@tolk/contracts';
import { createPrincipalVerifier } from '@tolk/http';
import { request } from '@tolk/testing';
import { INTERNAL_SECRET, rawRequest, signAccessToken, startGateway, startUpstream } from './support.js';

const FORGED_IDENTITY = {
  [PRINCIPAL_HEADER]: 'forged.principal.token',
  'x-user-id': 'admin',
  'x-project-id': 'someone-elses-project',
  'x-principal': 'admin',
  'x-forwarded-user': 'admin',
};

describe('gateway forwarding', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let authorization: string;

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startGateway({
      SERVICE_URLS: `identity=${upstream.url},project=${upstream.url},source=${upstream.url}`,
    });
    authorization = `Bearer ${await signAccessToken({ sub: 'user-7' })}`;
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.received.length = 0;
  });

  it('when a client forges identity headers on an authenticated route, then none reaches the service', async () => {
    const response = await request(`${gateway.url}/v1/projects/p1/source`, {
      headers: { ...FORGED_IDENTITY, authorization },
    });

    expect(response.status).toBe(200);
    const headers = upstream.received[0]!.headers;
    for (const name of Object.keys(FORGED_IDENTITY).filter((name) => name !== PRINCIPAL_HEADER)) {
      expect(headers[name]).toBeUndefined();
    }
    expect(headers[PRINCIPAL_HEADER]).not.toBe(FORGED_IDENTITY[PRINCIPAL_HEADER]);
    const principal = await createPrincipalVerifier(INTERNAL_SECRET)(String(headers[PRINCIPAL_HEADER]));
    expect(principal).toEqual({ kind: 'user', userId: 'user-7' });
  });

  it('when a client forges identity headers on a public route, then none reaches the service', async () => {
    const response = await request(`${gateway.url}/v1/auth/refresh`, {
      body: { refreshToken: 'r' },
      headers: FORGED_IDENTITY,
    });

    expect(response.status).toBe(200);
    for (const name of Object.keys(FORGED_IDENTITY)) {
      expect(upstream.received[0]!.headers[name]).toBeUndefined();
    }
  });

  it('when a body is uploaded, then the service receives exactly the same bytes and headers', async () => {
    const body = Buffer.concat([
      Buffer.from('{ "greeting" :\t"Grüß dich 👋",\r\n  "nested": {"a": "\\u00e9"}  }'),
      Buffer.from([0xff, 0xfe, 0x00]),
    ]);
    const response = await rawRequest(`${gateway.url}/v1/projects/p1/source?dryRun=true`, {
      method: 'PUT',
      headers: {
        authorization,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(body.length),
        'if-match': '"3"',
      },
      chunks: [body],
    });

    expect(response.status).toBe(200);
    const forwarded = upstream.received[0]!;
    expect(forwarded.method).toBe('PUT');
    expect(forwarded.url).toBe('/v1/projects/p1/source?dryRun=true');
    expect(forwarded.body.equals(body)).toBe(true);
    expect(forwarded.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(forwarded.headers['if-match']).toBe('"3"');
  });

  it('when a large body is sent chunked, then it streams through byte-identical', async () => {
    const chunks = Array.from({ length: 16 }, () => randomBytes(64 * 1024));
    const response = await rawRequest(`${gateway.url}/v1/projects/p1/source`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json' },
      chunks,
    });

    expect(response.status).toBe(200);
    expect(upstream.received[0]!.body.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('when the login body is read for the rate limit, then the service still gets the same bytes', async () => {
    const body = Buffer.from('{"email" : " Someone@Example.com ",\n "password": "pä55wörd \\" }"}');
    const response = await rawRequest(`${gateway.url}/v1/auth/login`, {
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      chunks: [body],
    });

    expect(response.status).toBe(200);
    expect(upstream.received[0]!.body.equals(body)).toBe(true);
    expect(upstream.received[0]!.headers['content-length']).toBe(String(body.length));
  });

  it('when the login body is sent chunked, then the service gets the same bytes', async () => {
    const chunks = [Buffer.from('{"email":"a@example.com",'), Buffer.from('"password":"secret"}')];
    const response = await rawRequest(`${gateway.url}/v1/auth/login`, {
      headers: { 'content-type': 'application/json' },
      chunks,
    });

    expect(response.status).toBe(200);
    expect(upstream.received[0]!.body.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('when the client sends a well-formed request id, then the service gets it and the answer carries it', async () => {
    const response = await request(`${gateway.url}/v1/projects/p1/source`, {
      headers: { authorization, 'x-request-id': 'ci-run-42.step-3' },
    });

    expect(response.headers.get('x-request-id')).toBe('ci-run-42.step-3');
    expect(upstream.received[0]!.headers['x-request-id']).toBe('ci-run-42.step-3');
  });

  it('when the request id is missing or malformed, then one is made and forwarded', async () => {
    const missing = await request(`${gateway.url}/v1/projects/p1/source`, { headers: { authorization } });
    const malformed = await request(`${gateway.url}/v1/projects/p1/source`, {
      headers: { authorization, 'x-request-id': 'bad id with spaces' },
    });

    for (const [index, response] of [missing, malformed].entries()) {
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(upstream.received[index]!.headers['x-request-id']).toBe(id);
    }
  });

  it('when the client asks to close or upgrade its connection, then that stays between client and gateway', async () => {
    const response = await rawRequest(`${gateway.url}/v1/projects/p1/source`, {
      method: 'GET',
      headers: { authorization, connection: 'close', 'keep-alive': 'timeout=5', te: 'trailers' },
    });

    expect(response.status).toBe(200);
    const headers = upstream.received[0]!.headers;
    expect(headers.connection).not.toBe('close');
    expect(headers['keep-alive']).toBeUndefined();
    expect(headers.te).toBeUndefined();
  });

  it('when the client asks to close its connection, then the answer says connection: close, not the service’s keep-alive', async () => {
    const response = await rawRequest(`${gateway.url}/v1/projects/p1/source`, {
      method: 'GET',
      headers: { authorization, connection: 'close' },
    });

    expect(response.status).toBe(200);
    expect(response.headers.connection).toBe('close');
    expect(response.headers['keep-alive']).toBeUndefined();
  });

  it('when the client keeps its connection, then so does the answer', async () => {
    const response = await rawRequest(`${gateway.url}/v1/projects/p1/source`, {
      method: 'GET',
      headers: { authorization, connection: 'keep-alive' },
    });

    expect(response.status).toBe(200);
    expect(response.headers.connection).toBe('keep-alive');
  });

  it('when the service answers with an error, then its status, headers and body pass through', async () => {
    const conflict = await startUpstream((_received, res) => {
      res
        .writeHead(412, { 'content-type': 'application/json', etag: '"4"' })
        .end('{"error":{"code":"PRECONDITION_FAILED","message":"stale"}}');
    });
    const other = await startGateway({ SOURCE_SERVICE_URL: conflict.url, PROJECT_SERVICE_URL: upstream.url });
    try {
      const response = await request(`${other.url}/v1/projects/p1/source`, { headers: { authorization } });
      expect(response.status).toBe(412);
      expect(response.headers.get('etag')).toBe('"4"');
      expect(response.body).toEqual({ error: { code: 'PRECONDITION_FAILED', message: 'stale' } });
    } finally {
      await other.close();
      await conflict.close();
    }
  });
});

describe('gateway forwarding with a saturated connection pool', () => {
  it('when login requests queue for a pooled connection, then each body still arrives intact', async () => {
    const upstream = await startUpstream((received, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(received.body), 20);
    });
    const gateway = await startGateway({ IDENTITY_SERVICE_URL: upstream.url, UPSTREAM_MAX_SOCKETS: '1' });
    try {
      const bodies = Array.from({ length: 6 }, (_, n) => ({
        email: `user${n}@example.com`,
        password: `pw-${n}`,
      }));
      const responses = await Promise.all(
        bodies.map((body) => request(`${gateway.url}/v1/auth/login`, { body })),
      );
      expect(responses.map((response) => response.status)).toEqual(bodies.map(() => 200));
      expect(responses.map((response) => response.body)).toEqual(bodies);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});
