import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { TOKEN_INTROSPECTION_PATH, generateProjectToken } from '@tolk/contracts';
import { realServers, request, sampleValue, scrapeMetrics, type MetricSample } from '@tolk/testing';
import { redisConnected, signAccessToken, startGateway, startUpstream } from './support.js';

type Closable = { close: () => Promise<void> };
type Gateway = Awaited<ReturnType<typeof startGateway>>;

const SOURCE_ROUTE = '/v1/projects/:projectId/source{/*rest}';

/** The project every stand-in token belongs to, and its one token. */
const TOKEN_PROJECT = `prj_${randomUUID().replaceAll('-', '')}`;
const PROJECT_TOKEN = generateProjectToken();

// Counts cache hits in Redis, and waits for the connection to it.
describe.skipIf(!realServers().redis)('GET /metrics of the gateway', () => {
  const redisUrl = inject('infrastructure').redisUrl;
  const running: Closable[] = [];
  let projectService: Awaited<ReturnType<typeof startUpstream>>;
  let sourceService: Awaited<ReturnType<typeof startUpstream>>;
  let tokenService: Awaited<ReturnType<typeof startUpstream>>;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    projectService = await startUpstream();
    sourceService = await startUpstream();
    tokenService = await startUpstream((received, res) => {
      if (received.url === TOKEN_INTROSPECTION_PATH) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ tokenId: 'tok_1', projectId: TOKEN_PROJECT, permissions: 'read' }));
        return;
      }
      res.writeHead(204).end();
    });
  });
  afterAll(async () => {
    redis?.disconnect();
    await Promise.all([projectService, sourceService, tokenService].map((service) => service.close()));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((item) => item.close()));
  });

  async function gatewayWith(env: Record<string, string> = {}): Promise<Gateway> {
    const gateway = await startGateway({
      PROJECT_SERVICE_URL: projectService.url,
      SOURCE_SERVICE_URL: sourceService.url,
      TOKEN_SERVICE_URL: tokenService.url,
      REDIS_URL: redisUrl,
      TOKEN_CACHE_KEY_PREFIX: `tolk-test:${randomUUID()}:tokens`,
      ...env,
    });
    running.push(gateway);
    await redisConnected(gateway.url);
    return gateway;
  }

  async function asUser() {
    return { authorization: `Bearer ${await signAccessToken({ sub: `user-${randomUUID()}` })}` };
  }

  it('when scraped on its metrics port, then it answers its own metrics in the Prometheus format and asks no service', async () => {
    const gateway = await gatewayWith();
    const response = await request(`${gateway.metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = await scrapeMetrics(gateway.metricsUrl);
    expect(sampleValue(samples, 'process_resident_memory_bytes', { service: 'gateway' })).toBeGreaterThan(0);
    for (const service of [projectService, sourceService, tokenService]) {
      expect(service.received.some((received) => received.url.includes('metrics'))).toBe(false);
    }
  });

  it('when METRICS_TOKEN is not set, then the public port does not answer /metrics at all', async () => {
    const gateway = await gatewayWith();
    for (const accept of ['text/plain', 'text/html', '*/*']) {
      const response = await request(`${gateway.url}/metrics`, { headers: { accept } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
  });

  it('when METRICS_TOKEN is set, then the public port answers /metrics only to a scrape bearing it', async () => {
    const secret = `metrics-${randomUUID()}`;
    const gateway = await gatewayWith({ METRICS_TOKEN: secret });
    const anonymous = await request(`${gateway.url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    expect(
      (await request(`${gateway.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    const samples = await scrapeMetrics(gateway.url, { authorization: `Bearer ${secret}` });
    expect(samples.length).toBeGreaterThan(0);
    // The metrics port is for the scraper inside the network: no token there.
    expect((await scrapeMetrics(gateway.metricsUrl)).length).toBeGreaterThan(0);
  });

  it('when project routes are called, then they are counted under the route table pattern, never the raw path', async () => {
    const gateway = await gatewayWith();
    const headers = await asUser();
    const count = async (labels: Record<string, string>) =>
      sampleValue(await scrapeMetrics(gateway.metricsUrl), 'http_requests_total', {
        service: 'gateway',
        ...labels,
      });
    const proxied = { method: 'GET', route: SOURCE_ROUTE, status: '200' };
    const unknown = { method: 'GET', route: 'unmatched', status: '404' };
    const [proxiedBefore, unknownBefore] = [await count(proxied), await count(unknown)];

    const projectId = `prj_${randomUUID().replaceAll('-', '')}`;
    for (const path of ['/source', '/source/versions', '/source/versions/3']) {
      expect((await request(`${gateway.url}/v1/projects/${projectId}${path}`, { headers })).status).toBe(200);
    }
    expect((await request(`${gateway.url}/v2/projects/${projectId}`, { headers })).status).toBe(404);

    expect((await count(proxied)) - proxiedBefore).toBe(3);
    expect((await count(unknown)) - unknownBefore).toBe(1);
    const samples = await scrapeMetrics(gateway.metricsUrl);
    const durations = samples.filter(
      (s) => s.name === 'http_request_duration_seconds_count' && s.labels['route'] === SOURCE_ROUTE,
    );
    expect(durations.reduce((sum, s) => sum + s.value, 0)).toBeGreaterThanOrEqual(3);
    expect(samples.flatMap((s) => Object.values(s.labels)).some((value) => value.includes(projectId))).toBe(
      false,
    );
  });

  it('when the same user calls the same project twice, then the second is an access-token and a membership cache hit', async () => {
    const membershipPrefix = `tolk-test:${randomUUID()}:membership`;
    const gateway = await gatewayWith({ MEMBERSHIP_CACHE_KEY_PREFIX: membershipPrefix });
    const headers = await asUser();
    const projectId = `prj_${randomUUID().replaceAll('-', '')}`;
    const read = async () => {
      const samples = await scrapeMetrics(gateway.metricsUrl);
      return {
        accessHits: tokenLookups(samples, 'access', 'memory', 'hit'),
        accessMisses: tokenLookups(samples, 'access', 'memory', 'miss'),
        membershipHits: sampleValue(samples, 'gateway_membership_cache_lookups_total', { result: 'hit' }),
        membershipMisses: sampleValue(samples, 'gateway_membership_cache_lookups_total', { result: 'miss' }),
      };
    };

    const before = await read();
    const path = `${gateway.url}/v1/projects/${projectId}/source`;
    expect((await request(path, { headers })).status).toBe(200);
    const afterFirst = await read();
    expect(delta(before, afterFirst)).toEqual({
      accessHits: 0,
      accessMisses: 1,
      membershipHits: 0,
      membershipMisses: 1,
    });

    // The membership answer is written to Redis after the answer went out.
    await expect.poll(() => redis.keys(`${membershipPrefix}:member:*`), { interval: 10 }).toHaveLength(1);
    expect((await request(path, { headers })).status).toBe(200);
    expect(delta(afterFirst, await read())).toEqual({
      accessHits: 1,
      accessMisses: 0,
      membershipHits: 1,
      membershipMisses: 0,
    });
  });

  it('when a project API token is used twice, then in-process hits; on another instance, a Redis hit', async () => {
    const prefix = `tolk-test:${randomUUID()}:tokens`;
    const first = await gatewayWith({ TOKEN_CACHE_KEY_PREFIX: prefix });
    const headers = { authorization: `Bearer ${PROJECT_TOKEN}` };
    const path = `/v1/projects/${TOKEN_PROJECT}/source`;
    const read = async (gateway: Gateway) => {
      const samples = await scrapeMetrics(gateway.metricsUrl);
      return {
        memoryHits: tokenLookups(samples, 'project', 'memory', 'hit'),
        memoryMisses: tokenLookups(samples, 'project', 'memory', 'miss'),
        redisHits: tokenLookups(samples, 'project', 'redis', 'hit'),
        redisMisses: tokenLookups(samples, 'project', 'redis', 'miss'),
      };
    };

    const before = await read(first);
    expect((await request(`${first.url}${path}`, { headers })).status).toBe(200);
    const afterFirst = await read(first);
    expect(delta(before, afterFirst)).toEqual({
      memoryHits: 0,
      memoryMisses: 1,
      redisHits: 0,
      redisMisses: 1,
    });
    expect((await request(`${first.url}${path}`, { headers })).status).toBe(200);
    const afterSecond = await read(first);
    expect(delta(afterFirst, afterSecond)).toEqual({
      memoryHits: 1,
      memoryMisses: 0,
      redisHits: 0,
      redisMisses: 0,
    });

    // The answer is written to Redis after the answer went out.
    await expect.poll(() => redis.keys(`${prefix}:*`), { interval: 10 }).toHaveLength(1);
    // Another gateway instance (the same process here, so the same counters): its memory is empty.
    const second = await gatewayWith({ TOKEN_CACHE_KEY_PREFIX: prefix });
    expect((await request(`${second.url}${path}`, { headers })).status).toBe(200);
    expect(delta(afterSecond, await read(second))).toEqual({
      memoryHits: 0,
      memoryMisses: 1,
      redisHits: 1,
      redisMisses: 0,
    });
  });

  it('when a request needs a membership lookup or a token introspection, then the lookup carries its request id', async () => {
    const gateway = await gatewayWith();
    const projectId = `prj_${randomUUID().replaceAll('-', '')}`;
    const lookupsBefore = projectService.lookups.length;
    const introspectionsBefore = tokenService.received.length;

    await request(`${gateway.url}/v1/projects/${projectId}/source`, {
      headers: { ...(await asUser()), 'x-request-id': 'req-membership-1' },
    });
    expect(
      projectService.lookups.slice(lookupsBefore).map((lookup) => lookup.headers['x-request-id']),
    ).toEqual(['req-membership-1']);

    await request(`${gateway.url}/v1/projects/${TOKEN_PROJECT}/source`, {
      headers: { authorization: `Bearer ${PROJECT_TOKEN}`, 'x-request-id': 'req-introspection-1' },
    });
    const introspections = tokenService.received
      .slice(introspectionsBefore)
      .filter((received) => received.url === TOKEN_INTROSPECTION_PATH);
    expect(introspections.map((received) => received.headers['x-request-id'])).toEqual([
      'req-introspection-1',
    ]);
  });
});

function tokenLookups(samples: MetricSample[], token: string, cache: string, result: string): number {
  return sampleValue(samples, 'gateway_token_cache_lookups_total', { token, cache, result });
}

function delta<T extends Record<string, number>>(before: T, after: T): T {
  return Object.fromEntries(Object.entries(after).map(([key, value]) => [key, value - before[key]!])) as T;
}
