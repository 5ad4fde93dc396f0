/**
 * Projects through the one public entry: the real gateway in front of the real identity- and
 * project-service, on real Postgres, RabbitMQ and Redis — create, list, share by email, leave,
 * delete, as a dashboard or the CLI would.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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

describe('projects through the gateway', () => {
  const infrastructure = inject('infrastructure');
  const internalSecret = randomUUID() + randomUUID();
  const silent = createLogger({ name: 'e2e', level: 'silent' });
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let identityDb: Db;
  let projectDb: Db;
  let bus: Bus;
  let relay: OutboxRelay;
  const servers: Array<Awaited<ReturnType<typeof listen>>> = [];
  let gateway: ReturnType<typeof createGatewayApp>;
  let base: string;

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
    const project = await listen(
      projectService.createProjectApp({
        config: loadProjectConfig({
          DATABASE_URL: database.url,
          AMQP_URL: infrastructure.amqpUrl,
          INTERNAL_JWT_SECRET: internalSecret,
          IDENTITY_SERVICE_URL: identity.url,
        }),
        db: projectDb,
        bus,
        logger: silent,
      }),
    );
    servers.push(project);
    gateway = createGatewayApp({
      config: loadGatewayConfig({
        JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        INTERNAL_JWT_SECRET: internalSecret,
        IDENTITY_SERVICE_URL: identity.url,
        PROJECT_SERVICE_URL: project.url,
        REDIS_URL: infrastructure.redisUrl,
        RATE_LIMIT_KEY_PREFIX: `tolk-e2e:${randomUUID()}`,
      }),
      logger: silent,
    });
    const gatewayServer = await listen(gateway.app);
    servers.push(gatewayServer);
    base = gatewayServer.url;
  });

  afterAll(async () => {
    for (const server of servers.reverse()) await server.close();
    await gateway?.close();
    await relay?.stop();
    await bus?.close();
    await projectDb?.close();
    await identityDb?.close();
    await database?.drop();
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

  it('when a user creates a project and shares it by email, then both see it with their roles', async () => {
    const owner = await signUp();
    const colleague = await signUp();
    const outsider = await signUp();

    const created = await call('POST', '/v1/projects', owner.token, { name: 'App', sourceLocale: 'pt-br' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'App', sourceLocale: 'pt-BR', role: 'owner' });
    const projectPath = `/v1/projects/${created.body.projectId}`;

    const added = await call('POST', `${projectPath}/members`, owner.token, { email: colleague.email });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ userId: colleague.userId, email: colleague.email, role: 'member' });

    const listed = await call('GET', '/v1/projects', colleague.token);
    expect(listed.body.projects).toEqual([{ ...created.body, role: 'member' }]);
    const members = await call('GET', `${projectPath}/members`, colleague.token);
    expect(members.body.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'member']);

    expect((await call('GET', projectPath, outsider.token)).status).toBe(404);
    expect((await call('PATCH', projectPath, colleague.token, { name: 'Mine' })).status).toBe(403);

    expect((await call('DELETE', `${projectPath}/members/${colleague.userId}`, colleague.token)).status).toBe(
      204,
    );
    expect((await call('GET', projectPath, colleague.token)).status).toBe(404);

    expect((await call('DELETE', projectPath, owner.token)).status).toBe(204);
    expect((await call('GET', projectPath, owner.token)).status).toBe(404);
  });

  it('when a client asks the gateway for an internal route, then it is not there', async () => {
    const owner = await signUp();
    const created = await call('POST', '/v1/projects', owner.token, { name: 'App', sourceLocale: 'en' });
    const internal = await call(
      'GET',
      `/internal/projects/${created.body.projectId}/members/${owner.userId}`,
      owner.token,
    );
    expect(internal.status).toBe(404);
    const viaPath = await call(
      'GET',
      `/v1/projects/${created.body.projectId}/members/../../../internal/users`,
      owner.token,
    );
    expect(viaPath.status).toBe(404);
  });

  it('without a token, then 401 from the gateway', async () => {
    const response = await call('GET', '/v1/projects');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });
});
