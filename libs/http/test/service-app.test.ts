import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { Router, type RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INTERNAL_CALLER_HEADER, PRINCIPAL_HEADER } from '@tolk/contracts';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  InvalidJsonError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionFailedError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
  parseInput,
} from '@tolk/errors';
import {
  createInternalCallerSigner,
  createPrincipalSigner,
  createServiceApp,
  parseJsonText,
  requireUser,
  route,
} from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { listen, request } from '@tolk/testing';

const SECRET = 's'.repeat(40);

/** Errors as node-postgres raises them: SQLSTATEs from the server, socket codes, its own messages. */
const DATABASE_FAILURES: Record<string, Error> = {
  adminShutdown: Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
  }),
  crashShutdown: Object.assign(
    new Error('terminating connection because of crash of another server process'),
    { code: '57P02' },
  ),
  startingUp: Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
  connectionException: Object.assign(new Error('connection exception'), { code: '08000' }),
  connectionDoesNotExist: Object.assign(new Error('connection does not exist'), { code: '08003' }),
  connectionFailure: Object.assign(new Error('connection failure'), { code: '08006' }),
  tooManyConnections: Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
  refused: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  reset: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  terminated: new Error('Connection terminated unexpectedly'),
  poolTimeout: new Error('timeout exceeded when trying to connect'),
  connectTimeout: new Error('Connection terminated due to connection timeout'),
  notQueryable: new Error('Client has encountered a connection error and is not queryable'),
  // Not outages: a bug or a statement the server refused stays a 500.
  uniqueViolation: Object.assign(new Error('duplicate key value violates unique constraint'), {
    code: '23505',
  }),
  queryCanceled: Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
  syntax: Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }),
};

/** What the domain throws, each with the status DESIGN §3 gives its code. */
const REFUSALS: Record<string, [AppError, number]> = {
  validation: [new ValidationError('body.name: is required'), 400],
  invalidJson: [new InvalidJsonError(), 400],
  authorizationPending: [new AppError('AUTHORIZATION_PENDING', 'The login has not been approved yet'), 400],
  unauthorized: [new UnauthorizedError(), 401],
  forbidden: [new ForbiddenError('This project API token may only read'), 403],
  notFound: [new NotFoundError('Project not found'), 404],
  conflict: [new ConflictError('Locale de already exists'), 409],
  preconditionFailed: [new PreconditionFailedError('The source is at version 4, not 3'), 412],
  payloadTooLarge: [new PayloadTooLargeError('More than 200000 keys'), 413],
  rateLimited: [new RateLimitedError(7), 429],
};

describe('createServiceApp', () => {
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const router = Router();
    route(router, '/v1/things', {
      post: (req, res) => {
        const body = parseInput(z.object({ name: z.string().min(1) }), req.body);
        res.status(201).json(body);
      },
    });
    // What the frame made of a body: its value (or that there was none) and its kept text.
    route(router, '/v1/echo', {
      post: (req, res) => {
        res.json({
          body: req.body === undefined ? 'no body' : req.body,
          rawBody: req.rawBody?.toString('utf8') ?? null,
        });
      },
    });
    route(router, '/v1/things/:thingId', { get: (req, res) => res.json({ thingId: req.params['thingId'] }) });
    route(router, '/v1/mine', { get: (req, res) => res.json(requireUser(req)) });
    route(router, '/internal/whoami', { get: (req, res) => res.json({ caller: req.internalCaller }) });
    route(router, '/v1/database-failure/:kind', {
      get: (req) => {
        throw DATABASE_FAILURES[String(req.params['kind'])];
      },
    });
    route(router, '/v1/refusal/:kind', {
      get: (req) => {
        throw REFUSALS[String(req.params['kind'])]![0];
      },
    });
    route(router, '/v1/boom', {
      get: () => {
        throw new Error('database password is hunter2');
      },
    });
    const app = createServiceApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      router,
      internalSecret: SECRET,
      bodyLimitBytes: 1024,
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  function expectEnvelope(body: unknown, code: string) {
    expect(body).toEqual({ error: { code, message: expect.any(String) } });
  }

  it('when the database is restarting or unreachable, then 503 SERVICE_UNAVAILABLE with Retry-After; other database errors stay 500', async () => {
    for (const kind of Object.keys(DATABASE_FAILURES)) {
      const response = await request(`${server.url}/v1/database-failure/${kind}`);
      const outage = !['uniqueViolation', 'queryCanceled', 'syntax'].includes(kind);
      expect({
        kind,
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
      }).toStrictEqual({
        kind,
        status: outage ? 503 : 500,
        retryAfter: outage ? '2' : null,
      });
      expectEnvelope(response.body, outage ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR');
      expect(JSON.stringify(response.body), kind).not.toContain('127.0.0.1');
    }
  });

  it("when a handler throws an error of @tolk/errors, then the answer is its code's status, exactly {error:{code,message}}, and Retry-After for a rate limit", async () => {
    for (const [kind, [error, status]] of Object.entries(REFUSALS)) {
      const response = await request(`${server.url}/v1/refusal/${kind}`);
      expect({
        kind,
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: response.body,
      }).toStrictEqual({
        kind,
        status,
        retryAfter: kind === 'rateLimited' ? '7' : null,
        body: { error: { code: error.code, message: error.message } },
      });
    }
  });

  it('when malformed JSON carries a secret, then the message quotes none of it', async () => {
    const response = await request(`${server.url}/v1/things`, {
      method: 'POST',
      rawBody: '{"apiKey": sk-live-ABCDEFGHIJKLMNOP}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^Request body is not valid JSON( \(at character \d+\))?$/);
    expect(JSON.stringify(response.body)).not.toContain('sk-live');
  });

  it.each([
    [
      'malformed JSON',
      { rawBody: '{"name":', headers: { 'content-type': 'application/json' } },
      400,
      'INVALID_JSON',
    ],
    ['a wrong type', { body: { name: 42 } }, 400, 'VALIDATION_ERROR'],
    ['an array body', { body: [1, 2] }, 400, 'VALIDATION_ERROR'],
    ['a string body', { body: 'name' }, 400, 'VALIDATION_ERROR'],
    [
      'a text/plain body',
      { rawBody: 'name', headers: { 'content-type': 'text/plain' } },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['a body over the limit', { body: { name: 'x'.repeat(2000) } }, 413, 'PAYLOAD_TOO_LARGE'],
  ] as const)('when sent %s, then the envelope and status say so', async (_name, init, status, code) => {
    const response = await request(`${server.url}/v1/things`, { method: 'POST', ...init });
    expect(response.status).toBe(status);
    expectEnvelope(response.body, code);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it.each([
    ['UTF-8 without a charset', 'application/json', Buffer.from('{"name":"Prix €"}', 'utf8')],
    [
      'UTF-8 with a byte order mark',
      'application/json; charset=UTF-8',
      Buffer.from('\ufeff{"name":"Prix €"}'),
    ],
    ['UTF-8 named utf8', 'application/json; charset=utf8', Buffer.from('{"name":"Prix €"}')],
  ])('when a JSON body is sent in %s, then it is parsed', async (_name, contentType, bytes) => {
    const response = await fetch(`${server.url}/v1/things`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: bytes,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ name: 'Prix €' });
  });

  describe('decoding a JSON body (one rule with the gateway)', () => {
    const post = (path: string, bytes: Buffer | string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: bytes,
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { error: { code: string; message: string } } & Record<
          string,
          unknown
        >,
      }));

    it.each([
      ['utf-16le', Buffer.from('{"name":"Prix €"}', 'utf16le')],
      ['UTF-16BE', Buffer.from('\ufeff{"name":"x"}', 'utf16le').swap16()],
      ['utf-16', Buffer.from('\ufeff{"name":"x"}', 'utf16le')],
      ['latin1', Buffer.from('{"name":"caf\u00e9"}', 'latin1')],
      ['iso-8859-1', Buffer.from('{"name":"x"}', 'latin1')],
      ['us-ascii', Buffer.from('{"name":"x"}')],
      ['windows-1252', Buffer.from('{"name":"x"}')],
    ])('when the charset is %s, then 415 naming it', async (charset, bytes) => {
      const response = await post('/v1/things', bytes, {
        'content-type': `application/json; charset=${charset}`,
      });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: `Request body must be UTF-8 JSON; charset "${charset}" is not supported`,
        },
      });
    });

    it('when UTF-16 comes without a charset, then 400 naming the first byte that is not UTF-8', async () => {
      const response = await post('/v1/things', Buffer.from('\ufeff{"name":"x"}', 'utf16le'));
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'INVALID_JSON',
        message: 'Request body is not valid UTF-8 (at byte offset 0); JSON bodies must be UTF-8',
      });
    });

    it('when a body holds bytes that are not UTF-8, then 400 naming the offset, never U+FFFD', async () => {
      // `{"name":"ab` then 0xC3 0x28 (a lead byte without its continuation).
      const bytes = Buffer.concat([Buffer.from('{"name":"ab'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
      const response = await post('/v1/echo', bytes);
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'INVALID_JSON',
        message: 'Request body is not valid UTF-8 (at byte offset 11); JSON bodies must be UTF-8',
      });
    });

    it('when a body starts with a byte order mark, then it is dropped from the value and the kept text', async () => {
      const response = await post('/v1/echo', Buffer.from('\ufeff{"name":"é"}'));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ body: { name: 'é' }, rawBody: '{"name":"é"}' });
    });

    it.each([
      ['no bytes', ''],
      ['only a byte order mark', '\ufeff'],
    ])(
      'when the body is %s, then a route that needs one answers 400 "a JSON body is required"',
      async (_case, bytes) => {
        const echoed = await post('/v1/echo', bytes);
        expect(echoed.body).toEqual({ body: 'no body', rawBody: null });
        const response = await post('/v1/things', bytes);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: { code: 'VALIDATION_ERROR', message: 'body: a JSON body is required' },
        });
      },
    );

    it.each([
      [
        'a value',
        '{"name":"a\\ud800b"}',
        'body.name: must be well-formed Unicode, not a lone surrogate (\\ud800)',
      ],
      [
        'a nested value',
        '{"settings":{"list":["ok","\\uDC00"]}}',
        'body.settings.list.1: must be well-formed Unicode, not a lone surrogate (\\udc00)',
      ],
      [
        'a key',
        '{"ok":"\\ud83d\\ude00","k\\ud800":"v"}',
        'body.k\\ud800: a key must be well-formed Unicode, not a lone surrogate (\\ud800)',
      ],
      [
        'a pair in the wrong order',
        '{"name":"\\ude00\\ud83d"}',
        'body.name: must be well-formed Unicode, not a lone surrogate (\\ude00)',
      ],
    ])(
      'when %s holds a lone surrogate, then 400 VALIDATION_ERROR naming its path',
      async (_case, text, message) => {
        const response = await post('/v1/echo', text);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: { code: 'VALIDATION_ERROR', message } });
      },
    );

    it('when a surrogate pair is escaped, then it is one character', async () => {
      const response = await post('/v1/echo', '{"name":"\\ud83d\\ude00 \\\\ud800"}');
      expect(response.body).toEqual({
        body: { name: '😀 \\ud800' },
        rawBody: '{"name":"\\ud83d\\ude00 \\\\ud800"}',
      });
    });

    it.each([
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const)(
      'when the body is compressed with %s, then it is decompressed',
      async (encoding, compress) => {
        const response = await post('/v1/echo', compress(Buffer.from('{"name":"Prix €"}')), {
          'content-encoding': encoding,
        });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ body: { name: 'Prix €' }, rawBody: '{"name":"Prix €"}' });
      },
    );

    it.each([
      [
        'gzip',
        Buffer.from('{"name":"not compressed"}'),
        'Request body does not decompress as gzip (incorrect header check)',
      ],
      [
        'gzip',
        gzipSync(Buffer.from('{"name":"cut short"}')).subarray(0, 12),
        'Request body does not decompress as gzip (unexpected end of file)',
      ],
      [
        'deflate',
        Buffer.from('{"name":"x"}'),
        'Request body does not decompress as deflate (incorrect header check)',
      ],
      [
        'br',
        Buffer.from('{"name":"x"}'),
        expect.stringMatching(/^Request body does not decompress as br \(.+\)$/),
      ],
    ])(
      'when a %s body does not decompress, then 400 INVALID_JSON, not 500',
      async (encoding, bytes, message) => {
        const response = await post('/v1/echo', bytes, { 'content-encoding': encoding });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: { code: 'INVALID_JSON', message } });
      },
    );

    it.each(['compress', 'zstd', 'gzip, br', 'x-unknown'])(
      'when the Content-Encoding is %s, then 415 naming it',
      async (encoding) => {
        const response = await post('/v1/echo', '{"name":"x"}', { 'content-encoding': encoding });
        expect(response.status).toBe(415);
        expect(response.body.error).toEqual({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: `Content-Encoding "${encoding}" is not supported; send the body uncompressed or as one of gzip, deflate, br`,
        });
      },
    );

    it('when a small compressed body decompresses past the limit, then 413', async () => {
      // Under the limit (1024 bytes) on the wire, 200 times past it once inflated.
      const bomb = gzipSync(Buffer.from(`{"name":"x"${' '.repeat(200 * 1024)}}`));
      expect(bomb.length).toBeLessThan(1024);
      const response = await post('/v1/echo', bomb, { 'content-encoding': 'gzip' });
      expect(response.status).toBe(413);
      expect(response.body.error).toEqual({
        code: 'PAYLOAD_TOO_LARGE',
        message: 'Request body exceeds the limit of 1024 bytes once decompressed',
      });
    });

    it.each(['text/json', 'application/jsonx', ';charset=utf-8'])(
      'when the Content-Type is %s, then 415',
      async (contentType) => {
        const response = await post('/v1/echo', '{"name":"x"}', { 'content-type': contentType });
        expect(response.status).toBe(415);
        expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      },
    );
  });

  it('when a field is invalid, then the message names it', async () => {
    const response = await request(`${server.url}/v1/things`, { method: 'POST', body: { name: '' } });
    expect(response.body.error.message).toMatch(/^body\.name: /);
  });

  it('when the method is not served, then 405 with Allow', async () => {
    const response = await request(`${server.url}/v1/things`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expectEnvelope(response.body, 'METHOD_NOT_ALLOWED');
  });

  it('when the route is unknown, then 404 NOT_FOUND', async () => {
    const response = await request(`${server.url}/v1/nothing`);
    expect(response.status).toBe(404);
    expectEnvelope(response.body, 'NOT_FOUND');
  });

  it('when a path parameter is malformed percent-encoding, then 400 VALIDATION_ERROR, not a 500', async () => {
    const response = await request(`${server.url}/v1/things/%E0%A4%A`);
    expect(response.status).toBe(400);
    expectEnvelope(response.body, 'VALIDATION_ERROR');
    const fine = await request(`${server.url}/v1/things/caf%C3%A9`);
    expect(fine.body).toEqual({ thingId: 'café' });
  });

  it('when a handler fails, then 500 INTERNAL_ERROR without internals', async () => {
    const response = await request(`${server.url}/v1/boom`);
    expect(response.status).toBe(500);
    expectEnvelope(response.body, 'INTERNAL_ERROR');
    expect(response.text).not.toContain('hunter2');
  });

  it('when the principal token is signed with the shared secret, then the user is known', async () => {
    const token = await createPrincipalSigner(SECRET)({ kind: 'user', userId: 'usr_1' });
    const response = await request(`${server.url}/v1/mine`, { headers: { [PRINCIPAL_HEADER]: token } });
    expect(response.body).toEqual({ userId: 'usr_1' });
  });

  it('when the principal token is forged or a plain header, then 401', async () => {
    const forged = await createPrincipalSigner('f'.repeat(40))({ kind: 'user', userId: 'usr_1' });
    for (const value of [forged, 'usr_1', '{"kind":"user","userId":"usr_1"}']) {
      const response = await request(`${server.url}/v1/mine`, { headers: { [PRINCIPAL_HEADER]: value } });
      expect(response.status).toBe(401);
      expectEnvelope(response.body, 'UNAUTHORIZED');
    }
  });

  it('when a principal or caller token carries no exp, then 401 (with an exp it passes)', async () => {
    const sign = (claims: object, exp: number | undefined) =>
      jwt.sign(exp === undefined ? claims : { ...claims, exp }, SECRET, { algorithm: 'HS256' });
    const principal = { p: { kind: 'user', userId: 'usr_1' }, iss: 'tolk-gateway', aud: 'tolk-internal' };
    const caller = { svc: 'gateway', iss: 'gateway', aud: 'tolk-internal' };
    const exp = Math.floor(Date.now() / 1000) + 60;
    const status = async (path: string, header: string, token: string) =>
      (await request(`${server.url}${path}`, { headers: { [header]: token } })).status;

    expect(await status('/v1/mine', PRINCIPAL_HEADER, sign(principal, exp))).toBe(200);
    expect(await status('/v1/mine', PRINCIPAL_HEADER, sign(principal, undefined))).toBe(401);
    expect(await status('/internal/whoami', INTERNAL_CALLER_HEADER, sign(caller, exp))).toBe(200);
    expect(await status('/internal/whoami', INTERNAL_CALLER_HEADER, sign(caller, undefined))).toBe(401);
  });

  it('when the caller is a project token, then a user route answers 403', async () => {
    const token = await createPrincipalSigner(SECRET)({
      kind: 'project_token',
      tokenId: 'tok_1',
      projectId: 'prj_1',
      permissions: 'read',
    });
    const response = await request(`${server.url}/v1/mine`, { headers: { [PRINCIPAL_HEADER]: token } });
    expect(response.status).toBe(403);
  });

  describe('/internal routes', () => {
    it('when the caller token is signed with the shared secret, then the route answers with the caller', async () => {
      const token = await createInternalCallerSigner(SECRET, 'gateway')();
      const response = await request(`${server.url}/internal/whoami`, {
        headers: { [INTERNAL_CALLER_HEADER]: token },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ caller: 'gateway' });
    });

    it('when there is no caller token, then 401, also on unknown internal paths', async () => {
      for (const path of ['/internal/whoami', '/internal/nothing-here', '/INTERNAL/whoami']) {
        const response = await request(`${server.url}${path}`);
        expect(response.status).toBe(401);
        expectEnvelope(response.body, 'UNAUTHORIZED');
      }
    });

    it('when the caller token is forged, malformed or a user principal token, then 401', async () => {
      const forged = await createInternalCallerSigner('f'.repeat(40), 'gateway')();
      const principal = await createPrincipalSigner(SECRET)({ kind: 'user', userId: 'usr_1' });
      const cases: Record<string, string>[] = [
        { [INTERNAL_CALLER_HEADER]: forged },
        { [INTERNAL_CALLER_HEADER]: 'gateway' },
        { [INTERNAL_CALLER_HEADER]: principal },
        { [PRINCIPAL_HEADER]: principal },
      ];
      for (const headers of cases) {
        const response = await request(`${server.url}/internal/whoami`, { headers });
        expect(response.status).toBe(401);
        expectEnvelope(response.body, 'UNAUTHORIZED');
      }
    });

    it('when a caller token is sent as the principal, then it is no user', async () => {
      const token = await createInternalCallerSigner(SECRET, 'gateway')();
      const response = await request(`${server.url}/v1/mine`, { headers: { [PRINCIPAL_HEADER]: token } });
      expect(response.status).toBe(401);
    });
  });
});

describe('createServiceApp with a body limit and parsing per request', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    const router = Router();
    const echo: RequestHandler = (req, res) => {
      res.json({
        body: req.body === undefined ? 'no body' : req.body,
        parsedHere: req.rawBody === undefined ? null : parseJsonText(req.rawBody),
      });
    };
    route(router, '/v1/things', { put: echo, post: echo });
    const app = createServiceApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      router,
      internalSecret: SECRET,
      bodyLimitBytes: (req) => (req.method === 'PUT' ? 4096 : 1024),
      parseLater: (req) => req.method === 'PUT',
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  const send = (method: string, text: string) =>
    request(`${server.url}/v1/things`, {
      method,
      rawBody: text,
      headers: { 'content-type': 'application/json' },
    });

  it('when the limit depends on the request, then each request is held to its own', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(2000) });
    const post = await send('POST', body);
    expect(post.status).toBe(413);
    expect(post.body.error.message).toBe('Request body exceeds the limit of 1024 bytes');
    const put = await send('PUT', body);
    expect(put.status).toBe(200);
    expect(put.body.parsedHere).toEqual({ text: 'x'.repeat(2000) });
  });

  it('when a request is parsed later, then the frame leaves req.body undefined and the route reads the text by the same rule', async () => {
    expect((await send('POST', '{"a":1}')).body).toEqual({ body: { a: 1 }, parsedHere: { a: 1 } });
    expect((await send('PUT', '\ufeff{"a":1}')).body).toEqual({ body: 'no body', parsedHere: { a: 1 } });
    const malformed = await send('PUT', '{"a":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_JSON');
    const lone = await send('PUT', '{"a":"\\ud800"}');
    expect(lone.status).toBe(400);
    expect(lone.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('createServiceApp with a body of megabytes', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  /** setImmediate turns taken since the body was read (onJsonBody), until the route had its value. */
  let turns = 0;
  let counting = false;

  beforeAll(async () => {
    const router = Router();
    route(router, '/v1/things', {
      put: (req, res) => {
        counting = false;
        const body = req.body as Record<string, unknown>;
        res.json({
          turns,
          keys: Object.keys(body).length,
          same: JSON.stringify(body) === req.rawBody?.toString(),
        });
      },
    });
    const app = createServiceApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      router,
      internalSecret: SECRET,
      bodyLimitBytes: 16 * 1024 * 1024,
      onJsonBody: () => {
        turns = 0;
        counting = true;
        const count = () => {
          if (!counting) return;
          turns++;
          setImmediate(count);
        };
        setImmediate(count);
      },
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  /** `sections` of 200 keys and `flat` keys more, some texts beyond ASCII: 50 bytes a key. */
  function largeDocument(sections: number, flat: number): Record<string, unknown> {
    const document: Record<string, unknown> = {};
    for (let s = 0; s < sections; s++) {
      document[`section${s}`] = Object.fromEntries(
        Array.from({ length: 200 }, (_, k) => [`key${k}`, `Text ${s}.${k} für {name} ${'.'.repeat(20)}`]),
      );
    }
    for (let k = 0; k < flat; k++) document[`flat.key${k}`] = `Text ${k} for {name} ${'.'.repeat(20)}`;
    return document;
  }

  const put = (text: string) =>
    request(`${server.url}/v1/things`, {
      method: 'PUT',
      rawBody: text,
      headers: { 'content-type': 'application/json' },
    });

  it('when a body of 100,000 keys is parsed, then the event loop serves others meanwhile and the value is JSON.parse’s', async () => {
    const response = await put(JSON.stringify(largeDocument(250, 50_000)));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ keys: 50_250, same: true });
    // One JSON.parse of it holds the loop for 50 ms or more: no turn at all.
    expect(response.body.turns).toBeGreaterThan(5);
  });

  it('when a large body is not JSON or escapes a lone surrogate, then it is refused as a small body is', async () => {
    // Past the size parsed whole (256 KiB).
    const text = JSON.stringify(largeDocument(20, 4000));
    const broken = `${text.slice(0, -200)},}`;
    const refused = await put(broken);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_JSON');
    expect(refused.body.error.message).toMatch(/^Request body is not valid JSON/);
    const lone = await put(`${text.slice(0, -1)},"lone":"\\ud800"}`);
    expect(lone.status).toBe(400);
    expect(lone.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('lone'),
    });
  });
});
