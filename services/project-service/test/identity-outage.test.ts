import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '@tolk/testing';
import { expectError, startProjectService, uniqueEmail, type ProjectService } from './project-harness.js';

/** Members are added and listed through identity-service; when it fails, so do those routes. */
describe('when identity-service is down', () => {
  let service: ProjectService;
  beforeAll(async () => {
    service = await startProjectService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('then listing and adding members answer 503 SERVICE_UNAVAILABLE; projects still work', async () => {
    const owner = await service.signUp();
    const newcomer = await service.signUp();
    const project = await service.createProject(owner.userId);
    await service.stopIdentity();
    const as = await service.as(owner.userId);

    const list = await service.call('GET', `/v1/projects/${project.projectId}/members`, { as });
    expectError(list, 503, 'SERVICE_UNAVAILABLE');
    const add = await service.call('POST', `/v1/projects/${project.projectId}/members`, {
      as,
      body: { email: newcomer.email },
    });
    expectError(add, 503, 'SERVICE_UNAVAILABLE');
    expect(add.text).not.toContain('127.0.0.1');

    expect((await service.call('GET', `/v1/projects/${project.projectId}`, { as })).status).toBe(200);
    expect(
      (await service.call('PATCH', `/v1/projects/${project.projectId}`, { as, body: { name: 'x' } })).status,
    ).toBe(200);
    const { rows } = await service.db.query(`SELECT user_id FROM project_members WHERE project_id = $1`, [
      project.projectId,
    ]);
    expect(rows).toEqual([{ user_id: owner.userId }]);
  });

  it('then a member or non-member still gets 403 / 404 first, without asking identity-service', async () => {
    // identity-service is gone by now: users are plain ids here.
    const project = await service.createProject('usr_owner');
    await service.db.query(
      `INSERT INTO project_members (project_id, user_id, role, added_at) VALUES ($1, 'usr_member', 'member', now())`,
      [project.projectId],
    );
    const path = `/v1/projects/${project.projectId}/members`;
    const body = { email: uniqueEmail() };
    expectError(
      await service.call('POST', path, { as: await service.as('usr_member'), body }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await service.call('POST', path, { as: await service.as('usr_outsider'), body }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('when identity-service misbehaves', () => {
  const sockets = new Set<import('node:net').Socket>();
  let hanging: Awaited<ReturnType<typeof listen>>;
  let failing: Awaited<ReturnType<typeof listen>>;
  let slowService: ProjectService;
  let failingService: ProjectService;

  beforeAll(async () => {
    // Accepts and never answers.
    hanging = await listen((req) => {
      sockets.add(req.socket);
    });
    // Answers, but not with what was asked for.
    failing = await listen((_req, res: http.ServerResponse) => {
      res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>');
    });
    slowService = await startProjectService({ identityUrl: hanging.url, identityTimeoutMs: 300 });
    failingService = await startProjectService({ identityUrl: failing.url });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await slowService?.close();
    await failingService?.close();
    await hanging?.close();
    await failing?.close();
  });

  it('when it does not answer in time, then 504 GATEWAY_TIMEOUT after the configured timeout', async () => {
    const project = await slowService.createProject('usr_owner');
    const started = Date.now();
    const response = await slowService.call('GET', `/v1/projects/${project.projectId}/members`, {
      as: await slowService.as('usr_owner'),
    });
    expectError(response, 504, 'GATEWAY_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('when it answers with an error page, then 503 SERVICE_UNAVAILABLE', async () => {
    const project = await failingService.createProject('usr_owner');
    const as = await failingService.as('usr_owner');
    const list = await failingService.call('GET', `/v1/projects/${project.projectId}/members`, { as });
    expectError(list, 503, 'SERVICE_UNAVAILABLE');
    const add = await failingService.call('POST', `/v1/projects/${project.projectId}/members`, {
      as,
      body: { email: uniqueEmail() },
    });
    expectError(add, 503, 'SERVICE_UNAVAILABLE');
    expect(add.text).not.toContain('oops');
  });
});
