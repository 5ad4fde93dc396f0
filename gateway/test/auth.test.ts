import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  PRINCIPAL_HEADER,
  generateProjectToken,
} from '@tolk/contracts';
import { createPrincipalVerifier } from '@tolk/http';
import { request } from '@tolk/testing';
import {
  INTERNAL_SECRET,
  createKeyPair,
  hs256WithPublicKey,
  identityKeys,
  signAccessToken,
  startGateway,
  startUpstream,
  unsignedToken,
} from './support.js';

describe('gateway authentication', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startGateway({ IDENTITY_SERVICE_URL: upstream.url, BYOK_SERVICE_URL: upstream.url });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.received.length = 0;
  });

  function getMe(authorization?: string) {
    return request(`${gateway.url}/v1/user/me`, {
      headers: authorization === undefined ? {} : { authorization },
    });
  }

  async function expectRefused(authorization: string | undefined, message?: RegExp) {
    const response = await getMe(authorization);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    if (message) expect(response.body.error.message).toMatch(message);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(upstream.received).toHaveLength(0);
  }

  it('when no Authorization header is sent, then 401 and the service is not called', async () => {
    await expectRefused(undefined);
  });

  it('when the Authorization header is not a bearer token, then 401', async () => {
    await expectRefused('Basic dXNlcjpwYXNz');
    await expectRefused('Bearer');
    await expectRefused('Bearer garbage');
    await expectRefused('Bearer a.b.c');
  });

  it('when the access token has expired, then 401', async () => {
    await expectRefused(`Bearer ${await signAccessToken({ expiresIn: -10 })}`);
  });

  it('when the signature was tampered with, then 401', async () => {
    const [header, payload, signature] = (await signAccessToken()).split('.');
    const flipped = `${signature!.slice(0, 10)}${signature![10] === 'A' ? 'B' : 'A'}${signature!.slice(11)}`;
    await expectRefused(`Bearer ${header}.${payload}.${flipped}`);
  });

  it('when the claims were changed after signing, then 401', async () => {
    const [header, , signature] = (await signAccessToken({ sub: 'user-1' })).split('.');
    const now = Math.floor(Date.now() / 1000);
    const forged = Buffer.from(
      JSON.stringify({ sub: 'admin', iss: 'tolk-identity', aud: 'tolk-api', iat: now, exp: now + 900 }),
    ).toString('base64url');
    await expectRefused(`Bearer ${header}.${forged}.${signature}`);
  });

  it('when the token carries no exp or no sub, then 401 (with both it passes)', async () => {
    const claims = {
      sub: 'user-1',
      iss: ACCESS_TOKEN_ISSUER,
      aud: ACCESS_TOKEN_AUDIENCE,
      exp: Math.floor(Date.now() / 1000) + 900,
    };
    const sign = (payload: object) => jwt.sign(payload, identityKeys.privateKey, { algorithm: 'ES256' });
    const { exp: _exp, ...withoutExp } = claims;
    const { sub: _sub, ...withoutSub } = claims;
    await expectRefused(`Bearer ${sign(withoutExp)}`, /invalid or expired/);
    await expectRefused(`Bearer ${sign(withoutSub)}`, /invalid or expired/);
    expect((await getMe(`Bearer ${sign(claims)}`)).status).toBe(200);
  });

  it('when the issuer or the audience is not ours, then 401', async () => {
    await expectRefused(`Bearer ${await signAccessToken({ issuer: 'someone-else' })}`);
    await expectRefused(`Bearer ${await signAccessToken({ audience: 'another-api' })}`);
  });

  it('when the token is signed by another key, then 401', async () => {
    await expectRefused(`Bearer ${await signAccessToken({ key: createKeyPair().privateKey })}`);
  });

  it('when the token says alg none, then 401', async () => {
    await expectRefused(`Bearer ${unsignedToken()}`);
  });

  it('when the token is HS256-signed with the public key as secret, then 401', async () => {
    await expectRefused(`Bearer ${await hs256WithPublicKey()}`);
  });

  it('when a project API token has the wrong shape or checksum, then 401 saying so', async () => {
    await expectRefused(
      'Bearer tolk_0123456789abcdefghijklmnopqrstuv',
      /not a valid Tolk project API token/i,
    );
    const good = generateProjectToken();
    const corrupted = `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`;
    await expectRefused(`Bearer ${corrupted}`, /wrong format or checksum/i);
  });

  it('when the access token is valid, then the service gets a verifiable principal and no Authorization', async () => {
    const response = await getMe(`Bearer ${await signAccessToken({ sub: 'user-42' })}`);

    expect(response.status).toBe(200);
    expect(upstream.received).toHaveLength(1);
    const forwarded = upstream.received[0]!;
    expect(forwarded.headers.authorization).toBeUndefined();
    const principal = await createPrincipalVerifier(INTERNAL_SECRET)(
      String(forwarded.headers[PRINCIPAL_HEADER]),
    );
    expect(principal).toEqual({ kind: 'user', userId: 'user-42' });
  });

  it('when the bearer scheme is written in another case, then the token is still accepted', async () => {
    const response = await getMe(`bearer ${await signAccessToken()}`);
    expect(response.status).toBe(200);
  });

  it('when a remembered token expires, then it is refused from then on', async () => {
    const token = await signAccessToken({ sub: 'user-short', expiresIn: 1 });
    expect((await getMe(`Bearer ${token}`)).status).toBe(200);

    const expiresAt = (Math.floor(Date.now() / 1000) + 1) * 1000;
    // Kept: waits out the token's real one-second lifetime, which the gateway reads from the clock.
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 50));

    upstream.received.length = 0;
    await expectRefused(`Bearer ${token}`);
  });

  it('when a public route is called without a token, then it is forwarded without a principal', async () => {
    const response = await request(`${gateway.url}/v1/auth/refresh`, { body: { refreshToken: 'r' } });

    expect(response.status).toBe(200);
    expect(upstream.received[0]!.headers[PRINCIPAL_HEADER]).toBeUndefined();
  });

  it('when a public route is called with a token, then the token is not forwarded either', async () => {
    const response = await request(`${gateway.url}/v1/auth/logout`, {
      body: { refreshToken: 'r' },
      headers: { authorization: `Bearer ${await signAccessToken()}` },
    });

    expect(response.status).toBe(200);
    expect(upstream.received[0]!.headers.authorization).toBeUndefined();
    expect(upstream.received[0]!.headers[PRINCIPAL_HEADER]).toBeUndefined();
  });

  it('when a project token resolver is plugged in, then its principals meet the route access rules', async () => {
    const withResolver = await startGateway(
      { IDENTITY_SERVICE_URL: upstream.url },
      {
        resolveProjectToken: async (token) => ({
          kind: 'project_token',
          tokenId: token.slice(0, 10),
          projectId: 'p1',
          permissions: 'read',
        }),
      },
    );
    try {
      const response = await request(`${withResolver.url}/v1/user/me`, {
        headers: { authorization: 'Bearer tolk_0123456789abcdefghijklmnopqrstuv' },
      });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('FORBIDDEN');
      expect(upstream.received).toHaveLength(0);
    } finally {
      await withResolver.close();
    }
  });
});
