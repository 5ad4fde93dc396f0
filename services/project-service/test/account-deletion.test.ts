/**
 * Deleting an account (identity-service's `DELETE /v1/user/me`) as project-service sees it: the
 * confirmation names the projects the user is the only owner of; once confirmed, UserDeleted
 * deletes those projects (ProjectDeleted) and removes the user from every other project
 * (ProjectMembershipChanged, removed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, settled } from '@tolk/testing';
import { expectError, startProjectService, type ProjectService } from './project-harness.js';

const PASSWORD = 'correct horse battery staple';

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService();
});
afterAll(async () => {
  await service?.close();
});

async function deleteAccount(userId: string, body?: unknown) {
  return request(`${service.identityUrl}/v1/user/me`, {
    method: 'DELETE',
    headers: await service.as(userId),
    body,
  });
}

/** A user who owns one project alone, owns one with someone else, and is a member of a third. */
async function userWithProjects() {
  const user = await service.signUp();
  const colleague = await service.signUp();
  const alone = await service.createProject(user.userId, { name: 'Alone "quoted"' });
  const shared = await service.createProject(user.userId, { name: 'Shared' });
  await service.addMember(user.userId, shared.projectId, colleague.email, 'owner');
  const theirs = await service.createProject(colleague.userId, { name: 'Theirs' });
  await service.addMember(colleague.userId, theirs.projectId, user.email, 'member');
  return { user, colleague, alone, shared, theirs };
}

async function roleIn(projectId: string, userId: string): Promise<string | undefined> {
  const { rows } = await service.db.query<{ role: string }>(
    `SELECT role FROM project_members WHERE project_id = $1 AND user_id = $2`,
    [projectId, userId],
  );
  return rows[0]?.role;
}

describe('DELETE /v1/user/me', () => {
  it('when there is no confirmation, then 409 CONFLICT naming the projects that would be deleted, and nothing is', async () => {
    const { user, alone, shared, theirs } = await userWithProjects();

    for (const body of [undefined, {}]) {
      const response = await deleteAccount(user.userId, body);
      expectError(response, 409, 'CONFLICT');
      const message = response.body.error.message as string;
      expect(message).toContain(
        `the project you are the only owner of, with all their data: "Alone \\"quoted\\"" (${alone.projectId})`,
      );
      expect(message).not.toContain(shared.projectId);
      expect(message).not.toContain(theirs.projectId);
      expect(message).toContain('{"confirm": "<your account\'s email>"}');
    }
    const login = await request(`${service.identityUrl}/v1/auth/login`, {
      method: 'POST',
      body: { email: user.email, password: PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(await roleIn(alone.projectId, user.userId)).toBe('owner');
  });

  it('when the user owns no project alone, then the 409 says that none is deleted', async () => {
    const user = await service.signUp();
    const response = await deleteAccount(user.userId);
    expectError(response, 409, 'CONFLICT');
    expect(response.body.error.message).toMatch(/No project is deleted with it/);
  });

  it("when the confirmation is not the account's email, then 400 VALIDATION_ERROR and nothing is deleted", async () => {
    const { user, alone } = await userWithProjects();
    for (const confirm of ['someone-else@example.com', '', 42]) {
      const response = await deleteAccount(user.userId, { confirm });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toMatch(/^body\.confirm: /);
    }
    expect(await roleIn(alone.projectId, user.userId)).toBe('owner');
  });

  it('when confirmed, then 204; the projects owned alone are deleted, the user leaves the others, and they can no longer sign in', async () => {
    const { user, colleague, alone, shared, theirs } = await userWithProjects();
    const session = await request(`${service.identityUrl}/v1/auth/login`, {
      method: 'POST',
      body: { email: user.email, password: PASSWORD },
    });
    expect(session.status).toBe(200);

    // The email as typed: any case, surrounding spaces.
    const response = await deleteAccount(user.userId, { confirm: ` ${user.email.toUpperCase()} ` });
    expect(response.status).toBe(204);

    await expect
      .poll(() => service.deliveredOf('ProjectDeleted', alone.projectId), settled)
      .not.toHaveLength(0);
    // The projects' earlier events (the user added) are there already: wait for the removals.
    const removalOf = (projectId: string) =>
      service.deliveredOf('ProjectMembershipChanged', projectId).map((d) => d.envelope.data);
    for (const { projectId } of [theirs, shared]) {
      await expect
        .poll(() => removalOf(projectId), settled)
        .toContainEqual({ projectId, userId: user.userId, change: 'removed' });
    }
    expect(await roleIn(shared.projectId, user.userId)).toBeUndefined();
    expect(await roleIn(shared.projectId, colleague.userId)).toBe('owner');
    expect(await roleIn(theirs.projectId, colleague.userId)).toBe('owner');
    const { rows } = await service.db.query(`SELECT 1 FROM projects WHERE project_id = $1`, [
      alone.projectId,
    ]);
    expect(rows).toEqual([]);

    const login = await request(`${service.identityUrl}/v1/auth/login`, {
      method: 'POST',
      body: { email: user.email, password: PASSWORD },
    });
    expectError(login, 401, 'UNAUTHORIZED');
    const refresh = await request(`${service.identityUrl}/v1/auth/refresh`, {
      method: 'POST',
      body: { refreshToken: session.body.refreshToken },
    });
    expectError(refresh, 401, 'UNAUTHORIZED');
    expectError(await deleteAccount(user.userId, { confirm: user.email }), 401, 'UNAUTHORIZED');
  });
});
