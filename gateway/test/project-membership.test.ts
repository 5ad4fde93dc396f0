import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { INTERNAL_CALLER_HEADER } from '@tolk/contracts';
import { createInternalCallerVerifier } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { listen, realServers, request } from '@tolk/testing';
import { createMembershipCache, type MembershipLookup } from '../src/auth/project-membership.js';
import { createRedisClient } from '../src/rate-limit/redis-client.js';
import {
  INTERNAL_SECRET,
  REFUSING_URL,
  redisConnected,
  signAccessToken,
  startGateway,
  startOwnRedis,
  startUpstream,
} from './support.js';

type Closable = { close: () => Promise<void> };
type Upstream = Awaited<ReturnType<typeof startUpstream>>;

const silent = createLogger({ name: 'gateway', level: 'silent' });

/** Who is a member of what, as the project-service stand-in answers it. */
function membershipTable() {
  const roles = new Map<string, string>();
  return {
    add: (projectId: string, userId: string, role = 'member') => roles.set(`${projectId} ${userId}`, role),
    remove: (projectId: string, userId: string) => roles.delete(`${projectId} ${userId}`),
    roleOf: (projectId: string, userId: string) => roles.get(`${projectId} ${userId}`) ?? null,
  };
}

async function tokenFor(userId: string) {
  return { authorization: `Bearer ${await signAccessToken({ sub: userId })}` };
}

// Most of these are about the membership cache, which lives in Redis.
describe.skipIf(!realServers().redis)('gateway membership checks on /v1/projects/:projectId/**', () => {
  const redisUrl = inject('infrastructure').redisUrl;
  const members = membershipTable();
  const running: Closable[] = [];
  let projectService: Upstream;
  let sourceService: Upstream;

  beforeAll(async () => {
    projectService = await startUpstream(undefined, { roleOf: members.roleOf });
    sourceService = await startUpstream();
  });
  afterAll(async () => {
    await projectService.close();
    await sourceService.close();
  });
  beforeEach(() => {
    projectService.received.length = 0;
    projectService.lookups.length = 0;
    sourceService.received.length = 0;
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((item) => item.close()));
  });

  /** Waits for Redis (readiness needs every upstream up) unless the test gives its own. */
  async function gatewayWith(env: Record<string, string> = {}, { waitForRedis = true } = {}) {
    const gateway = await startGateway({
      PROJECT_SERVICE_URL: projectService.url,
      SOURCE_SERVICE_URL: sourceService.url,
      REDIS_URL: redisUrl,
      ...env,
    });
    running.push(gateway);
    if (waitForRedis && env['REDIS_URL'] === undefined) await redisConnected(gateway.url);
    return gateway;
  }

  function newProject() {
    const projectId = `prj_${randomUUID().replaceAll('-', '')}`;
    const ownerId = `user-${randomUUID()}`;
    members.add(projectId, ownerId, 'owner');
    return { projectId, ownerId };
  }

  it('when the caller is a member, then the request is forwarded after a lookup as the internal caller "gateway"', async () => {
    const gateway = await gatewayWith();
    const { projectId, ownerId } = newProject();

    const response = await request(`${gateway.url}/v1/projects/${projectId}/source`, {
      headers: await tokenFor(ownerId),
    });

    expect(response.status).toBe(200);
    expect(sourceService.received).toHaveLength(1);
    expect(projectService.lookups).toHaveLength(1);
    const lookup = projectService.lookups[0]!;
    expect(lookup.url).toBe(`/internal/projects/${projectId}/members/${encodeURIComponent(ownerId)}`);
    expect(
      await createInternalCallerVerifier(INTERNAL_SECRET)(String(lookup.headers[INTERNAL_CALLER_HEADER])),
    ).toBe('gateway');
  });

  it('when the caller is not a member, or the project does not exist, then 404 NOT_FOUND and no service sees the request', async () => {
    const gateway = await gatewayWith();
    const { projectId } = newProject();
    const outsider = await tokenFor(`user-${randomUUID()}`);

    for (const path of [
      `/v1/projects/${projectId}`,
      `/v1/projects/${projectId}/members`,
      `/v1/projects/${projectId}/source`,
      `/v1/projects/prj_${'0'.repeat(32)}/source`,
    ]) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await request(`${gateway.url}${path}`, { method, headers: outsider });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Project not found' } });
        expect(response.headers.get('x-request-id')).toBeTruthy();
      }
    }
    expect(sourceService.received).toHaveLength(0);
    expect(projectService.received).toHaveLength(0);
  });

  it('when the path cannot name a project, then 404 without asking project-service', async () => {
    const gateway = await gatewayWith();
    const headers = await tokenFor('user-1');

    for (const segment of ['%ZZ', '%00', 'x'.repeat(201), '%20space']) {
      const response = await request(`${gateway.url}/v1/projects/${segment}/source`, { headers });
      expect(response.status, segment).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    expect(projectService.lookups).toHaveLength(0);
    expect(sourceService.received).toHaveLength(0);
  });

  it('when the project id is percent-encoded, then the decoded id is the one checked', async () => {
    const gateway = await gatewayWith();
    const { projectId, ownerId } = newProject();

    const encoded = projectId.replace('_', '%5F');
    const response = await request(`${gateway.url}/v1/projects/${encoded}/source`, {
      headers: await tokenFor(ownerId),
    });

    expect(response.status).toBe(200);
    expect(projectService.lookups[0]!.url).toBe(`/internal/projects/${projectId}/members/${ownerId}`);
  });

  it('when the route is not project-scoped, then nobody is asked about membership', async () => {
    const gateway = await gatewayWith();
    const headers = await tokenFor('user-1');

    expect((await request(`${gateway.url}/v1/projects`, { headers })).status).toBe(200);
    expect((await request(`${gateway.url}/v1/projects`, { method: 'POST', headers, body: {} })).status).toBe(
      200,
    );
    expect(projectService.received).toHaveLength(2);
    expect(projectService.lookups).toHaveLength(0);
  });

  it('when an answer is cached, then project-service is not asked again, for members and non-members alike', async () => {
    const gateway = await gatewayWith();
    const { projectId, ownerId } = newProject();
    const owner = await tokenFor(ownerId);
    const outsider = await tokenFor(`user-${randomUUID()}`);

    for (let n = 0; n < 3; n++) {
      expect(
        (await request(`${gateway.url}/v1/projects/${projectId}/source`, { headers: owner })).status,
      ).toBe(200);
      expect(
        (await request(`${gateway.url}/v1/projects/${projectId}/source`, { headers: outsider })).status,
      ).toBe(404);
    }

    expect(projectService.lookups).toHaveLength(2);
    expect(sourceService.received).toHaveLength(3);
  });

  it('when two gateway instances share Redis, then an answer one of them cached serves the other', async () => {
    const prefix = `tolk-test:${randomUUID()}:membership`;
    const first = await gatewayWith({ MEMBERSHIP_CACHE_KEY_PREFIX: prefix });
    const second = await gatewayWith({ MEMBERSHIP_CACHE_KEY_PREFIX: prefix });
    const { projectId, ownerId } = newProject();
    const headers = await tokenFor(ownerId);

    expect((await request(`${first.url}/v1/projects/${projectId}/source`, { headers })).status).toBe(200);
    expect((await request(`${second.url}/v1/projects/${projectId}/source`, { headers })).status).toBe(200);

    expect(projectService.lookups).toHaveLength(1);
  });

  it('when a cached "not a member" expires, then a user added since gets through', async () => {
    const gateway = await gatewayWith({ MEMBERSHIP_CACHE_NEGATIVE_TTL_SECONDS: '1' });
    const { projectId } = newProject();
    const newcomerId = `user-${randomUUID()}`;
    const headers = await tokenFor(newcomerId);
    const path = `${gateway.url}/v1/projects/${projectId}/source`;

    expect((await request(path, { headers })).status).toBe(404);
    members.add(projectId, newcomerId);
    // Within the TTL the cached answer stands (no event in this test).
    expect((await request(path, { headers })).status).toBe(404);
    expect(projectService.lookups).toHaveLength(1);

    await expect
      .poll(async () => (await request(path, { headers })).status, { timeout: 2500, interval: 25 })
      .toBe(200);
  });

  it('when project-service refuses connections, then 503 SERVICE_UNAVAILABLE and nothing is forwarded', async () => {
    const gateway = await gatewayWith({ PROJECT_SERVICE_URL: REFUSING_URL }, { waitForRedis: false });

    const response = await request(`${gateway.url}/v1/projects/prj_1/source`, {
      headers: await tokenFor('u'),
    });

    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: 'The project service is unavailable' },
    });
    expect(sourceService.received).toHaveLength(0);
  });

  it('when project-service answers with an error, then 503 and the answer is not cached', async () => {
    let failing = true;
    const flaky = await listen((req, res) => {
      const fail = failing && req.url !== '/healthz';
      res
        .writeHead(fail ? 500 : 200, { 'content-type': 'application/json' })
        .end(fail ? '{"error":{"code":"INTERNAL_ERROR","message":"boom"}}' : '{"role":"owner"}');
    });
    running.push(flaky);
    const gateway = await gatewayWith({ PROJECT_SERVICE_URL: flaky.url });
    const headers = await tokenFor('u');

    const broken = await request(`${gateway.url}/v1/projects/prj_1/source`, { headers });
    failing = false;
    const healed = await request(`${gateway.url}/v1/projects/prj_1/source`, { headers });

    expect(broken.status).toBe(503);
    expect(broken.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(healed.status).toBe(200);
  });

  it('when project-service answers 503 with Retry-After (its database restarting), then the gateway passes the Retry-After on', async () => {
    const restarting = await listen((req, res) => {
      if (req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
        return;
      }
      res
        .writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' })
        .end('{"error":{"code":"SERVICE_UNAVAILABLE","message":"database unavailable"}}');
    });
    running.push(restarting);
    const gateway = await gatewayWith({ PROJECT_SERVICE_URL: restarting.url });

    const response = await request(`${gateway.url}/v1/projects/prj_1/source`, {
      headers: await tokenFor('u'),
    });

    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(response.headers.get('retry-after')).toBe('2');
    expect(sourceService.received).toHaveLength(0);
  });

  it('when project-service is too slow, then 504 GATEWAY_TIMEOUT', async () => {
    const slow = await listen((_req, res) => {
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"role":"owner"}'),
        1000,
      );
    });
    running.push(slow);
    const gateway = await gatewayWith({ PROJECT_SERVICE_URL: slow.url, MEMBERSHIP_LOOKUP_TIMEOUT_MS: '100' });

    const response = await request(`${gateway.url}/v1/projects/prj_1/source`, {
      headers: await tokenFor('u'),
    });

    expect(response.status).toBe(504);
    expect(response.body).toEqual({
      error: { code: 'GATEWAY_TIMEOUT', message: 'The project service did not answer in time' },
    });
    expect(sourceService.received).toHaveLength(0);
  });

  it('when Redis is unreachable, then every request asks project-service and the answers stay right', async () => {
    const gateway = await gatewayWith({ REDIS_URL: 'redis://127.0.0.1:1' });
    const { projectId, ownerId } = newProject();
    const owner = await tokenFor(ownerId);
    const outsider = await tokenFor(`user-${randomUUID()}`);
    const path = `${gateway.url}/v1/projects/${projectId}/source`;

    for (let n = 0; n < 2; n++) {
      expect((await request(path, { headers: owner })).status).toBe(200);
      expect((await request(path, { headers: outsider })).status).toBe(404);
    }
    expect(projectService.lookups).toHaveLength(4);
  });

  it('when Redis dies after answers were cached, then changes are seen at once and nothing fails', async () => {
    const redis = await startOwnRedis();
    running.push({ close: redis.kill });
    const gateway = await gatewayWith({ REDIS_URL: redis.url });
    await redisConnected(gateway.url);
    const { projectId, ownerId } = newProject();
    const headers = await tokenFor(ownerId);
    const path = `${gateway.url}/v1/projects/${projectId}/source`;
    expect((await request(path, { headers })).status).toBe(200);

    await redis.kill();
    members.remove(projectId, ownerId);

    const response = await request(path, { headers });
    expect(response.status).toBe(404);
    expect(projectService.lookups).toHaveLength(2);
  });
});

describe.skipIf(!realServers().redis)('membership cache generations', () => {
  const redisUrl = inject('infrastructure').redisUrl;
  let redis: ReturnType<typeof createRedisClient>;

  beforeAll(async () => {
    redis = createRedisClient(redisUrl, { commandTimeoutMs: 1000, logger: silent });
    await once(redis, 'ready');
  });
  afterAll(async () => {
    await redis.quit();
  });

  function cacheWith(lookup: MembershipLookup) {
    return createMembershipCache({
      redis,
      keyPrefix: `tolk-test:${randomUUID()}:membership`,
      memberTtlSeconds: 3600,
      nonMemberTtlSeconds: 3600,
      lookup,
      logger: silent,
    });
  }

  it('when a project is evicted, then every user of it is asked again', async () => {
    let asked = 0;
    const cache = cacheWith(async () => {
      asked++;
      return { role: 'member' };
    });

    await cache.membershipOf('prj_a', 'u1');
    await cache.membershipOf('prj_a', 'u2');
    await cache.membershipOf('prj_b', 'u1');
    expect(asked).toBe(3);
    await cache.membershipOf('prj_a', 'u1');
    expect(asked).toBe(3);

    await cache.evictProject('prj_a');
    await cache.membershipOf('prj_a', 'u1');
    await cache.membershipOf('prj_a', 'u2');
    await cache.membershipOf('prj_b', 'u1');
    expect(asked).toBe(5);
  });

  it('when an eviction lands while a lookup is in flight, then the stale answer of that lookup is not served later', async () => {
    let member = true;
    let release: () => void = () => {};
    let lookups = 0;
    const cache = cacheWith(async () => {
      lookups++;
      const answer = member ? { role: 'member' } : null;
      await new Promise<void>((resolve) => (release = resolve));
      return answer;
    });

    const inFlight = cache.membershipOf('prj_a', 'u1');
    await expect.poll(() => lookups).toBe(1);
    // The member is removed and the eviction arrives before the old answer is written.
    member = false;
    await cache.evictProject('prj_a');
    release();
    expect(await inFlight).toEqual({ role: 'member' });

    const next = cache.membershipOf('prj_a', 'u1');
    await expect.poll(() => lookups).toBe(2);
    release();
    expect(await next).toBeNull();
  });
});
