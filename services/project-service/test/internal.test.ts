import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_CALLER_HEADER } from '@tolk/contracts';
import { createInternalCallerSigner } from '@tolk/http';
import { internalProjectResponseSchema, membershipResponseSchema } from '@tolk/contracts';
import { expectError, startProjectService, type ProjectService } from './project-harness.js';

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService();
});
afterAll(async () => {
  await service?.close();
});

async function membership(projectId: string, userId: string, as?: Record<string, string>) {
  return service.call('GET', `/internal/projects/${projectId}/members/${userId}`, {
    as: as ?? (await service.asInternalCaller()),
  });
}

describe('GET /internal/projects/:projectId/members/:userId', () => {
  it("when the user is a member, then 200 with exactly the project, the user and the user's role", async () => {
    const owner = await service.signUp();
    const member = await service.signUp();
    const project = await service.createProject(owner.userId);
    await service.addMember(owner.userId, project.projectId, member.email);

    for (const [user, role] of [
      [owner, 'owner'],
      [member, 'member'],
    ] as const) {
      const response = await membership(project.projectId, user.userId);
      expect(response.status).toBe(200);
      expect(membershipResponseSchema.parse(response.body)).toStrictEqual({
        projectId: project.projectId,
        userId: user.userId,
        role,
      });
    }
  });

  it('when the user is not a member, was removed, or the project is gone, then 404 NOT_FOUND', async () => {
    const owner = await service.signUp();
    const member = await service.signUp();
    const outsider = await service.signUp();
    const project = await service.createProject(owner.userId);
    await service.addMember(owner.userId, project.projectId, member.email);

    expectError(await membership(project.projectId, outsider.userId), 404, 'NOT_FOUND');
    expectError(await membership('prj_missing', owner.userId), 404, 'NOT_FOUND');
    expectError(await membership(project.projectId, '%00'), 404, 'NOT_FOUND');

    await service.call('DELETE', `/v1/projects/${project.projectId}/members/${member.userId}`, {
      as: await service.as(owner.userId),
    });
    expectError(await membership(project.projectId, member.userId), 404, 'NOT_FOUND');

    await service.call('DELETE', `/v1/projects/${project.projectId}`, { as: await service.as(owner.userId) });
    expectError(await membership(project.projectId, owner.userId), 404, 'NOT_FOUND');
  });

  it('when no internal caller token is sent, then 401 UNAUTHORIZED', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    expectError(await membership(project.projectId, owner.userId, {}), 401, 'UNAUTHORIZED');
  });

  it("when only a user's principal is sent, even the member's own, then 401 UNAUTHORIZED", async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    const response = await membership(project.projectId, owner.userId, await service.as(owner.userId));
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('when the caller token is forged or garbage, then 401 UNAUTHORIZED', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    const forged = await createInternalCallerSigner('an-attacker-secret-that-is-long-enough!!', 'gateway')();
    for (const value of [forged, 'gateway', '']) {
      const response = await membership(project.projectId, owner.userId, { [INTERNAL_CALLER_HEADER]: value });
      expectError(response, 401, 'UNAUTHORIZED');
    }
  });

  it('when the method is not GET, then 405 METHOD_NOT_ALLOWED', async () => {
    const response = await service.call('DELETE', '/internal/projects/prj_x/members/usr_x', {
      as: await service.asInternalCaller(),
    });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('GET /internal/projects/:projectId', () => {
  async function describeProject(projectId: string, as?: Record<string, string>) {
    return service.call('GET', `/internal/projects/${projectId}`, {
      as: as ?? (await service.asInternalCaller()),
    });
  }

  it('when the project exists, then 200 with exactly its id, name, source locale, plural setting and updatedAt', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId, { name: 'Shop', sourceLocale: 'pt-br' });

    const response = await describeProject(project.projectId);
    expect(response.status).toBe(200);
    expect(internalProjectResponseSchema.parse(response.body)).toStrictEqual({
      projectId: project.projectId,
      name: 'Shop',
      sourceLocale: 'pt-BR',
      i18nextPlurals: true,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
      updatedAt: project.updatedAt,
    });
  });

  it('when the source locale and the plural setting were changed, then the answer carries the new ones and the new updatedAt', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    const patched = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
      body: { sourceLocale: 'de', settings: { i18nextPlurals: false } },
    });
    expect(patched.status).toBe(200);

    const response = await describeProject(project.projectId);
    expect(response.body).toStrictEqual({
      projectId: project.projectId,
      name: project.name,
      sourceLocale: 'de',
      i18nextPlurals: false,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
      updatedAt: patched.body.updatedAt,
    });
  });

  it('when the project does not exist, was deleted or the id is implausible, then 404 NOT_FOUND', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    await service.call('DELETE', `/v1/projects/${project.projectId}`, { as: await service.as(owner.userId) });

    expectError(await describeProject(project.projectId), 404, 'NOT_FOUND');
    expectError(await describeProject('prj_missing'), 404, 'NOT_FOUND');
    expectError(await describeProject('%00'), 404, 'NOT_FOUND');
  });

  it('when no internal caller token is sent, only a user principal, then 401 UNAUTHORIZED', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    expectError(await describeProject(project.projectId, {}), 401, 'UNAUTHORIZED');
    expectError(
      await describeProject(project.projectId, await service.as(owner.userId)),
      401,
      'UNAUTHORIZED',
    );
  });

  it('when the method is not GET, then 405 METHOD_NOT_ALLOWED', async () => {
    const response = await service.call('DELETE', '/internal/projects/prj_x', {
      as: await service.asInternalCaller(),
    });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
