import { afterEach, describe, expect, it } from 'vitest';
import { realServers, request } from '@tolk/testing';
import { redisConnected, signAccessToken, startGateway, startOwnRedis, startUpstream } from './support.js';

type Closable = { close: () => Promise<void> };

/** Identity-service stand-in where every login fails. */
function identityService() {
  return startUpstream((received, res) => {
    const status = received.url === '/v1/auth/login' ? 401 : 200;
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
}

async function timed<T>(action: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await action();
  return { result, ms: Date.now() - started };
}

// Outages of a Redis of the test's own: they only make sense where Redis is installed.
describe.skipIf(!realServers().redis)('gateway without Redis', () => {
  const running: Closable[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((item) => item.close()));
  });

  async function setup(redisUrl: string, env: Record<string, string> = {}) {
    const identity = await identityService();
    running.push(identity);
    const gateway = await startGateway({
      ...env,
      REDIS_URL: redisUrl,
      IDENTITY_SERVICE_URL: identity.url,
      RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: '3',
      RATE_LIMIT_PER_USER: '1000',
    });
    running.push(gateway);
    return { identity, gateway };
  }

  function login(gatewayUrl: string, email: string) {
    return request(`${gatewayUrl}/v1/auth/login`, { body: { email, password: 'guess' } });
  }

  it('when Redis dies mid-flight, then requests are still answered promptly and brute-force limits still apply', async () => {
    const redis = await startOwnRedis();
    running.push({ close: redis.kill });
    const { identity, gateway } = await setup(redis.url);
    await redisConnected(gateway.url);
    const headers = { authorization: `Bearer ${await signAccessToken()}` };

    expect((await request(`${gateway.url}/v1/user/me`, { headers })).status).toBe(200);
    expect((await login(gateway.url, 'before@example.com')).status).toBe(401);

    await redis.kill();

    // The general limit fails open: the user is served, without waiting on Redis.
    for (let n = 0; n < 5; n++) {
      const { result, ms } = await timed(() => request(`${gateway.url}/v1/user/me`, { headers }));
      expect(result.status).toBe(200);
      expect(ms).toBeLessThan(1000);
    }
    // Failed logins are counted by this instance's in-memory insurance instead.
    identity.received.length = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      const { result, ms } = await timed(() => login(gateway.url, 'victim@example.com'));
      expect(result.status).toBe(401);
      expect(ms).toBeLessThan(1000);
    }
    const limited = await login(gateway.url, 'victim@example.com');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(identity.received).toHaveLength(3);

    const ready = await request(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.redis).toBe('down');
  });

  it('when Redis is unreachable from the start, then the gateway serves and limits in memory', async () => {
    const { identity, gateway } = await setup('redis://127.0.0.1:1');
    const headers = { authorization: `Bearer ${await signAccessToken()}` };

    const { result, ms } = await timed(() => request(`${gateway.url}/v1/user/me`, { headers }));
    expect(result.status).toBe(200);
    expect(ms).toBeLessThan(1000);

    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await login(gateway.url, 'victim@example.com')).status).toBe(401);
    }
    expect((await login(gateway.url, 'victim@example.com')).status).toBe(429);
    expect(identity.received.filter((received) => received.url === '/v1/auth/login')).toHaveLength(3);

    const ready = await request(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.redis).toBe('down');
  });

  it('when Redis hangs without closing the connection, then each request waits at most the command timeout', async () => {
    const redis = await startOwnRedis();
    running.push({
      close: async () => {
        redis.signal('SIGCONT');
        await redis.kill();
      },
    });
    const { gateway } = await setup(redis.url, { REDIS_COMMAND_TIMEOUT_MS: '100' });
    await redisConnected(gateway.url);
    const headers = { authorization: `Bearer ${await signAccessToken()}` };

    redis.signal('SIGSTOP');

    const { result, ms } = await timed(() => request(`${gateway.url}/v1/user/me`, { headers }));
    expect(result.status).toBe(200);
    expect(ms).toBeLessThan(500);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await login(gateway.url, 'frozen@example.com')).status).toBe(401);
    }
    const limited = await timed(() => login(gateway.url, 'frozen@example.com'));
    expect(limited.result.status).toBe(429);
    expect(limited.ms).toBeLessThan(1000);
  });
});
