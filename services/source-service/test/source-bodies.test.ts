/**
 * How an upload's bytes become a source (the frame's one decoding rule, libs/http
 * decode-json-body.ts): nothing a user did not mean to store is stored.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startSourceService, type SourceService } from './source-harness.js';

let service: SourceService;
beforeAll(async () => {
  service = await startSourceService();
});
afterAll(async () => {
  await service?.close();
});

const path = (projectId: string) => `/v1/projects/${projectId}/source`;

/** A project whose source is at version 1 with two keys. */
async function projectWithSource() {
  const { projectId, owner } = await service.createProject();
  const first = await service.call('PUT', path(projectId), { as: owner, body: { a: 'A', b: 'B' } });
  expect(first.body.version).toBe(1);
  return { projectId, owner };
}

async function putBytes(
  projectId: string,
  as: Record<string, string>,
  bytes: Buffer | string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const response = await fetch(`${service.url}${path(projectId)}`, {
    method: 'PUT',
    headers: { ...as, ...headers },
    body: bytes,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

async function expectUnchanged(projectId: string, as: Record<string, string>) {
  const current = await service.call('GET', path(projectId), { as });
  expect(current.body).toMatchObject({ version: 1, keyCount: 2, content: '{"a":"A","b":"B"}' });
}

describe('PUT /v1/projects/:projectId/source bodies', () => {
  it.each([
    ['empty, sent as JSON', '', { 'content-type': 'application/json' }],
    ['empty, with no Content-Type', '', {}],
    ['only a byte order mark', '\ufeff', { 'content-type': 'application/json' }],
  ])(
    'when the body is %s, then 400 "a JSON body is required" and no key is deleted',
    async (_case, bytes, headers: Record<string, string>) => {
      const { projectId, owner } = await projectWithSource();
      const response = await putBytes(projectId, owner, bytes, headers);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe('body: a JSON body is required');
      await expectUnchanged(projectId, owner);
    },
  );

  it.each([
    ['{"a":{"b":1}}', '{"error":{"code":"VALIDATION_ERROR","message":"a.b: must be a string, got number"}}'],
    [
      '["a"]',
      '{"error":{"code":"VALIDATION_ERROR","message":"body: must be a JSON object of translation keys"}}',
    ],
    ['{"a":{}}', '{"error":{"code":"VALIDATION_ERROR","message":"a: an empty object has no keys"}}'],
    [
      '{"@x":{}}',
      '{"error":{"code":"VALIDATION_ERROR","message":"@x: annotates a key that does not exist"}}',
    ],
  ])('when the file is %s, then 400 with exactly the body %s', async (json, expected) => {
    const { projectId, owner } = await projectWithSource();
    const response = await putBytes(projectId, owner, json);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.text).toBe(expected);
    await expectUnchanged(projectId, owner);
  });

  it('when there is no body at all, then 400 "a JSON body is required"', async () => {
    const { projectId, owner } = await projectWithSource();
    const response = await service.call('PUT', path(projectId), { as: owner });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe('body: a JSON body is required');
    await expectUnchanged(projectId, owner);
  });

  it.each([
    ['a stray continuation byte', Buffer.from([0x80]), 14],
    ['a lead byte cut short', Buffer.from([0xe2, 0x82]), 14],
    ['Latin-1 text', Buffer.from('Café', 'latin1'), 17],
    ['an overlong form', Buffer.from([0xc0, 0xaf]), 14],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80]), 14],
  ])(
    'when a value holds %s (not UTF-8), then 400 naming the byte offset and nothing is stored',
    async (_case, bad, offset) => {
      const { projectId, owner } = await projectWithSource();
      // `{"a":"A","b":"` is 14 bytes: the bad bytes follow (after "Caf" in the Latin-1 case).
      const bytes = Buffer.concat([Buffer.from('{"a":"A","b":"'), bad, Buffer.from('"}')]);
      const response = await putBytes(projectId, owner, bytes);
      expectError(response, 400, 'INVALID_JSON');
      expect(response.body.error.message).toBe(
        `Request body is not valid UTF-8 (at byte offset ${offset}); JSON bodies must be UTF-8`,
      );
      await expectUnchanged(projectId, owner);
    },
  );

  it('when the source starts with a byte order mark, then it is stored without one', async () => {
    const { projectId, owner } = await projectWithSource();
    const response = await putBytes(projectId, owner, Buffer.from('\ufeff{"a":"A","b":"B2"}'));
    expect(response.status).toBe(200);
    expect(response.body.diff).toStrictEqual({ added: [], modified: ['b'], deleted: [] });
    const current = await service.call('GET', path(projectId), { as: owner });
    expect(current.body.content).toBe('{"a":"A","b":"B2"}');
  });

  it('when the source is sent gzip-compressed, then its text is stored', async () => {
    const { projectId, owner } = await projectWithSource();
    const response = await putBytes(projectId, owner, gzipSync(Buffer.from('{"a":"A","c":"Ç"}')), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(response.status).toBe(200);
    expect(response.body.diff).toStrictEqual({ added: ['c'], modified: [], deleted: ['b'] });
    const current = await service.call('GET', path(projectId), { as: owner });
    expect(current.body.content).toBe('{"a":"A","c":"Ç"}');
  });

  it('when a gzip body does not decompress, then 400 and nothing stored', async () => {
    const { projectId, owner } = await projectWithSource();
    const response = await putBytes(projectId, owner, '{"a":"A"}', {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expectError(response, 400, 'INVALID_JSON');
    await expectUnchanged(projectId, owner);
  });

  it('when a value or a key holds a lone surrogate, then 400 naming its key path', async () => {
    const { projectId, owner } = await projectWithSource();
    const value = await putBytes(projectId, owner, '{"a":"A","home":{"title":"x\\ud800"}}');
    expectError(value, 400, 'VALIDATION_ERROR');
    expect(value.body.error.message).toBe(
      'body.home.title: must be well-formed Unicode, not a lone surrogate (\\ud800)',
    );
    const key = await putBytes(projectId, owner, '{"a":"A","\\udc00":"x"}');
    expectError(key, 400, 'VALIDATION_ERROR');
    expect(key.body.error.message).toBe(
      'body.\\udc00: a key must be well-formed Unicode, not a lone surrogate (\\udc00)',
    );
    await expectUnchanged(projectId, owner);
  });
});
