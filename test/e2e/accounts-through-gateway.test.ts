/**
 * Who owns what, through the one public entry with every service real (Postgres, RabbitMQ, Redis):
 * a project token belongs to the member who created it and stops working within about a second
 * of their removal; an owner changes a member's role, and a project always keeps an owner; a
 * deleted account's access tokens, project tokens, provider keys and sign-ins all stop working.
 * The bound is awaited as a condition, never slept.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { realServers, request, settled } from '@tolk/testing';
import { startSystem, type System } from './system.js';

/** "Within about a second": from the answer that caused it to the first refusal seen. */
const BOUND_MS = 1500;

// The revocations reach the gateway through RabbitMQ and Redis.
const withoutServers = !realServers().redis || !realServers().rabbitmq;

describe.skipIf(withoutServers)('accounts and ownership through the gateway', () => {
  let system: System;
  const call: System['call'] = (...args) => system.call(...args);

  beforeAll(async () => {
    system = await startSystem({ sources: true, tokens: true, byok: true });
    // In a hook, where expect.poll may not run.
    await vi.waitFor(
      async () => expect((await request(`${system.base}/readyz`)).body?.redis).toBe('up'),
      settled,
    );
  });
  afterAll(async () => {
    await system?.close();
  });

  async function projectWithMember() {
    const owner = await system.signUp();
    const member = await system.signUp();
    const created = await call('POST', '/v1/projects', owner.token, { name: 'Shop', sourceLocale: 'en' });
    expect(created.status).toBe(201);
    const projectId = created.body.projectId as string;
    const added = await call('POST', `/v1/projects/${projectId}/members`, owner.token, {
      email: member.email,
      role: 'member',
    });
    expect(added.status).toBe(201);
    return { owner, member, projectId };
  }

  async function createToken(projectId: string, userToken: string, label: string) {
    const created = await call('POST', `/v1/projects/${projectId}/tokens`, userToken, {
      label,
      permissions: 'read_write',
    });
    expect(created.status).toBe(201);
    return created.body as { token: string; tokenId: string };
  }

  const upload = (projectId: string, token: string, value: string) =>
    call('PUT', `/v1/projects/${projectId}/source`, token, { hello: value });

  describe('project tokens belong to their creator', () => {
    it('when the member who created a token is removed, then it is refused within a second; the list names each creator', async () => {
      const { owner, member, projectId } = await projectWithMember();
      const membersToken = await createToken(projectId, member.token, 'member CI');
      const ownersToken = await createToken(projectId, owner.token, 'owner CI');
      expect((await upload(projectId, membersToken.token, 'Hello')).status).toBe(200);

      const listed = await call('GET', `/v1/projects/${projectId}/tokens`, owner.token);
      expect(listed.status).toBe(200);
      expect(
        (listed.body.tokens as Array<{ tokenId: string; createdBy: unknown }>).map((t) => [
          t.tokenId,
          t.createdBy,
        ]),
      ).toEqual([
        [ownersToken.tokenId, { userId: owner.userId }],
        [membersToken.tokenId, { userId: member.userId }],
      ]);

      const removed = await call('DELETE', `/v1/projects/${projectId}/members/${member.userId}`, owner.token);
      expect(removed.status).toBe(204);
      const removedAt = Date.now();

      await vi.waitFor(async () => {
        const answer = await upload(projectId, membersToken.token, `Hi ${Date.now()}`);
        expect(answer.status, "the removed member's token refused").toBe(401);
      }, settled);
      expect(Date.now() - removedAt, "the removed member's token refused").toBeLessThanOrEqual(BOUND_MS);
      expect((await upload(projectId, membersToken.token, 'Again')).body.error.code).toBe('UNAUTHORIZED');
      // The owner's token works on; the list shows only it.
      expect((await upload(projectId, ownersToken.token, 'Still mine')).status).toBe(200);
      const after = await call('GET', `/v1/projects/${projectId}/tokens`, owner.token);
      expect((after.body.tokens as Array<{ tokenId: string }>).map((t) => t.tokenId)).toEqual([
        ownersToken.tokenId,
      ]);
    });

    it('when a member leaves, then the tokens they created are refused within a second', async () => {
      const { member, projectId } = await projectWithMember();
      const token = await createToken(projectId, member.token, 'leaving');
      expect((await upload(projectId, token.token, 'Hello')).status).toBe(200);

      const left = await call('DELETE', `/v1/projects/${projectId}/members/${member.userId}`, member.token);
      expect(left.status).toBe(204);
      const leftAt = Date.now();
      await expect
        .poll(async () => (await call('GET', `/v1/projects/${projectId}/source`, token.token)).status, {
          ...settled,
          message: "the leaver's token refused",
        })
        .toBe(401);
      expect(Date.now() - leftAt, "the leaver's token refused").toBeLessThanOrEqual(BOUND_MS);
    });
  });

  describe('PATCH /v1/projects/{projectId}/members/{userId}', () => {
    it('when an owner promotes a member, then the gateway lets them act as owner within a second; the last owner cannot be demoted', async () => {
      const { owner, member, projectId } = await projectWithMember();
      // The member's role is now cached by the gateway.
      expect((await call('GET', `/v1/projects/${projectId}`, member.token)).body.role).toBe('member');
      expect((await call('PATCH', `/v1/projects/${projectId}`, member.token, { name: 'x' })).status).toBe(
        403,
      );

      const promoted = await call(
        'PATCH',
        `/v1/projects/${projectId}/members/${member.userId}`,
        owner.token,
        {
          role: 'owner',
        },
      );
      expect(promoted.status).toBe(200);
      expect(promoted.body).toStrictEqual({ userId: member.userId, email: member.email, role: 'owner' });
      const promotedAt = Date.now();
      await expect
        .poll(
          async () =>
            (await call('PATCH', `/v1/projects/${projectId}`, member.token, { name: 'Renamed' })).status,
          { ...settled, message: 'the new owner may rename' },
        )
        .toBe(200);
      expect(Date.now() - promotedAt, 'the new owner may rename').toBeLessThanOrEqual(BOUND_MS);

      // Two owners: one demotes the other, and may then not demote themselves.
      const demoted = await call('PATCH', `/v1/projects/${projectId}/members/${owner.userId}`, member.token, {
        role: 'member',
      });
      expect(demoted.status).toBe(200);
      const last = await call('PATCH', `/v1/projects/${projectId}/members/${member.userId}`, member.token, {
        role: 'member',
      });
      expect(last.status).toBe(409);
      expect(last.body).toStrictEqual({
        error: {
          code: 'CONFLICT',
          message: 'This is the last owner of the project; make another member an owner first',
        },
      });
      // Removing the last owner is refused the same way.
      const leave = await call('DELETE', `/v1/projects/${projectId}/members/${member.userId}`, member.token);
      expect(leave.status).toBe(409);
      expect(leave.body.error.code).toBe('CONFLICT');
    });
  });

  describe('DELETE /v1/user/me', () => {
    it('when an account is deleted, then its access token, its project tokens, its provider keys and its sign-ins stop working', async () => {
      const email = `gone-${Date.now()}@example.com`;
      const signedUp = await call('POST', '/v1/auth/signup', undefined, {
        email,
        password: 'correct horse battery',
      });
      expect(signedUp.status).toBe(201);
      const { accessToken, refreshToken } = signedUp.body as { accessToken: string; refreshToken: string };
      const userId = signedUp.body.user.userId as string;
      const created = await call('POST', '/v1/projects', accessToken, {
        name: 'Mine alone',
        sourceLocale: 'en',
      });
      const projectId = created.body.projectId as string;
      const token = await createToken(projectId, accessToken, 'deploy');
      expect(
        (await call('PUT', '/v1/user/byok/openai', accessToken, { apiKey: 'sk-test-gone-1234' })).status,
      ).toBe(200);
      // Elsewhere, a member of someone else's project, which stays.
      const { owner, projectId: sharedId } = await projectWithMember();
      await call('POST', `/v1/projects/${sharedId}/members`, owner.token, { email, role: 'member' });

      const unconfirmed = await call('DELETE', '/v1/user/me', accessToken);
      expect(unconfirmed.status).toBe(409);
      expect(unconfirmed.body.error.code).toBe('CONFLICT');
      expect(unconfirmed.body.error.message).toContain(`"Mine alone" (${projectId})`);
      expect(unconfirmed.body.error.message).not.toContain(sharedId);
      expect((await call('GET', '/v1/user/me', accessToken)).status).toBe(200);

      const deleted = await call('DELETE', '/v1/user/me', accessToken, { confirm: email });
      expect(deleted.status).toBe(204);
      const deletedAt = Date.now();

      await expect
        .poll(async () => (await call('GET', '/v1/projects', accessToken)).status, {
          ...settled,
          message: 'the access token refused',
        })
        .toBe(401);
      expect(Date.now() - deletedAt, 'the access token refused').toBeLessThanOrEqual(BOUND_MS);
      const refused = await call('POST', '/v1/projects', accessToken, { name: 'After', sourceLocale: 'en' });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toStrictEqual({
        code: 'UNAUTHORIZED',
        message: 'The account of this access token has been deleted',
      });
      expect(
        (await call('PUT', '/v1/user/byok/openai', accessToken, { apiKey: 'sk-test-again-1' })).status,
      ).toBe(401);
      expect(
        (await call('POST', '/v1/auth/login', undefined, { email, password: 'correct horse battery' }))
          .status,
      ).toBe(401);
      expect((await call('POST', '/v1/auth/refresh', undefined, { refreshToken })).status).toBe(401);
      await expect
        .poll(async () => (await upload(projectId, token.token, 'after')).status, {
          ...settled,
          message: 'the project token refused',
        })
        .toBe(401);

      // What the services kept of the account goes too (the events take their time).
      const db = new pg.Client({ connectionString: system.databaseUrl });
      await db.connect();
      try {
        const rowsOf = async (sql: string, params: unknown[]) => (await db.query(sql, params)).rowCount;
        await expect
          .poll(async () => await rowsOf('SELECT 1 FROM byok.provider_keys WHERE user_id = $1', [userId]), {
            ...settled,
            message: 'provider keys deleted',
          })
          .toBe(0);
        await expect
          .poll(
            async () => await rowsOf('SELECT 1 FROM projects.projects WHERE project_id = $1', [projectId]),
            { ...settled, message: 'the project deleted' },
          )
          .toBe(0);
        expect(await rowsOf('SELECT 1 FROM projects.project_members WHERE user_id = $1', [userId])).toBe(0);
        expect(await rowsOf('SELECT 1 FROM projects.projects WHERE project_id = $1', [sharedId])).toBe(1);
      } finally {
        await db.end();
      }
      // Other users are not touched.
      expect((await call('GET', '/v1/projects', owner.token)).status).toBe(200);
    });
  });
});
