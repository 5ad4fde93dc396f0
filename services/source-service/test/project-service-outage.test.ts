import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_CALLER_HEADER } from '@tolk/contracts';
import { listen, settled } from '@tolk/testing';
import { expectError, startSourceService, type SourceService } from './source-harness.js';

/** A project id project-service never announced: source-service has to ask for it. */
function unknownProjectId(): string {
  return `prj_${randomUUID().replaceAll('-', '')}`;
}

const path = (projectId: string) => `/v1/projects/${projectId}/source`;

async function isRemembered(service: SourceService, projectId: string): Promise<boolean> {
  const { rows } = await service.db.query(`SELECT 1 FROM projects WHERE project_id = $1`, [projectId]);
  return rows.length > 0;
}

describe('when project-service is down', () => {
  let service: SourceService;
  beforeAll(async () => {
    // A port that refuses connections: something listened there a moment ago.
    const gone = await listen(() => undefined);
    await gone.close();
    service = await startSourceService({ env: { PROJECT_SERVICE_URL: gone.url } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('when the project is not known here yet, then PUT and GET answer 503 SERVICE_UNAVAILABLE and nothing is stored', async () => {
    const projectId = unknownProjectId();
    const as = await service.as('usr_owner');
    const put = await service.call('PUT', path(projectId), { as, body: { a: 'A' } });
    expectError(put, 503, 'SERVICE_UNAVAILABLE');
    expect(put.text).not.toContain('127.0.0.1');
    expectError(await service.call('GET', path(projectId), { as }), 503, 'SERVICE_UNAVAILABLE');
    expectError(await service.call('GET', `${path(projectId)}/versions`, { as }), 503, 'SERVICE_UNAVAILABLE');
    expect(await isRemembered(service, projectId)).toBe(false);
    expect(service.logLines.some((line) => line.includes('project-service is not reachable'))).toBe(true);
  });

  it('when the project is known from its events, then reads work without project-service, and an upload answers 503 and stores nothing: its sender cannot be confirmed a member', async () => {
    const { projectId, owner } = await service.createProject({ sourceLocale: 'pt-br' });
    await expect
      .poll(async () => await isRemembered(service, projectId), {
        ...settled,
        message: 'ProjectCreated applied',
      })
      .toBe(true);
    const dryRun = await service.call('PUT', `${path(projectId)}?dryRun=true`, {
      as: owner,
      body: { a: 'A' },
    });
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.version).toBe(1);
    const put = await service.call('PUT', path(projectId), { as: owner, body: { a: 'A' } });
    expectError(put, 503, 'SERVICE_UNAVAILABLE');
    expect(put.body.error.message).toBe('The project directory is unavailable; try again shortly');
    expectError(await service.call('GET', path(projectId), { as: owner }), 404, 'NOT_FOUND');
    expect(await service.outboxRows(projectId)).toStrictEqual([]);
  });
});

describe('when project-service misbehaves', () => {
  const TIMEOUT_MS = 300;
  const sockets = new Set<Socket>();
  const asked: Array<{ url: string | undefined; caller: string | undefined }> = [];
  // What the stand-in for project-service does with the next request; each test sets it.
  let answer: http.RequestListener = (_req, res) => res.writeHead(404).end();
  let stub: Awaited<ReturnType<typeof listen>>;
  let service: SourceService;

  beforeAll(async () => {
    stub = await listen((req, res) => {
      sockets.add(req.socket);
      asked.push({ url: req.url, caller: req.headers[INTERNAL_CALLER_HEADER] as string | undefined });
      answer(req, res);
    });
    service = await startSourceService({
      env: { PROJECT_SERVICE_URL: stub.url, PROJECT_SERVICE_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await service?.close();
    await stub?.close();
  });

  it('when it does not answer in time, then 504 GATEWAY_TIMEOUT after the configured timeout', async () => {
    answer = () => undefined;
    const projectId = unknownProjectId();
    const as = await service.as('usr_owner');
    for (const method of ['PUT', 'GET']) {
      const started = Date.now();
      const response = await service.call(method, path(projectId), {
        as,
        body: method === 'PUT' ? { a: 'A' } : undefined,
      });
      const took = Date.now() - started;
      expectError(response, 504, 'GATEWAY_TIMEOUT');
      expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(took).toBeLessThan(5_000);
    }
    expect(await isRemembered(service, projectId)).toBe(false);
  });

  it('when it answers 500, or 200 with something that is no project, then 503 SERVICE_UNAVAILABLE', async () => {
    const projectId = unknownProjectId();
    const as = await service.as('usr_owner');
    answer = (_req, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>');
    const put = await service.call('PUT', path(projectId), { as, body: { a: 'A' } });
    expectError(put, 503, 'SERVICE_UNAVAILABLE');
    expect(put.text).not.toContain('oops');
    expectError(await service.call('GET', path(projectId), { as }), 503, 'SERVICE_UNAVAILABLE');

    answer = (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ projectId }));
    expectError(
      await service.call('PUT', path(projectId), { as, body: { a: 'A' } }),
      503,
      'SERVICE_UNAVAILABLE',
    );
    expect(await isRemembered(service, projectId)).toBe(false);
  });

  it('when it answers 404, then 404 NOT_FOUND "Project not found", asked as an internal caller', async () => {
    answer = (_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"NOT_FOUND"}}');
    const projectId = unknownProjectId();
    const as = await service.as('usr_owner');
    const before = asked.length;
    for (const method of ['PUT', 'GET']) {
      const response = await service.call(method, path(projectId), {
        as,
        body: method === 'PUT' ? { a: 'A' } : undefined,
      });
      expectError(response, 404, 'NOT_FOUND');
      expect(response.body.error.message).toBe('Project not found');
    }
    expect(asked.slice(before)).toStrictEqual([
      { url: `/internal/projects/${projectId}`, caller: expect.stringMatching(/\S+/) },
      { url: `/internal/projects/${projectId}`, caller: expect.stringMatching(/\S+/) },
    ]);
    expect(await isRemembered(service, projectId)).toBe(false);
  });

  it('when it answers again after failing, then the project is found and remembered: it is asked only once', async () => {
    const projectId = unknownProjectId();
    const as = await service.as('usr_owner');
    answer = (_req, res) => res.writeHead(500).end();
    expectError(
      await service.call('PUT', path(projectId), { as, body: { a: 'A' } }),
      503,
      'SERVICE_UNAVAILABLE',
    );

    // The project, and (asked before the upload commits) the uploader's membership of it.
    answer = (req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(
            req.url?.includes('/members/')
              ? { projectId, userId: 'usr_owner', role: 'owner' }
              : { projectId, sourceLocale: 'pt-br', updatedAt: Date.now() },
          ),
        );
    const before = asked.length;
    const put = await service.call('PUT', path(projectId), { as, body: { a: 'A' } });
    expect(put.status).toBe(200);
    expect(put.body.version).toBe(1);
    const get = await service.call('GET', path(projectId), { as });
    expect(get.body).toMatchObject({ version: 1, locale: 'pt-BR' });
    expect(asked.slice(before).map(({ url }) => url)).toStrictEqual([
      `/internal/projects/${projectId}`,
      `/internal/projects/${projectId}/members/usr_owner`,
    ]);
  });
});
