import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { realServers, revokeWhileWriteCommits, settled } from '@tolk/testing';
import {
  PROJECT_TOKEN_LENGTH,
  TOKEN_INTROSPECTION_PATH,
  hashProjectToken,
  isWellFormedProjectToken,
  writeRightLock,
} from '@tolk/contracts';
import { createTokenResponseSchema, tokenListResponseSchema } from '../src/entry-points/http/schemas.js';
import { expectError, startTokenService, type TokenService } from './token-harness.js';

let service: TokenService;
beforeAll(async () => {
  service = await startTokenService();
});
afterAll(async () => {
  await service?.close();
});

/** The stored row of a token, as the database holds it. */
async function storedRow(tokenId: string) {
  const { rows } = await service.db.query<{
    project_id: string;
    token_hash: string;
    token_prefix: string;
    label: string;
    permissions: string;
    created_by: string;
    created_at: Date;
    last_used_at: Date | null;
    revoked_at: Date | null;
    revoked_by: string | null;
  }>(`SELECT * FROM api_tokens WHERE token_id = $1`, [tokenId]);
  return rows[0];
}

describe('POST /v1/projects/:projectId/tokens', () => {
  it('when a member creates a token, then 201 with exactly the seven fields of CreateTokenResponse', async () => {
    const project = await service.createProject();
    const before = Date.now();
    const response = await service.call('POST', service.tokensPath(project.projectId), {
      as: project.owner,
      body: { label: 'GitHub Actions', permissions: 'read_write' },
    });
    const after = Date.now();

    expect(response.status).toBe(201);
    const body = createTokenResponseSchema.parse(response.body);
    expect(Object.keys(response.body).sort()).toEqual(
      ['createdAt', 'label', 'lastUsedAt', 'permissions', 'token', 'tokenId', 'tokenPrefix'].sort(),
    );
    expect(body).toStrictEqual({
      tokenId: expect.stringMatching(/^tok_[0-9a-f]{32}$/),
      tokenPrefix: null,
      label: 'GitHub Actions',
      permissions: 'read_write',
      lastUsedAt: null,
      createdAt: expect.any(Number),
      token: expect.any(String),
    });
    expect(Number.isInteger(body.createdAt)).toBe(true);
    expect(body.createdAt).toBeGreaterThanOrEqual(before);
    expect(body.createdAt).toBeLessThanOrEqual(after);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when a token is created, then it is tolk_ + 36 base62 characters whose checksum holds', async () => {
    const project = await service.createProject();
    const { token } = await service.createToken(project.projectId, project.owner);

    expect(token.startsWith('tolk_')).toBe(true);
    expect(token).toHaveLength(41);
    expect(PROJECT_TOKEN_LENGTH).toBe(41);
    expect(token).toMatch(/^tolk_[0-9A-Za-z]{36}$/);
    expect(isWellFormedProjectToken(token)).toBe(true);
    // One character changed breaks the checksum.
    const last = token.at(-1)!;
    expect(isWellFormedProjectToken(`${token.slice(0, -1)}${last === 'a' ? 'b' : 'a'}`)).toBe(false);
  });

  it('when a token is created, then only its SHA-256 and its first 10 characters are stored, beside who created it', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner, {
      label: 'deploy',
      permissions: 'read',
    });
    const row = await storedRow(created.tokenId);
    expect(row).toMatchObject({
      project_id: project.projectId,
      token_hash: hashProjectToken(created.token),
      token_prefix: created.token.slice(0, 10),
      label: 'deploy',
      permissions: 'read',
      created_by: project.ownerId,
      last_used_at: null,
      revoked_at: null,
    });
    expect(row!.created_at.getTime()).toBe(created.createdAt);
    expect(Object.values(row!).map(String)).not.toContain(created.token);
  });

  it('when two tokens are created with the same label, then both exist, with different ids and values', async () => {
    const project = await service.createProject();
    const first = await service.createToken(project.projectId, project.owner);
    const second = await service.createToken(project.projectId, project.owner);
    expect(second.tokenId).not.toBe(first.tokenId);
    expect(second.token).not.toBe(first.token);
    expect((await service.listTokens(project.projectId, project.owner)).tokens).toHaveLength(2);
  });

  it('when the label has surrounding whitespace, then it is stored trimmed', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner, {
      label: '  nightly build \n',
      permissions: 'read',
    });
    expect(created.label).toBe('nightly build');
    expect((await service.listTokens(project.projectId, project.owner)).tokens[0]!.label).toBe(
      'nightly build',
    );
  });

  it('when a member who is not the owner creates a token, then 201 (any member manages tokens)', async () => {
    const project = await service.createProject();
    const memberId = `usr_${randomUUID().replaceAll('-', '')}`;
    await service.addMember(project.ownerId, project.projectId, memberId);
    const member = await service.as(memberId);
    const response = await service.call('POST', service.tokensPath(project.projectId), {
      as: member,
      body: { label: 'CI', permissions: 'read' },
    });
    expect(response.status).toBe(201);
  });

  it('when the project does not exist, then 404 NOT_FOUND and nothing is stored', async () => {
    const owner = await service.as('usr_nobody');
    const projectId = `prj_${randomUUID().replaceAll('-', '')}`;
    const response = await service.call('POST', service.tokensPath(projectId), {
      as: owner,
      body: { label: 'CI', permissions: 'read' },
    });
    expectError(response, 404, 'NOT_FOUND');
    const { rows } = await service.db.query(`SELECT 1 FROM api_tokens WHERE project_id = $1`, [projectId]);
    expect(rows).toEqual([]);
  });

  it('when token-service has not heard of the project yet, then it asks project-service and creates the token', async () => {
    const project = await service.createProject();
    await vi.waitFor(async () => {
      const { rows } = await service.db.query(`SELECT 1 FROM projects WHERE project_id = $1`, [
        project.projectId,
      ]);
      expect(rows.length, 'ProjectCreated consumed').toBeGreaterThan(0);
    }, settled);
    // As if ProjectCreated had not arrived yet.
    await service.db.query(`DELETE FROM projects WHERE project_id = $1`, [project.projectId]);
    const created = await service.createToken(project.projectId, project.owner);
    expect(created.tokenId).toMatch(/^tok_/);
    const { rows } = await service.db.query(`SELECT 1 FROM projects WHERE project_id = $1`, [
      project.projectId,
    ]);
    expect(rows).toHaveLength(1);
  });
});

describe('GET /v1/projects/:projectId/tokens', () => {
  it('when the project has no tokens, then 200 {tokens: []}', async () => {
    const project = await service.createProject();
    const response = await service.call('GET', service.tokensPath(project.projectId), { as: project.owner });
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ tokens: [] });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('when tokens exist, then every one is listed newest first with its 10-character prefix and never the token', async () => {
    const project = await service.createProject();
    const created = [];
    for (const [label, permissions] of [
      ['first', 'read'],
      ['second', 'read_write'],
      ['third', 'read'],
    ] as const) {
      created.push(await service.createToken(project.projectId, project.owner, { label, permissions }));
    }

    const response = await service.call('GET', service.tokensPath(project.projectId), { as: project.owner });
    expect(response.status).toBe(200);
    const body = tokenListResponseSchema.parse(response.body);
    expect(body).toStrictEqual({
      tokens: [...created].reverse().map((token) => ({
        tokenId: token.tokenId,
        tokenPrefix: token.token.slice(0, 10),
        label: token.label,
        permissions: token.permissions,
        lastUsedAt: null,
        createdAt: token.createdAt,
        createdBy: { userId: project.ownerId },
      })),
    });
    for (const listed of body.tokens) {
      expect(listed.tokenPrefix).toHaveLength(10);
      expect(listed.tokenPrefix.startsWith('tolk_')).toBe(true);
      // The spec's six fields, and who created the token.
      expect(Object.keys(listed).sort()).toEqual(
        ['createdAt', 'createdBy', 'label', 'lastUsedAt', 'permissions', 'tokenId', 'tokenPrefix'].sort(),
      );
    }
    for (const token of created) expect(response.text).not.toContain(token.token);
  });

  it('when tokens were created in the same millisecond, then the order is still stable', async () => {
    const project = await service.createProject();
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        service.createToken(project.projectId, project.owner, { label: `t${i}`, permissions: 'read' }),
      ),
    );
    const first = await service.listTokens(project.projectId, project.owner);
    const second = await service.listTokens(project.projectId, project.owner);
    expect(first.tokens).toHaveLength(5);
    expect(second).toStrictEqual(first);
    const createdAts = first.tokens.map((token) => token.createdAt);
    expect(createdAts).toEqual([...createdAts].sort((a, b) => b - a));
  });

  it('when another project has tokens, then they are not listed', async () => {
    const mine = await service.createProject();
    const theirs = await service.createProject();
    await service.createToken(theirs.projectId, theirs.owner);
    expect(await service.listTokens(mine.projectId, mine.owner)).toStrictEqual({ tokens: [] });
  });

  it('when a token was revoked, then it is no longer listed', async () => {
    const project = await service.createProject();
    const kept = await service.createToken(project.projectId, project.owner, {
      label: 'kept',
      permissions: 'read',
    });
    const revoked = await service.createToken(project.projectId, project.owner);
    expect(
      (
        await service.call('DELETE', service.tokensPath(project.projectId, revoked.tokenId), {
          as: project.owner,
        })
      ).status,
    ).toBe(204);
    const list = await service.listTokens(project.projectId, project.owner);
    expect(list.tokens.map((token) => token.tokenId)).toEqual([kept.tokenId]);
  });

  it('when the project does not exist, then 404 NOT_FOUND', async () => {
    const response = await service.call('GET', service.tokensPath('prj_missing'), {
      as: await service.as('usr_someone'),
    });
    expectError(response, 404, 'NOT_FOUND');
  });
});

describe('DELETE /v1/projects/:projectId/tokens/:tokenId', () => {
  it('when a live token is revoked, then 204 with no body, introspection stops finding it and TokenRevoked carries its hash', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const tokenHash = hashProjectToken(created.token);
    expect((await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash })).status).toBe(200);

    const response = await service.call('DELETE', service.tokensPath(project.projectId, created.tokenId), {
      as: project.owner,
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('cache-control')).toBe('no-store');

    expectError(await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash }), 404, 'NOT_FOUND');
    const outbox = await service.outboxRows(project.projectId);
    expect(outbox.map((row) => row.type)).toEqual(['TokenRevoked']);
    expect(outbox[0]!.payload).toStrictEqual({
      id: outbox[0]!.id,
      type: 'TokenRevoked',
      occurredAt: expect.any(Number),
      producer: 'token-service',
      data: { tokenId: created.tokenId, projectId: project.projectId, tokenHash },
    });
    // And it reaches the exchange, for the gateway to evict the token from its cache.
    const published = await vi.waitFor(async () => {
      const found = service.published.find((event) => event.id === outbox[0]!.id);
      expect(found, 'TokenRevoked published').toBeDefined();
      return found!;
    }, settled);
    expect(published.data).toStrictEqual({
      tokenId: created.tokenId,
      projectId: project.projectId,
      tokenHash,
    });
  });

  it('when a token is revoked, then its row records who revoked it and when, and other tokens keep working', async () => {
    const project = await service.createProject();
    const revoked = await service.createToken(project.projectId, project.owner);
    const other = await service.createToken(project.projectId, project.owner);
    const member = `usr_${randomUUID().replaceAll('-', '')}`;
    await service.addMember(project.ownerId, project.projectId, member);
    const before = Date.now();
    await service.call('DELETE', service.tokensPath(project.projectId, revoked.tokenId), {
      as: await service.as(member),
    });
    const row = await storedRow(revoked.tokenId);
    expect(row!.revoked_by).toBe(member);
    expect(row!.revoked_at!.getTime()).toBeGreaterThanOrEqual(before);
    const introspected = await service.internal(TOKEN_INTROSPECTION_PATH, {
      tokenHash: hashProjectToken(other.token),
    });
    expect(introspected.status).toBe(200);
  });

  it('when the token was already revoked, then 404 NOT_FOUND and no second TokenRevoked', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const path = service.tokensPath(project.projectId, created.tokenId);
    expect((await service.call('DELETE', path, { as: project.owner })).status).toBe(204);
    expectError(await service.call('DELETE', path, { as: project.owner }), 404, 'NOT_FOUND');
    expect((await service.outboxRows(project.projectId)).map((row) => row.type)).toEqual(['TokenRevoked']);
  });

  it.each([
    ['an unknown id', 'tok_00000000000000000000000000000000'],
    ['an id longer than any', `tok_${'a'.repeat(300)}`],
    ['an id with a space', 'tok%20x'],
  ])('when the token id is %s, then 404 NOT_FOUND', async (_case, tokenId) => {
    const project = await service.createProject();
    const response = await service.call('DELETE', service.tokensPath(project.projectId, tokenId), {
      as: project.owner,
    });
    expectError(response, 404, 'NOT_FOUND');
    expect(await service.outboxRows(project.projectId)).toEqual([]);
  });

  it('when the token belongs to another project, then 404 NOT_FOUND and that token keeps working', async () => {
    const mine = await service.createProject();
    const theirs = await service.createProject();
    const created = await service.createToken(theirs.projectId, theirs.owner);
    const response = await service.call('DELETE', service.tokensPath(mine.projectId, created.tokenId), {
      as: mine.owner,
    });
    expectError(response, 404, 'NOT_FOUND');
    expect(
      (await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: hashProjectToken(created.token) }))
        .status,
    ).toBe(200);
  });

  // A write of the token's in another service, having asked whether it is live, holds the
  // token's lock until it commits; here a transaction of the test's own stands for it.
  it.skipIf(!realServers().postgres)(
    "when a write of the token's holds its right to write, then the revocation waits for it to commit",
    async () => {
      const project = await service.createProject();
      const created = await service.createToken(project.projectId, project.owner);
      const revoked = await revokeWhileWriteCommits(service.db, writeRightLock.token(created.tokenId), () =>
        service.call('DELETE', service.tokensPath(project.projectId, created.tokenId), { as: project.owner }),
      );
      expect(revoked.status).toBe(204);
      const introspected = await service.internal(TOKEN_INTROSPECTION_PATH, {
        tokenHash: hashProjectToken(created.token),
      });
      expectError(introspected, 404, 'NOT_FOUND');
    },
  );

  it('when the project does not exist, then 404 NOT_FOUND', async () => {
    const response = await service.call('DELETE', service.tokensPath('prj_missing', 'tok_x'), {
      as: await service.as('usr_someone'),
    });
    expectError(response, 404, 'NOT_FOUND');
  });
});

describe('the routes', () => {
  it.each([
    ['PUT', '/tokens', 'GET, POST, HEAD'],
    ['PATCH', '/tokens', 'GET, POST, HEAD'],
    ['GET', '/tokens/tok_x', 'DELETE'],
    ['POST', '/tokens/tok_x', 'DELETE'],
  ])('when %s is sent to %s, then 405 METHOD_NOT_ALLOWED with Allow', async (method, rest, allow) => {
    const project = await service.createProject();
    const response = await service.call(method, `/v1/projects/${project.projectId}${rest}`, {
      as: project.owner,
      body: method === 'GET' ? undefined : {},
    });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe(allow);
  });

  it.each([
    ['POST', '/tokens'],
    ['GET', '/tokens'],
    ['DELETE', '/tokens/tok_x'],
  ])('when %s %s comes without a principal, then 401 UNAUTHORIZED', async (method, rest) => {
    const project = await service.createProject();
    const response = await service.call(method, `/v1/projects/${project.projectId}${rest}`, {
      body: method === 'POST' ? { label: 'CI', permissions: 'read' } : undefined,
    });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('when a principal token is forged with another secret, then 401 UNAUTHORIZED', async () => {
    const project = await service.createProject();
    const response = await service.call('GET', service.tokensPath(project.projectId), {
      as: { 'x-tolk-principal': 'eyJhbGciOiJIUzI1NiJ9.eyJwIjp7fX0.c2lnbmF0dXJl' },
    });
    expectError(response, 401, 'UNAUTHORIZED');
  });
});

describe('changes to tokens, their user asked again before they commit', () => {
  const newMember = async (project: { ownerId: string; projectId: string }) => {
    const memberId = `usr_${randomUUID().replaceAll('-', '')}`;
    await service.addMember(project.ownerId, project.projectId, memberId);
    return { memberId, member: await service.as(memberId) };
  };

  it('when the member has been removed, then creating a token answers 404 "Project not found" and no token is stored', async () => {
    const project = await service.createProject();
    const { memberId, member } = await newMember(project);
    await service.removeMember(project.ownerId, project.projectId, memberId);
    const refused = await service.call('POST', service.tokensPath(project.projectId), {
      as: member,
      body: { label: 'CI', permissions: 'read_write' },
    });
    expectError(refused, 404, 'NOT_FOUND');
    expect(refused.body.error.message).toBe('Project not found');
    const { rows } = await service.db.query(`SELECT 1 FROM api_tokens WHERE project_id = $1`, [
      project.projectId,
    ]);
    expect(rows).toEqual([]);
  });

  it("when the member's account has been deleted, then revoking a token answers 401 and the token stays live", async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const { memberId, member } = await newMember(project);
    service.writers.deleteAccount(memberId);
    const refused = await service.call('DELETE', service.tokensPath(project.projectId, created.tokenId), {
      as: member,
    });
    expectError(refused, 401, 'UNAUTHORIZED');
    expect(refused.body.error.message).toBe('The account of this access token has been deleted');
    const live = await service.internal(TOKEN_INTROSPECTION_PATH, {
      tokenHash: hashProjectToken(created.token),
    });
    expect(live.status).toBe(200);
    expect(await service.outboxRows(project.projectId)).toEqual([]);
  });
});
