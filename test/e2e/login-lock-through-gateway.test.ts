/**
 * The per-email login lock as an attacker meets it: the real gateway in front of the real
 * identity-service. The gateway counts failed logins under the email it reads from the body, and
 * identity-service logs in the email it reads from the same bytes; whatever way the body or the
 * address is written, both must read the same email (libs/http decodeJsonBody, libs/contracts
 * normalizeEmail) or the gateway must refuse the body. So once an email is locked, the right
 * password never gets in.
 */
import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from './system.js';

const PASSWORD = 'correct horse battery';
const FAILURES_ALLOWED = 3;

describe('the per-email login lock through the gateway', () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem({
      gatewayEnv: {
        RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: String(FAILURES_ALLOWED),
        // Every attempt of this file comes from one address: only the per-email lock is under test.
        RATE_LIMIT_AUTH_PER_IP: '10000',
      },
    });
  });
  afterAll(async () => {
    await system?.close();
  });

  async function send(path: string, bytes: Buffer | string, headers: Record<string, string>) {
    const response = await fetch(`${system.base}${path}`, { method: 'POST', headers, body: bytes });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const asJson = { 'content-type': 'application/json' };

  /** A user whose email has had its failed logins; the right password is then refused. */
  async function lockedUser(local = `victim-${randomUUID()}`) {
    const email = `${local}@example.com`;
    expect(
      (await system.call('POST', '/v1/auth/signup', undefined, { email, password: PASSWORD })).status,
    ).toBe(201);
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
      const failed = await send('/v1/auth/login', json({ email, password: 'wrong password' }), asJson);
      expect(failed.status).toBe(401);
    }
    const locked = await send('/v1/auth/login', json({ email, password: PASSWORD }), asJson);
    expect(locked.status).toBe(429);
    return email;
  }

  it('when the right password comes after the lock, then 429 however the address is written', async () => {
    const email = await lockedUser();
    const [local] = email.split('@') as [string];
    const variants = [
      email.toUpperCase(),
      `  ${email}  `,
      `\u00a0${email}\t\n`,
      `${local[0]!.toUpperCase()}${local.slice(1)}@EXAMPLE.com`,
    ];
    for (const variant of variants) {
      const response = await send('/v1/auth/login', json({ email: variant, password: PASSWORD }), asJson);
      expect({ variant, status: response.status }).toEqual({ variant, status: 429 });
    }
  });

  // The Kelvin sign (U+212A) is canonically K: NFC makes it K, lower case k.
  it('when an address written with a Kelvin sign is locked, then its plain spelling is locked too', async () => {
    const local = `kate-${randomUUID()}`;
    const email = `${local}@example.com`;
    expect(
      (await system.call('POST', '/v1/auth/signup', undefined, { email, password: PASSWORD })).status,
    ).toBe(201);
    for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
      const failed = await send(
        '/v1/auth/login',
        json({ email: `\u212a${email.slice(1)}`, password: 'wrong' }),
        asJson,
      );
      expect(failed.status).toBe(401);
    }
    expect((await send('/v1/auth/login', json({ email, password: PASSWORD }), asJson)).status).toBe(429);
  });

  it('when a non-ASCII address is locked in NFC, then its NFD spelling is locked too, and the other way round', async () => {
    // Sign-up takes ASCII addresses only (z.email), so these have no account: the gateway's count
    // is what is under test, and it must not tell the two spellings apart.
    for (const [lockedAs, triedAs] of [
      ['NFC', 'NFD'],
      ['NFD', 'NFC'],
    ] as const) {
      const address = `zoë-${randomUUID()}@bücher.example`;
      for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
        const failed = await send(
          '/v1/auth/login',
          json({ email: address.normalize(lockedAs), password: 'wrong' }),
          asJson,
        );
        expect(failed.status).toBe(401);
      }
      const tried = await send(
        '/v1/auth/login',
        json({ email: address.normalize(triedAs), password: PASSWORD }),
        asJson,
      );
      expect(tried.status).toBe(429);
    }
  });

  it('when the body is written another way that still decodes to the same email, then 429', async () => {
    const email = await lockedUser();
    const text = JSON.stringify({ email, password: PASSWORD });
    const bodies: Array<[string, Buffer | string, Record<string, string>]> = [
      ['a byte order mark', `\ufeff${text}`, asJson],
      ['charset=utf-8', text, { 'content-type': 'application/json; charset=UTF-8' }],
      ['a +json type', text, { 'content-type': 'application/vnd.tolk+json' }],
      ['escaped letters', text.replace(`"${email[0]}`, `"\\u00${email.charCodeAt(0).toString(16)}`), asJson],
      ['the email twice (the last counts)', `{"email":"other@example.com",${text.slice(1)}`, asJson],
      ['gzip', gzipSync(text), { ...asJson, 'content-encoding': 'gzip' }],
      ['deflate', deflateSync(text), { ...asJson, 'content-encoding': 'deflate' }],
      ['br', brotliCompressSync(text), { ...asJson, 'content-encoding': 'br' }],
      ['a BOM inside gzip', gzipSync(`\ufeff${text}`), { ...asJson, 'content-encoding': 'GZIP' }],
    ];
    for (const [name, bytes, headers] of bodies) {
      const response = await send('/v1/auth/login', bytes, headers);
      expect({ name, status: response.status }).toEqual({ name, status: 429 });
    }
  });

  it('when the body is in a charset or encoding not both sides read alike, then it is refused and never logs in', async () => {
    const email = await lockedUser();
    const text = JSON.stringify({ email, password: PASSWORD });
    const bodies: Array<[string, Buffer | string, Record<string, string>, number, string]> = [
      [
        'UTF-16LE',
        Buffer.from(text, 'utf16le'),
        { 'content-type': 'application/json; charset=utf-16le' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'UTF-16BE',
        Buffer.from(text, 'utf16le').swap16(),
        { 'content-type': 'application/json; charset=utf-16be' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'UTF-16 with a BOM',
        Buffer.from(`\ufeff${text}`, 'utf16le'),
        { 'content-type': 'application/json; charset=utf-16' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      ['UTF-16 without a charset', Buffer.from(`\ufeff${text}`, 'utf16le'), asJson, 400, 'INVALID_JSON'],
      [
        'latin1',
        Buffer.from(text, 'latin1'),
        { 'content-type': 'application/json; charset=latin1' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'ISO-8859-1',
        Buffer.from(text, 'latin1'),
        { 'content-type': 'application/json; charset=ISO-8859-1' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'windows-1252',
        Buffer.from(text, 'latin1'),
        { 'content-type': 'application/json; charset=windows-1252' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      ['UTF-7', text, { 'content-type': 'application/json; charset=utf-7' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [
        'us-ascii',
        text,
        { 'content-type': 'application/json; charset=us-ascii' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      ['zstd', text, { ...asJson, 'content-encoding': 'zstd' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [
        'two encodings',
        gzipSync(gzipSync(text)),
        { ...asJson, 'content-encoding': 'gzip, gzip' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      ['gzip that is not', text, { ...asJson, 'content-encoding': 'gzip' }, 400, 'INVALID_JSON'],
      ['text/plain', text, { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ];
    for (const [name, bytes, headers, status, code] of bodies) {
      const response = await send('/v1/auth/login', bytes, headers);
      expect({ name, status: response.status, code: response.body?.error?.code }).toEqual({
        name,
        status,
        code,
      });
    }
    // And the lock still holds.
    expect((await send('/v1/auth/login', json({ email, password: PASSWORD }), asJson)).status).toBe(429);
  });

  it('when an email holds a lone surrogate, then 400 at the gateway, and the lock is not sidestepped', async () => {
    const email = await lockedUser();
    const response = await send(
      '/v1/auth/login',
      `{"email":"${email}\\ud800","password":"${PASSWORD}"}`,
      asJson,
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'body.email: must be well-formed Unicode, not a lone surrogate (\\ud800)',
      },
    });
  });

  it('when a login body decompresses past what the gateway reads, then 413', async () => {
    const padded = `{"email":"a@example.com","password":"x"${' '.repeat(64 * 1024)}}`;
    const response = await send('/v1/auth/login', gzipSync(padded), {
      ...asJson,
      'content-encoding': 'gzip',
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('compressed bodies through the gateway to a service', () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem();
  });
  afterAll(async () => {
    await system?.close();
  });

  async function createProject(token: string, bytes: Buffer | string, headers: Record<string, string>) {
    const response = await fetch(`${system.base}/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: bytes,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  it('when a body is gzip, it is read; when it does not decompress, 400; another encoding, 415', async () => {
    const { token } = await system.signUp();
    const text = JSON.stringify({ name: 'Compressed', sourceLocale: 'en' });
    const created = await createProject(token, gzipSync(text), { 'content-encoding': 'gzip' });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Compressed');
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const broken = await createProject(token, text, { 'content-encoding': encoding });
      expect({ encoding, status: broken.status, code: broken.body.error.code }).toEqual({
        encoding,
        status: 400,
        code: 'INVALID_JSON',
      });
    }
    const unknown = await createProject(token, text, { 'content-encoding': 'compress' });
    expect(unknown.status).toBe(415);
    expect(unknown.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const list = await system.call('GET', '/v1/projects', token);
    expect(list.body.projects.map((project: { name: string }) => project.name)).toStrictEqual(['Compressed']);
  });

  it('when a project name holds a lone surrogate, then 400 naming it, not 500', async () => {
    const { token } = await system.signUp();
    const response = await createProject(token, '{"name":"\\ud800","sourceLocale":"en"}', {});
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'body.name: must be well-formed Unicode, not a lone surrogate (\\ud800)',
      },
    });
  });
});
