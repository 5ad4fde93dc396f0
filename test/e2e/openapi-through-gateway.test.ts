/**
 * The published OpenAPI document against the live system: every operation it describes is called
 * through the real gateway in front of every real service, and every answer — successes and
 * errors — must have a status the document lists for that operation, a body valid against the
 * document's schema for that status, and the headers it says are always there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, validateJsonSchema } from '@tolk/testing';
import type { OpenApiDocument, OpenApiOperation } from '@tolk/gateway';
import { startSystem, type System } from './system.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Call = {
  /** Values of the template's `{parameters}`. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  token?: string;
  body?: unknown;
  /** A body sent as is, with its own content type. */
  rawBody?: { text: string; contentType: string };
  headers?: Record<string, string>;
};

describe('the OpenAPI document against the live system', () => {
  let system: System;
  let document: OpenApiDocument;
  /** `method template status` of every documented answer seen. */
  const seen = new Set<string>();

  beforeAll(async () => {
    system = await startSystem({ sources: true, tokens: true, byok: true });
    const response = await request(`${system.base}/v1/openapi.json`);
    expect(response.status).toBe(200);
    document = response.body as OpenApiDocument;
  });
  afterAll(async () => {
    await system?.close();
  });

  /** Checks an answer against what the document says of `operation` for its status. */
  function expectDocumented(
    where: string,
    responses: OpenApiOperation['responses'],
    response: Awaited<ReturnType<typeof request>>,
  ): void {
    const documented = responses[String(response.status)];
    expect(
      documented,
      `${where} answered ${response.status}, which the document does not list: ${response.text}`,
    ).toBeDefined();
    const schema = documented!.content?.['application/json'].schema;
    if (schema) {
      expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
      expect(
        validateJsonSchema(schema, response.body, document),
        `${where} ${response.status}: ${response.text}`,
      ).toEqual([]);
    } else {
      expect(response.text, `${where} ${response.status} documents no body`).toBe('');
    }
    for (const [name, header] of Object.entries(documented!.headers ?? {})) {
      const definition = document.components.headers[header.$ref.split('/').pop()!];
      if (definition?.required) expect(response.headers.get(name), `${where} header ${name}`).not.toBeNull();
    }
  }

  /** Calls a documented operation and holds its answer to the document. */
  async function documented(method: Method, template: string, call: Call = {}) {
    const operation = document.paths[template]?.[method];
    expect(operation, `${method.toUpperCase()} ${template} is in the document`).toBeDefined();
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(call.params?.[name] ?? ''),
    );
    const query = call.query ? `?${new URLSearchParams(call.query)}` : '';
    const headers: Record<string, string> = { ...call.headers };
    if (call.token) headers['authorization'] = `Bearer ${call.token}`;
    if (call.rawBody) headers['content-type'] = call.rawBody.contentType;
    const response = await request(`${system.base}${path}${query}`, {
      method: method.toUpperCase(),
      headers,
      ...(call.rawBody ? { rawBody: call.rawBody.text } : call.body !== undefined ? { body: call.body } : {}),
    });
    const where = `${method.toUpperCase()} ${template}`;
    expectDocumented(where, operation!.responses, response);
    seen.add(`${method} ${template} ${response.status}`);
    return response;
  }

  async function newProject(token: string, sourceLocale = 'en'): Promise<string> {
    const created = await documented('post', '/v1/projects', {
      token,
      body: { name: 'Shop', sourceLocale },
    });
    expect(created.status).toBe(201);
    return created.body.projectId as string;
  }

  it('when the Auth and User routes are called, then every answer is as documented', async () => {
    const email = `openapi-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const password = 'correct horse battery';
    const signup = await documented('post', '/v1/auth/signup', { body: { email, password, name: 'Ada' } });
    expect(signup.status).toBe(201);
    expect((await documented('post', '/v1/auth/signup', { body: { email, password } })).status).toBe(409);
    expect((await documented('post', '/v1/auth/signup', { body: { email: 'not-an-email' } })).status).toBe(
      400,
    );
    const notJson = await documented('post', '/v1/auth/signup', {
      rawBody: { text: `email=${email}`, contentType: 'application/x-www-form-urlencoded' },
    });
    expect(notJson.status).toBe(415);
    const brokenJson = await documented('post', '/v1/auth/signup', {
      rawBody: { text: '{"email":', contentType: 'application/json' },
    });
    expect(brokenJson.status).toBe(400);

    const login = await documented('post', '/v1/auth/login', { body: { email, password } });
    expect(login.status).toBe(200);
    expect(
      (await documented('post', '/v1/auth/login', { body: { email, password: 'wrong password' } })).status,
    ).toBe(401);
    const refreshed = await documented('post', '/v1/auth/refresh', {
      body: { refreshToken: login.body.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    expect(
      (await documented('post', '/v1/auth/refresh', { body: { refreshToken: 'not-a-token' } })).status,
    ).toBe(401);
    expect(
      (await documented('post', '/v1/auth/logout', { body: { refreshToken: refreshed.body.refreshToken } }))
        .status,
    ).toBe(204);

    const token = signup.body.accessToken as string;
    const me = await documented('get', '/v1/user/me', { token });
    expect(me.status).toBe(200);
    expect((await documented('get', '/v1/user/me')).status).toBe(401);
    expect((await documented('get', '/v1/user/me', { token: 'tolk_not_a_real_token' })).status).toBe(401);

    const device = await documented('post', '/v1/auth/device');
    expect(device.status).toBe(200);
    const pending = await documented('post', '/v1/auth/device/token', {
      body: { deviceCode: device.body.deviceCode },
    });
    expect(pending.status).toBe(400);
    expect(pending.body.error.code).toBe('AUTHORIZATION_PENDING');
    const approve = await documented('post', '/v1/auth/device/approve', {
      token,
      body: { userCode: String(device.body.userCode).toLowerCase() },
    });
    expect(approve.status).toBe(204);
    expect(
      (await documented('post', '/v1/auth/device/token', { body: { deviceCode: device.body.deviceCode } }))
        .status,
    ).toBe(200);

    const another = await documented('post', '/v1/auth/device', { body: {} });
    expect(
      (await documented('post', '/v1/auth/device/deny', { token, body: { userCode: another.body.userCode } }))
        .status,
    ).toBe(204);
    expect(
      (await documented('post', '/v1/auth/device/deny', { token, body: { userCode: another.body.userCode } }))
        .status,
    ).toBe(404);

    // A method the path does not serve: not an operation, but the same envelope as every error.
    const wrongMethod = await request(`${system.base}/v1/user/me`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(wrongMethod.status).toBe(405);
    expect(validateJsonSchema({ $ref: '#/components/schemas/Error' }, wrongMethod.body, document)).toEqual(
      [],
    );

    // Deleting an account: named first (409), confirmed with the email (204).
    const leaving = await system.signUp();
    expect((await documented('delete', '/v1/user/me', { token: leaving.token })).status).toBe(409);
    expect(
      (
        await documented('delete', '/v1/user/me', {
          token: leaving.token,
          body: { confirm: 'x@example.com' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await documented('delete', '/v1/user/me', { token: leaving.token, body: { confirm: leaving.email } }))
        .status,
    ).toBe(204);
  });

  it('when the Projects routes are called, then every answer is as documented', async () => {
    const owner = await system.signUp();
    const colleague = await system.signUp();
    const projectId = await newProject(owner.token);
    const params = { projectId };
    expect(
      (await documented('post', '/v1/projects', { token: owner.token, body: { name: '' } })).status,
    ).toBe(400);
    expect((await documented('get', '/v1/projects', { token: owner.token })).status).toBe(200);

    const glossary = '/v1/projects/{projectId}/glossary';
    const glossaryEntry = '/v1/projects/{projectId}/glossary/{entryId}';
    const term = await documented('post', glossary, {
      token: owner.token,
      params,
      body: { term: 'cart', translations: { de: 'Warenkorb' } },
    });
    expect(term.status).toBe(201);
    const entryParams = { projectId, entryId: term.body.entryId as string };
    expect(
      (await documented('post', glossary, { token: owner.token, params, body: { term: '' } })).status,
    ).toBe(400);
    expect((await documented('get', glossary, { token: owner.token, params })).status).toBe(200);
    const page = await documented('get', glossary, { token: owner.token, params, query: { limit: '1' } });
    expect(page.body).toMatchObject({ total: 1, nextCursor: null });
    expect(
      (await documented('get', glossary, { token: owner.token, params, query: { cursor: '!' } })).status,
    ).toBe(400);
    expect(
      (
        await documented('patch', glossaryEntry, {
          token: owner.token,
          params: entryParams,
          body: { note: 'the basket' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await documented('delete', glossaryEntry, { token: owner.token, params: entryParams })).status,
    ).toBe(204);
    const imported = await documented('put', glossary, {
      token: owner.token,
      params,
      body: { entries: [{ term: 'Tolk', keepAsIs: true }] },
    });
    expect(imported.status).toBe(200);
    // 21 entries of 200 locales × 1,000 characters: past the glossary's 4 MiB of text.
    const regions = [
      'AT',
      'BE',
      'CH',
      'DE',
      'FR',
      'IT',
      'NL',
      'SE',
      'PL',
      'PT',
      'US',
      'GB',
      'CA',
      'AU',
      'BR',
    ];
    const locales = ['de', 'fr', 'es', 'it', 'nl', 'sv', 'pl', 'pt', 'ru', 'ja', 'ko', 'da', 'fi', 'nb', 'cs']
      .flatMap((language) => regions.map((region) => `${language}-${region}`))
      .slice(0, 200);
    const tooBig = await documented('put', glossary, {
      token: owner.token,
      params,
      query: { merge: 'true' },
      body: {
        entries: Array.from({ length: 21 }, (_, i) => ({
          term: `big ${i}`,
          translations: Object.fromEntries(locales.map((locale) => [locale, 'x'.repeat(1000)])),
        })),
      },
    });
    expect(tooBig.status).toBe(413);
    expect((await documented('get', '/v1/projects/{projectId}', { token: owner.token, params })).status).toBe(
      200,
    );
    expect(
      (await documented('get', '/v1/projects/{projectId}', { token: colleague.token, params })).status,
    ).toBe(404);
    const patched = await documented('patch', '/v1/projects/{projectId}', {
      token: owner.token,
      params,
      body: { name: 'Shop 2', settings: { provider: 'anthropic', model: 'claude' } },
    });
    expect(patched.status).toBe(200);

    const added = await documented('post', '/v1/projects/{projectId}/members', {
      token: owner.token,
      params,
      body: { email: colleague.email },
    });
    expect(added.status).toBe(201);
    expect(
      (
        await documented('post', '/v1/projects/{projectId}/members', {
          token: owner.token,
          params,
          body: { email: colleague.email },
        })
      ).status,
    ).toBe(409);
    expect(
      (await documented('get', '/v1/projects/{projectId}/members', { token: owner.token, params })).status,
    ).toBe(200);
    // The colleague's earlier 404 is cached by the gateway until ProjectMembershipChanged evicts it
    // (within about a second, README): until then the colleague is still told "not found".
    await expect
      .poll(
        async () =>
          (
            await documented('patch', '/v1/projects/{projectId}', {
              token: colleague.token,
              params,
              body: { name: 'Mine' },
            })
          ).status,
        { timeout: 5000, interval: 20 },
      )
      .toBe(403);
    const colleagueAsMember = { ...params, userId: colleague.userId };
    const promoted = await documented('patch', '/v1/projects/{projectId}/members/{userId}', {
      token: owner.token,
      params: colleagueAsMember,
      body: { role: 'owner' },
    });
    expect(promoted.status).toBe(200);
    expect(
      (
        await documented('patch', '/v1/projects/{projectId}/members/{userId}', {
          token: owner.token,
          params: colleagueAsMember,
          body: { role: 'admin' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await documented('patch', '/v1/projects/{projectId}/members/{userId}', {
          token: owner.token,
          params: colleagueAsMember,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await documented('patch', '/v1/projects/{projectId}/members/{userId}', {
          token: owner.token,
          params: { ...params, userId: owner.userId },
          body: { role: 'member' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await documented('delete', '/v1/projects/{projectId}/members/{userId}', {
          token: owner.token,
          params: { ...params, userId: colleague.userId },
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await documented('delete', '/v1/projects/{projectId}/members/{userId}', {
          token: owner.token,
          params: { ...params, userId: owner.userId },
        })
      ).status,
    ).toBe(409);

    expect(
      (await documented('delete', '/v1/projects/{projectId}', { token: owner.token, params })).status,
    ).toBe(204);
    expect((await documented('get', '/v1/projects/{projectId}', { token: owner.token, params })).status).toBe(
      404,
    );
  });

  it('when the Source Files routes are called, by a user and by project tokens, then every answer is as documented', async () => {
    const owner = await system.signUp();
    const projectId = await newProject(owner.token);
    const params = { projectId };
    const token = owner.token;
    expect((await documented('get', '/v1/projects/{projectId}/source', { token, params })).status).toBe(404);

    const source = {
      home: { title: 'Welcome', '@title': { description: 'The heading', maxLength: 40 } },
      pay: 'Pay {amount}',
    };
    const dryRun = await documented('put', '/v1/projects/{projectId}/source', {
      token,
      params,
      query: { dryRun: 'true' },
      body: source,
    });
    expect(dryRun.status).toBe(200);
    const uploaded = await documented('put', '/v1/projects/{projectId}/source', {
      token,
      params,
      body: source,
      headers: { 'if-match': '"0"' },
    });
    expect(uploaded.status).toBe(200);
    expect(uploaded.headers.get('etag')).toBe('"1"');
    const stale = await documented('put', '/v1/projects/{projectId}/source', {
      token,
      params,
      body: { home: 'x' },
      headers: { 'if-match': '"0"' },
    });
    expect(stale.status).toBe(412);
    expect(
      (await documented('put', '/v1/projects/{projectId}/source', { token, params, body: { count: 3 } }))
        .status,
    ).toBe(400);
    expect(
      (
        await documented('put', '/v1/projects/{projectId}/source', {
          token,
          params,
          query: { dryRun: 'yes' },
          body: source,
        })
      ).status,
    ).toBe(400);

    const current = await documented('get', '/v1/projects/{projectId}/source', { token, params });
    expect(current.status).toBe(200);
    expect(current.body.version).toBe(1);
    expect(
      (await documented('get', '/v1/projects/{projectId}/source/versions', { token, params })).status,
    ).toBe(200);
    const versions = '/v1/projects/{projectId}/source/versions/{version}';
    expect((await documented('get', versions, { token, params: { ...params, version: '1' } })).status).toBe(
      200,
    );
    expect((await documented('get', versions, { token, params: { ...params, version: '7' } })).status).toBe(
      404,
    );
    expect(
      (await documented('get', versions, { token, params: { ...params, version: 'latest' } })).status,
    ).toBe(400);
    const diff = '/v1/projects/{projectId}/source/diff';
    expect((await documented('get', diff, { token, params, query: { from: '0', to: '1' } })).status).toBe(
      200,
    );
    expect((await documented('get', diff, { token, params, query: { from: '0' } })).status).toBe(400);

    const tokens = '/v1/projects/{projectId}/tokens';
    const read = await documented('post', tokens, {
      token,
      params,
      body: { label: 'CI read', permissions: 'read' },
    });
    const write = await documented('post', tokens, {
      token,
      params,
      body: { label: 'CI write', permissions: 'read_write' },
    });
    const readToken = read.body.token as string;
    expect(
      (await documented('get', '/v1/projects/{projectId}/source', { token: readToken, params })).status,
    ).toBe(200);
    expect((await documented('get', '/v1/projects/{projectId}', { token: readToken, params })).status).toBe(
      200,
    );
    expect(
      (await documented('put', '/v1/projects/{projectId}/source', { token: readToken, params, body: source }))
        .status,
    ).toBe(403);
    const byCi = await documented('put', '/v1/projects/{projectId}/source', {
      token: write.body.token,
      params,
      body: { ...source, bye: 'Bye' },
    });
    expect(byCi.status).toBe(200);
    expect(byCi.body.diff.added).toEqual(['bye']);
  });

  it('when the Locales routes are called, then every answer is as documented', async () => {
    const owner = await system.signUp();
    const projectId = await newProject(owner.token);
    const params = { projectId };
    const token = owner.token;
    const locales = '/v1/projects/{projectId}/locales';
    const locale = '/v1/projects/{projectId}/locales/{locale}';
    const translations = '/v1/projects/{projectId}/locales/{locale}/translations';

    const added = await documented('post', locales, { token, params, body: { locale: 'pt-br' } });
    expect(added.status).toBe(201);
    expect(added.body.locale).toBe('pt-BR');
    expect((await documented('post', locales, { token, params, body: { locale: 'PT-BR' } })).status).toBe(
      409,
    );
    expect((await documented('post', locales, { token, params, body: { locale: 'en' } })).status).toBe(400);
    expect((await documented('get', locales, { token, params })).status).toBe(200);

    expect(
      (
        await documented('put', '/v1/projects/{projectId}/source', {
          token,
          params,
          body: { hello: 'Hello {name}' },
        })
      ).status,
    ).toBe(200);
    const ptBr = { ...params, locale: 'pt-BR' };
    expect((await documented('get', locale, { token, params: ptBr })).status).toBe(200);
    expect((await documented('get', locale, { token, params: { ...params, locale: 'de' } })).status).toBe(
      404,
    );
    expect(
      (await documented('get', locale, { token, params: { ...params, locale: 'portuguese' } })).status,
    ).toBe(400);

    const wrongPlaceholder = await documented('put', translations, {
      token,
      params: ptBr,
      query: { sourceVersion: '1' },
      body: { hello: 'Olá', '@@provenance': { ai: { model: 'openai:gpt-4o-mini', keys: ['hello'] } } },
    });
    expect(wrongPlaceholder.status).toBe(400);
    // A person's: stored with its finding, the answer as documented.
    const withFinding = await documented('put', translations, {
      token,
      params: ptBr,
      query: { sourceVersion: '1' },
      body: { hello: 'Olá', unknown: 'x' },
    });
    expect(withFinding.body).toMatchObject({ errorCount: 1, ignored: ['unknown'], ignoredCount: 1 });
    expect((await documented('get', locale, { token, params: ptBr })).body.findings).toHaveLength(1);
    expect(
      (await documented('put', translations, { token, params: ptBr, body: { hello: 'Olá {name}' } })).status,
    ).toBe(400);
    const uploaded = await documented('put', translations, {
      token,
      params: ptBr,
      query: { sourceVersion: '1' },
      body: { hello: 'Olá {name}' },
    });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.status).toBe('up_to_date');
    const downloaded = await documented('get', translations, { token, params: ptBr });
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('etag')).toBe(uploaded.headers.get('etag'));
    // The same ETag twice: the first upload matches it, the second finds it stale.
    for (const [hello, status] of [
      ['Olá {name}', 200],
      ['Oi {name}', 412],
    ] as const) {
      const conditional = await documented('put', translations, {
        token,
        params: ptBr,
        query: { sourceVersion: '1' },
        body: { hello },
        headers: { 'if-match': downloaded.headers.get('etag')! },
      });
      expect(conditional.status).toBe(status);
    }

    const memory = '/v1/projects/{projectId}/locales/{locale}/memory';
    const found = await documented('post', memory, {
      token,
      params: ptBr,
      body: { texts: ['Hello {name}'] },
    });
    expect(found.status).toBe(200);
    expect(found.body.matches[0].exact.translation).toBe('Olá {name}');
    expect((await documented('post', memory, { token, params: ptBr, body: { texts: [] } })).status).toBe(400);
    const keys = '/v1/projects/{projectId}/keys';
    const page = await documented('get', keys, { token, params, query: { locale: 'pt-BR', limit: '10' } });
    expect(page.status).toBe(200);
    expect(page.body.keys[0].locales['pt-BR']).toMatchObject({
      value: 'Olá {name}',
      status: 'translated',
      provenance: { by: 'human' },
    });
    expect((await documented('get', keys, { token, params, query: { status: 'done' } })).status).toBe(400);

    expect((await documented('delete', locale, { token, params: ptBr })).status).toBe(204);
    expect((await documented('delete', locale, { token, params: ptBr })).status).toBe(404);
  });

  it('when the API Tokens routes are called, then every answer is as documented', async () => {
    const owner = await system.signUp();
    const projectId = await newProject(owner.token);
    const params = { projectId };
    const token = owner.token;
    const tokens = '/v1/projects/{projectId}/tokens';

    const created = await documented('post', tokens, {
      token,
      params,
      body: { label: 'Deploys', permissions: 'read_write' },
    });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^tolk_/);
    expect(
      (await documented('post', tokens, { token, params, body: { label: '  ', permissions: 'admin' } }))
        .status,
    ).toBe(400);
    expect(
      (
        await documented('post', tokens, {
          token: created.body.token,
          params,
          body: { label: 'x', permissions: 'read' },
        })
      ).status,
    ).toBe(403);
    const listed = await documented('get', tokens, { token, params });
    expect(listed.status).toBe(200);
    expect(listed.body.tokens[0].tokenPrefix).toBe(String(created.body.token).slice(0, 10));

    const one = { ...params, tokenId: created.body.tokenId as string };
    expect(
      (await documented('delete', '/v1/projects/{projectId}/tokens/{tokenId}', { token, params: one }))
        .status,
    ).toBe(204);
    expect(
      (await documented('delete', '/v1/projects/{projectId}/tokens/{tokenId}', { token, params: one }))
        .status,
    ).toBe(404);
  });

  it('when the CLI (BYOK) routes are called, then every answer is as documented', async () => {
    const user = await system.signUp();
    const token = user.token;
    const key = '/v1/user/byok/{provider}';
    const openai = { provider: 'openai' };

    expect((await documented('get', '/v1/user/byok', { token })).status).toBe(200);
    const none = await documented('get', key, { token, params: openai });
    expect(none.body).toEqual({ hasKey: false, apiKey: '' });
    const stored = await documented('put', key, {
      token,
      params: openai,
      body: { apiKey: 'sk-test-1234567890' },
    });
    expect(stored.status).toBe(200);
    expect((await documented('put', key, { token, params: openai, body: { apiKey: 'short' } })).status).toBe(
      400,
    );
    const read = await documented('get', key, { token, params: openai });
    expect(read.body).toEqual({ hasKey: true, apiKey: 'sk-test-1234567890' });
    expect((await documented('get', key, { token, params: { provider: 'OpenAI' } })).status).toBe(400);
    expect((await documented('delete', key, { token, params: openai })).status).toBe(204);
    expect((await documented('get', key, { params: openai })).status).toBe(401);
  });

  it('when the document itself is asked for through the documented operation, then it is as documented', async () => {
    expect((await documented('get', '/v1/openapi.json')).status).toBe(200);
  });

  // Runs last (tests of a file run in order): what the tests above saw.
  it('every documented operation was called and answered its documented success', () => {
    const missing: string[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const success = Object.keys(operation!.responses).find((status) => status.startsWith('2'));
        if (!seen.has(`${method} ${template} ${success}`))
          missing.push(`${method.toUpperCase()} ${template} ${success}`);
      }
    }
    expect(missing).toEqual([]);
    expect(seen.size).toBeGreaterThan(60);
  });
});
