/**
 * Project API tokens through the one public entry, with every service real: the permission matrix
 * of DESIGN §2/§9 (every route × who calls × method), revocation while requests flow, lastUsedAt,
 * and the token value kept out of every table and every log line. The matrix, the revocation and
 * lastUsedAt run twice: on the servers, and in the embedded mode (`npm start` without servers),
 * so the two modes cannot drift apart on any route.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realServers } from '@tolk/testing';
import { startEmbeddedSystem, type EmbeddedSystem } from '../embedded/embedded-harness.js';
import { startSystem, type System } from './system.js';

type Caller = 'user' | 'read' | 'readWrite' | 'otherProject' | 'revoked' | 'none';
const CALLERS: Caller[] = ['user', 'read', 'readWrite', 'otherProject', 'revoked', 'none'];

describe.each(['servers', 'embedded'] as const)('project API tokens through the gateway (%s)', (mode) => {
  let system: System | EmbeddedSystem;
  /** Only on the servers: what the test/e2e system observes beyond answers. */
  const servers = () => system as System;
  let owner: Awaited<ReturnType<System['signUp']>>;
  let projectId: string;
  let spareProjectId: string;
  const tokens: Record<Exclude<Caller, 'user' | 'none'>, string> = {
    read: '',
    readWrite: '',
    otherProject: '',
    revoked: '',
  };

  const call: System['call'] = (...args) => system.call(...args);

  async function createToken(
    project: string,
    permissions: 'read' | 'read_write',
    label: string = permissions,
  ) {
    const created = await call('POST', `/v1/projects/${project}/tokens`, owner.token, { label, permissions });
    expect(created.status).toBe(201);
    return created.body as { token: string; tokenId: string };
  }

  async function createProject(name: string): Promise<string> {
    const created = await call('POST', '/v1/projects', owner.token, { name, sourceLocale: 'en' });
    expect(created.status).toBe(201);
    return created.body.projectId as string;
  }

  beforeAll(async () => {
    // The revocation test calls with a revoked token hundreds of times a second from this one
    // address, far past the failed-auth limit (429 then; gateway/test/failed-auth-limit.test.ts).
    const gatewayEnv = { RATE_LIMIT_AUTH_FAILURES_PER_IP: '100000' };
    system =
      mode === 'servers'
        ? await startSystem({ sources: true, tokens: true, byok: true, captureLogs: true, gatewayEnv })
        : await startEmbeddedSystem({ gatewayEnv });
    owner = await system.signUp();
    projectId = await createProject('Shop');
    spareProjectId = await createProject('Spare');
    const other = await createProject('Elsewhere');
    expect(
      (await call('POST', `/v1/projects/${projectId}/locales`, owner.token, { locale: 'de' })).status,
    ).toBe(201);
    expect(
      (await call('PUT', `/v1/projects/${projectId}/source`, owner.token, { hello: 'Hello' })).status,
    ).toBe(200);
    tokens.read = (await createToken(projectId, 'read')).token;
    tokens.readWrite = (await createToken(projectId, 'read_write')).token;
    tokens.otherProject = (await createToken(other, 'read_write')).token;
    const revoked = await createToken(projectId, 'read_write', 'to revoke');
    tokens.revoked = revoked.token;
    expect(
      (await call('DELETE', `/v1/projects/${projectId}/tokens/${revoked.tokenId}`, owner.token)).status,
    ).toBe(204);
  });
  afterAll(async () => {
    await system?.close();
  });

  function bearer(caller: Caller): string | undefined {
    if (caller === 'user') return owner.token;
    if (caller === 'none') return undefined;
    return tokens[caller];
  }

  /** What a route gives each caller: the user's real answer, and what the tokens' kind of route gives them. */
  type Row = {
    method: string;
    path: () => string;
    body?: unknown;
    user: number;
    tokens: 'read' | 'upload' | 'never';
  };
  const project =
    (rest = '') =>
    () =>
      `/v1/projects/${projectId}${rest}`;
  const ROWS: Row[] = [
    { method: 'GET', path: project(), user: 200, tokens: 'read' },
    { method: 'PATCH', path: project(), body: { name: 'Shop 2' }, user: 200, tokens: 'never' },
    { method: 'GET', path: () => '/v1/projects', user: 200, tokens: 'never' },
    {
      method: 'POST',
      path: () => '/v1/projects',
      body: { name: 'More', sourceLocale: 'en' },
      user: 201,
      tokens: 'never',
    },
    { method: 'GET', path: project('/members'), user: 200, tokens: 'never' },
    {
      method: 'POST',
      path: project('/members'),
      body: { email: 'nobody@example.com' },
      user: 404,
      tokens: 'never',
    },
    { method: 'DELETE', path: project('/members/usr_nobody'), user: 404, tokens: 'never' },
    { method: 'PUT', path: project('/source'), body: { hello: 'Hello' }, user: 200, tokens: 'upload' },
    { method: 'GET', path: project('/source'), user: 200, tokens: 'read' },
    { method: 'GET', path: project('/source/versions'), user: 200, tokens: 'read' },
    { method: 'GET', path: project('/source/versions/1'), user: 200, tokens: 'read' },
    { method: 'GET', path: project('/source/diff?from=0&to=1'), user: 200, tokens: 'read' },
    { method: 'GET', path: project('/locales'), user: 200, tokens: 'read' },
    { method: 'POST', path: project('/locales'), body: { locale: 'fr' }, user: 201, tokens: 'never' },
    { method: 'GET', path: project('/locales/de'), user: 200, tokens: 'read' },
    { method: 'DELETE', path: project('/locales/it'), user: 404, tokens: 'never' },
    { method: 'GET', path: project('/locales/de/translations'), user: 200, tokens: 'read' },
    {
      method: 'PUT',
      path: project('/locales/de/translations?sourceVersion=1'),
      body: { hello: 'Hallo' },
      user: 200,
      tokens: 'upload',
    },
    {
      method: 'POST',
      path: project('/tokens'),
      body: { label: 'ci', permissions: 'read' },
      user: 201,
      tokens: 'never',
    },
    { method: 'GET', path: project('/tokens'), user: 200, tokens: 'never' },
    { method: 'DELETE', path: project('/tokens/tok_nonexistent'), user: 404, tokens: 'never' },
    { method: 'GET', path: () => '/v1/user/byok', user: 200, tokens: 'never' },
    {
      method: 'PUT',
      path: () => '/v1/user/byok/openai',
      body: { apiKey: 'sk-test-1234567890' },
      user: 200,
      tokens: 'never',
    },
    { method: 'GET', path: () => '/v1/user/byok/openai', user: 200, tokens: 'never' },
    { method: 'DELETE', path: () => '/v1/user/byok/openai', user: 204, tokens: 'never' },
    { method: 'GET', path: () => '/v1/user/me', user: 200, tokens: 'never' },
    {
      method: 'POST',
      path: () => '/v1/auth/device/approve',
      body: { userCode: 'BCDF-GHJK' },
      user: 404,
      tokens: 'never',
    },
    { method: 'DELETE', path: () => `/v1/projects/${spareProjectId}`, user: 204, tokens: 'never' },
  ];

  function expected(row: Row, caller: Caller): number {
    if (caller === 'user') return row.user;
    if (caller === 'none' || caller === 'revoked') return 401;
    if (row.tokens === 'never') return 403;
    if (row.tokens === 'upload' && caller === 'read') return 403;
    // Another project's token may do this kind of thing, but not to this project: as a non-member.
    if (caller === 'otherProject') return 404;
    return 200;
  }

  it('when every route is called by every kind of caller with its method, then each gets what DESIGN §9 says', async () => {
    const answers: string[] = [];
    const wanted: string[] = [];
    // Token callers first: the user's calls change things (the spare project is deleted last).
    for (const caller of [...CALLERS.filter((c) => c !== 'user'), 'user' as const]) {
      for (const row of ROWS) {
        const response = await call(row.method, row.path(), bearer(caller), row.body);
        answers.push(`${caller} ${row.method} ${row.path()} → ${response.status}`);
        wanted.push(`${caller} ${row.method} ${row.path()} → ${expected(row, caller)}`);
        if (response.status >= 400) {
          expect(response.body, `${caller} ${row.method} ${row.path()}`).toEqual({
            error: { code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) },
          });
        }
      }
    }
    expect(answers).toEqual(wanted);
  });

  if (mode === 'servers') {
    it('when a read token is refused a mutating method, then no service ever saw that request', async () => {
      // Kept: a forwarded request is an absence to rule out; one already under way lands within this.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const byReadToken = servers().upstreamRequests.filter(
        (r) => r.principal?.kind === 'project_token' && r.principal.permissions === 'read',
      );
      expect(byReadToken.length).toBeGreaterThan(0);
      expect(byReadToken.filter((r) => r.method !== 'GET')).toEqual([]);
      // Nor did a token reach a service it may not use at all.
      const byAnyToken = servers().upstreamRequests.filter((r) => r.principal?.kind === 'project_token');
      expect(new Set(byAnyToken.map((r) => r.service))).toEqual(new Set(['project', 'source', 'locale']));
    });
  }

  it('when a token is revoked while requests flow, then it is refused within a second', async () => {
    const { token, tokenId } = await createToken(projectId, 'read', 'flowing');
    const results: Array<{ at: number; status: number }> = [];
    let running = true;
    const flow = (async () => {
      while (running) {
        const response = await call('GET', `/v1/projects/${projectId}/source`, token);
        results.push({ at: Date.now(), status: response.status });
      }
    })();
    await expect.poll(() => results.length).toBeGreaterThanOrEqual(5);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const revoke = await call('DELETE', `/v1/projects/${projectId}/tokens/${tokenId}`, owner.token);
    expect(revoke.status).toBe(204);
    const revokedAt = Date.now();
    // Kept: the flow is watched for a real 1.5 s after the revocation, refusals and all.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    running = false;
    await flow;
    const refused = results.find((r) => r.at > revokedAt && r.status === 401);
    expect(refused, 'a 401 after the revocation').toBeDefined();
    expect(refused!.at - revokedAt).toBeLessThanOrEqual(1000);
    // And nothing let through after that.
    expect(results.filter((r) => r.at >= refused!.at && r.status !== 401)).toEqual([]);
  });

  it('when a token is used, then its lastUsedAt shows within a few seconds', async () => {
    const { token, tokenId } = await createToken(projectId, 'read', 'used');
    const listed = async () =>
      (
        (await call('GET', `/v1/projects/${projectId}/tokens`, owner.token)).body.tokens as Array<{
          tokenId: string;
          lastUsedAt: number | null;
        }>
      ).find((t) => t.tokenId === tokenId);
    expect((await listed())?.lastUsedAt).toBeNull();
    const usedAt = Date.now();
    expect((await call('GET', `/v1/projects/${projectId}`, token)).status).toBe(200);
    await expect
      .poll(async () => (await listed())?.lastUsedAt, { timeout: 5000, interval: 100 })
      .toBeGreaterThanOrEqual(usedAt - 1000);
  });

  if (mode === 'servers') {
    it('when all is done, then no token value is in any table of any schema nor in any log line', async ({
      skip,
    }) => {
      skip(!realServers().postgres, 'reads every table through a Postgres connection of its own');
      const values = Object.values(tokens);
      const client = new pg.Client({ connectionString: servers().databaseUrl });
      await client.connect();
      try {
        const { rows: tables } = await client.query<{ table_schema: string; table_name: string }>(
          `SELECT table_schema, table_name FROM information_schema.tables
          WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
        );
        expect(tables.map((t) => t.table_schema)).toEqual(
          expect.arrayContaining(['tokens', 'projects', 'byok']),
        );
        for (const table of tables) {
          const { rows } = await client.query<{ row: string }>(
            `SELECT t::text AS row FROM "${table.table_schema}"."${table.table_name}" t`,
          );
          const dump = rows.map((r) => r.row).join('\n');
          for (const value of values)
            expect(dump, `${table.table_schema}.${table.table_name}`).not.toContain(value);
        }
      } finally {
        await client.end();
      }
      expect(servers().logLines.length).toBeGreaterThan(100);
      const logs = servers().logLines.join('\n');
      for (const value of values) {
        expect(logs).not.toContain(value);
        // Nor the random part alone (a log that cut the prefix off).
        expect(logs).not.toContain(value.slice(5));
      }
    });
  }
});

describe('project API tokens when the revocation message is lost', () => {
  let system: System;
  beforeAll(async () => {
    // No consumer: TokenRevoked never reaches this gateway. Short cache lifetimes instead.
    system = await startSystem({
      tokens: true,
      gatewayConsumers: false,
      gatewayEnv: { TOKEN_CACHE_TTL_SECONDS: '2', TOKEN_LOCAL_CACHE_TTL_MS: '500' },
    });
  });
  afterAll(async () => {
    await system?.close();
  });

  it('when a token is revoked and no one is told, then it stops working within the cache lifetime', async () => {
    const owner = await system.signUp();
    const project = await system.call('POST', '/v1/projects', owner.token, { name: 'P', sourceLocale: 'en' });
    const path = `/v1/projects/${project.body.projectId}`;
    const created = await system.call('POST', `${path}/tokens`, owner.token, {
      label: 'ci',
      permissions: 'read',
    });
    expect((await system.call('GET', path, created.body.token)).status).toBe(200);
    expect((await system.call('DELETE', `${path}/tokens/${created.body.tokenId}`, owner.token)).status).toBe(
      204,
    );
    const revokedAt = Date.now();
    await expect
      .poll(async () => (await system.call('GET', path, created.body.token)).status, {
        timeout: 5000,
        interval: 50,
      })
      .toBe(401);
    // Redis 2 s + in-process 0.5 s, and a little for the requests themselves.
    expect(Date.now() - revokedAt).toBeLessThan(3000);
  });

  it('when a token has a bad checksum, then it is refused without asking token-service', async () => {
    const before = system.upstreamRequests.filter((r) => r.service === 'token').length;
    const response = await system.call(
      'GET',
      '/v1/projects/prj_x',
      'tolk_000000000000000000000000000000000000',
    );
    expect(response.status).toBe(401);
    expect(response.body.error.message).toMatch(/wrong format or checksum/);
    expect(system.upstreamRequests.filter((r) => r.service === 'token').length).toBe(before);
  });
});
