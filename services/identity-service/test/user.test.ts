import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRINCIPAL_HEADER, writeRightLock, type EventEnvelope } from '@tolk/contracts';
import { createPrincipalSigner } from '@tolk/http';
import { realServers, request, revokeWhileWriteCommits } from '@tolk/testing';
import { userResponseSchema } from '../src/entry-points/http/schemas.js';
import { PASSWORD, expectError, startIdentityService, type IdentityService } from './identity-harness.js';

let identity: IdentityService;
beforeAll(async () => {
  identity = await startIdentityService();
});
afterAll(async () => {
  await identity?.close();
});

describe('GET /v1/user/me', () => {
  it('when a user principal is forwarded, then 200 with exactly the user', async () => {
    const { user } = await identity.signUp({ name: 'Margaret' });

    const response = await identity.get('/v1/user/me', await identity.asUser(user.userId));

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(userResponseSchema.parse(response.body)).toStrictEqual(user);
  });

  it('when there is no principal, then 401 UNAUTHORIZED', async () => {
    expectError(await identity.get('/v1/user/me'), 401, 'UNAUTHORIZED');
  });

  it('when the principal is signed with the wrong secret, then 401 UNAUTHORIZED', async () => {
    const { user } = await identity.signUp();
    const forge = createPrincipalSigner('an-attacker-secret-that-is-long-enough!!');
    const headers = { [PRINCIPAL_HEADER]: await forge({ kind: 'user', userId: user.userId }) };
    expectError(await identity.get('/v1/user/me', headers), 401, 'UNAUTHORIZED');
  });

  it('when the principal header is garbage, then 401 UNAUTHORIZED', async () => {
    expectError(await identity.get('/v1/user/me', { [PRINCIPAL_HEADER]: 'not-a-jwt' }), 401, 'UNAUTHORIZED');
  });

  it('when the principal is the access token itself, then 401 UNAUTHORIZED', async () => {
    const { accessToken } = await identity.signUp();
    const asBearer = { [PRINCIPAL_HEADER]: accessToken, authorization: `Bearer ${accessToken}` };
    expectError(await identity.get('/v1/user/me', asBearer), 401, 'UNAUTHORIZED');
  });

  it('when the principal is a project token, then 403 FORBIDDEN', async () => {
    expectError(await identity.get('/v1/user/me', await identity.asProjectToken()), 403, 'FORBIDDEN');
  });

  it('when the user no longer exists, then 401 UNAUTHORIZED', async () => {
    expectError(await identity.get('/v1/user/me', await identity.asUser('usr_gone')), 401, 'UNAUTHORIZED');
  });
});

describe('DELETE /v1/user/me', () => {
  async function deleteMe(userId: string, body: unknown) {
    return request(`${identity.url}/v1/user/me`, {
      method: 'DELETE',
      headers: await identity.asUser(userId),
      body,
    });
  }

  it('when confirmed with the email, then 204, every sign-in ends, and UserDeleted is published once', async () => {
    const published: EventEnvelope[] = [];
    await identity.broker.observe(['UserDeleted'], ({ envelope }) => published.push(envelope));
    const session = await identity.signUp();
    const other = await identity.signUp();
    const { userId, email } = session.user;

    expect((await deleteMe(userId, { confirm: email })).status).toBe(204);

    expectError(await identity.get('/v1/user/me', await identity.asUser(userId)), 401, 'UNAUTHORIZED');
    expectError(
      await identity.post('/v1/auth/refresh', { refreshToken: session.refreshToken }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await identity.post('/v1/auth/login', { email, password: PASSWORD }), 401, 'UNAUTHORIZED');
    const { rows } = await identity.db.query(`SELECT 1 FROM refresh_token_families WHERE user_id = $1`, [
      userId,
    ]);
    expect(rows).toEqual([]);
    await expect
      .poll(() => published.filter((e) => e.data['userId'] === userId), { timeout: 10_000 })
      .toHaveLength(1);
    expect(published.find((e) => e.data['userId'] === userId)).toMatchObject({
      type: 'UserDeleted',
      producer: 'identity-service',
      data: { userId },
    });
    // Nobody else is touched; the email may sign up again, as a new account.
    expect((await identity.get('/v1/user/me', await identity.asUser(other.user.userId))).status).toBe(200);
    const again = await identity.post('/v1/auth/signup', { email, password: PASSWORD });
    expect(again.status).toBe(201);
    expect(again.body.user.userId).not.toBe(userId);
  });

  it('when the principal is a project token, then 403 FORBIDDEN', async () => {
    const response = await request(`${identity.url}/v1/user/me`, {
      method: 'DELETE',
      headers: await identity.asProjectToken(),
      body: { confirm: 'x@example.com' },
    });
    expectError(response, 403, 'FORBIDDEN');
  });

  it('when the body is not an object, then 400 VALIDATION_ERROR', async () => {
    const { user } = await identity.signUp();
    for (const body of [[], 'yes', 1]) {
      const response = await deleteMe(user.userId, body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe('body: must be a JSON object');
    }
  });

  // A write of the user's in another service, having asked whether the account exists, holds the
  // account's lock until it commits; here a transaction of the test's own stands for it.
  it.skipIf(!realServers().postgres)(
    "when a write of the user's holds their right to write, then the deletion waits for it to commit",
    async () => {
      const { user } = await identity.signUp();
      const deleted = await revokeWhileWriteCommits(identity.db, writeRightLock.account(user.userId), () =>
        deleteMe(user.userId, { confirm: user.email }),
      );
      expect(deleted.status).toBe(204);
      expectError(await identity.get('/v1/user/me', await identity.asUser(user.userId)), 401, 'UNAUTHORIZED');
    },
  );
});
