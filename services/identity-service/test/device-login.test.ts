import jwt from 'jsonwebtoken';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@tolk/contracts';
import {
  deviceAuthorizationResponseSchema,
  sessionResponseSchema,
} from '../src/entry-points/http/schemas.js';
import { PUBLIC_URL, expectError, startIdentityService, type IdentityService } from './identity-harness.js';

const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

let identity: IdentityService;
beforeAll(async () => {
  identity = await startIdentityService();
});
afterAll(async () => {
  await identity?.close();
});

async function startDeviceLogin() {
  const response = await identity.post('/v1/auth/device');
  expect(response.status).toBe(200);
  return deviceAuthorizationResponseSchema.parse(response.body);
}

function poll(deviceCode: string) {
  return identity.post('/v1/auth/device/token', { deviceCode });
}

async function signedInUser() {
  const { user } = await identity.signUp();
  return { user, headers: await identity.asUser(user.userId) };
}

describe('POST /v1/auth/device', () => {
  it('when started without a body, then 200 with codes, verification URIs, expiry and interval', async () => {
    const response = await identity.post('/v1/auth/device');

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = deviceAuthorizationResponseSchema.parse(response.body);
    expect(body.deviceCode).toMatch(/^tolkd_[A-Za-z0-9_-]{43}$/);
    expect(body.userCode).toMatch(USER_CODE);
    expect(body.verificationUri).toBe(`${PUBLIC_URL}/device`);
    expect(body.verificationUriComplete).toBe(`${PUBLIC_URL}/device?code=${body.userCode}`);
    expect(body.expiresIn).toBe(900);
    expect(body.interval).toBe(5);
  });

  it('when started with an empty JSON object, then 200 as well', async () => {
    const response = await identity.post('/v1/auth/device', {});
    expect(response.status).toBe(200);
    deviceAuthorizationResponseSchema.parse(response.body);
  });

  it('when started with an array body, then 400 VALIDATION_ERROR', async () => {
    const response = await identity.post('/v1/auth/device', []);
    expectError(response, 400, 'VALIDATION_ERROR');
  });

  it('when started many times, then every code is different', async () => {
    const logins = await Promise.all(Array.from({ length: 20 }, () => startDeviceLogin()));
    expect(new Set(logins.map((l) => l.userCode)).size).toBe(20);
    expect(new Set(logins.map((l) => l.deviceCode)).size).toBe(20);
  });

  it('when a device code is stored, then only its hash is', async () => {
    const { deviceCode } = await startDeviceLogin();
    const { rows } = await identity.db.query<{ hashed: number; clear: number }>(
      `SELECT count(*) FILTER (WHERE device_code_hash = sha256(convert_to($1, 'UTF8')))::int AS hashed,
              count(*) FILTER (WHERE device_code_hash = convert_to($1, 'UTF8'))::int AS clear
         FROM device_codes`,
      [deviceCode],
    );
    expect(rows[0]).toEqual({ hashed: 1, clear: 0 });
  });
});

describe('POST /v1/auth/device/token', () => {
  it('when the login is not approved yet, then 400 AUTHORIZATION_PENDING', async () => {
    const { deviceCode } = await startDeviceLogin();
    expectError(await poll(deviceCode), 400, 'AUTHORIZATION_PENDING');
  });

  it('when polled again sooner than the interval, then 400 SLOW_DOWN and the interval grows by 5 s', async () => {
    const { deviceCode } = await startDeviceLogin();
    expectError(await poll(deviceCode), 400, 'AUTHORIZATION_PENDING');

    const tooSoon = await poll(deviceCode);
    expectError(tooSoon, 400, 'SLOW_DOWN');
    expect(tooSoon.body.error.message).toContain('10 seconds');

    // The old interval is no longer enough...
    identity.clock.advanceSeconds(6);
    expectError(await poll(deviceCode), 400, 'SLOW_DOWN');
    // ...the grown one (now 15 s) is.
    identity.clock.advanceSeconds(15);
    expectError(await poll(deviceCode), 400, 'AUTHORIZATION_PENDING');
  });

  it('when polled at the interval, then AUTHORIZATION_PENDING every time', async () => {
    const { deviceCode, interval } = await startDeviceLogin();
    for (let i = 0; i < 3; i++) {
      expectError(await poll(deviceCode), 400, 'AUTHORIZATION_PENDING');
      identity.clock.advanceSeconds(interval);
    }
  });

  it('when approved, then tokens for the approving user exactly once, then EXPIRED_TOKEN', async () => {
    const { user, headers } = await signedInUser();
    const { deviceCode, userCode } = await startDeviceLogin();

    const approve = await identity.post('/v1/auth/device/approve', { userCode }, headers);
    expect(approve.status).toBe(204);
    expect(approve.text).toBe('');

    const tokens = await poll(deviceCode);
    expect(tokens.status).toBe(200);
    const body = sessionResponseSchema.parse(tokens.body);
    expect(body.user).toEqual(user);
    expect(body.refreshToken).toMatch(/^tolkr_/);
    const payload = jwt.verify(body.accessToken, identity.publicKey, {
      algorithms: ['ES256'],
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    });
    assert(typeof payload === 'object');
    expect(payload.sub).toBe(user.userId);

    identity.clock.advanceSeconds(5);
    expectError(await poll(deviceCode), 400, 'EXPIRED_TOKEN');

    // The tokens of the device login are a sign-in of their own, with a working refresh token.
    const refresh = await identity.post('/v1/auth/refresh', { refreshToken: body.refreshToken });
    expect(refresh.status).toBe(200);
  });

  it('when approved and polled twice at once, then only one poll gets tokens', async () => {
    const { headers } = await signedInUser();
    const { deviceCode, userCode } = await startDeviceLogin();
    await identity.post('/v1/auth/device/approve', { userCode }, headers);

    const responses = await Promise.all([poll(deviceCode), poll(deviceCode)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    const failed = responses.find((r) => r.status === 400)!;
    expectError(failed, 400, 'EXPIRED_TOKEN');
  });

  it('when denied, then 400 ACCESS_DENIED', async () => {
    const { headers } = await signedInUser();
    const { deviceCode, userCode } = await startDeviceLogin();

    const deny = await identity.post('/v1/auth/device/deny', { userCode }, headers);
    expect(deny.status).toBe(204);

    expectError(await poll(deviceCode), 400, 'ACCESS_DENIED');
  });

  it('when the code has expired, then 400 EXPIRED_TOKEN, even if it was approved', async () => {
    const { headers } = await signedInUser();
    const pending = await startDeviceLogin();
    const approved = await startDeviceLogin();
    await identity.post('/v1/auth/device/approve', { userCode: approved.userCode }, headers);

    identity.clock.advanceSeconds(pending.expiresIn);

    expectError(await poll(pending.deviceCode), 400, 'EXPIRED_TOKEN');
    expectError(await poll(approved.deviceCode), 400, 'EXPIRED_TOKEN');
  });

  it('when the device code is unknown, then 400 EXPIRED_TOKEN', async () => {
    expectError(await poll('tolkd_never-issued'), 400, 'EXPIRED_TOKEN');
  });

  it('when deviceCode is missing, then 400 VALIDATION_ERROR naming it', async () => {
    const response = await identity.post('/v1/auth/device/token', {});
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain('body.deviceCode');
  });
});

describe('POST /v1/auth/device/approve', () => {
  it('when the user code is typed lower-case without the dash, then it is accepted', async () => {
    const { headers } = await signedInUser();
    const { deviceCode, userCode } = await startDeviceLogin();

    const typed = userCode.replace('-', '').toLowerCase();
    const response = await identity.post('/v1/auth/device/approve', { userCode: typed }, headers);

    expect(response.status).toBe(204);
    expect((await poll(deviceCode)).status).toBe(200);
  });

  it('when the user code has surrounding spaces, then it is accepted', async () => {
    const { headers } = await signedInUser();
    const { userCode } = await startDeviceLogin();
    const response = await identity.post('/v1/auth/device/approve', { userCode: ` ${userCode} ` }, headers);
    expect(response.status).toBe(204);
  });

  it('when the code is unknown, then 404 NOT_FOUND', async () => {
    const { headers } = await signedInUser();
    const response = await identity.post('/v1/auth/device/approve', { userCode: 'BCDF-GHJK' }, headers);
    expectError(response, 404, 'NOT_FOUND');
    expect(response.body.error.message).toContain('BCDF-GHJK');
  });

  it('when the code was already approved, then 404 NOT_FOUND', async () => {
    const { headers } = await signedInUser();
    const { userCode } = await startDeviceLogin();
    await identity.post('/v1/auth/device/approve', { userCode }, headers);
    expectError(await identity.post('/v1/auth/device/approve', { userCode }, headers), 404, 'NOT_FOUND');
    expectError(await identity.post('/v1/auth/device/deny', { userCode }, headers), 404, 'NOT_FOUND');
  });

  it('when the code has expired, then 404 NOT_FOUND', async () => {
    const { headers } = await signedInUser();
    const { userCode, expiresIn } = await startDeviceLogin();
    identity.clock.advanceSeconds(expiresIn + 1);
    expectError(await identity.post('/v1/auth/device/approve', { userCode }, headers), 404, 'NOT_FOUND');
  });

  it('when the code cannot be a user code, then 400 VALIDATION_ERROR naming userCode', async () => {
    const { headers } = await signedInUser();
    for (const userCode of ['AEIO-U123', 'BCDF', 42, undefined]) {
      const response = await identity.post('/v1/auth/device/approve', { userCode }, headers);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toContain('body.userCode');
    }
  });

  it('when there is no principal, then 401 UNAUTHORIZED', async () => {
    const { userCode } = await startDeviceLogin();
    expectError(await identity.post('/v1/auth/device/approve', { userCode }), 401, 'UNAUTHORIZED');
    expectError(await identity.post('/v1/auth/device/deny', { userCode }), 401, 'UNAUTHORIZED');
  });

  it('when the principal is a project token, then 403 FORBIDDEN and the code stays pending', async () => {
    const { deviceCode, userCode } = await startDeviceLogin();
    const headers = await identity.asProjectToken();

    expectError(await identity.post('/v1/auth/device/approve', { userCode }, headers), 403, 'FORBIDDEN');
    expectError(await identity.post('/v1/auth/device/deny', { userCode }, headers), 403, 'FORBIDDEN');
    expectError(await poll(deviceCode), 400, 'AUTHORIZATION_PENDING');
  });

  it('when the principal names a user that does not exist, then 401 UNAUTHORIZED', async () => {
    const { userCode } = await startDeviceLogin();
    const headers = await identity.asUser('usr_gone');
    expectError(await identity.post('/v1/auth/device/approve', { userCode }, headers), 401, 'UNAUTHORIZED');
  });
});
