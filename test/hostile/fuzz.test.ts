/**
 * Generated hostile requests against every operation of the published OpenAPI document, through
 * the real gateway in front of every real service: bodies built from the operation's schema and
 * then broken (wrong types, lone surrogates, deep nesting, bytes that are not UTF-8, other
 * charsets and encodings), query strings with repeated, bracketed, unknown and mistyped
 * parameters, hostile path segments, and every kind of token. Every answer must be below 500 and,
 * when an error, exactly the envelope; afterwards every service still answers.
 *
 * fast-check generates the cases from a fixed seed (FUZZ_SEED overrides it, FUZZ_RUNS the count per
 * operation) and shrinks a failure to the smallest request that still fails.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '@tolk/testing';
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../../gateway/src/openapi/openapi-document.js';
import { startSystem, type System } from '../e2e/system.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  default?: unknown;
};
type Parameter = { name: string; in: 'path' | 'query' | 'header'; schema: JsonSchema };

/** Strings that have broken parsers, databases and path routers elsewhere. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  'a\udfffb',
  '\ufeff',
  '%',
  '%ZZ',
  '%00',
  '../..',
  '..%2f..',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
  '{{x}}',
  '{count, plural, other {#}',
  '<script>alert(1)</script>',
  '１２３',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  'true',
  'null',
  '[]',
  '{}',
  'ä'.repeat(300),
  '😀',
  "'; DROP TABLE projects; --",
];

const nastyString = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 20 }),
);

/** Any JSON value, with the strings made nasty. */
const nastyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nastyString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Nested past every depth limit (32 for locale files). */
const deeplyNested = fc.integer({ min: 30, max: 2000 }).map((depth) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { k: value };
  return value;
});

function resolve(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split('/').pop()!;
  return (document.components.schemas as Record<string, JsonSchema>)[name] ?? {};
}

/** Values that match the schema (roughly: lengths and patterns are left to chance). */
function valueOf(schema: JsonSchema, document: OpenApiDocument, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, document);
  if (resolved.enum) return fc.constantFrom(...resolved.enum);
  const choices = resolved.anyOf ?? resolved.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => valueOf(choice, document, depth + 1)));
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  switch (type) {
    case 'string':
      return fc.oneof(
        fc.string({ minLength: resolved.minLength ?? 0, maxLength: Math.min(resolved.maxLength ?? 30, 30) }),
        fc.constantFrom('en', 'de', 'pt-BR', 'openai', 'read', 'read_write', 'member@example.com'),
      );
    case 'integer':
      return fc.integer();
    case 'number':
      return fc.double();
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 4
        ? fc.constant([])
        : fc.array(valueOf(resolved.items ?? {}, document, depth + 1), { maxLength: 3 });
    case 'object':
    case undefined: {
      if (depth > 4) return fc.constant({});
      const properties = Object.entries(resolved.properties ?? {});
      const required = new Set(resolved.required ?? []);
      const known = fc.record(
        Object.fromEntries(
          properties.map(([name, property]) => [name, valueOf(property, document, depth + 1)]),
        ),
        { requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)) },
      );
      const extra =
        typeof resolved.additionalProperties === 'object'
          ? fc.dictionary(
              fc.string({ minLength: 1, maxLength: 12 }),
              valueOf(resolved.additionalProperties, document, depth + 1),
              { maxKeys: 3 },
            )
          : fc.constant({});
      return fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...a }));
    }
    default:
      return nastyJson;
  }
}

/** One of the value's fields (or the value itself) replaced by something nasty. */
function broken(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, nastyJson, fc.nat()).map(([value, nasty, pick]) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return nasty;
    const keys = Object.keys(value);
    if (keys.length === 0) return { [String(pick)]: nasty };
    return { ...value, [keys[pick % keys.length]!]: nasty };
  });
}

type Body = { bytes: Uint8Array; contentType?: string; contentEncoding?: string } | undefined;

const encoder = new TextEncoder();
/** Percent-encodes any string, lone surrogates too (as U+FFFD's bytes), where encodeURIComponent throws. */
const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[\w.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
const utf8 = (text: string) => encoder.encode(text);
const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);
const concat = (...parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));

function bodyOf(schema: JsonSchema | undefined, document: OpenApiDocument): fc.Arbitrary<Body> {
  const valid = schema ? valueOf(schema, document) : fc.constant({});
  const json = (value: unknown) => utf8(JSON.stringify(value) ?? 'null');
  const asJson = (bytes: Uint8Array): Body => ({ bytes, contentType: 'application/json' });
  return fc.oneof(
    valid.map((value) => asJson(json(value))),
    broken(valid).map((value) => asJson(json(value))),
    nastyJson.map((value) => asJson(json(value))),
    deeplyNested.map((value) => asJson(json(value))),
    fc.constant(undefined),
    fc.constant(asJson(new Uint8Array())),
    // A lone surrogate written as JSON's own escape (JSON.stringify would not produce one).
    fc.constant(
      asJson(utf8('{"name":"\\ud800","sourceLocale":"en","label":"\\udc00","email":"\\ud800@x.io"}')),
    ),
    valid.map((value) => asJson(concat(BOM, json(value)))),
    valid.map((value) => asJson(json(value).slice(0, -1))),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => asJson(bytes)),
    valid.map((value) =>
      asJson(concat(json(value).slice(0, 1), Uint8Array.of(0xc3, 0x28, 0xff), json(value).slice(1))),
    ),
    fc
      .tuple(valid, fc.constantFrom('utf-16le', 'utf-16be', 'latin1', 'iso-8859-1', 'x-unknown', 'UTF-8'))
      .map(([value, charset]) => ({
        bytes: charset.startsWith('utf-16')
          ? Buffer.from(JSON.stringify(value) ?? '', 'utf16le')
          : json(value),
        contentType: `application/json; charset=${charset}`,
      })),
    fc
      .tuple(valid, fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip'))
      .map(([value, encoding]) => ({
        bytes: encoding === 'gzip' ? gzipSync(json(value)) : utf8('this is not compressed'),
        contentType: 'application/json',
        contentEncoding: encoding,
      })),
    fc
      .tuple(valid, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', ''))
      .map(([value, contentType]) => ({ bytes: json(value), contentType })),
  );
}

/**
 * A query string with the declared parameters and others, in every syntax a client might use;
 * `refused` when it holds what no route takes (an undeclared name, brackets, a repeat).
 */
function queryOf(
  parameters: Parameter[],
  document: OpenApiDocument,
): fc.Arbitrary<{ text: string; refused: boolean }> {
  const declared = parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => parameter.name);
  const names = fc.oneof(fc.constantFrom(...declared, 'x'), nastyString);
  const values = fc.oneof(
    ...parameters
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => valueOf(parameter.schema, document).map(String)),
    nastyString,
  );
  const pair = fc.tuple(names, values, fc.constantFrom('plain', 'array', 'index', 'nested', 'bare'));
  return fc.oneof(
    fc.constant({ text: '', refused: false }),
    fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => {
      const text = pairs.map(([name, value, style]) => {
        const key = percentEncode(name);
        const val = percentEncode(value);
        if (style === 'array') return `${key}[]=${val}`;
        if (style === 'index') return `${key}[0]=${val}`;
        if (style === 'nested') return `${key}[x][y]=${val}`;
        if (style === 'bare') return key;
        return `${key}=${val}`;
      });
      const named = pairs.map(([name]) => name);
      const refused =
        pairs.some(
          ([name, , style]) =>
            name !== '' && (!declared.includes(name) || !['plain', 'bare'].includes(style)),
        ) || new Set(named).size < named.length;
      return { text: `?${text.join('&')}`, refused };
    }),
    fc.constantFrom('?', '?&&', '?=', '?%', '?a=%ZZ', `?${'a=1&'.repeat(2000)}`).map((text) => ({
      text,
      refused: text.includes('a='),
    })),
  );
}

type Fixture = {
  userToken: string;
  projectToken: string;
  values: Record<string, string>;
};

describe('every route against generated hostile requests', () => {
  let system: System;
  const document = buildOpenApiDocument();

  beforeAll(async () => {
    system = await startSystem({
      sources: true,
      tokens: true,
      byok: true,
      gatewayEnv: {
        RATE_LIMIT_PER_USER: '1000000',
        RATE_LIMIT_PER_IP: '1000000',
        RATE_LIMIT_AUTH_PER_IP: '1000000',
        RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: '1000000',
      },
    });
    const live = await request(`${system.base}/v1/openapi.json`);
    expect(live.body.paths).toStrictEqual(document.paths);
  });
  afterAll(async () => {
    await system?.close();
  });

  /** A user of their own with a project, a locale, a source, a project token and a provider key. */
  async function fixture(): Promise<Fixture> {
    const { token, userId } = await system.signUp();
    const project = await system.call('POST', '/v1/projects', token, { name: 'Fuzzed', sourceLocale: 'en' });
    expect(project.status).toBe(201);
    const projectId = project.body.projectId as string;
    expect(
      (await system.call('POST', `/v1/projects/${projectId}/locales`, token, { locale: 'de' })).status,
    ).toBe(201);
    const source = { greeting: 'Hello {name}', '@greeting': { description: 'On the home page' } };
    expect((await system.call('PUT', `/v1/projects/${projectId}/source`, token, source)).status).toBe(200);
    const created = await system.call('POST', `/v1/projects/${projectId}/tokens`, token, {
      label: 'fuzz',
      permissions: 'read_write',
    });
    expect(created.status).toBe(201);
    expect(
      (await system.call('PUT', '/v1/user/byok/openai', token, { apiKey: 'sk-fuzz-0123456789' })).status,
    ).toBe(200);
    return {
      userToken: token,
      projectToken: created.body.token as string,
      values: {
        projectId,
        userId,
        tokenId: created.body.tokenId as string,
        locale: 'de',
        version: '1',
        provider: 'openai',
      },
    };
  }

  const operations = Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods as Record<string, OpenApiOperation>).map(([method, operation]) => ({
      template,
      method: method.toUpperCase(),
      operation,
    })),
  );

  it.each(operations)(
    '$method $template: no 5xx, always the envelope',
    async ({ template, method, operation }) => {
      const own = await fixture();
      const parameters = (operation.parameters ?? []) as Parameter[];
      const pathValue = (name: string) =>
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(own.values[name] ?? 'x') },
          { weight: 1, arbitrary: nastyString },
        );
      const pathNames = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      const requestBody = (
        operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined
      )?.content?.['application/json']?.schema;

      const requestArbitrary = fc.record({
        path: fc.tuple(...pathNames.map(pathValue)).map((values) => {
          let path = template;
          pathNames.forEach((name, i) => {
            path = path.replace(`{${name}}`, percentEncode(values[i]!));
          });
          return path;
        }),
        query: queryOf(parameters, document),
        // fetch sends no body with GET; DELETE may carry one a client should not send.
        body:
          method === 'GET'
            ? fc.constant(undefined)
            : method === 'DELETE'
              ? fc.option(bodyOf(undefined, document))
              : bodyOf(requestBody, document),
        token: fc.constantFrom('user', 'user', 'user', 'project', 'none', 'garbage-jwt', 'garbage-tolk'),
        ifMatch: fc.option(fc.oneof(fc.constantFrom('"1"', '*', 'W/"1"', '"0", "1"'), nastyString)),
      });

      await fc.assert(
        fc.asyncProperty(requestArbitrary, async (generated) => {
          const headers: Record<string, string> = {};
          const token = {
            user: own.userToken,
            project: own.projectToken,
            none: undefined,
            'garbage-jwt': 'eyJhbGciOiJFUzI1NiJ9.e30.AAAA',
            'garbage-tolk': 'tolk_0000000000000000000000000000000000000000',
          }[generated.token];
          if (token) headers['authorization'] = `Bearer ${token}`;
          const body = generated.body ?? undefined;
          if (body?.contentType) headers['content-type'] = body.contentType;
          if (body?.contentEncoding) headers['content-encoding'] = body.contentEncoding;
          if (generated.ifMatch !== null && /^[\t\x20-\x7e]*$/.test(generated.ifMatch)) {
            headers['if-match'] = generated.ifMatch;
          }
          const url = `${system.base}${generated.path}${generated.query.text}`;
          const response = await fetch(url, {
            method,
            headers,
            body: body?.bytes ? Buffer.from(body.bytes) : undefined,
          });
          const text = await response.text();
          const { authorization: _token, ...shown } = headers;
          const sent = body
            ? ` (${JSON.stringify(shown)} ${Buffer.from(body.bytes).toString('utf8').slice(0, 120)})`
            : '';
          const where = `${method} ${generated.path}${generated.query.text.slice(0, 200)}${sent} answered ${response.status}: ${text.slice(0, 300)}`;
          expect(response.status, where).toBeLessThan(500);
          // A query no route takes is never acted on (a dry run that commits is the worst kind of bug).
          if (generated.query.refused) expect(response.status, where).toBeGreaterThanOrEqual(400);
          if (response.status >= 400) {
            expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
            expect(JSON.parse(text), where).toStrictEqual({
              error: { code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) },
            });
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: false },
      );

      // Nothing it sent took a service down.
      const ready = await request(`${system.base}/readyz`);
      expect(ready.status, ready.text).toBe(200);
      expect(ready.body.status, ready.text).toBe('ready');
    },
  );
});
