import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realServers, revokeWhileWriteCommits, settled } from '@tolk/testing';
import {
  memberListResponseSchema,
  memberResponseSchema,
  projectResponseSchema,
  writeRightLock,
} from '@tolk/contracts';
import { expectError, startProjectService, uniqueEmail, type ProjectService } from './project-harness.js';

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService();
});
afterAll(async () => {
  await service?.close();
});

async function projectWithMember() {
  const owner = await service.signUp();
  const member = await service.signUp();
  const outsider = await service.signUp();
  const project = await service.createProject(owner.userId);
  await service.addMember(owner.userId, project.projectId, member.email, 'member');
  return { owner, member, outsider, project };
}

async function membersOf(projectId: string, asUserId: string) {
  const response = await service.call('GET', `/v1/projects/${projectId}/members`, {
    as: await service.as(asUserId),
  });
  expect(response.status).toBe(200);
  return memberListResponseSchema.parse(response.body).members;
}

function addMember(asUserId: string, projectId: string, body: unknown) {
  return service
    .as(asUserId)
    .then((as) => service.call('POST', `/v1/projects/${projectId}/members`, { as, body }));
}

function removeMember(asUserId: string, projectId: string, userId: string) {
  return service
    .as(asUserId)
    .then((as) => service.call('DELETE', `/v1/projects/${projectId}/members/${userId}`, { as }));
}

describe('GET /v1/projects/:projectId/members', () => {
  it('when an owner asks, then 200 with every member, their email and role, in the order they joined', async () => {
    const { owner, member, project } = await projectWithMember();

    const response = await service.call('GET', `/v1/projects/${project.projectId}/members`, {
      as: await service.as(owner.userId),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(memberListResponseSchema.parse(response.body)).toStrictEqual({
      members: [
        { userId: owner.userId, email: owner.email, role: 'owner' },
        { userId: member.userId, email: member.email, role: 'member' },
      ],
    });
  });

  it('when a member asks, then the same list', async () => {
    const { owner, member, project } = await projectWithMember();
    expect(await membersOf(project.projectId, member.userId)).toStrictEqual(
      await membersOf(project.projectId, owner.userId),
    );
  });

  it('when a member account no longer exists in identity-service, then it is listed with email null', async () => {
    const { owner, project } = await projectWithMember();
    await service.db.query(
      `INSERT INTO project_members (project_id, user_id, role, added_at) VALUES ($1, 'usr_gone', 'member', now())`,
      [project.projectId],
    );
    const members = await membersOf(project.projectId, owner.userId);
    expect(members.at(-1)).toStrictEqual({ userId: 'usr_gone', email: null, role: 'member' });
  });

  it('when a non-member asks, or the project does not exist, then 404 NOT_FOUND', async () => {
    const { outsider, project } = await projectWithMember();
    const as = await service.as(outsider.userId);
    expectError(
      await service.call('GET', `/v1/projects/${project.projectId}/members`, { as }),
      404,
      'NOT_FOUND',
    );
    expectError(await service.call('GET', '/v1/projects/prj_missing/members', { as }), 404, 'NOT_FOUND');
  });

  it('when there is no principal, then 401; a project token, then 403', async () => {
    const { project } = await projectWithMember();
    const path = `/v1/projects/${project.projectId}/members`;
    expectError(await service.call('GET', path), 401, 'UNAUTHORIZED');
    const asToken = await service.asProjectToken(project.projectId);
    expectError(await service.call('GET', path, { as: asToken }), 403, 'FORBIDDEN');
  });
});

describe('POST /v1/projects/:projectId/members', () => {
  it('when an owner adds an account by email, then 201 with the member, who then sees the project', async () => {
    const owner = await service.signUp();
    const newcomer = await service.signUp();
    const project = await service.createProject(owner.userId);

    const response = await addMember(owner.userId, project.projectId, {
      email: `  ${newcomer.email.toUpperCase()} `,
      role: 'member',
    });

    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(memberResponseSchema.parse(response.body)).toStrictEqual({
      userId: newcomer.userId,
      email: newcomer.email,
      role: 'member',
    });
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(newcomer.userId),
    });
    expect(projectResponseSchema.parse(read.body)).toStrictEqual({ ...project, role: 'member' });
    expect(await membersOf(project.projectId, owner.userId)).toHaveLength(2);
  });

  it('when no role is given, then the new member is a member', async () => {
    const { owner, project } = await projectWithMember();
    const newcomer = await service.signUp();
    const response = await addMember(owner.userId, project.projectId, { email: newcomer.email });
    expect(response.status).toBe(201);
    expect(response.body.role).toBe('member');
  });

  it('when an owner adds another owner, then the new owner may change the project', async () => {
    const { owner, project } = await projectWithMember();
    const coOwner = await service.signUp();
    const response = await addMember(owner.userId, project.projectId, {
      email: coOwner.email,
      role: 'owner',
    });
    expect(response.status).toBe(201);
    expect(response.body.role).toBe('owner');
    const patch = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(coOwner.userId),
      body: { name: 'Shared' },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.role).toBe('owner');
  });

  it('when no Tolk account has the email, then 404 NOT_FOUND saying so', async () => {
    const { owner, project } = await projectWithMember();
    const response = await addMember(owner.userId, project.projectId, { email: uniqueEmail() });
    expectError(response, 404, 'NOT_FOUND');
    expect(response.body.error.message).toMatch(/no Tolk account with that email/i);
    expect(await membersOf(project.projectId, owner.userId)).toHaveLength(2);
  });

  it('when the person is already a member (or the owner themselves), then 409 CONFLICT', async () => {
    const { owner, member, project } = await projectWithMember();
    for (const email of [member.email, owner.email]) {
      const response = await addMember(owner.userId, project.projectId, { email, role: 'owner' });
      expectError(response, 409, 'CONFLICT');
      expect(response.body.error.message).toContain('already a member');
    }
    expect(await membersOf(project.projectId, owner.userId)).toStrictEqual([
      { userId: owner.userId, email: owner.email, role: 'owner' },
      { userId: member.userId, email: member.email, role: 'member' },
    ]);
  });

  it.each([
    ['no email', { role: 'member' }, /^body\.email: is required$/],
    ['a malformed email', { email: 'not-an-email' }, /^body\.email: must be an email address$/],
    ['a number as email', { email: 42 }, /^body\.email: must be a string$/],
    ['an unknown role', { email: 'a@example.com', role: 'admin' }, /^body\.role: must be owner or member$/],
    ['a null role', { email: 'a@example.com', role: null }, /^body\.role: must be owner or member$/],
  ])('when the body has %s, then 400 VALIDATION_ERROR naming the field', async (_case, body, message) => {
    const { owner, project } = await projectWithMember();
    const response = await addMember(owner.userId, project.projectId, body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(message);
  });

  it('when a member adds someone, then 403 FORBIDDEN and nobody is added', async () => {
    const { owner, member, project } = await projectWithMember();
    const newcomer = await service.signUp();
    expectError(
      await addMember(member.userId, project.projectId, { email: newcomer.email }),
      403,
      'FORBIDDEN',
    );
    expect(await membersOf(project.projectId, owner.userId)).toHaveLength(2);
  });

  it('when a non-member adds someone, then 404 NOT_FOUND', async () => {
    const { outsider, project } = await projectWithMember();
    const response = await addMember(outsider.userId, project.projectId, { email: outsider.email });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('when the caller is a project token, then 403 FORBIDDEN', async () => {
    const { project } = await projectWithMember();
    const response = await service.call('POST', `/v1/projects/${project.projectId}/members`, {
      as: await service.asProjectToken(project.projectId, 'read_write'),
      body: { email: uniqueEmail() },
    });
    expectError(response, 403, 'FORBIDDEN');
  });
});

describe('DELETE /v1/projects/:projectId/members/:userId', () => {
  it('when an owner removes a member, then 204 and the project is hidden from them', async () => {
    const { owner, member, project } = await projectWithMember();

    const response = await removeMember(owner.userId, project.projectId, member.userId);

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const as = await service.as(member.userId);
    expectError(await service.call('GET', `/v1/projects/${project.projectId}`, { as }), 404, 'NOT_FOUND');
    expect((await service.call('GET', '/v1/projects', { as })).body.projects).toEqual([]);
    expect(await membersOf(project.projectId, owner.userId)).toStrictEqual([
      { userId: owner.userId, email: owner.email, role: 'owner' },
    ]);
  });

  it('when a member removes themselves, then 204: they left the project', async () => {
    const { owner, member, project } = await projectWithMember();
    expect((await removeMember(member.userId, project.projectId, member.userId)).status).toBe(204);
    expect(await membersOf(project.projectId, owner.userId)).toHaveLength(1);
  });

  it('when a member removes someone else, then 403 FORBIDDEN and nobody is removed', async () => {
    const { owner, member, project } = await projectWithMember();
    const other = await service.signUp();
    await service.addMember(owner.userId, project.projectId, other.email);
    expectError(await removeMember(member.userId, project.projectId, other.userId), 403, 'FORBIDDEN');
    expectError(await removeMember(member.userId, project.projectId, owner.userId), 403, 'FORBIDDEN');
    expect(await membersOf(project.projectId, owner.userId)).toHaveLength(3);
  });

  it('when the last owner removes themselves, then 409 CONFLICT saying why, and they stay owner', async () => {
    const { owner, project } = await projectWithMember();
    const response = await removeMember(owner.userId, project.projectId, owner.userId);
    expectError(response, 409, 'CONFLICT');
    expect(response.body.error.message).toMatch(/last owner/);
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(read.body.role).toBe('owner');
  });

  it('when there is another owner, then an owner may leave or remove an owner, down to the last one', async () => {
    const { owner, project } = await projectWithMember();
    const second = await service.signUp();
    const third = await service.signUp();
    await service.addMember(owner.userId, project.projectId, second.email, 'owner');
    await service.addMember(owner.userId, project.projectId, third.email, 'owner');

    expect((await removeMember(owner.userId, project.projectId, owner.userId)).status).toBe(204);
    expect((await removeMember(second.userId, project.projectId, third.userId)).status).toBe(204);
    expectError(await removeMember(second.userId, project.projectId, second.userId), 409, 'CONFLICT');

    const owners = (await membersOf(project.projectId, second.userId)).filter((m) => m.role === 'owner');
    expect(owners).toStrictEqual([{ userId: second.userId, email: second.email, role: 'owner' }]);
  });

  it('when two owners each remove the other at the same time, then exactly one owner remains', async () => {
    const { owner, project } = await projectWithMember();
    const second = await service.signUp();
    await service.addMember(owner.userId, project.projectId, second.email, 'owner');

    const answers = await Promise.all([
      removeMember(owner.userId, project.projectId, second.userId),
      removeMember(second.userId, project.projectId, owner.userId),
    ]);

    expect(answers.map((a) => a.status).sort()).toEqual([204, 404]);
    const { rows } = await service.db.query(
      `SELECT user_id FROM project_members WHERE project_id = $1 AND role = 'owner'`,
      [project.projectId],
    );
    expect(rows).toHaveLength(1);
  });

  it('when two owners both leave at the same time, then one of them stays (409 CONFLICT)', async () => {
    const { owner, project } = await projectWithMember();
    const second = await service.signUp();
    await service.addMember(owner.userId, project.projectId, second.email, 'owner');

    const answers = await Promise.all([
      removeMember(owner.userId, project.projectId, owner.userId),
      removeMember(second.userId, project.projectId, second.userId),
    ]);

    expect(answers.map((a) => a.status).sort()).toEqual([204, 409]);
  });

  it('when the user is not a member of the project, then 404 NOT_FOUND', async () => {
    const { owner, outsider, project } = await projectWithMember();
    const response = await removeMember(owner.userId, project.projectId, outsider.userId);
    expectError(response, 404, 'NOT_FOUND');
    expect(response.body.error.message).toMatch(/not a member/);
  });

  it('when a non-member removes someone, then 404 NOT_FOUND and nobody is removed', async () => {
    const { owner, member, outsider, project } = await projectWithMember();
    expectError(await removeMember(outsider.userId, project.projectId, member.userId), 404, 'NOT_FOUND');
    expectError(await removeMember(outsider.userId, project.projectId, outsider.userId), 404, 'NOT_FOUND');
    expect(await membersOf(project.projectId, owner.userId)).toHaveLength(2);
  });

  it('when the caller is a project token, then 403 FORBIDDEN', async () => {
    const { member, project } = await projectWithMember();
    const response = await service.call(
      'DELETE',
      `/v1/projects/${project.projectId}/members/${member.userId}`,
      {
        as: await service.asProjectToken(project.projectId, 'read_write'),
      },
    );
    expectError(response, 403, 'FORBIDDEN');
  });

  // Another service's write of the member's, having asked whether they are a member, holds the
  // membership's lock until it commits; here a transaction of the test's own stands for it.
  it.skipIf(!realServers().postgres)(
    "when a write of the member's holds their right to write, then the removal waits for it to commit",
    async () => {
      const { owner, member, project } = await projectWithMember();
      const removal = await revokeWhileWriteCommits(
        service.db,
        writeRightLock.membership(project.projectId, member.userId),
        () => removeMember(owner.userId, project.projectId, member.userId),
      );
      expect(removal.status).toBe(204);
      expect(await membersOf(project.projectId, owner.userId)).toHaveLength(1);
    },
  );
});

function changeRole(asUserId: string, projectId: string, userId: string, body: unknown) {
  return service
    .as(asUserId)
    .then((as) => service.call('PATCH', `/v1/projects/${projectId}/members/${userId}`, { as, body }));
}

describe('PATCH /v1/projects/:projectId/members/:userId', () => {
  it('when an owner makes a member an owner, then 200 with the member, who may then change the project', async () => {
    const { owner, member, project } = await projectWithMember();

    const response = await changeRole(owner.userId, project.projectId, member.userId, { role: 'owner' });

    expect(response.status).toBe(200);
    expect(memberResponseSchema.parse(response.body)).toStrictEqual({
      userId: member.userId,
      email: member.email,
      role: 'owner',
    });
    const patched = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(member.userId),
      body: { name: 'Renamed by the new owner' },
    });
    expect(patched.status).toBe(200);
    // The member's 'added' event is there already: wait for the role change itself.
    await expect
      .poll(
        () => service.deliveredOf('ProjectMembershipChanged', project.projectId).map((d) => d.envelope.data),
        settled,
      )
      .toContainEqual({ projectId: project.projectId, userId: member.userId, change: 'role_changed' });
  });

  it('when an owner demotes another owner, then 200, and the demoted one may no longer change the project', async () => {
    const { owner, member, project } = await projectWithMember();
    await changeRole(owner.userId, project.projectId, member.userId, { role: 'owner' });

    const response = await changeRole(owner.userId, project.projectId, member.userId, { role: 'member' });

    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ userId: member.userId, email: member.email, role: 'member' });
    const patched = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(member.userId),
      body: { name: 'Not allowed' },
    });
    expectError(patched, 403, 'FORBIDDEN');
  });

  it('when the last owner would be demoted, then 409 CONFLICT saying why, and they stay owner', async () => {
    const { owner, project } = await projectWithMember();

    const response = await changeRole(owner.userId, project.projectId, owner.userId, { role: 'member' });

    expectError(response, 409, 'CONFLICT');
    expect(response.body.error.message).toMatch(/last owner.*another member an owner first/);
    expect((await membersOf(project.projectId, owner.userId))[0]).toMatchObject({ role: 'owner' });
  });

  it('when two owners each demote the other at the same time, then exactly one owner remains', async () => {
    const { owner, member, project } = await projectWithMember();
    await changeRole(owner.userId, project.projectId, member.userId, { role: 'owner' });

    const answers = await Promise.all([
      changeRole(owner.userId, project.projectId, member.userId, { role: 'member' }),
      changeRole(member.userId, project.projectId, owner.userId, { role: 'member' }),
    ]);

    // The second finds its caller no longer an owner (403), or the other the last owner (409).
    expect(answers.map((a) => a.status).sort()[0]).toBe(200);
    expect([403, 409]).toContain(answers.map((a) => a.status).sort()[1]);
    const owners = (await membersOf(project.projectId, owner.userId)).filter((m) => m.role === 'owner');
    expect(owners).toHaveLength(1);
  });

  it('when the role is the one the member has, then 200 and nothing is published', async () => {
    const { owner, member, project } = await projectWithMember();
    const response = await changeRole(owner.userId, project.projectId, member.userId, { role: 'member' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ role: 'member' });
    const rows = await service.outboxRows(project.projectId);
    expect(rows.map((row) => row.payload.data['change'])).toEqual([undefined, 'added']);
  });

  it('when a member (not an owner) changes a role, then 403 FORBIDDEN and nothing changes', async () => {
    const { owner, member, project } = await projectWithMember();
    expectError(
      await changeRole(member.userId, project.projectId, member.userId, { role: 'owner' }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await changeRole(member.userId, project.projectId, owner.userId, { role: 'member' }),
      403,
      'FORBIDDEN',
    );
    expect((await membersOf(project.projectId, owner.userId)).map((m) => m.role)).toEqual([
      'owner',
      'member',
    ]);
  });

  it('when the user is not a member, or the caller is not, then 404 NOT_FOUND', async () => {
    const { owner, outsider, project } = await projectWithMember();
    const notMember = await changeRole(owner.userId, project.projectId, outsider.userId, { role: 'owner' });
    expectError(notMember, 404, 'NOT_FOUND');
    expect(notMember.body.error.message).toMatch(/not a member/);
    expectError(
      await changeRole(outsider.userId, project.projectId, owner.userId, { role: 'member' }),
      404,
      'NOT_FOUND',
    );
  });

  it('when the role is missing or unknown, then 400 VALIDATION_ERROR naming the field', async () => {
    const { owner, member, project } = await projectWithMember();
    for (const [body, message] of [
      [{}, 'body.role: is required'],
      [{ role: 'admin' }, 'body.role: must be owner or member'],
      [{ role: null }, 'body.role: must be owner or member'],
      [[], 'body: must be a JSON object'],
    ] as const) {
      const response = await changeRole(owner.userId, project.projectId, member.userId, body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe(message);
    }
  });

  it('when the caller is a project token, then 403 FORBIDDEN', async () => {
    const { member, project } = await projectWithMember();
    const response = await service.call(
      'PATCH',
      `/v1/projects/${project.projectId}/members/${member.userId}`,
      {
        as: await service.asProjectToken(project.projectId, 'read_write'),
        body: { role: 'owner' },
      },
    );
    expectError(response, 403, 'FORBIDDEN');
  });
});
