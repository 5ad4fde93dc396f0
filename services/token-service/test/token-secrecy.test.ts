import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOKEN_INTROSPECTION_PATH, TOKEN_USAGE_PATH, hashProjectToken } from '@tolk/contracts';
import { createLogger } from '@tolk/logger';
import { request, settled } from '@tolk/testing';
import { expectError, startTokenService, type CreatedToken, type TokenService } from './token-harness.js';

let service: TokenService;
beforeAll(async () => {
  service = await startTokenService();
});
afterAll(async () => {
  await service?.close();
});

/** The forms in which a token could sit in a dump or a log line if it were ever stored or logged. */
function encodingsOf(token: string): string[] {
  const bytes = Buffer.from(token, 'utf8');
  return [token, bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')];
}

/** What after the 10-character prefix is secret: no stretch of it may show anywhere. */
function secretPartOf(token: string): string {
  return token.slice(10);
}

/**
 * Every way a token goes through token-service: created (both permissions), listed, introspected,
 * used, revoked, and sent back by mistake in the places a client could put it (a path, a query,
 * a body that fails), then its project deleted. Returns the tokens it made.
 */
async function everythingATokenGoesThrough(): Promise<CreatedToken[]> {
  const project = await service.createProject();
  const read = await service.createToken(project.projectId, project.owner, {
    label: 'read',
    permissions: 'read',
  });
  const readWrite = await service.createToken(project.projectId, project.owner, {
    label: 'read-write',
    permissions: 'read_write',
  });
  const revoked = await service.createToken(project.projectId, project.owner);
  await service.listTokens(project.projectId, project.owner);
  for (const token of [read, readWrite, revoked]) {
    expect(
      (await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: hashProjectToken(token.token) })).status,
    ).toBe(200);
  }
  await service.internal(TOKEN_USAGE_PATH, { uses: [{ tokenId: read.tokenId, at: Date.now() }] });
  expect(
    (
      await service.call('DELETE', service.tokensPath(project.projectId, revoked.tokenId), {
        as: project.owner,
      })
    ).status,
  ).toBe(204);

  // Mistakes a client makes with a token in hand: each fails, none may echo or log the token.
  const base = `${service.url}${service.tokensPath(project.projectId)}`;
  const mistakes = [
    // The token where its id belongs.
    await service.call('DELETE', service.tokensPath(project.projectId, read.token), { as: project.owner }),
    await service.call('GET', `${service.tokensPath(project.projectId)}?token=${read.token}`, {
      as: project.owner,
    }),
    await service.call('GET', `/v1/projects/${readWrite.token}/tokens`, { as: project.owner }),
    // The token in a body that is not JSON, in a body of the wrong type, in a field that fails.
    await request(base, {
      method: 'POST',
      rawBody: `{"label": "${read.token}", "permissions": "read",`,
      headers: { ...project.owner, 'content-type': 'application/json' },
    }),
    await request(base, {
      method: 'POST',
      rawBody: `label=${read.token}`,
      headers: { ...project.owner, 'content-type': 'application/x-www-form-urlencoded' },
    }),
    await service.call('POST', service.tokensPath(project.projectId), {
      as: project.owner,
      body: { label: read.token, permissions: read.token },
    }),
    await service.call('POST', service.tokensPath(project.projectId), {
      as: project.owner,
      body: { label: `${read.token}\n`.repeat(10), permissions: 'read' },
    }),
    // The token itself sent for introspection instead of its hash; and to the usage report.
    await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: read.token }),
    await service.internal(TOKEN_USAGE_PATH, { uses: [{ tokenId: read.token, at: -1 }] }),
    // Without a caller token at all.
    await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: read.token }, {}),
  ];
  expect(mistakes.map((response) => response.status)).toEqual([
    404, 400, 404, 400, 415, 400, 400, 400, 400, 401,
  ]);
  for (const response of mistakes) {
    for (const token of [read, readWrite]) expect(response.text).not.toContain(secretPartOf(token.token));
  }

  await service.deleteProject(project.ownerId, project.projectId);
  await vi.waitFor(async () => {
    const { rows } = await service.db.query(`SELECT 1 FROM deleted_projects WHERE project_id = $1`, [
      project.projectId,
    ]);
    expect(rows.length, 'project tombstoned').toBeGreaterThan(0);
  }, settled);
  return [read, readWrite, revoked];
}

let tokens: CreatedToken[];

describe('tokens at rest and in logs', () => {
  beforeAll(async () => {
    // A live token that stays, so the dump holds rows of every kind.
    const project = await service.createProject();
    const live = await service.createToken(project.projectId, project.owner);
    tokens = [live, ...(await everythingATokenGoesThrough())];
  });

  it('when the tokens schema is dumped as text, then no token appears in it in any encoding, but hashes and prefixes do', async () => {
    const dump = await service.dumpSchema();
    for (const token of tokens) {
      for (const encoded of encodingsOf(token.token)) expect(dump).not.toContain(encoded);
      expect(dump).not.toContain(secretPartOf(token.token));
    }
    // Each revoked token's hash is in the outbox (TokenRevoked): the dump reads every table.
    for (const token of tokens.slice(1)) expect(dump).toContain(hashProjectToken(token.token));
    const live = tokens[0]!;
    expect(dump).toContain(hashProjectToken(live.token));
    expect(dump).toContain(live.token.slice(0, 10));
    for (const table of ['api_tokens', 'outbox', 'processed_events', 'projects', 'deleted_projects']) {
      expect(dump).toContain(`-- ${table}`);
    }
    expect(dump).toContain('TokenRevoked');
  });

  it('when every log line of the service is read, then none holds any token, including the lines of failed requests', () => {
    expect(service.logLines.length).toBeGreaterThan(20);
    const log = service.logLines.join('\n');
    for (const token of tokens) {
      for (const encoded of encodingsOf(token.token)) expect(log).not.toContain(encoded);
      expect(log).not.toContain(secretPartOf(token.token));
    }
    // The lines are there: requests that failed are logged, with the token masked in the path.
    const entries = service.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => entry['msg'] === 'request');
    expect(requests.some((entry) => entry['status'] === 415)).toBe(true);
    expect(requests.some((entry) => entry['status'] === 400)).toBe(true);
    expect(
      requests.some(
        (entry) =>
          entry['method'] === 'DELETE' &&
          entry['status'] === 404 &&
          String(entry['path']).endsWith('/tolk_[redacted]'),
      ),
    ).toBe(true);
    expect(log).toContain(`/tokens/${tokens[3]!.tokenId}`);
  });

  it('when a log line carries a token under `token`, at the top or one level down, then the logger redacts it', () => {
    const token = tokens[0]!.token;
    const lines: string[] = [];
    const logger = createLogger(
      { name: 'token-service', level: 'debug' },
      { write: (line: string) => void lines.push(line) },
    );
    logger.info({ token }, 'top');
    logger.info({ created: { token } }, 'nested');
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain(secretPartOf(token));
    expect(lines.join('\n')).toContain('[redacted]');
  });
});

describe('a token pasted where its id belongs', () => {
  it('when DELETE names the token instead of its id, then 404 NOT_FOUND and the token keeps working', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    const response = await service.call('DELETE', service.tokensPath(project.projectId, created.token), {
      as: project.owner,
    });
    expectError(response, 404, 'NOT_FOUND');
    expect(response.text).not.toContain(created.token);
    expect(
      (await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: hashProjectToken(created.token) }))
        .status,
    ).toBe(200);
  });
});
