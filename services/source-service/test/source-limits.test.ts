import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startSourceService, type SourceService } from './source-harness.js';

describe('PUT /v1/projects/:projectId/source with small limits', () => {
  let service: SourceService;
  beforeAll(async () => {
    service = await startSourceService({
      env: {
        SOURCE_MAX_KEYS: '5',
        SOURCE_MAX_BODY_BYTES: '1000',
        SOURCE_MAX_VALUE_LENGTH: '100',
        SOURCE_MAX_VALUE_BRACES: '3',
      },
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('when the key count or the body size is over the limit, then 413 PAYLOAD_TOO_LARGE and nothing stored', async () => {
    const { projectId, owner } = await service.createProject();
    const url = `/v1/projects/${projectId}/source`;
    const keys = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'x']));
    const tooMany = await fetch(`${service.url}${url}`, {
      method: 'PUT',
      headers: { ...owner, 'content-type': 'application/json' },
      body: JSON.stringify(keys),
    });
    expect(tooMany.status).toBe(413);
    expect(await tooMany.text()).toBe(
      '{"error":{"code":"PAYLOAD_TOO_LARGE","message":"body: more than 5 keys"}}',
    );
    expectError(
      await service.call('PUT', url, { as: owner, body: { a: 'x'.repeat(2000) } }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expectError(await service.call('GET', url, { as: owner }), 404, 'NOT_FOUND');
  });

  it('when a value is over the length or brace limit, then 400 VALIDATION_ERROR naming the key and the limit, and nothing stored', async () => {
    const { projectId, owner } = await service.createProject();
    const url = `/v1/projects/${projectId}/source`;
    const long = await service.call('PUT', url, { as: owner, body: { legal: { terms: 'x'.repeat(101) } } });
    expect(long.status).toBe(400);
    expect(long.text).toBe(
      '{"error":{"code":"VALIDATION_ERROR","message":"legal.terms: value is 101 characters long, over the limit of 100 characters per value"}}',
    );
    const braces = await service.call('PUT', url, { as: owner, body: { greeting: '{a}{b}{{c}}' } });
    expect(braces.status).toBe(400);
    expect(braces.body.error.message).toBe(
      'greeting: value has more than 3 opening braces ({), the limit per value ' +
        '(each ICU argument, placeholder and plural or select branch takes one)',
    );
    expectError(await service.call('GET', url, { as: owner }), 404, 'NOT_FOUND');
    const atLimits = await service.call('PUT', url, {
      as: owner,
      body: { terms: 'x'.repeat(100), greeting: '{a}{{b}}' },
    });
    expect(atLimits.status).toBe(200);
  });
});

describe('PUT /v1/projects/:projectId/source at the default limits', () => {
  let service: SourceService;
  beforeAll(async () => {
    service = await startSourceService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('when a 200,000-key source is uploaded, then again with 1 % modified, then identical, then each is accepted', async () => {
    const { projectId, owner } = await service.createProject();
    const url = `/v1/projects/${projectId}/source`;
    const document = (edit: boolean) => {
      const groups: Record<string, Record<string, string>> = {};
      for (let g = 0; g < 1000; g++) {
        const group: Record<string, string> = {};
        for (let k = 0; k < 200; k++)
          group[`key${k}`] = `Value ${g}.${k}${edit && k % 100 === 0 ? ' (edited)' : ''}`;
        groups[`group${g}`] = group;
      }
      return JSON.stringify(groups);
    };
    const upload = async (rawBody: string) => {
      const started = performance.now();
      const response = await service.call('PUT', url, {
        as: { ...owner, 'content-type': 'application/json' },
        rawBody,
      });
      return { response, ms: Math.round(performance.now() - started) };
    };
    const first = await upload(document(false));
    expect(first.response.body).toMatchObject({ version: 1, keyCount: 200_000 });
    const edited = document(true);
    const second = await upload(edited);
    expect(second.response.body.version).toBe(2);
    expect(second.response.body.diff.modified).toHaveLength(2000);
    const third = await upload(edited);
    expect(third.response.body.version).toBe(2);
    console.log(`200,000 keys: first ${first.ms} ms, 1 % modified ${second.ms} ms, identical ${third.ms} ms`);
  }, 120_000);
});
