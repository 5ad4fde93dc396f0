/**
 * `tolk login` (device login), `whoami`, `logout` and the stored session, against the real
 * gateway and identity-service.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { settled } from '@tolk/testing';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';

/** The code the device flow shows, e.g. ABCD-EFGH. */
const USER_CODE = /\b([A-Z]{4}-[A-Z]{4})\b/;

describe('tolk login, whoami, logout', () => {
  let system: System;
  let cli: CliHarness;

  beforeAll(async () => {
    system = await startSystem({ identityEnv: { DEVICE_POLL_INTERVAL_SECONDS: '1' }, tokens: true });
    cli = await createCliHarness(system.base);
  });
  afterAll(async () => {
    await cli?.remove();
    await system?.close();
  });

  const credentialsFile = () => join(cli.configHome, 'tolk', 'credentials.json');
  const readCredentials = async () => JSON.parse(await readFile(credentialsFile(), 'utf8'));

  /** Runs `tolk login` and approves its code as `token`'s user once it is shown. */
  async function loginApprovedBy(token: string, args: string[] = ['--no-browser'], opened: string[] = []) {
    let output = '';
    const result = cli.tolk(['login', ...args], {
      onOutput: (stdout, stderr) => (output = stdout + stderr),
      openBrowser: async (url) => void opened.push(url),
    });
    await expect.poll(() => output, settled).toMatch(USER_CODE);
    const userCode = USER_CODE.exec(output)![1];
    const approved = await system.call('POST', '/v1/auth/device/approve', token, { userCode });
    expect(approved.status).toBe(204);
    return { result: await result, userCode };
  }

  it('when the user approves the code, then login stores a session (0600) and whoami names the user', async () => {
    const user = await system.signUp();
    const { result, userCode } = await loginApprovedBy(user.token);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/open http\S+ and enter the code/);
    expect(result.stdout).toContain(userCode);
    expect(result.stdout).toContain(`Logged in to ${system.base} as ${user.email}`);

    const file = await stat(credentialsFile());
    expect(file.mode & 0o777).toBe(0o600);
    expect((await stat(join(cli.configHome, 'tolk'))).mode & 0o777).toBe(0o700);
    const stored = await readCredentials();
    expect(stored.sessions[system.base]).toMatchObject({
      refreshToken: expect.any(String),
      email: user.email,
    });

    const whoami = await cli.tolk(['whoami', '--json']);
    expect(whoami.code).toBe(0);
    expect(whoami.json()).toMatchObject({
      apiUrl: system.base,
      kind: 'session',
      email: user.email,
      userId: user.userId,
    });
  });

  it('when the access token has run out, then the CLI renews it and stores the rotated refresh token', async () => {
    const user = await system.signUp();
    await loginApprovedBy(user.token);
    const before = await readCredentials();
    const oldRefresh = before.sessions[system.base].refreshToken;
    // As if 15 minutes had passed.
    before.sessions[system.base].accessTokenExpiresAt = Date.now() - 1000;
    await writeFile(credentialsFile(), JSON.stringify(before));

    const whoami = await cli.tolk(['whoami']);
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toContain(user.email);
    const after = await readCredentials();
    expect(after.sessions[system.base].refreshToken).not.toBe(oldRefresh);
    expect((await stat(credentialsFile())).mode & 0o777).toBe(0o600);
    // Rotated: the old one is dead.
    const reuse = await system.call('POST', '/v1/auth/refresh', undefined, { refreshToken: oldRefresh });
    expect(reuse.status).toBe(401);
  });

  it('when a browser can be opened, then login opens the approval page with the code filled in', async () => {
    const user = await system.signUp();
    const opened: string[] = [];
    const { result, userCode } = await loginApprovedBy(user.token, [], opened);
    expect(result.code).toBe(0);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^http.*\?code=/);
    expect(opened[0]).toContain(userCode);
  });

  it('when the user denies the code, then login exits 3 with ACCESS_DENIED', async () => {
    const user = await system.signUp();
    let output = '';
    const result = cli.tolk(['login', '--no-browser'], {
      onOutput: (stdout, stderr) => (output = stdout + stderr),
    });
    await expect.poll(() => output, settled).toMatch(USER_CODE);
    const userCode = USER_CODE.exec(output)![1];
    expect((await system.call('POST', '/v1/auth/device/deny', user.token, { userCode })).status).toBe(204);
    const denied = await result;
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('ACCESS_DENIED');
  });

  it('when Ctrl-C comes while waiting for approval, then login stops with 130 and stores nothing new', async () => {
    const controller = new AbortController();
    let output = '';
    const result = cli.tolk(['login', '--no-browser', '--api', system.base], {
      signal: controller.signal,
      env: { XDG_CONFIG_HOME: join(cli.root, 'interrupted') },
      onOutput: (stdout) => (output = stdout),
    });
    await expect.poll(() => output, settled).toContain('Waiting');
    controller.abort();
    const interrupted = await result;
    expect(interrupted.code).toBe(130);
    await expect(stat(join(cli.root, 'interrupted', 'tolk', 'credentials.json'))).rejects.toThrow();
  });

  it('when the user logs out, then the session is revoked on the server and forgotten, and whoami exits 3', async () => {
    const user = await system.signUp();
    await loginApprovedBy(user.token);
    const refreshToken = (await readCredentials()).sessions[system.base].refreshToken;

    const logout = await cli.tolk(['logout']);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain(`Logged out of ${system.base}`);
    expect((await system.call('POST', '/v1/auth/refresh', undefined, { refreshToken })).status).toBe(401);

    const whoami = await cli.tolk(['whoami']);
    expect(whoami.code).toBe(3);
    expect(whoami.stderr).toContain('NOT_LOGGED_IN');
    expect(whoami.stderr).toContain('tolk login');
    expect(whoami.stderr).not.toMatch(/\n\s+at /);
  });

  it('when TOLK_TOKEN holds a project API token or an access token, then whoami needs no login', async () => {
    const user = await system.signUp();
    const project = await system.call('POST', '/v1/projects', user.token, { name: 'CI', sourceLocale: 'en' });
    const created = await system.call('POST', `/v1/projects/${project.body.projectId}/tokens`, user.token, {
      label: 'ci',
      permissions: 'read',
    });
    const token = created.body.token as string;
    const env = { XDG_CONFIG_HOME: join(cli.root, 'ci-config') };

    const asProjectToken = await cli.tolk(['whoami', '--json'], { env: { ...env, TOLK_TOKEN: token } });
    expect(asProjectToken.code).toBe(0);
    expect(asProjectToken.json()).toEqual({
      apiUrl: system.base,
      kind: 'project-token',
      tokenPrefix: token.slice(0, 10),
    });

    const asUser = await cli.tolk(['whoami'], { env: { ...env, TOLK_TOKEN: user.token } });
    expect(asUser.code).toBe(0);
    expect(asUser.stdout).toContain(user.email);
  });
});
