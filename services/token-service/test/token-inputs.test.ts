import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '@tolk/testing';
import { expectError, startTokenService, type TokenService } from './token-harness.js';

const MAX_PER_PROJECT = 3;

let service: TokenService;
beforeAll(async () => {
  service = await startTokenService({ env: { TOKEN_MAX_PER_PROJECT: String(MAX_PER_PROJECT) } });
});
afterAll(async () => {
  await service?.close();
});

async function storedTokens(projectId: string): Promise<number> {
  const { rows } = await service.db.query(`SELECT 1 FROM api_tokens WHERE project_id = $1`, [projectId]);
  return rows.length;
}

/** A POST with a raw body and content type, as a client could send it. */
async function rawPost(
  projectId: string,
  as: Record<string, string>,
  rawBody: string,
  contentType = 'application/json',
) {
  return request(`${service.url}${service.tokensPath(projectId)}`, {
    method: 'POST',
    rawBody,
    headers: { ...as, 'content-type': contentType },
  });
}

const LABEL_CONTROL = 'body.label: must not contain control characters (line breaks, tabs, NUL, ...)';
const PERMISSIONS_ALLOWED = 'body.permissions: must be one of read, read_write';

describe('POST /v1/projects/:projectId/tokens bodies', () => {
  it.each([
    ['missing', { permissions: 'read' }, 'body.label: is required'],
    ['null', { label: null, permissions: 'read' }, 'body.label: must be a string'],
    ['a number', { label: 42, permissions: 'read' }, 'body.label: must be a string'],
    ['a boolean', { label: true, permissions: 'read' }, 'body.label: must be a string'],
    ['an array', { label: ['CI'], permissions: 'read' }, 'body.label: must be a string'],
    ['an object', { label: { name: 'CI' }, permissions: 'read' }, 'body.label: must be a string'],
    ['empty', { label: '', permissions: 'read' }, 'body.label: must not be empty'],
    ['only whitespace', { label: ' \t\r\n ', permissions: 'read' }, 'body.label: must not be empty'],
    [
      '201 characters',
      { label: 'x'.repeat(201), permissions: 'read' },
      'body.label: must be at most 200 characters',
    ],
    [
      '201 emoji',
      { label: '🚀'.repeat(201), permissions: 'read' },
      'body.label: must be at most 200 characters',
    ],
    ['a line break inside', { label: 'CI\nbuild', permissions: 'read' }, LABEL_CONTROL],
    ['a tab inside', { label: 'CI\tbuild', permissions: 'read' }, LABEL_CONTROL],
    ['a NUL', { label: 'CI\u0000', permissions: 'read' }, LABEL_CONTROL],
    ['an escape sequence', { label: 'CI\u001b[31m', permissions: 'read' }, LABEL_CONTROL],
    ['DEL', { label: 'CI\u007f', permissions: 'read' }, LABEL_CONTROL],
    ['a C1 control (NEL)', { label: 'CI\u0085x', permissions: 'read' }, LABEL_CONTROL],
    ['permissions missing', { label: 'CI' }, 'body.permissions: is required'],
    ['permissions null', { label: 'CI', permissions: null }, PERMISSIONS_ALLOWED],
    ['permissions in upper case', { label: 'CI', permissions: 'READ' }, PERMISSIONS_ALLOWED],
    ['permissions "write"', { label: 'CI', permissions: 'write' }, PERMISSIONS_ALLOWED],
    ['permissions "admin"', { label: 'CI', permissions: 'admin' }, PERMISSIONS_ALLOWED],
    ['permissions as a list', { label: 'CI', permissions: ['read'] }, PERMISSIONS_ALLOWED],
    ['permissions empty', { label: 'CI', permissions: '' }, PERMISSIONS_ALLOWED],
    ['both missing', {}, 'body.label: is required; body.permissions: is required'],
    [
      'both wrong',
      { label: '', permissions: 'all' },
      `body.label: must not be empty; ${PERMISSIONS_ALLOWED}`,
    ],
  ])(
    'when the body has label or permissions %s, then 400 VALIDATION_ERROR naming it',
    async (_case, body, message) => {
      const project = await service.createProject();
      const response = await service.call('POST', service.tokensPath(project.projectId), {
        as: project.owner,
        body,
      });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe(message);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await storedTokens(project.projectId)).toBe(0);
    },
  );

  it('when the label holds a lone surrogate, then 400 VALIDATION_ERROR', async () => {
    const project = await service.createProject();
    const response = await rawPost(
      project.projectId,
      project.owner,
      '{"label":"CI \\ud800","permissions":"read"}',
    );
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe(
      'body.label: must be well-formed Unicode, not a lone surrogate (\\ud800)',
    );
    expect(await storedTokens(project.projectId)).toBe(0);
  });

  it.each([
    ['200 characters', 'x'.repeat(200)],
    ['200 emoji (400 UTF-16 units)', '🚀'.repeat(200)],
    ['one character', 'x'],
    ['non-Latin text', 'Сборка · ビルド · بناء'],
    ['an emoji sequence with joiners', '👩‍💻 deploy'],
  ])('when the label is %s, then the token is created with it', async (_case, label) => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner, {
      label,
      permissions: 'read',
    });
    expect(created.label).toBe(label);
  });

  it('when the body has fields besides label and permissions, then they are ignored', async () => {
    const project = await service.createProject();
    const response = await service.call('POST', service.tokensPath(project.projectId), {
      as: project.owner,
      body: { label: 'CI', permissions: 'read', token: 'tolk_mine', tokenId: 'tok_mine', lastUsedAt: 1 },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ label: 'CI', permissions: 'read', lastUsedAt: null });
    expect(response.body.token).not.toBe('tolk_mine');
    expect(response.body.tokenId).not.toBe('tok_mine');
  });

  it.each([
    ['an array', '[]'],
    ['an array holding the object', '[{"label":"CI","permissions":"read"}]'],
    ['a string', '"CI"'],
    ['a number', '42'],
    ['true', 'true'],
    ['null', 'null'],
  ])(
    'when the body is %s, then 400 VALIDATION_ERROR "body: must be a JSON object"',
    async (_case, rawBody) => {
      const project = await service.createProject();
      const response = await rawPost(project.projectId, project.owner, rawBody);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe('body: must be a JSON object');
      expect(await storedTokens(project.projectId)).toBe(0);
    },
  );

  it('when there is no body at all, then 400 VALIDATION_ERROR "body: a JSON body is required"', async () => {
    const project = await service.createProject();
    const response = await service.call('POST', service.tokensPath(project.projectId), { as: project.owner });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe('body: a JSON body is required');
  });

  it.each([
    ['a truncated object', '{"label": "CI",'],
    ['a trailing comma', '{"label": "CI", "permissions": "read",}'],
    ['single quotes', "{'label': 'CI', 'permissions': 'read'}"],
    ['not JSON at all', 'label=CI&permissions=read'],
  ])('when the JSON is malformed (%s), then 400 INVALID_JSON and nothing stored', async (_case, rawBody) => {
    const project = await service.createProject();
    const response = await rawPost(project.projectId, project.owner, rawBody);
    expectError(response, 400, 'INVALID_JSON');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await storedTokens(project.projectId)).toBe(0);
  });

  it.each([
    ['text/plain', '{"label":"CI","permissions":"read"}'],
    ['application/x-www-form-urlencoded', 'label=CI&permissions=read'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\ncontent-disposition: form-data; name="label"\r\n\r\nCI\r\n--x--',
    ],
  ])('when the body is sent as %s, then 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, rawBody) => {
    const project = await service.createProject();
    const response = await rawPost(project.projectId, project.owner, rawBody, contentType);
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await storedTokens(project.projectId)).toBe(0);
  });

  it('when the body is over 1 MiB, then 413 PAYLOAD_TOO_LARGE', async () => {
    const project = await service.createProject();
    const response = await rawPost(
      project.projectId,
      project.owner,
      JSON.stringify({ label: 'x'.repeat(1_100_000), permissions: 'read' }),
    );
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    expect(await storedTokens(project.projectId)).toBe(0);
  });
});

describe('a project API token on the token routes', () => {
  it.each([
    ['POST', 'read'],
    ['POST', 'read_write'],
    ['GET', 'read'],
    ['GET', 'read_write'],
    ['DELETE', 'read'],
    ['DELETE', 'read_write'],
  ] as const)(
    'when %s comes with a %s token of the project, then 403 FORBIDDEN and nothing changes',
    async (method, permissions) => {
      const project = await service.createProject();
      const existing = await service.createToken(project.projectId, project.owner);
      const as = await service.asProjectToken(project.projectId, permissions);
      const path =
        method === 'DELETE'
          ? service.tokensPath(project.projectId, existing.tokenId)
          : service.tokensPath(project.projectId);
      const response = await service.call(method, path, {
        as,
        body: method === 'POST' ? { label: 'sneaky', permissions: 'read_write' } : undefined,
      });
      expectError(response, 403, 'FORBIDDEN');
      expect(response.body.error.message).toContain('user access token');
      expect(await storedTokens(project.projectId)).toBe(1);
      expect(
        (await service.listTokens(project.projectId, project.owner)).tokens.map((t) => t.tokenId),
      ).toEqual([existing.tokenId]);
    },
  );

  it('when a project token POSTs a malformed body, then 403 (the principal is looked at first)', async () => {
    const project = await service.createProject();
    const as = await service.asProjectToken(project.projectId, 'read_write');
    expectError(
      await service.call('POST', service.tokensPath(project.projectId), { as, body: { label: 7 } }),
      403,
      'FORBIDDEN',
    );
  });

  it.each(['POST', 'GET', 'DELETE'])(
    "when %s comes with another project's token, then 404 NOT_FOUND (as for a non-member)",
    async (method) => {
      const project = await service.createProject();
      const other = await service.createProject();
      const existing = await service.createToken(project.projectId, project.owner);
      const as = await service.asProjectToken(other.projectId, 'read_write');
      const path =
        method === 'DELETE'
          ? service.tokensPath(project.projectId, existing.tokenId)
          : service.tokensPath(project.projectId);
      const response = await service.call(method, path, {
        as,
        body: method === 'POST' ? { label: 'CI', permissions: 'read' } : undefined,
      });
      expectError(response, 404, 'NOT_FOUND');
      expect(await storedTokens(project.projectId)).toBe(1);
    },
  );
});

describe('live tokens per project', () => {
  it(`when a project holds ${MAX_PER_PROJECT} live tokens, then another is 409 CONFLICT until one is revoked`, async () => {
    const project = await service.createProject();
    const created = [];
    for (let i = 0; i < MAX_PER_PROJECT; i++)
      created.push(await service.createToken(project.projectId, project.owner));
    const refused = await service.call('POST', service.tokensPath(project.projectId), {
      as: project.owner,
      body: { label: 'one too many', permissions: 'read' },
    });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toContain(`${MAX_PER_PROJECT}`);
    expect(await storedTokens(project.projectId)).toBe(MAX_PER_PROJECT);

    await service.call('DELETE', service.tokensPath(project.projectId, created[0]!.tokenId), {
      as: project.owner,
    });
    expect(
      (
        await service.call('POST', service.tokensPath(project.projectId), {
          as: project.owner,
          body: { label: 'replacement', permissions: 'read' },
        })
      ).status,
    ).toBe(201);
  });

  it('when many tokens are created at once, then exactly the allowed number are, the others 409', async () => {
    const project = await service.createProject();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        service.call('POST', service.tokensPath(project.projectId), {
          as: project.owner,
          body: { label: `parallel ${i}`, permissions: 'read' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(MAX_PER_PROJECT).fill(201), ...Array(10 - MAX_PER_PROJECT).fill(409)]);
    expect((await service.listTokens(project.projectId, project.owner)).tokens).toHaveLength(MAX_PER_PROJECT);
  });
});
