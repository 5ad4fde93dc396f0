import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRINCIPAL_HEADER } from '@tolk/contracts';
import { createPrincipalSigner } from '@tolk/http';
import { userResponseSchema } from '../src/entry-points/http/schemas.js';
import { expectError, startIdentityService, type IdentityService } from './identity-harness.js';

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
