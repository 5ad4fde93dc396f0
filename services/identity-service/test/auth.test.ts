import jwt from 'jsonwebtoken';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@tolk/contracts';
import { sessionResponseSchema } from '../src/entry-points/http/schemas.js';
import {
  PASSWORD,
  expectError,
  startIdentityService,
  uniqueEmail,
  type IdentityService,
} from './identity-harness.js';

let identity: IdentityService;
beforeAll(async () => {
  identity = await startIdentityService();
});
afterAll(async () => {
  await identity?.close();
});

describe('POST /v1/auth/signup', () => {
  it('when the input is valid, then 201 with the user, an access token and a refresh token', async () => {
    const email = uniqueEmail();
    const before = identity.clock.now();
    const response = await identity.post('/v1/auth/signup', { email, password: PASSWORD, name: 'Ada' });

    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = sessionResponseSchema.parse(response.body);
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken', 'user']);
    expect(Object.keys(body.user).sort()).toEqual(['createdAt', 'email', 'name', 'userId']);
    expect(body.user).toEqual({
      userId: expect.stringMatching(/^usr_[0-9a-f]{32}$/),
      email,
      name: 'Ada',
      createdAt: expect.any(Number),
    });
    expect(body.user.createdAt).toBeGreaterThanOrEqual(before);
    expect(body.user.createdAt).toBeLessThanOrEqual(identity.clock.now());
    expect(body.accessToken.split('.')).toHaveLength(3);
    expect(body.refreshToken).toMatch(/^tolkr_[A-Za-z0-9_-]{43}$/);
    expect(body.expiresIn).toBe(900);
  });

  it('when no name is given, then name is null', async () => {
    const { user } = await identity.signUp();
    expect(user.name).toBeNull();
  });

  it('when the name is blank, then name is null', async () => {
    const { user } = await identity.signUp({ name: '   ' });
    expect(user.name).toBeNull();
  });

  it('when the email has upper case and spaces, then it is stored trimmed and lower-cased', async () => {
    const local = `Mixed.${Date.now()}`;
    const { user } = await identity.signUp({ email: `  ${local}@Example.COM ` });
    expect(user.email).toBe(`${local.toLowerCase()}@example.com`);
  });

  it('when the email is taken, then 409 CONFLICT', async () => {
    const email = uniqueEmail();
    await identity.signUp({ email });
    const response = await identity.post('/v1/auth/signup', { email, password: PASSWORD });
    expectError(response, 409, 'CONFLICT');
  });

  it('when the email is taken in a different case, then 409 CONFLICT', async () => {
    const email = uniqueEmail();
    await identity.signUp({ email });
    const response = await identity.post('/v1/auth/signup', {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expectError(response, 409, 'CONFLICT');
  });

  it('when two signups race for one email, then exactly one wins', async () => {
    const email = uniqueEmail();
    const responses = await Promise.all(
      [1, 2, 3].map(() => identity.post('/v1/auth/signup', { email, password: PASSWORD })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    ['email is missing', { password: PASSWORD }, 'body.email: is required'],
    ['email is a number', { email: 42, password: PASSWORD }, 'body.email: must be a string'],
    [
      'email is not an address',
      { email: 'not-an-email', password: PASSWORD },
      'body.email: must be an email',
    ],
    ['password is missing', { email: 'a@example.com' }, 'body.password: is required'],
    [
      'password is too short',
      { email: 'a@example.com', password: 'short' },
      'body.password: must be at least 8',
    ],
    [
      'password is too long',
      { email: 'a@example.com', password: 'x'.repeat(1025) },
      'body.password: must be at most 1024',
    ],
    [
      'password is not a string',
      { email: 'a@example.com', password: 12345678 },
      'body.password: must be a string',
    ],
    ['name is too long', { email: 'a@example.com', password: PASSWORD, name: 'n'.repeat(201) }, 'body.name'],
    ['name is a number', { email: 'a@example.com', password: PASSWORD, name: 7 }, 'body.name'],
  ])('when %s, then 400 VALIDATION_ERROR naming the field', async (_case, body, message) => {
    const response = await identity.post('/v1/auth/signup', body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain(message);
  });

  it('when the password is exactly 8 and 1024 characters, then both are accepted', async () => {
    await identity.signUp({ password: '12345678' });
    await identity.signUp({ password: 'p'.repeat(1024) });
  });
});

describe('POST /v1/auth/login', () => {
  it('when the credentials are right, then 200 with the same shape as signup', async () => {
    const email = uniqueEmail();
    const signup = await identity.signUp({ email, name: 'Grace' });

    const response = await identity.post('/v1/auth/login', { email, password: PASSWORD });

    expect(response.status).toBe(200);
    const body = sessionResponseSchema.parse(response.body);
    expect(body.user).toEqual(signup.user);
    expect(body.refreshToken).not.toBe(signup.refreshToken);
    expect(body.expiresIn).toBe(900);
  });

  it('when the email differs in case and surrounding spaces, then the login still succeeds', async () => {
    const email = uniqueEmail();
    await identity.signUp({ email });
    const response = await identity.post('/v1/auth/login', {
      email: ` ${email.toUpperCase()} `,
      password: PASSWORD,
    });
    expect(response.status).toBe(200);
  });

  it('when the password is wrong, then 401 UNAUTHORIZED "Invalid email or password"', async () => {
    const email = uniqueEmail();
    await identity.signUp({ email });
    const response = await identity.post('/v1/auth/login', { email, password: `${PASSWORD}!` });
    expectError(response, 401, 'UNAUTHORIZED');
    expect(response.body.error.message).toBe('Invalid email or password');
  });

  it('when the email is unknown, then the answer is identical to a wrong password', async () => {
    const email = uniqueEmail();
    await identity.signUp({ email });
    const wrongPassword = await identity.post('/v1/auth/login', { email, password: 'wrong password' });
    const unknownEmail = await identity.post('/v1/auth/login', { email: uniqueEmail(), password: PASSWORD });

    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(unknownEmail.body).toStrictEqual(wrongPassword.body);
    expect(unknownEmail.text).toBe(wrongPassword.text);
  });

  it('when the email is not even an address, then it is answered like any unknown email', async () => {
    const response = await identity.post('/v1/auth/login', { email: 'nobody', password: PASSWORD });
    expectError(response, 401, 'UNAUTHORIZED');
    expect(response.body.error.message).toBe('Invalid email or password');
  });

  it('when the password field is missing, then 400 VALIDATION_ERROR naming it', async () => {
    const response = await identity.post('/v1/auth/login', { email: uniqueEmail() });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain('body.password');
  });
});

describe('access tokens', () => {
  it('when issued, then it is an ES256 JWT that verifies with the public key, issuer and audience', async () => {
    const { user, accessToken } = await identity.signUp();

    const { payload, header } = jwt.verify(accessToken, identity.publicKey, {
      algorithms: ['ES256'],
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
      complete: true,
    });

    expect(header.alg).toBe('ES256');
    expect(header.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    assert(typeof payload === 'object');
    expect(payload.sub).toBe(user.userId);
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(Math.abs(payload.iat! - identity.clock.now() / 1000)).toBeLessThan(5);
  });

  it('when two tokens are issued, then they carry the same key id', async () => {
    const a = await identity.signUp();
    const b = await identity.signUp();
    const keyId = (token: string) => jwt.decode(token, { complete: true })!.header.kid;
    expect(keyId(a.accessToken)).toBe(keyId(b.accessToken));
  });
});

describe('POST /v1/auth/refresh', () => {
  it('when the refresh token is current, then 200 with new tokens and the refresh token rotated', async () => {
    const signup = await identity.signUp();

    const response = await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });

    expect(response.status).toBe(200);
    const body = sessionResponseSchema.parse(response.body);
    expect(body.user).toEqual(signup.user);
    expect(body.refreshToken).toMatch(/^tolkr_/);
    expect(body.refreshToken).not.toBe(signup.refreshToken);
    const payload = jwt.verify(body.accessToken, identity.publicKey, {
      algorithms: ['ES256'],
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    });
    assert(typeof payload === 'object');
    expect(payload.sub).toBe(signup.user.userId);
  });

  it('when the new refresh token is used, then it rotates again', async () => {
    const signup = await identity.signUp();
    const first = await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });
    const second = await identity.post('/v1/auth/refresh', { refreshToken: first.body.refreshToken });
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.body.refreshToken);
  });

  it('when a rotated refresh token is reused, then 401 and the whole family is revoked', async () => {
    const signup = await identity.signUp();
    const rotated = await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });
    expect(rotated.status).toBe(200);

    const reuse = await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });
    expectError(reuse, 401, 'UNAUTHORIZED');

    // The newest token of the family, never used before, no longer works either.
    const newest = await identity.post('/v1/auth/refresh', { refreshToken: rotated.body.refreshToken });
    expectError(newest, 401, 'UNAUTHORIZED');
  });

  it('when one sign-in family is revoked, then other sign-ins of the same user keep working', async () => {
    const email = uniqueEmail();
    const signup = await identity.signUp({ email });
    const otherDevice = await identity.post('/v1/auth/login', { email, password: PASSWORD });
    await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });
    await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });

    const response = await identity.post('/v1/auth/refresh', { refreshToken: otherDevice.body.refreshToken });
    expect(response.status).toBe(200);
  });

  it('when the same refresh token is sent twice at once, then at most one succeeds', async () => {
    const signup = await identity.signUp();
    const responses = await Promise.all(
      [1, 2].map(() => identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('when the refresh token is unknown, then 401 UNAUTHORIZED', async () => {
    const response = await identity.post('/v1/auth/refresh', { refreshToken: 'tolkr_not-a-real-token' });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('when the refresh token has expired, then 401 UNAUTHORIZED', async () => {
    const signup = await identity.signUp();
    identity.clock.advanceSeconds(30 * 24 * 60 * 60 + 1);
    const response = await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('when refreshToken is missing or not a string, then 400 VALIDATION_ERROR naming it', async () => {
    for (const body of [{}, { refreshToken: 1 }, { refreshToken: '' }]) {
      const response = await identity.post('/v1/auth/refresh', body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toContain('body.refreshToken');
    }
  });
});

describe('POST /v1/auth/logout', () => {
  it('when logged out, then 204 and the refresh token no longer works', async () => {
    const signup = await identity.signUp();

    const logout = await identity.post('/v1/auth/logout', { refreshToken: signup.refreshToken });
    expect(logout.status).toBe(204);
    expect(logout.text).toBe('');

    const refresh = await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });
    expectError(refresh, 401, 'UNAUTHORIZED');
  });

  it('when an older token of the family is logged out, then the newest one stops working too', async () => {
    const signup = await identity.signUp();
    const rotated = await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });
    await identity.post('/v1/auth/logout', { refreshToken: rotated.body.refreshToken });
    const refresh = await identity.post('/v1/auth/refresh', { refreshToken: rotated.body.refreshToken });
    expectError(refresh, 401, 'UNAUTHORIZED');
  });

  it('when the token is unknown, then still 204', async () => {
    const response = await identity.post('/v1/auth/logout', { refreshToken: 'tolkr_unknown' });
    expect(response.status).toBe(204);
  });

  it('when refreshToken is missing, then 400 VALIDATION_ERROR naming it', async () => {
    const response = await identity.post('/v1/auth/logout', {});
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain('body.refreshToken');
  });
});

describe('secrets at rest and in logs', () => {
  // At production's password cost (the other tests sign up at a test-only lower one).
  let identity: IdentityService;
  beforeAll(async () => {
    identity = await startIdentityService({ productionPasswordCost: true });
  });
  afterAll(async () => {
    await identity?.close();
  });

  it('when a user signs up and refreshes, then passwords and tokens are stored only hashed and never logged', async () => {
    const password = 'a very particular password 123';
    const signup = await identity.signUp({ password });
    const refreshed = await identity.post('/v1/auth/refresh', { refreshToken: signup.refreshToken });

    const { rows: users } = await identity.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE user_id = $1',
      [signup.user.userId],
    );
    expect(users[0]?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(users[0]?.password_hash).not.toContain(password);

    for (const token of [signup.refreshToken, refreshed.body.refreshToken as string]) {
      const { rows } = await identity.db.query<{ hashed: number; clear: number }>(
        `SELECT count(*) FILTER (WHERE token_hash = sha256(convert_to($1, 'UTF8')))::int AS hashed,
                count(*) FILTER (WHERE token_hash = convert_to($1, 'UTF8'))::int AS clear
           FROM refresh_tokens`,
        [token],
      );
      expect(rows[0]).toEqual({ hashed: 1, clear: 0 });
    }

    const logs = identity.logLines.join('\n');
    expect(logs).toContain('user signed up');
    for (const secret of [password, signup.refreshToken, signup.accessToken, refreshed.body.refreshToken]) {
      expect(logs).not.toContain(secret);
    }
  });
});
