/**
 * Query parameters of every public route, through the real gateway: each documented parameter is
 * taken exactly once, as a value of its type, and any other spelling — brackets (`dryRun[]=true`,
 * `dryRun[x]=true`), the parameter twice, a wrong value, a parameter the route does not have — is
 * a 400 VALIDATION_ERROR naming it, and does nothing. The routes and their parameters come from
 * the published OpenAPI document, so a new route or parameter is covered (or fails here) at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, request } from '@tolk/testing';
import type { OpenApiDocument } from '@tolk/gateway';
import { startSystem, type System } from './system.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A valid and a wrong value of every query parameter the document describes. */
const VALUES: Record<string, { valid: string; wrong: string[] }> = {
  dryRun: { valid: 'true', wrong: ['yes', '1', 'TRUE', ''] },
  from: { valid: '0', wrong: ['-1', '1.5', '1e0', ' 1', 'x'] },
  to: { valid: '1', wrong: ['-1', '0x1', '99999999999', ''] },
  sourceVersion: { valid: '1', wrong: ['0', '-1', '1.0', 'latest'] },
  locale: { valid: 'de', wrong: ['x'.repeat(2001)] },
  status: { valid: 'missing', wrong: ['done', 'MISSING', ''] },
  q: { valid: 'hello', wrong: ['x'.repeat(501)] },
  offset: { valid: '0', wrong: ['-1', '1.5', 'x'] },
  // And one past the route's documented maximum (see wrongValues).
  limit: { valid: '10', wrong: ['0', 'all'] },
  cursor: { valid: '', wrong: ['!!', 'x'.repeat(2001)] },
  merge: { valid: 'true', wrong: ['yes', '1', 'TRUE'] },
  by: { valid: 'ai', wrong: ['robot', 'AI', ''] },
  findings: { valid: 'error', wrong: ['errors', 'ERROR', ''] },
};

/** The wrong values of a parameter: its own, and one past the maximum the route documents. */
function wrongValues(parameter: { name: string; schema?: { maximum?: number } }): string[] {
  const maximum = parameter.schema?.maximum;
  return [...VALUES[parameter.name]!.wrong, ...(maximum === undefined ? [] : [String(maximum + 1)])];
}

describe('query parameters of every route, through the gateway', () => {
  let system: System;
  let document: OpenApiDocument;
  let token: string;
  let params: Record<string, string>;

  beforeAll(async () => {
    system = await startSystem({ sources: true, tokens: true, byok: true });
    document = (await request(`${system.base}/v1/openapi.json`)).body as OpenApiDocument;
    const user = await system.signUp();
    token = user.token;
    const created = await system.call('POST', '/v1/projects', token, { name: 'Query', sourceLocale: 'en' });
    expect(created.status).toBe(201);
    const projectId = created.body.projectId as string;
    expect(
      (await system.call('POST', `/v1/projects/${projectId}/locales`, token, { locale: 'de' })).status,
    ).toBe(201);
    expect(
      (await system.call('PUT', `/v1/projects/${projectId}/source`, token, { hello: 'Hello' })).status,
    ).toBe(200);
    params = {
      projectId,
      locale: 'de',
      version: '1',
      tokenId: 'tok_unknown',
      userId: 'usr_unknown',
      provider: 'openai',
    };
  });
  afterAll(async () => {
    await system?.close();
  });

  function operations() {
    return Object.entries(document.paths).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method as Method,
        template,
        path: template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'x')),
        query: (operation.parameters ?? []).filter((p) => p.in === 'query'),
      })),
    );
  }

  const send = (method: Method, path: string, query: string) =>
    request(`${system.base}${path}?${query}`, {
      method: method.toUpperCase(),
      headers: { authorization: `Bearer ${token}` },
    });

  async function expectRefused(method: Method, path: string, query: string, message: RegExp | string) {
    const response = await send(method, path, query);
    const where = `${method.toUpperCase()} ${path}?${query}`;
    expectError(response, 400, 'VALIDATION_ERROR');
    if (typeof message === 'string') expect(response.body.error.message, where).toBe(message);
    else expect(response.body.error.message, where).toMatch(message);
  }

  it('when a parameter is bracketed, repeated, of the wrong type or unknown, then 400 naming it and nothing done', async () => {
    const withQuery = operations().filter((operation) => operation.query.length > 0);
    expect(withQuery.map(({ method, template }) => `${method} ${template}`).sort()).toEqual([
      'get /v1/projects/{projectId}/glossary',
      'get /v1/projects/{projectId}/keys',
      'get /v1/projects/{projectId}/source/diff',
      'put /v1/projects/{projectId}/glossary',
      'put /v1/projects/{projectId}/locales/{locale}/translations',
      'put /v1/projects/{projectId}/source',
    ]);
    for (const { method, path, query } of withQuery) {
      const others = (name: string) =>
        query.filter((p) => p.name !== name).map((p) => `${p.name}=${VALUES[p.name]!.valid}`);
      for (const parameter of query) {
        const values = VALUES[parameter.name];
        expect(values, `a valid and a wrong value of query parameter ${parameter.name}`).toBeDefined();
        const { name } = parameter;
        const cases: [string, RegExp | string][] = [
          [
            `${name}[]=${values!.valid}`,
            `query.${name}[]: bracket syntax is not accepted; send ${name}=<value> once`,
          ],
          [
            `${name}[x]=${values!.valid}`,
            `query.${name}[x]: bracket syntax is not accepted; send ${name}=<value> once`,
          ],
          [`${name}=${values!.valid}&${name}=${values!.valid}`, `query.${name}: given 2 times; send it once`],
          ...wrongValues(parameter).map((wrong): [string, RegExp] => [
            `${name}=${encodeURIComponent(wrong)}`,
            new RegExp(`^query\\.${name}: must be `),
          ]),
        ];
        if (parameter.required) cases.push(['', new RegExp(`(^|; )query\\.${name}: is required`)]);
        for (const [spelling, message] of cases) {
          await expectRefused(method, path, [...others(name), spelling].filter(Boolean).join('&'), message);
        }
      }
      await expectRefused(
        method,
        path,
        [...query.map((p) => `${p.name}=${VALUES[p.name]!.valid}`), 'unexpected=1'].join('&'),
        `query.unexpected: is not a parameter of this route; this route accepts ${query.map((p) => p.name).join(', ')}, each once`,
      );
    }
    // None of those uploads was carried out.
    const source = await system.call('GET', `/v1/projects/${params['projectId']}/source`, token);
    expect(source.body.version).toBe(1);
    const locale = await system.call('GET', `/v1/projects/${params['projectId']}/locales/de`, token);
    expect(locale.body.syncedVersion).toBe(0);
  });

  it('when a route that takes no query parameters gets one, then 400 naming it, on every route', async () => {
    const without = operations().filter((operation) => operation.query.length === 0);
    expect(without.length).toBeGreaterThan(25);
    for (const { method, path } of without) {
      await expectRefused(
        method,
        path,
        '_=1700000000000',
        'query._: is not a parameter of this route; this route takes no query parameters',
      );
    }
  });

  it('when the documentation page is opened from a link with tracking parameters, then it is served', async () => {
    const page = await request(`${system.base}/docs?utm_source=newsletter&ref[]=x`);
    expect(page.status).toBe(200);
  });
});
