import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { realServers, request } from '@tolk/testing';
import { redisConnected, signAccessToken, startGateway, startUpstream } from './support.js';

type Closable = { close: () => Promise<void> };

/** Identity-service stand-in: only `right@example.com` / `correct` logs in. */
function identityService() {
  return startUpstream((received, res) => {
    const { email, password } = JSON.parse(received.body.toString() || '{}');
    const ok = received.url !== '/v1/auth/login' || (email === 'right@example.com' && password === 'correct');
    res
      .writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
      .end(
        ok ? '{"accessToken":"a"}' : '{"error":{"code":"UNAUTHORIZED","message":"Wrong email or password"}}',
      );
  });
}

function login(gatewayUrl: string, email: string, password = 'wrong') {
  return request(`${gatewayUrl}/v1/auth/login`, { body: { email, password } });
}

function expectRateLimited(response: Awaited<ReturnType<typeof request>>) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(response.headers.get('x-request-id')).toBeTruthy();
}

describe.skipIf(!realServers().redis)('gateway rate limits (Redis)', () => {
  const redisUrl = inject('infrastructure').redisUrl;
  const running: Closable[] = [];

  afterEach(async () => {
    await Promise.all(running.splice(0).map((item) => item.close()));
  });

  async function setup(env: Record<string, string>) {
    const identity = await identityService();
    running.push(identity);
    const gateway = await startGateway({
      REDIS_URL: redisUrl,
      IDENTITY_SERVICE_URL: identity.url,
      BYOK_SERVICE_URL: identity.url,
      ...env,
    });
    running.push(gateway);
    // Until then the counts would go to the in-memory insurance, not to Redis.
    await redisConnected(gateway.url);
    return { identity, gateway };
  }

  it('when one IP signs up and logs in too often, then 429 with Retry-After', async () => {
    const { identity, gateway } = await setup({ RATE_LIMIT_AUTH_PER_IP: '3' });

    expect(
      (await request(`${gateway.url}/v1/auth/signup`, { body: { email: 'new@example.com' } })).status,
    ).toBe(200);
    expect((await login(gateway.url, 'right@example.com', 'correct')).status).toBe(200);
    expect((await login(gateway.url, 'other@example.com')).status).toBe(401);
    expectRateLimited(await login(gateway.url, 'right@example.com', 'correct'));
    expectRateLimited(await request(`${gateway.url}/v1/auth/signup`, { body: { email: 'x@example.com' } }));
    expect(identity.received).toHaveLength(3);
    // Other public routes are not brute-force targets and keep working.
    expect((await request(`${gateway.url}/v1/auth/refresh`, { body: { refreshToken: 'r' } })).status).toBe(
      200,
    );
  });

  it('when logins for one email keep failing, then further attempts get 429 before reaching the service', async () => {
    const { identity, gateway } = await setup({ RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: '3' });

    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await login(gateway.url, 'victim@example.com')).status).toBe(401);
    }
    expectRateLimited(await login(gateway.url, 'victim@example.com'));
    // The same mailbox however it is written.
    expectRateLimited(await login(gateway.url, '  Victim@Example.COM '));
    expect(identity.received).toHaveLength(3);
    // Another email from the same client is not affected.
    expect((await login(gateway.url, 'right@example.com', 'correct')).status).toBe(200);
  });

  it('when guesses for one email arrive in parallel, then no more than the limit reach the service', async () => {
    const { identity, gateway } = await setup({ RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: '3' });

    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => (await login(gateway.url, 'victim@example.com')).status),
    );

    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    expect(identity.received).toHaveLength(3);
  });

  it('when logins succeed, then they do not count as failures and a success clears the count', async () => {
    const { gateway } = await setup({ RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: '2' });

    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await login(gateway.url, 'right@example.com', 'correct')).status).toBe(200);
    }
    expect((await login(gateway.url, 'right@example.com')).status).toBe(401);
    expect((await login(gateway.url, 'right@example.com', 'correct')).status).toBe(200);
    expect((await login(gateway.url, 'right@example.com')).status).toBe(401);
    expect((await login(gateway.url, 'right@example.com')).status).toBe(401);
    expectRateLimited(await login(gateway.url, 'right@example.com', 'correct'));
  });

  it('when one user sends too many requests, then 429 for that user only', async () => {
    const { gateway } = await setup({ RATE_LIMIT_PER_USER: '3' });
    const busy = { authorization: `Bearer ${await signAccessToken({ sub: 'busy-user' })}` };
    const calm = { authorization: `Bearer ${await signAccessToken({ sub: 'calm-user' })}` };

    for (let n = 0; n < 3; n++) {
      expect((await request(`${gateway.url}/v1/user/me`, { headers: busy })).status).toBe(200);
    }
    expectRateLimited(await request(`${gateway.url}/v1/user/byok`, { headers: busy }));
    expect((await request(`${gateway.url}/v1/user/me`, { headers: calm })).status).toBe(200);
  });

  it('when one IP sends too many unauthenticated requests, then 429', async () => {
    const { gateway } = await setup({ RATE_LIMIT_PER_IP: '2' });

    for (let n = 0; n < 2; n++) {
      expect((await request(`${gateway.url}/v1/auth/device`, { method: 'POST' })).status).toBe(200);
    }
    expectRateLimited(await request(`${gateway.url}/v1/auth/device`, { method: 'POST' }));
  });

  it('when two gateway instances share Redis, then they share the counts', async () => {
    const prefix = `tolk-test:${randomUUID()}`;
    const first = await setup({ RATE_LIMIT_KEY_PREFIX: prefix, RATE_LIMIT_PER_USER: '4' });
    const second = await setup({ RATE_LIMIT_KEY_PREFIX: prefix, RATE_LIMIT_PER_USER: '4' });
    const headers = { authorization: `Bearer ${await signAccessToken({ sub: 'shared-user' })}` };

    for (const gateway of [first.gateway, second.gateway, first.gateway, second.gateway]) {
      expect((await request(`${gateway.url}/v1/user/me`, { headers })).status).toBe(200);
    }
    expectRateLimited(await request(`${first.gateway.url}/v1/user/me`, { headers }));
    expectRateLimited(await request(`${second.gateway.url}/v1/user/me`, { headers }));
  });
});
