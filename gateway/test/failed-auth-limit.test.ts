import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { TOKEN_INTROSPECTION_PATH, generateProjectToken, hashProjectToken } from '@tolk/contracts';
import { realServers, request } from '@tolk/testing';
import { redisConnected, signAccessToken, startGateway, startUpstream } from './support.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const PROJECT = `prj_${randomUUID().replaceAll('-', '')}`;

/** A JWT-shaped string no key signed: what a scanner sends. */
function garbageJwt(): string {
  const part = () => randomBytes(24).toString('base64url');
  return `${part()}.${part()}.${part()}`;
}

describe.skipIf(!realServers().redis)('failed authentication per client address', () => {
  const redisUrl = inject('infrastructure').redisUrl;
  let redis: Redis;
  let services: Awaited<ReturnType<typeof startUpstream>>;
  /** The project API tokens token-service knows, by hash. */
  const known = new Map<string, string>();
  const running: Gateway[] = [];

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    // One stand-in for every service: token introspection, membership (everyone owns), the rest 200.
    services = await startUpstream((received, res) => {
      if (received.url === TOKEN_INTROSPECTION_PATH) {
        const { tokenHash } = JSON.parse(received.body.toString()) as { tokenHash: string };
        const tokenId = known.get(tokenHash);
        res.writeHead(tokenId ? 200 : 404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            tokenId
              ? { tokenId, projectId: PROJECT, permissions: 'read' }
              : { error: { code: 'NOT_FOUND', message: 'Unknown token' } },
          ),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  afterAll(async () => {
    await services.close();
    redis.disconnect();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((gateway) => gateway.close()));
  });

  async function gatewayWith(env: Record<string, string> = {}): Promise<Gateway> {
    const gateway = await startGateway({
      REDIS_URL: redisUrl,
      IDENTITY_SERVICE_URL: services.url,
      PROJECT_SERVICE_URL: services.url,
      SOURCE_SERVICE_URL: services.url,
      TOKEN_SERVICE_URL: services.url,
      TOKEN_CACHE_KEY_PREFIX: `tolk-test:${randomUUID()}:tokens`,
      ...env,
    });
    running.push(gateway);
    await redisConnected(gateway.url);
    return gateway;
  }

  function knownToken(): string {
    const token = generateProjectToken();
    known.set(hashProjectToken(token), `tok_${randomUUID()}`);
    return token;
  }

  const introspections = () => services.received.filter((r) => r.url === TOKEN_INTROSPECTION_PATH).length;

  async function keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  }

  function readSource(gateway: Gateway, token: string, from?: string) {
    return request(`${gateway.url}/v1/projects/${PROJECT}/source`, {
      headers: { authorization: `Bearer ${token}`, ...(from ? { 'x-forwarded-for': from } : {}) },
    });
  }

  it('when one address sends more garbage JWTs and unknown project tokens than the limit (60 a minute), then 429 with Retry-After after it, and token-service is no longer asked', async () => {
    const gateway = await gatewayWith();
    const asked = introspections();

    const statuses: number[] = [];
    for (let n = 0; n < 80; n++) {
      const response = await readSource(gateway, n % 2 === 0 ? garbageJwt() : generateProjectToken());
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      } else {
        expect(response.body.error.code).toBe('UNAUTHORIZED');
      }
    }

    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(401));
    expect(statuses.slice(60)).toEqual(Array(20).fill(429));
    // Half of the first 60 were project tokens; none of those refused with 429 was looked up.
    expect(introspections() - asked).toBe(30);
  });

  it('when an address is blocked, then tokens proven without a lookup still pass from it, and other addresses are not affected', async () => {
    const gateway = await gatewayWith({ RATE_LIMIT_AUTH_FAILURES_PER_IP: '3', TRUST_PROXY: 'true' });
    const ci = '203.0.113.7';
    const warm = knownToken();
    expect((await readSource(gateway, warm, ci)).status).toBe(200);

    for (let n = 0; n < 3; n++) expect((await readSource(gateway, garbageJwt(), ci)).status).toBe(401);
    expect((await readSource(gateway, garbageJwt(), ci)).status).toBe(429);

    // A user's access token is checked by its signature, here: the team behind the NAT keeps working.
    expect((await readSource(gateway, await signAccessToken({ sub: 'teammate' }), ci)).status).toBe(200);
    // A project token the gateway already knows; one it would have to ask token-service about waits.
    expect((await readSource(gateway, warm, ci)).status).toBe(200);
    const asked = introspections();
    expect((await readSource(gateway, knownToken(), ci)).status).toBe(429);
    expect((await readSource(gateway, generateProjectToken(), ci)).status).toBe(429);
    expect(introspections()).toBe(asked);
    // No token at all is not a guess: the plain 401.
    const anonymous = await request(`${gateway.url}/v1/user/me`, { headers: { 'x-forwarded-for': ci } });
    expect(anonymous.status).toBe(401);

    expect((await readSource(gateway, garbageJwt(), '198.51.100.2')).status).toBe(401);
  });

  it('when another instance sees the blocked address, then it refuses it from its first failure on (the count is shared)', async () => {
    const prefix = `tolk-test:${randomUUID()}`;
    const env = { RATE_LIMIT_KEY_PREFIX: prefix, RATE_LIMIT_AUTH_FAILURES_PER_IP: '4' };
    const first = await gatewayWith(env);
    const second = await gatewayWith(env);

    for (const gateway of [first, second, first, second]) {
      expect((await readSource(gateway, garbageJwt())).status).toBe(401);
    }
    expect((await readSource(second, garbageJwt())).status).toBe(429);
    expect((await readSource(first, garbageJwt())).status).toBe(429);
  });

  it('when hundreds of unknown project tokens are sent, then Redis holds no key per token', async () => {
    const gateway = await gatewayWith({ RATE_LIMIT_AUTH_FAILURES_PER_IP: '1000' });
    const tokenPrefix = gateway.config.TOKEN_CACHE_KEY_PREFIX;
    const limitPrefix = gateway.config.RATE_LIMIT_KEY_PREFIX;

    for (let batch = 0; batch < 10; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 30 }, async () => (await readSource(gateway, generateProjectToken())).status),
      );
      expect(statuses).toEqual(Array(30).fill(401));
    }
    // A valid token is still shared through Redis: one key for it.
    const valid = knownToken();
    expect((await readSource(gateway, valid)).status).toBe(200);
    // The positive answer is written after the answer went out.
    await expect.poll(() => keysUnder(tokenPrefix), { timeout: 2000, interval: 10 }).toHaveLength(1);
    // The failure count of the one address, and the valid token's general limit.
    expect((await keysUnder(limitPrefix)).sort()).toEqual([
      `${limitPrefix}:auth-failure-ip:127.0.0.1`,
      `${limitPrefix}:principal:token:${known.get(hashProjectToken(valid))}`,
    ]);
  });
});
