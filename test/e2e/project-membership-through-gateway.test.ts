/**
 * The gateway's membership check in front of the real project-service, on real Postgres,
 * RabbitMQ and Redis: only members reach a project's routes, and the cached answers follow
 * membership changes and deletions through project-service's events — not through TTLs, which
 * are an hour here. source-service is a stand-in that records what reaches it.
 */
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { consumerQueueNames } from '@tolk/bus';
import { realServers, request } from '@tolk/testing';
import { startSystem, type System } from './system.js';

/** How long an eviction may take from the change to the gateway: "within about a second". */
const EVICTION_BOUND_MS = 1500;

// The gateway caches memberships in Redis and is told of changes through RabbitMQ.
const withoutServers = !realServers().redis || !realServers().rabbitmq;

describe.skipIf(withoutServers)('project membership through the gateway', () => {
  const evictionQueue = `test.gateway.membership-cache.${randomUUID()}`;
  let system: System;
  /** Requests that reached the source-service stand-in. */
  const sourceRequests: string[] = [];
  /** Membership lookups that reached project-service. */
  let lookups = 0;

  beforeAll(async () => {
    system = await startSystem({
      wrapProjectService: (app) => (req, res) => {
        if (req.url?.startsWith('/internal/projects/')) lookups++;
        app(req, res);
      },
      standIns: {
        source: (req, res) => {
          if (req.url !== '/healthz') sourceRequests.push(`${req.method} ${req.url}`);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        },
      },
      gatewayEnv: {
        AMQP_URL: inject('infrastructure').amqpUrl,
        MEMBERSHIP_EVENTS_QUEUE: evictionQueue,
        // An hour: whatever changes an answer within a test is the event's doing.
        MEMBERSHIP_CACHE_TTL_SECONDS: '3600',
        MEMBERSHIP_CACHE_NEGATIVE_TTL_SECONDS: '3600',
      },
      gatewayConsumers: true,
    });
    // Answers are cached only once Redis is up.
    await vi.waitFor(async () => expect((await request(`${system.base}/readyz`)).body?.redis).toBe('up'), {
      timeout: 5000,
      interval: 25,
    });
  });

  afterAll(async () => {
    await system?.close();
    const connection = await amqp.connect(inject('infrastructure').amqpUrl);
    const channel = await connection.createChannel();
    for (const queue of consumerQueueNames(evictionQueue)) await channel.deleteQueue(queue).catch(() => {});
    await connection.close();
  });

  beforeEach(() => {
    sourceRequests.length = 0;
  });

  const call: System['call'] = (...args) => system.call(...args);
  const signUp = () => system.signUp();

  async function createProject(owner: { token: string }): Promise<string> {
    const created = await call('POST', '/v1/projects', owner.token, { name: 'App', sourceLocale: 'en' });
    expect(created.status).toBe(201);
    return created.body.projectId;
  }

  it('when a member asks, then the request is forwarded; a non-member or a missing project gets 404 and source-service sees nothing', async () => {
    const owner = await signUp();
    const outsider = await signUp();
    const projectId = await createProject(owner);

    expect((await call('GET', `/v1/projects/${projectId}/source`, owner.token)).status).toBe(200);
    expect(sourceRequests).toEqual([`GET /v1/projects/${projectId}/source`]);

    sourceRequests.length = 0;
    for (const path of [`/v1/projects/${projectId}/source`, `/v1/projects/prj_${'0'.repeat(32)}/source`]) {
      const response = await call('PUT', path, outsider.token, { greeting: 'hi' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Project not found' } });
    }
    expect((await call('GET', `/v1/projects/${projectId}`, outsider.token)).status).toBe(404);
    expect(sourceRequests).toEqual([]);
  });

  it('when an answer is cached, then project-service is not asked again', async () => {
    const owner = await signUp();
    const projectId = await createProject(owner);

    const before = lookups;
    for (let n = 0; n < 5; n++) {
      expect((await call('GET', `/v1/projects/${projectId}/source`, owner.token)).status).toBe(200);
    }
    expect(lookups - before).toBe(1);
  });

  it('when a non-member is added, then the cached 404 is evicted and access works within about a second', async () => {
    const owner = await signUp();
    const colleague = await signUp();
    const projectId = await createProject(owner);
    const sourcePath = `/v1/projects/${projectId}/source`;
    expect((await call('GET', sourcePath, colleague.token)).status).toBe(404);

    const added = await call('POST', `/v1/projects/${projectId}/members`, owner.token, {
      email: colleague.email,
    });
    expect(added.status).toBe(201);

    await expect
      .poll(async () => (await call('GET', sourcePath, colleague.token)).status, {
        timeout: EVICTION_BOUND_MS,
        interval: 25,
      })
      .toBe(200);
  });

  it('when a member is removed, then 404 within about a second although the cached answer would live an hour', async () => {
    const owner = await signUp();
    const colleague = await signUp();
    const projectId = await createProject(owner);
    await call('POST', `/v1/projects/${projectId}/members`, owner.token, { email: colleague.email });
    const sourcePath = `/v1/projects/${projectId}/source`;
    await expect
      .poll(async () => (await call('GET', sourcePath, colleague.token)).status, {
        timeout: EVICTION_BOUND_MS,
        interval: 25,
      })
      .toBe(200);

    const removed = await call(
      'DELETE',
      `/v1/projects/${projectId}/members/${colleague.userId}`,
      owner.token,
    );
    expect(removed.status).toBe(204);

    await expect
      .poll(async () => (await call('GET', sourcePath, colleague.token)).status, {
        timeout: EVICTION_BOUND_MS,
        interval: 25,
      })
      .toBe(404);
    // The owner's cached membership went with the eviction and came back with a fresh lookup.
    expect((await call('GET', sourcePath, owner.token)).status).toBe(200);
  });

  it('when a project is deleted, then even its owner gets 404 from the gateway within about a second', async () => {
    const owner = await signUp();
    const colleague = await signUp();
    const projectId = await createProject(owner);
    await call('POST', `/v1/projects/${projectId}/members`, owner.token, { email: colleague.email });
    const sourcePath = `/v1/projects/${projectId}/source`;
    await expect
      .poll(async () => (await call('GET', sourcePath, colleague.token)).status, {
        timeout: EVICTION_BOUND_MS,
        interval: 25,
      })
      .toBe(200);
    expect((await call('GET', sourcePath, owner.token)).status).toBe(200);

    expect((await call('DELETE', `/v1/projects/${projectId}`, owner.token)).status).toBe(204);

    await expect
      .poll(
        async () => [
          (await call('GET', sourcePath, owner.token)).status,
          (await call('GET', sourcePath, colleague.token)).status,
        ],
        { timeout: EVICTION_BOUND_MS, interval: 25 },
      )
      .toEqual([404, 404]);
    sourceRequests.length = 0;
    expect((await call('PUT', sourcePath, owner.token, { a: 'b' })).status).toBe(404);
    expect(sourceRequests).toEqual([]);
  });
});
