import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_CALLER_HEADER } from '@tolk/contracts';
import { createInternalCallerSigner } from '@tolk/http';
import { request } from '@tolk/testing';
import { directoryUserResponseSchema, usersLookupResponseSchema } from '../src/entry-points/http/schemas.js';
import { expectError, startIdentityService, uniqueEmail, type IdentityService } from './identity-harness.js';

let identity: IdentityService;
beforeAll(async () => {
  identity = await startIdentityService();
});
afterAll(async () => {
  await identity?.close();
});

function byEmail(email: string): string {
  return `/internal/users?${new URLSearchParams({ email })}`;
}

describe('GET /internal/users?email=', () => {
  it('when the email belongs to a user, then 200 with exactly userId, email and name', async () => {
    const { user } = await identity.signUp({ name: 'Grace' });

    const response = await identity.get(byEmail(user.email), await identity.asInternalCaller());

    expect(response.status).toBe(200);
    expect(directoryUserResponseSchema.parse(response.body)).toStrictEqual({
      userId: user.userId,
      email: user.email,
      name: 'Grace',
    });
  });

  it('when the email is typed with upper case and spaces, then the same user is found', async () => {
    const { user } = await identity.signUp();
    const typed = `  ${user.email.toUpperCase()} `;

    const response = await identity.get(byEmail(typed), await identity.asInternalCaller());

    expect(response.status).toBe(200);
    expect(response.body.userId).toBe(user.userId);
  });

  it('when no user has the email, then 404 NOT_FOUND', async () => {
    expectError(
      await identity.get(byEmail(uniqueEmail()), await identity.asInternalCaller()),
      404,
      'NOT_FOUND',
    );
  });

  it('when the email is missing or malformed, then 400 VALIDATION_ERROR naming query.email', async () => {
    for (const path of [
      '/internal/users',
      byEmail('not-an-email'),
      '/internal/users?email=a@b.co&email=c@d.co',
      '/internal/users?email[]=a@b.co',
      '/internal/users?email=a@b.co&limit=1',
    ]) {
      const response = await identity.get(path, await identity.asInternalCaller());
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toMatch(/^query\.(email|email\[\]|limit): /);
    }
  });
});

describe('POST /internal/users/lookup', () => {
  it('when given user ids, then 200 with the users that exist, in the order asked', async () => {
    const { user: first } = await identity.signUp({ name: 'First' });
    const { user: second } = await identity.signUp();

    const response = await identity.post(
      '/internal/users/lookup',
      { userIds: [second.userId, 'usr_unknown', first.userId, second.userId] },
      await identity.asInternalCaller(),
    );

    expect(response.status).toBe(200);
    expect(usersLookupResponseSchema.parse(response.body)).toStrictEqual({
      users: [
        { userId: second.userId, email: second.email, name: null },
        { userId: first.userId, email: first.email, name: 'First' },
      ],
    });
  });

  it('when the list is empty, then 200 with no users', async () => {
    const response = await identity.post(
      '/internal/users/lookup',
      { userIds: [] },
      await identity.asInternalCaller(),
    );
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ users: [] });
  });

  it.each([
    ['missing', {}, /^body\.userIds: is required$/],
    ['not an array', { userIds: 'usr_1' }, /^body\.userIds: must be an array of user ids$/],
    ['holding a number', { userIds: [1] }, /^body\.userIds\.0: must be a string$/],
    ['holding an empty id', { userIds: [''] }, /^body\.userIds\.0: must not be empty$/],
    [
      'too long',
      { userIds: Array.from({ length: 1001 }, (_, i) => `usr_${i}`) },
      /^body\.userIds: must hold at most 1000/,
    ],
  ])('when userIds is %s, then 400 VALIDATION_ERROR naming it', async (_case, body, message) => {
    const response = await identity.post('/internal/users/lookup', body, await identity.asInternalCaller());
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(message);
  });
});

describe('/internal routes of identity-service', () => {
  it('when no internal caller token is sent, then 401 UNAUTHORIZED', async () => {
    const { user } = await identity.signUp();
    expectError(await identity.get(byEmail(user.email)), 401, 'UNAUTHORIZED');
    expectError(
      await identity.post('/internal/users/lookup', { userIds: [user.userId] }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('when a user principal is sent instead, then 401 UNAUTHORIZED', async () => {
    const { user } = await identity.signUp();
    const asUser = await identity.asUser(user.userId);
    expectError(await identity.get(byEmail(user.email), asUser), 401, 'UNAUTHORIZED');
  });

  it('when the caller token is signed with another secret, then 401 UNAUTHORIZED', async () => {
    const { user } = await identity.signUp();
    const forged = await createInternalCallerSigner('an-attacker-secret-that-is-long-enough!!', 'x')();
    const response = await identity.get(byEmail(user.email), { [INTERNAL_CALLER_HEADER]: forged });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('when the method is wrong, then 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const headers = await identity.asInternalCaller();
    const post = await request(`${identity.url}/internal/users`, { method: 'POST', body: {}, headers });
    expectError(post, 405, 'METHOD_NOT_ALLOWED');
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const get = await identity.get('/internal/users/lookup', headers);
    expectError(get, 405, 'METHOD_NOT_ALLOWED');
    expect(get.headers.get('allow')).toBe('POST');
  });
});
