import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_GLOSSARY_LOCALES,
  addLocaleBodySchema,
  createTokenRequestSchema,
  memoryLookupBodySchema,
  signupRequestSchema,
  updateProjectRequestSchema,
} from '@tolk/contracts';
import { DEFAULT_SOURCE_LIMITS } from '@tolk/locale-file';
import { request, validateJsonSchema } from '@tolk/testing';
import type { OpenApiDocument, OpenApiOperation } from '../src/openapi/openapi-document.js';
import { caseInsensitivePattern } from '../src/openapi/schema-components.js';
import { compileRoutePath } from '../src/route-dispatch.js';
import { ROUTES } from '../src/routes.js';
import { startGateway } from './support.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
}

/** Every `$ref` anywhere in a value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
  );
}

function resolvePointer(document: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, segment) => (at as Record<string, unknown> | undefined)?.[segment], document);
}

function example(path: string): string {
  return path.replace(/\{\w+\}/g, 'x');
}

describe('GET /v1/openapi.json', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let document: OpenApiDocument;

  beforeAll(async () => {
    // No service at all: the document is the gateway's own.
    gateway = await startGateway({});
    const response = await request(`${gateway.url}/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    document = response.body as OpenApiDocument;
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('when asked without a token, then it is an OpenAPI 3.1 document of version 2.0.0', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: expect.any(String), version: '2.0.0' });
    expect(Object.keys(document.paths).every((path) => path.startsWith('/'))).toBe(true);
  });

  it('when served, then it says what the published document says, no more and no less (fixtures/openapi.json)', () => {
    // The document readers and clients hold to: a change to the API changes this file with it, in
    // the same commit, where a reviewer sees it. The order of an object's members is not compared.
    const published: unknown = JSON.parse(
      readFileSync(new URL('fixtures/openapi.json', import.meta.url), 'utf8'),
    );
    expect(document).toStrictEqual(published);
  });

  it('when a locale file is described, then its values carry the default limits of the parser', () => {
    const value = document.components.schemas['LocaleFileValue'] as { anyOf: Record<string, unknown>[] };
    const text = value.anyOf.find((schema) => schema['type'] === 'string')!;
    expect(text['maxLength']).toBe(DEFAULT_SOURCE_LIMITS.maxValueLength);
    expect(text['description']).toContain(
      `At most ${DEFAULT_SOURCE_LIMITS.maxValueBraces.toLocaleString('en')} opening braces`,
    );
  });

  it('when another method is used, then 405 with the error envelope', async () => {
    const response = await request(`${gateway.url}/v1/openapi.json`, { method: 'POST', body: {} });
    expect(response.status).toBe(405);
    expect(response.body).toStrictEqual({
      error: { code: 'METHOD_NOT_ALLOWED', message: expect.any(String) },
    });
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('describes every route of the gateway, and no path the gateway does not route', () => {
    const paths = Object.keys(document.paths);
    for (const route of ROUTES) {
      const pattern = compileRoutePath(route.path);
      expect(
        paths.some((path) => pattern.test(example(path))),
        route.path,
      ).toBe(true);
    }
    for (const path of paths.filter((p) => p !== '/v1/openapi.json')) {
      expect(
        ROUTES.some((route) => compileRoutePath(route.path).test(example(path))),
        path,
      ).toBe(true);
    }
  });

  it('gives every operation an id, a declared tag, its path parameters, one success and errors in the envelope', () => {
    const tags = document.tags.map((tag) => tag.name);
    const ids = new Set<string>();
    for (const { path, method, operation } of operationsOf(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(ids.has(operation.operationId), where).toBe(false);
      ids.add(operation.operationId);
      expect(tags, where).toContain(operation.tags[0]);

      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(declared.map((p) => p.name).sort(), where).toEqual([...templated].sort());
      expect(declared.every((p) => p.required)).toBe(true);

      const statuses = Object.keys(operation.responses);
      expect(
        statuses.filter((status) => status.startsWith('2')),
        where,
      ).toHaveLength(1);
      const errors = statuses.filter((status) => /^[45]/.test(status));
      expect(errors.length, where).toBeGreaterThan(0);
      expect(errors, where).toContain('500');
      for (const status of errors) {
        expect(
          operation.responses[status]?.content?.['application/json'].schema,
          `${where} ${status}`,
        ).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
      const success = operation.responses[statuses.find((status) => status.startsWith('2'))!]!;
      if (statuses.includes('204')) expect(success.content, where).toBeUndefined();
      else expect(success.content?.['application/json'].schema, where).toBeDefined();
    }
  });

  it('declares both bearer token kinds, and each operation asks for what the route table allows', () => {
    expect(document.components.securitySchemes).toMatchObject({
      accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      projectApiToken: { type: 'http', scheme: 'bearer', bearerFormat: 'tolk_…' },
    });
    for (const { path, method, operation } of operationsOf(document)) {
      const route = ROUTES.find((candidate) => compileRoutePath(candidate.path).test(example(path)));
      const where = `${method.toUpperCase()} ${path}`;
      if (!route || route.access === 'public') {
        expect(operation.security, where).toEqual([]);
        continue;
      }
      const permission = route.tokens?.[method.toUpperCase() as 'GET' | 'PUT'];
      expect(operation.security, where).toEqual(
        permission ? [{ accessToken: [] }, { projectApiToken: [permission] }] : [{ accessToken: [] }],
      );
      expect(operation.responses['401'], where).toBeDefined();
      if (route.scope === 'project') expect(operation.responses['404'], where).toBeDefined();
    }
  });

  it('resolves every $ref, and every schema is one the tests can validate with', () => {
    for (const ref of refsIn(document)) {
      expect(ref.startsWith('#/'), ref).toBe(true);
      expect(resolvePointer(document, ref), ref).toBeDefined();
    }
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => validateJsonSchema({ $ref: `#/components/schemas/${name}` }, {}, document)).not.toThrow();
    }
  });

  it('says what the spec says of its operations: tags, statuses, parameters and fields', () => {
    const op = (method: (typeof METHODS)[number], path: string): OpenApiOperation =>
      document.paths[path]![method]!;
    const schema = (name: string) => document.components.schemas[name] as Record<string, any>;

    expect(document.tags.map((tag) => tag.name)).toEqual(
      expect.arrayContaining(['Projects', 'Source Files', 'Locales', 'CLI', 'API Tokens']),
    );
    const createToken = op('post', '/v1/projects/{projectId}/tokens');
    expect(createToken.tags).toEqual(['API Tokens']);
    expect(createToken.responses['201']?.content?.['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateTokenResponse',
    });
    expect(createToken.parameters).toContainEqual(
      expect.objectContaining({ name: 'projectId', in: 'path', schema: { type: 'string', minLength: 1 } }),
    );
    expect(schema('CreateTokenRequest')).toMatchObject({
      required: ['label', 'permissions'],
      properties: { label: { type: 'string', minLength: 1 }, permissions: { enum: ['read', 'read_write'] } },
    });
    expect(schema('ApiToken').required).toEqual([
      'tokenId',
      'tokenPrefix',
      'label',
      'permissions',
      'lastUsedAt',
      'createdAt',
    ]);
    expect(op('put', '/v1/projects/{projectId}/source').tags).toEqual(['Source Files']);
    expect(Object.keys(op('put', '/v1/projects/{projectId}/source').responses)).toContain('200');
    expect(op('put', '/v1/projects/{projectId}/source').parameters).toContainEqual(
      expect.objectContaining({ name: 'dryRun', in: 'query', schema: { type: 'boolean', default: false } }),
    );
    expect(
      op('get', '/v1/projects/{projectId}/source').responses['200']?.content?.['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/SourceFile',
    });
    expect(schema('SourceFile').properties.locale).toMatchObject({
      type: 'string',
      minLength: 2,
      maxLength: 10,
    });
    expect(schema('UploadResult').required).toEqual(['version', 'diff', 'keyCount', 'needsTranslation']);
    expect(schema('Diff').required).toEqual(['added', 'modified', 'deleted']);
    const byok = op('get', '/v1/user/byok/{provider}');
    expect(byok.tags).toEqual(['CLI']);
    expect(byok.parameters?.[0]?.schema).toEqual({
      type: 'string',
      enum: ['openai', 'anthropic', 'google', 'mistral', 'deepseek', 'openrouter'],
    });
    expect(schema('ByokKeyStatus').required).toEqual(['hasKey', 'apiKey']);
    expect(
      op('get', '/v1/projects/{projectId}/source/diff').parameters?.map((p) => [p.name, p.required]),
    ).toEqual([
      ['projectId', true],
      ['from', true],
      ['to', true],
    ]);
    expect(
      op('put', '/v1/projects/{projectId}/locales/{locale}/translations').parameters?.map((p) => p.name),
    ).toEqual(['projectId', 'locale', 'sourceVersion', 'If-Match']);
    const translations = '/v1/projects/{projectId}/locales/{locale}/translations';
    expect(Object.keys(op('put', translations).responses)).toContain('412');
    expect(Object.keys(op('put', translations).responses['200']?.headers ?? {})).toContain('ETag');
    expect(Object.keys(op('get', translations).responses['200']?.headers ?? {})).toContain('ETag');
    expect(Object.keys(op('post', '/v1/auth/logout').responses)).toContain('204');
    expect(Object.keys(op('post', '/v1/auth/signup').responses)).toContain('201');
    expect(Object.keys(op('put', '/v1/projects/{projectId}/source').responses)).toEqual(
      expect.arrayContaining(['412', '413', '415', '429', '503', '504']),
    );
  });

  it('accepts what the services accept: request bodies valid for zod are valid for the document', () => {
    const accepted: [string, { safeParse: (value: unknown) => { success: boolean } }, unknown][] = [
      [
        'SignupRequest',
        signupRequestSchema,
        { email: 'ada@example.com', password: 'correct horse', name: null },
      ],
      ['CreateTokenRequest', createTokenRequestSchema, { label: 'CI', permissions: 'read_write', extra: 1 }],
      ['AddLocaleRequest', addLocaleBodySchema, { locale: 'pt-br' }],
      ['AddLocaleRequest', addLocaleBodySchema, { locale: 'PT-BR' }],
      [
        'UpdateProjectRequest',
        updateProjectRequestSchema,
        { settings: { keyRules: { humanOnly: ['legal.*'], exclude: ['debug.**'] } } },
      ],
    ];
    for (const [name, zodSchema, value] of accepted) {
      expect(zodSchema.safeParse(value).success).toBe(true);
      expect(validateJsonSchema({ $ref: `#/components/schemas/${name}` }, value, document)).toEqual([]);
    }
    expect(
      validateJsonSchema({ $ref: '#/components/schemas/AddLocaleRequest' }, { locale: 'pt_BR' }, document),
    ).not.toEqual([]);
    const tooMany = { settings: { keyRules: { exclude: Array.from({ length: 201 }, (_, i) => `k${i}`) } } };
    expect(updateProjectRequestSchema.safeParse(tooMany).success).toBe(false);
    expect(
      validateJsonSchema({ $ref: '#/components/schemas/UpdateProjectRequest' }, tooMany, document),
    ).not.toEqual([]);
  });

  it('says that near matches are asked for 100 texts at most, and what a lookup of 101 gets', () => {
    const lookup = { $ref: '#/components/schemas/MemoryLookupRequest' };
    const texts = (count: number) => Array.from({ length: count }, (_, i) => `Text ${i}`);
    for (const [body, valid] of [
      [{ texts: texts(100), near: 3 }, true],
      [{ texts: texts(101), near: 1 }, false],
      [{ texts: texts(101), near: 0 }, true],
      [{ texts: texts(5000) }, true],
      [{ texts: texts(5001) }, false],
    ] as const) {
      const what = `${body.texts.length} texts, near ${'near' in body ? body.near : 'absent'}`;
      expect(memoryLookupBodySchema.safeParse(body).success, what).toBe(valid);
      expect(validateJsonSchema(lookup, body, document).length === 0, what).toBe(valid);
    }
    const operation = document.paths['/v1/projects/{projectId}/locales/{locale}/memory']!.post!;
    expect(operation.responses['400']!.description).toContain(
      'near: near matches are looked up for at most 100 texts at a time',
    );
    const answer = document.components.schemas.MemoryLookup as Record<string, any>;
    expect(answer.properties.nearTimedOut).toMatchObject({ const: true });
    expect(answer.properties.nearTimedOut.description).toMatch(/given up/);
    expect(answer.required).toEqual(['matches']);
  });

  it('when an operation words a status every routed operation has (429, 503), then its own words are the document’s', () => {
    const login = document.paths['/v1/auth/login']!.post!;
    expect(login.responses['429']!.description).toMatch(/failed logins for this email/);
    const glossaryImport = document.paths['/v1/projects/{projectId}/glossary']!.put!;
    expect(glossaryImport.responses['503']!.description).toMatch(/waited too long for its turn/);
    expect(Object.keys(glossaryImport.responses['503']!.headers ?? {})).toContain('Retry-After');
    expect(glossaryImport.description).toMatch(/stored only when it is answered 200/);
  });

  it('states that a glossary entry has renderings for 200 locales at most, as the services count them', () => {
    for (const name of ['CreateGlossaryEntryRequest', 'UpdateGlossaryEntryRequest']) {
      const translations = (document.components.schemas[name] as Record<string, any>).properties.translations;
      expect(translations.maxProperties, name).toBe(MAX_GLOSSARY_LOCALES);
    }
  });

  it('describes the key rules of the project settings: three lists of glob patterns, each explained', () => {
    const schema = (name: string) => document.components.schemas[name] as Record<string, any>;
    const rules = schema('Project').properties.settings.properties.keyRules;
    expect(rules.required).toEqual(['humanOnly', 'neverTranslate', 'exclude']);
    expect(rules.description).toMatch(/`\.` separates segments/);
    for (const list of ['humanOnly', 'neverTranslate', 'exclude']) {
      expect(rules.properties[list]).toMatchObject({ type: 'array', items: { type: 'string' } });
      expect(rules.properties[list].description).toEqual(expect.any(String));
    }
    const input = schema('UpdateProjectRequest').properties.settings.properties.keyRules;
    expect(input.description).toMatch(/Each list given replaces that list/);
    expect(input.properties.exclude).toMatchObject({
      type: 'array',
      maxItems: 200,
      items: { type: 'string', minLength: 1, maxLength: 500 },
    });
  });

  it('when an answer breaks the document, then the check the live tests use names what is wrong', () => {
    const error = { $ref: '#/components/schemas/Error' };
    expect(
      validateJsonSchema(error, { error: { code: 'NOT_FOUND', message: 'No such project' } }, document),
    ).toEqual([]);
    expect(
      validateJsonSchema(error, { error: { code: 'NOT_FOUND' }, detail: 'x' }, document).map((i) => i.path),
    ).toEqual(expect.arrayContaining(['$.error.message', '$.detail']));
    const token = {
      tokenId: 'tok_1',
      tokenPrefix: 'tolk_abcde',
      label: 'CI',
      permissions: 'read',
      lastUsedAt: null,
      createdAt: 1_767_225_600_000,
    };
    const apiToken = { $ref: '#/components/schemas/ApiToken' };
    expect(validateJsonSchema(apiToken, token, document)).toEqual([]);
    expect(
      validateJsonSchema(apiToken, { ...token, permissions: 'admin' }, document).map((i) => i.path),
    ).toEqual(['$.permissions']);
    expect(
      validateJsonSchema({ type: 'array', items: apiToken }, [token, { ...token, label: 7 }], document).map(
        (i) => i.path,
      ),
    ).toEqual(['$[1].label']);
  });
});

describe('caseInsensitivePattern', () => {
  it('when a pattern had the i flag, then the rewritten one matches exactly the same strings without it', () => {
    const sources = ['^[a-z]{2,3}(-[A-Z]{2,3})?$', '^ab[^x-z0-9]\\d+$', '^(?:W\\/)?"\\w"$'];
    const inputs = [
      'en',
      'EN',
      'pt-br',
      'pt-BR',
      'PT-br',
      'e',
      'english',
      'pt_BR',
      'abA12',
      'ABz1',
      'AB_3',
      'w/"a"',
      'W/"A"',
    ];
    for (const source of sources) {
      const rewritten = new RegExp(caseInsensitivePattern(source));
      for (const input of inputs) {
        expect(rewritten.test(input), `${source} ${input}`).toBe(new RegExp(source, 'i').test(input));
      }
    }
    expect(() => caseInsensitivePattern('^\\p{L}$')).toThrow(/unsupported escape/);
  });
});

describe('GET /docs', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    gateway = await startGateway({});
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('when asked without a token, then a page that loads its script and style from this origin only', async () => {
    const response = await request(`${gateway.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = response.text;
    expect(html).toMatch(/<html lang="en">/);
    const loaded = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
    expect(loaded).toEqual([
      'data:,',
      '/docs/swagger-ui.css',
      '/v1/openapi.json',
      '/docs/swagger-ui-bundle.js',
      '/docs/init.js',
    ]);
    // Nothing inline that a policy would have to allow.
    expect(html).not.toMatch(/<script>|<style|\bstyle=|\bon[a-z]+=/i);
  });

  it.each(['/docs', '/docs/init.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css'])(
    'serves %s under a policy that runs scripts and styles of this origin only and talks only to it',
    async (path) => {
      const response = await request(`${gateway.url}${path}`);
      expect(response.status).toBe(200);
      const policy = (response.headers.get('content-security-policy') ?? '').split('; ');
      expect(policy).toEqual(
        expect.arrayContaining([
          "default-src 'none'",
          "script-src 'self'",
          "style-src 'self'",
          "connect-src 'self'",
          "frame-ancestors 'none'",
        ]),
      );
      expect(policy.join(' ')).not.toMatch(/unsafe-|https?:|\*/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it("serves the files with their types, the start script pointed at this origin's document", async () => {
    const init = await request(`${gateway.url}/docs/init.js`);
    expect(init.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(init.text).toContain("url: '/v1/openapi.json'");
    expect(init.text).toContain('validatorUrl: null');
    const bundle = await request(`${gateway.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(bundle.text).toContain('SwaggerUIBundle');
    const style = await request(`${gateway.url}/docs/swagger-ui.css`);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await request(`${gateway.url}/docs/swagger-ui.js.map`)).status).toBe(404);
  });
});
