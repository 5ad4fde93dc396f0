/**
 * The gateway's membership check in front of the real project-service, on real Postgres,
 * RabbitMQ and Redis: only members reach a project's routes, and the cached answers follow
 * membership changes and deletions through project-service's events — not through TTLs, which
 * are an hour here. source-service is a stand-in that records what reaches it.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createRabbitBus, startOutboxRelay, type Bus, type OutboxRelay } from '@tolk/bus';
import { createPgDb, migrate, type Db } from '@tolk/db';
import { createLogger } from '@tolk/logger';
import { createTestDatabase, listen, request } from '@tolk/testing';
import { createGatewayApp } from '../../gateway/src/app.js';
import { loadGatewayConfig } from '../../gateway/src/config.js';
import * as identityService from '../../services/identity-service/src/app.js';
import { loadIdentityConfig } from '../../services/identity-service/src/config.js';
import * as projectService from '../../services/project-service/src/app.js';
import { loadProjectConfig } from '../../services/project-service/src/config.js';

/** How long an eviction may take from the change to the gateway: "within about a second". */
const EVICTION_BOUND_MS = 1500;

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Date.now() - started;
}

describe('project membership through the gateway', () => {
  const infrastructure = inject('infrastructure');
  const internalSecret = randomUUID() + randomUUID();
  const silent = createLogger({ name: 'e2e', level: 'silent' });
  const evictionQueue = `test.gateway.membership-cache.${randomUUID()}`;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let identityDb: Db;
  let projectDb: Db;
  let bus: Bus;
  let relay: OutboxRelay;
  const servers: Array<Awaited<ReturnType<typeof listen>>> = [];
  let gateway: ReturnType<typeof createGatewayApp>;
  let base: string;
  /** Requests that reached the source-service stand-in. */
  const sourceRequests: string[] = [];
  /** Membership lookups that reached project-service. */
  let lookups = 0;

  beforeAll(async () => {
    database = await createTestDatabase(infrastructure.postgresUrl);
    identityDb = createPgDb({ url: database.url, schema: identityService.IDENTITY_SCHEMA });
    await migrate(identityDb, identityService.MIGRATIONS_DIR);
    projectDb = createPgDb({ url: database.url, schema: projectService.PROJECTS_SCHEMA });
    await migrate(projectDb, projectService.MIGRATIONS_DIR);

    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const identity = await listen(
      identityService.createIdentityApp({
        config: loadIdentityConfig({
          DATABASE_URL: database.url,
          INTERNAL_JWT_SECRET: internalSecret,
          JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        }),
        db: identityDb,
        logger: silent,
      }),
    );
    servers.push(identity);
    bus = createRabbitBus({ url: infrastructure.amqpUrl, logger: silent, producer: 'project-service' });
    relay = await startOutboxRelay({ db: projectDb, bus, logger: silent });
    const projectApp = projectService.createProjectApp({
      config: loadProjectConfig({
        DATABASE_URL: database.url,
        AMQP_URL: infrastructure.amqpUrl,
        INTERNAL_JWT_SECRET: internalSecret,
        IDENTITY_SERVICE_URL: identity.url,
      }),
      db: projectDb,
      bus,
      logger: silent,
    });
    const project = await listen((req, res) => {
      if (req.url?.startsWith('/internal/projects/')) lookups++;
      projectApp(req, res);
    });
    servers.push(project);
    const source = await listen((req, res) => {
      if (req.url !== '/healthz') sourceRequests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    servers.push(source);

    gateway = createGatewayApp({
      config: loadGatewayConfig({
        JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        INTERNAL_JWT_SECRET: internalSecret,
        IDENTITY_SERVICE_URL: identity.url,
        PROJECT_SERVICE_URL: project.url,
        SOURCE_SERVICE_URL: source.url,
        REDIS_URL: infrastructure.redisUrl,
        AMQP_URL: infrastructure.amqpUrl,
        RATE_LIMIT_KEY_PREFIX: `tolk-e2e:${randomUUID()}`,
        MEMBERSHIP_CACHE_KEY_PREFIX: `tolk-e2e:${randomUUID()}:membership`,
        MEMBERSHIP_EVENTS_QUEUE: evictionQueue,
        // An hour: whatever changes an answer within a test is the event's doing.
        MEMBERSHIP_CACHE_TTL_SECONDS: '3600',
        MEMBERSHIP_CACHE_NEGATIVE_TTL_SECONDS: '3600',
      }),
      logger: silent,
    });
    await gateway.startConsumers();
    const gatewayServer = await listen(gateway.app);
    servers.push(gatewayServer);
    base = gatewayServer.url;
    // Answers are cached only once Redis is up.
    await eventually(async () => (await request(`${base}/readyz`)).body?.redis === 'up', 5000);
  });

  afterAll(async () => {
    for (const server of servers.reverse()) await server.close();
    await gateway?.close();
    await relay?.stop();
    await bus?.close();
    await projectDb?.close();
    await identityDb?.close();
    await database?.drop();
    const connection = await amqp.connect(infrastructure.amqpUrl);
    const channel = await connection.createChannel();
    for (const queue of [evictionQueue, `${evictionQueue}.dlq`])
      await channel.deleteQueue(queue).catch(() => {});
    await connection.close();
  });

  beforeEach(() => {
    sourceRequests.length = 0;
  });

  const call = (method: string, path: string, token?: string, body?: unknown) =>
    request(`${base}${path}`, { method, body, headers: token ? { authorization: `Bearer ${token}` } : {} });

  async function signUp(): Promise<{ email: string; token: string; userId: string }> {
    const email = `user-${randomUUID()}@example.com`;
    const response = await call('POST', '/v1/auth/signup', undefined, {
      email,
      password: 'correct horse battery',
    });
    expect(response.status).toBe(201);
    return { email, token: response.body.accessToken, userId: response.body.user.userId };
  }

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

    await eventually(
      async () => (await call('GET', sourcePath, colleague.token)).status === 200,
      EVICTION_BOUND_MS,
    );
  });

  it('when a member is removed, then 404 within about a second although the cached answer would live an hour', async () => {
    const owner = await signUp();
    const colleague = await signUp();
    const projectId = await createProject(owner);
    await call('POST', `/v1/projects/${projectId}/members`, owner.token, { email: colleague.email });
    const sourcePath = `/v1/projects/${projectId}/source`;
    await eventually(
      async () => (await call('GET', sourcePath, colleague.token)).status === 200,
      EVICTION_BOUND_MS,
    );

    const removed = await call(
      'DELETE',
      `/v1/projects/${projectId}/members/${colleague.userId}`,
      owner.token,
    );
    expect(removed.status).toBe(204);

    await eventually(
      async () => (await call('GET', sourcePath, colleague.token)).status === 404,
      EVICTION_BOUND_MS,
    );
    // The owner's cached membership went with the eviction and came back with a fresh lookup.
    expect((await call('GET', sourcePath, owner.token)).status).toBe(200);
  });

  it('when a project is deleted, then even its owner gets 404 from the gateway within about a second', async () => {
    const owner = await signUp();
    const colleague = await signUp();
    const projectId = await createProject(owner);
    await call('POST', `/v1/projects/${projectId}/members`, owner.token, { email: colleague.email });
    const sourcePath = `/v1/projects/${projectId}/source`;
    await eventually(
      async () => (await call('GET', sourcePath, colleague.token)).status === 200,
      EVICTION_BOUND_MS,
    );
    expect((await call('GET', sourcePath, owner.token)).status).toBe(200);

    expect((await call('DELETE', `/v1/projects/${projectId}`, owner.token)).status).toBe(204);

    await eventually(
      async () =>
        (await call('GET', sourcePath, owner.token)).status === 404 &&
        (await call('GET', sourcePath, colleague.token)).status === 404,
      EVICTION_BOUND_MS,
    );
    sourceRequests.length = 0;
    expect((await call('PUT', sourcePath, owner.token, { a: 'b' })).status).toBe(404);
    expect(sourceRequests).toEqual([]);
  });
});
