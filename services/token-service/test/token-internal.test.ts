import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_INTROSPECTION_PATH, TOKEN_USAGE_PATH, hashProjectToken, liveTokenPath } from '@tolk/contracts';
import { settled } from '@tolk/testing';
import { introspectionResponseSchema } from '../src/entry-points/http/schemas.js';
import { expectError, startTokenService, type CreatedToken, type TokenService } from './token-harness.js';

let service: TokenService;
beforeAll(async () => {
  service = await startTokenService();
});
afterAll(async () => {
  await service?.close();
});

const MINUTE = 60_000;

/** The stored `last_used_at` of a token and the row version (xmin) that holds it. */
async function usageRow(tokenId: string) {
  const { rows } = await service.db.query<{ last_used_at: Date | null; version: string }>(
    `SELECT last_used_at, xmin::text AS version FROM api_tokens WHERE token_id = $1`,
    [tokenId],
  );
  return { lastUsedAt: rows[0]!.last_used_at?.getTime() ?? null, version: rows[0]!.version };
}

async function listedLastUsedAt(projectId: string, as: Record<string, string>, tokenId: string) {
  const list = await service.listTokens(projectId, as);
  return list.tokens.find((token) => token.tokenId === tokenId)?.lastUsedAt;
}

async function report(uses: { tokenId: string; at: number }[]) {
  const response = await service.internal(TOKEN_USAGE_PATH, { uses });
  expect(response.status).toBe(204);
  expect(response.text).toBe('');
}

/**
 * A new token of a new project with `permissions`, asked about by `ask`: 200 with exactly its
 * tokenId, projectId and permissions, never to be cached.
 */
async function expectLive(
  permissions: 'read' | 'read_write',
  ask: (created: CreatedToken) => Promise<Awaited<ReturnType<TokenService['call']>>>,
) {
  const project = await service.createProject();
  const created = await service.createToken(project.projectId, project.owner, { label: 'CI', permissions });
  const response = await ask(created);
  expect(response.status).toBe(200);
  expect(introspectionResponseSchema.parse(response.body)).toStrictEqual({
    tokenId: created.tokenId,
    projectId: project.projectId,
    permissions,
  });
  expect(response.headers.get('cache-control')).toBe('no-store');
}

describe('POST /internal/tokens/introspect', () => {
  it.each(['read', 'read_write'] as const)(
    'when the hash is of a live %s token, then 200 with exactly tokenId, projectId and permissions',
    (permissions) =>
      expectLive(permissions, (created) =>
        service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: hashProjectToken(created.token) }),
      ),
  );

  it('when the hash is of no token, then 404 NOT_FOUND', async () => {
    const response = await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: 'a'.repeat(64) });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('when the token was revoked, then 404 NOT_FOUND', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    await service.call('DELETE', service.tokensPath(project.projectId, created.tokenId), {
      as: project.owner,
    });
    expectError(
      await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: hashProjectToken(created.token) }),
      404,
      'NOT_FOUND',
    );
  });

  it.each([
    ['missing', {}],
    ['upper-case hex', { tokenHash: 'A'.repeat(64) }],
    ['63 characters', { tokenHash: 'a'.repeat(63) }],
    ['65 characters', { tokenHash: 'a'.repeat(65) }],
    ['the token itself', { tokenHash: `tolk_${'a'.repeat(36)}` }],
    ['a number', { tokenHash: 42 }],
    ['null', { tokenHash: null }],
  ])('when tokenHash is %s, then 400 VALIDATION_ERROR naming it', async (_case, body) => {
    const response = await service.internal(TOKEN_INTROSPECTION_PATH, body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(/^body\.tokenHash: /);
  });

  it('when the body is not an object, then 400 VALIDATION_ERROR', async () => {
    expectError(await service.internal(TOKEN_INTROSPECTION_PATH, ['a'.repeat(64)]), 400, 'VALIDATION_ERROR');
  });

  it('when the call carries no internal caller token, then 401 UNAUTHORIZED', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const body = { tokenHash: hashProjectToken(created.token) };
    expectError(await service.internal(TOKEN_INTROSPECTION_PATH, body, {}), 401, 'UNAUTHORIZED');
    // A user's principal is no internal caller either.
    expectError(await service.internal(TOKEN_INTROSPECTION_PATH, body, project.owner), 401, 'UNAUTHORIZED');
    expectError(
      await service.internal(TOKEN_INTROSPECTION_PATH, body, { 'x-tolk-internal-caller': 'not-a-token' }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('when GET is sent, then 405 METHOD_NOT_ALLOWED', async () => {
    const response = await service.call('GET', TOKEN_INTROSPECTION_PATH, {
      as: await service.asInternalCaller(),
    });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('GET /internal/tokens/:tokenId', () => {
  const ask = async (tokenId: string, as?: Record<string, string>) =>
    service.call('GET', liveTokenPath(tokenId), { as: as ?? (await service.asInternalCaller()) });

  it.each(['read', 'read_write'] as const)(
    'when the token is a live %s token, then 200 with exactly tokenId, projectId and permissions',
    (permissions) => expectLive(permissions, (created) => ask(created.tokenId)),
  );

  it('when the token was revoked, by a user or with its project, then 404 NOT_FOUND', async () => {
    const project = await service.createProject();
    const revoked = await service.createToken(project.projectId, project.owner);
    const withProject = await service.createToken(project.projectId, project.owner);
    expect(
      (
        await service.call('DELETE', service.tokensPath(project.projectId, revoked.tokenId), {
          as: project.owner,
        })
      ).status,
    ).toBe(204);
    expectError(await ask(revoked.tokenId), 404, 'NOT_FOUND');

    await service.deleteProject(project.ownerId, project.projectId);
    await expect.poll(async () => (await ask(withProject.tokenId)).status, settled).toBe(404);
  });

  it.each([
    ['no token', 'tok_00000000000000000000000000000000'],
    ['longer than any id', `tok_${'a'.repeat(300)}`],
    ['the token value itself', `tolk_${'a'.repeat(36)}`],
    ['an encoded slash', 'tok_a/b'],
  ])('when the id names %s, then 404 NOT_FOUND', async (_case, tokenId) => {
    expectError(await ask(tokenId), 404, 'NOT_FOUND');
  });

  it('when the call carries no internal caller token, or a user principal, then 401 UNAUTHORIZED', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    expectError(await ask(created.tokenId, {}), 401, 'UNAUTHORIZED');
    expectError(await ask(created.tokenId, project.owner), 401, 'UNAUTHORIZED');
  });

  it('when POST is sent, then 405 METHOD_NOT_ALLOWED', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    expectError(await service.internal(liveTokenPath(created.tokenId), {}), 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('POST /internal/tokens/usage', () => {
  it('when a use is reported, then 204 and the list shows it as lastUsedAt', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const at = Date.now() - 5_000;
    await report([{ tokenId: created.tokenId, at }]);
    expect(await listedLastUsedAt(project.projectId, project.owner, created.tokenId)).toBe(at);
  });

  it('when a second use is reported within a minute, then nothing is written and lastUsedAt stays', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const first = Date.now() - 10 * MINUTE;
    await report([{ tokenId: created.tokenId, at: first }]);
    const written = await usageRow(created.tokenId);
    expect(written.lastUsedAt).toBe(first);

    await report([{ tokenId: created.tokenId, at: first + 30_000 }]);
    await report([{ tokenId: created.tokenId, at: first + MINUTE }]);
    // The row was not even rewritten: same value, same row version.
    expect(await usageRow(created.tokenId)).toStrictEqual(written);
    expect(await listedLastUsedAt(project.projectId, project.owner, created.tokenId)).toBe(first);
  });

  it('when a use is reported more than a minute after the stored one, then lastUsedAt moves to it', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const first = Date.now() - 10 * MINUTE;
    await report([{ tokenId: created.tokenId, at: first }]);
    await report([{ tokenId: created.tokenId, at: first + MINUTE + 1 }]);
    expect(await listedLastUsedAt(project.projectId, project.owner, created.tokenId)).toBe(
      first + MINUTE + 1,
    );
  });

  it('when an older use arrives late, then lastUsedAt does not go back', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const latest = Date.now() - MINUTE;
    await report([{ tokenId: created.tokenId, at: latest }]);
    await report([{ tokenId: created.tokenId, at: latest - 10 * MINUTE }]);
    expect(await listedLastUsedAt(project.projectId, project.owner, created.tokenId)).toBe(latest);
  });

  it('when one report holds several tokens and several uses of one, then each token gets its latest use', async () => {
    const project = await service.createProject();
    const a = await service.createToken(project.projectId, project.owner);
    const b = await service.createToken(project.projectId, project.owner);
    const unused = await service.createToken(project.projectId, project.owner);
    const base = Date.now() - 30 * MINUTE;
    await report([
      { tokenId: a.tokenId, at: base + 1_000 },
      { tokenId: b.tokenId, at: base + 7_000 },
      { tokenId: a.tokenId, at: base + 5_000 },
      { tokenId: a.tokenId, at: base + 2_000 },
    ]);
    const list = await service.listTokens(project.projectId, project.owner);
    const lastUsed = Object.fromEntries(list.tokens.map((token) => [token.tokenId, token.lastUsedAt]));
    expect(lastUsed).toStrictEqual({
      [a.tokenId]: base + 5_000,
      [b.tokenId]: base + 7_000,
      [unused.tokenId]: null,
    });
  });

  it('when a use is reported ahead of the service clock, then lastUsedAt is no later than now', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const before = Date.now();
    await report([{ tokenId: created.tokenId, at: before + 24 * 60 * MINUTE }]);
    const lastUsedAt = await listedLastUsedAt(project.projectId, project.owner, created.tokenId);
    expect(lastUsedAt).toBeGreaterThanOrEqual(before);
    expect(lastUsedAt).toBeLessThanOrEqual(Date.now());
  });

  it('when a use is reported at the largest time the contract allows, then 204 (taken as now)', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    await report([{ tokenId: created.tokenId, at: Number.MAX_SAFE_INTEGER }]);
    expect(await listedLastUsedAt(project.projectId, project.owner, created.tokenId)).toBeLessThanOrEqual(
      Date.now(),
    );
  });

  it('when uses of unknown or revoked tokens are reported, then 204 and they change nothing', async () => {
    const project = await service.createProject();
    const revoked = await service.createToken(project.projectId, project.owner);
    await service.call('DELETE', service.tokensPath(project.projectId, revoked.tokenId), {
      as: project.owner,
    });
    await report([
      { tokenId: 'tok_unknown', at: Date.now() },
      { tokenId: revoked.tokenId, at: Date.now() },
    ]);
    expect((await usageRow(revoked.tokenId)).lastUsedAt).toBeNull();
  });

  it('when the report is empty, then 204', async () => {
    await report([]);
  });

  it('when overlapping reports arrive at once in opposite orders, then every one succeeds (no deadlock)', async () => {
    // As many rows as a production table holds, so the planner walks each report in its own
    // order (index lookups per reported token) as it would there, instead of one scan of the table.
    await service.db.query(
      `INSERT INTO api_tokens (token_id, project_id, token_hash, token_prefix, label, permissions, created_by, created_at)
       SELECT 'tok_filler_' || g, 'prj_filler', md5(g::text) || md5((-g)::text), 'tolk_fill0', 'filler', 'read', 'usr_x', now()
         FROM generate_series(1, 50000) g
       ON CONFLICT DO NOTHING`,
    );
    await service.db.query(`ANALYZE api_tokens`);
    const project = await service.createProject();
    const tokens = [];
    for (let i = 0; i < 20; i++) tokens.push(await service.createToken(project.projectId, project.owner));
    const start = Date.now() - 60 * MINUTE;
    // Each round reports a use two minutes after the last, so that every round writes every row.
    for (let round = 0; round < 5; round++) {
      const at = start + round * 2 * MINUTE;
      const forward = tokens.map((token) => ({ tokenId: token.tokenId, at }));
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          service.internal(TOKEN_USAGE_PATH, { uses: i % 2 === 0 ? forward : [...forward].reverse() }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(6).fill(204));
      const list = await service.listTokens(project.projectId, project.owner);
      expect(list.tokens.map((token) => token.lastUsedAt)).toEqual(Array(20).fill(at));
    }
  });

  it.each([
    ['no uses', {}, /^body\.uses: /],
    ['uses not a list', { uses: { tokenId: 'tok_x', at: 1 } }, /^body\.uses: /],
    ['a negative time', { uses: [{ tokenId: 'tok_x', at: -1 }] }, /^body\.uses\.0\.at: /],
    ['a fractional time', { uses: [{ tokenId: 'tok_x', at: 1.5 }] }, /^body\.uses\.0\.at: /],
    ['a time as text', { uses: [{ tokenId: 'tok_x', at: '2025-01-01' }] }, /^body\.uses\.0\.at: /],
    ['a time past the safe integers', { uses: [{ tokenId: 'tok_x', at: 1e300 }] }, /^body\.uses\.0\.at: /],
    ['an empty token id', { uses: [{ tokenId: '', at: 1 }] }, /^body\.uses\.0\.tokenId: /],
    [
      'more than 10,000 uses',
      { uses: Array.from({ length: 10_001 }, () => ({ tokenId: 'tok_x', at: 1 })) },
      /^body\.uses: /,
    ],
  ])('when the report has %s, then 400 VALIDATION_ERROR naming it', async (_case, body, message) => {
    const response = await service.internal(TOKEN_USAGE_PATH, body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(message);
  });

  it('when the call carries no internal caller token, then 401 UNAUTHORIZED and nothing is written', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const body = { uses: [{ tokenId: created.tokenId, at: Date.now() }] };
    expectError(await service.internal(TOKEN_USAGE_PATH, body, {}), 401, 'UNAUTHORIZED');
    expectError(await service.internal(TOKEN_USAGE_PATH, body, project.owner), 401, 'UNAUTHORIZED');
    expect((await usageRow(created.tokenId)).lastUsedAt).toBeNull();
  });
});
