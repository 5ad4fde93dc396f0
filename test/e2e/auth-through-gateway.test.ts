/**
 * The first thing a user does, through the one public entry: the real gateway in front of the
 * real identity-service, on real Postgres and Redis — signup, login, /v1/user/me, refresh and the
 * CLI's device login, exactly as the README's curl lines do it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '@tolk/testing';
import { startSystem, type System } from './system.js';

describe('signing in through the gateway', () => {
  let system: System;
  let base: string;

  beforeAll(async () => {
    system = await startSystem({ identityEnv: { DEVICE_POLL_INTERVAL_SECONDS: '1' } });
    base = system.base;
  });
  afterAll(async () => {
    await system?.close();
  });

  const post = (path: string, body?: unknown, token?: string) =>
    request(`${base}${path}`, {
      method: 'POST',
      body,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('when a user signs up, logs in and asks who they are, then each step answers as the API says', async () => {
    const email = `ada-${randomUUID()}@example.com`;
    const signup = await post('/v1/auth/signup', { email, password: 'correct horse battery', name: 'Ada' });
    expect(signup.status).toBe(201);
    expect(signup.body).toEqual({
      user: { userId: expect.any(String), email, name: 'Ada', createdAt: expect.any(Number) },
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
    });

    const login = await post('/v1/auth/login', { email, password: 'correct horse battery' });
    expect(login.status).toBe(200);

    const me = await request(`${base}/v1/user/me`, {
      headers: { authorization: `Bearer ${login.body.accessToken}` },
    });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(signup.body.user);

    const refreshed = await post('/v1/auth/refresh', { refreshToken: login.body.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refreshToken).not.toBe(login.body.refreshToken);
    const reused = await post('/v1/auth/refresh', { refreshToken: login.body.refreshToken });
    expect(reused.status).toBe(401);
    expect((await post('/v1/auth/refresh', { refreshToken: refreshed.body.refreshToken })).status).toBe(401);
  });

  it('when the CLI starts a device login and the user approves it, then the CLI gets tokens once', async () => {
    const user = await post('/v1/auth/signup', {
      email: `cli-${randomUUID()}@example.com`,
      password: 'correct horse battery',
    });
    const started = await post('/v1/auth/device');
    expect(started.status).toBe(200);
    const { deviceCode, userCode } = started.body as { deviceCode: string; userCode: string };
    expect(userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

    const pending = await post('/v1/auth/device/token', { deviceCode });
    expect(pending.body.error.code).toBe('AUTHORIZATION_PENDING');
    const tooSoon = await post('/v1/auth/device/token', { deviceCode });
    expect(tooSoon.body.error.code).toBe('SLOW_DOWN');

    expect((await post('/v1/auth/device/approve', { userCode })).status).toBe(401);
    const approved = await post(
      '/v1/auth/device/approve',
      { userCode: userCode.toLowerCase() },
      user.body.accessToken,
    );
    expect(approved.status).toBe(204);

    // Kept: the device flow's real interval after SLOW_DOWN (1 s + 5 s); asking sooner is SLOW_DOWN again.
    await new Promise((resolve) => setTimeout(resolve, 6_100));
    const tokens = await post('/v1/auth/device/token', { deviceCode });
    expect(tokens.status).toBe(200);
    expect(tokens.body.user.userId).toBe(user.body.user.userId);
    const again = await post('/v1/auth/device/token', { deviceCode });
    expect(again.body.error.code).toBe('EXPIRED_TOKEN');
  });

  it('when a client forges the principal header, then the gateway and the service ignore it', async () => {
    const response = await request(`${base}/v1/user/me`, {
      headers: { 'x-tolk-principal': 'forged', 'x-user-id': 'usr_someone' },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  });
});
