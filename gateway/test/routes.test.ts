import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceName } from '@tolk/contracts';
import { request } from '@tolk/testing';
import { REFUSING_URL, rawRequest, signAccessToken, startGateway, startUpstream } from './support.js';

type Upstream = Awaited<ReturnType<typeof startUpstream>>;

describe('gateway routes', () => {
  const upstreams = {} as Record<ServiceName, Upstream>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let authorization: string;

  beforeAll(async () => {
    for (const service of ['identity', 'project', 'source', 'locale', 'token', 'byok'] as const) {
      upstreams[service] = await startUpstream();
    }
    gateway = await startGateway({
      IDENTITY_SERVICE_URL: upstreams.identity.url,
      PROJECT_SERVICE_URL: upstreams.project.url,
      SOURCE_SERVICE_URL: upstreams.source.url,
      LOCALE_SERVICE_URL: upstreams.locale.url,
      TOKEN_SERVICE_URL: upstreams.token.url,
      BYOK_SERVICE_URL: upstreams.byok.url,
    });
    authorization = `Bearer ${await signAccessToken()}`;
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all(Object.values(upstreams).map((upstream) => upstream.close()));
  });

  /** Which service received the request, after sending it with a valid token. */
  async function serviceOf(method: string, path: string): Promise<ServiceName | undefined> {
    for (const upstream of Object.values(upstreams)) upstream.received.length = 0;
    const response = await request(`${gateway.url}${path}`, { method, headers: { authorization } });
    if (response.status !== 200) return undefined;
    const entry = Object.entries(upstreams).find(([, upstream]) => upstream.received.length > 0);
    expect(entry?.[1].received[0]?.url).toBe(path);
    return entry?.[0] as ServiceName | undefined;
  }

  it.each([
    ['POST', '/v1/auth/signup', 'identity'],
    ['POST', '/v1/auth/login', 'identity'],
    ['POST', '/v1/auth/refresh', 'identity'],
    ['POST', '/v1/auth/logout', 'identity'],
    ['POST', '/v1/auth/device', 'identity'],
    ['POST', '/v1/auth/device/token', 'identity'],
    ['POST', '/v1/auth/device/approve', 'identity'],
    ['POST', '/v1/auth/device/deny', 'identity'],
    ['GET', '/v1/user/me', 'identity'],
    ['GET', '/v1/user/byok', 'byok'],
    ['PUT', '/v1/user/byok/openai', 'byok'],
    ['GET', '/v1/projects', 'project'],
    ['POST', '/v1/projects', 'project'],
    ['PATCH', '/v1/projects/p1', 'project'],
    ['GET', '/v1/projects/p1/members', 'project'],
    ['DELETE', '/v1/projects/p1/members/u2', 'project'],
    ['PUT', '/v1/projects/p1/source', 'source'],
    ['GET', '/v1/projects/p1/source/versions/3', 'source'],
    ['GET', '/v1/projects/p1/source/diff?from=1&to=2', 'source'],
    ['GET', '/v1/projects/p1/locales', 'locale'],
    ['PUT', '/v1/projects/p1/locales/pt-BR/translations?sourceVersion=2', 'locale'],
    ['GET', '/v1/projects/p1/tokens', 'token'],
    ['DELETE', '/v1/projects/p1/tokens/t1', 'token'],
  ])('%s %s goes to the %s service, path unchanged', async (method, path, service) => {
    expect(await serviceOf(method, path)).toBe(service);
  });

  it.each([
    '/v1/auth/device/approve',
    '/v1/auth/device/deny',
    '/v1/user/me',
    '/v1/user/byok/openai',
    '/v1/projects',
    '/v1/projects/p1/source',
    '/v1/projects/p1/tokens',
  ])('%s needs a token', async (path) => {
    const response = await request(`${gateway.url}${path}`, { method: 'POST' });
    expect(response.status).toBe(401);
  });

  it.each(['/v1/nothing', '/v1/projects/p1/unknown', '/v1/user/byokx', '/v2/projects', '/'])(
    'when %s is requested, then 404 NOT_FOUND in the envelope',
    async (path) => {
      const response = await request(`${gateway.url}${path}`, { headers: { authorization } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
      expect(response.headers.get('x-request-id')).toBeTruthy();
    },
  );

  it('when a path climbs with dot segments, then 404 and nothing is forwarded', async () => {
    for (const path of ['/v1/projects/p1/source/../tokens', '/v1/projects/p1/source/%2e%2e/tokens']) {
      for (const upstream of Object.values(upstreams)) upstream.received.length = 0;
      const response = await rawRequest(`${gateway.url}${path}`, {
        method: 'GET',
        headers: { authorization },
      });
      expect(response.status).toBe(404);
      expect(Object.values(upstreams).every((upstream) => upstream.received.length === 0)).toBe(true);
    }
  });

  it('when every service is up, then /healthz and /readyz answer 200', async () => {
    const health = await request(`${gateway.url}/healthz`);
    const ready = await request(`${gateway.url}/readyz`);

    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toBeTruthy();
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', redis: 'not configured' });
    expect(ready.body.upstreams).toEqual({
      identity: 'up',
      project: 'up',
      source: 'up',
      locale: 'up',
      token: 'up',
      byok: 'up',
    });
  });
});

describe('gateway routes of unconfigured services', () => {
  it('when a service has no URL, then its routes do not exist and readiness ignores it', async () => {
    const identity = await startUpstream();
    const gateway = await startGateway({ IDENTITY_SERVICE_URL: identity.url });
    try {
      const response = await request(`${gateway.url}/v1/projects/p1/source`, {
        headers: { authorization: `Bearer ${await signAccessToken()}` },
      });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
      expect((await request(`${gateway.url}/readyz`)).status).toBe(200);
    } finally {
      await gateway.close();
      await identity.close();
    }
  });

  it('when a configured service is down, then /readyz stays 200 but says degraded, naming it; /healthz 200', async () => {
    const identity = await startUpstream();
    const gateway = await startGateway({
      IDENTITY_SERVICE_URL: identity.url,
      SOURCE_SERVICE_URL: REFUSING_URL,
    });
    try {
      const ready = await request(`${gateway.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'degraded', upstreams: { identity: 'up', source: 'down' } });
      expect((await request(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await gateway.close();
      await identity.close();
    }
  });

  it('when every configured service is down, then /readyz is 503 in the envelope', async () => {
    const gateway = await startGateway({
      IDENTITY_SERVICE_URL: REFUSING_URL,
      SOURCE_SERVICE_URL: REFUSING_URL,
    });
    try {
      const ready = await request(`${gateway.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: 'Not ready: identity, source not reachable' },
      });
      expect((await request(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
