import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settled } from '@tolk/testing';
import { sourceEventDataSchemas } from '@tolk/contracts';
import {
  sourceFileResponseSchema,
  uploadResponseSchema,
  versionListResponseSchema,
} from '../src/entry-points/http/schemas.js';
import { expectError, startSourceService, type SourceService } from './source-harness.js';

let service: SourceService;
beforeAll(async () => {
  service = await startSourceService();
});
afterAll(async () => {
  await service?.close();
});

const path = (projectId: string, rest = '') => `/v1/projects/${projectId}/source${rest}`;

async function put(
  projectId: string,
  as: Record<string, string>,
  body: unknown,
  extra: Record<string, string> = {},
  query = '',
) {
  return service.call('PUT', path(projectId, query), { as: { ...as, ...extra }, body });
}

describe('PUT /v1/projects/:projectId/source', () => {
  it('when a project is created and its source uploaded a millisecond later, then version 1 with every key added', async () => {
    const { projectId, owner } = await service.createProject({ sourceLocale: 'pt-br' });
    const response = await put(projectId, owner, {
      home: { title: 'Hi', '@title': { description: 'Header' } },
      bye: 'Bye',
    });
    expect(response.status).toBe(200);
    expect(uploadResponseSchema.parse(response.body)).toStrictEqual({
      version: 1,
      diff: { added: ['home.title', 'bye'], modified: [], deleted: [] },
      keyCount: 2,
      needsTranslation: true,
    });
    expect(response.headers.get('etag')).toBe('"1"');
  });

  it('when the content changes, then version+1 with the diff against the previous version', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A', b: 'B', c: 'C' });
    const response = await put(projectId, owner, { a: 'A', b: 'B2', d: 'D' });
    expect(response.body).toStrictEqual({
      version: 2,
      diff: { added: ['d'], modified: ['b'], deleted: ['c'] },
      keyCount: 3,
      needsTranslation: true,
    });
  });

  it('when the same content is uploaded again (even reordered or re-nested), then no version, an empty diff and no event', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { home: { title: 'Hi' }, x: 'X' });
    const response = await put(projectId, owner, { x: 'X', 'home.title': 'Hi' });
    expect(response.body).toStrictEqual({
      version: 1,
      diff: { added: [], modified: [], deleted: [] },
      keyCount: 2,
      needsTranslation: true,
    });
    expect((await service.outboxRows(projectId)).map((row) => row.type)).toStrictEqual(['SourceChanged']);
  });

  it('when a change is uploaded, then SourceChanged is in the outbox in the same transaction and delivered with its data', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A', b: 'B' });
    await put(projectId, owner, { a: 'A2', c: 'C', d: 'D' });
    const rows = await service.outboxRows(projectId);
    const counts = { projectId, renamed: 0, restored: 0, renames: [], restores: [] };
    expect(rows.map((row) => row.payload.data)).toStrictEqual([
      { ...counts, version: 1, previousVersion: 0, keyCount: 2, added: 2, modified: 0, deleted: 0 },
      { ...counts, version: 2, previousVersion: 1, keyCount: 3, added: 2, modified: 1, deleted: 1 },
    ]);
    for (const row of rows) {
      expect(row.payload.producer).toBe('source-service');
      sourceEventDataSchemas.SourceChanged.parse(row.payload.data);
    }
    const delivered = await vi.waitFor(async () => {
      const found = service.delivered.filter((e) => e.data['projectId'] === projectId);
      expect(found, 'delivery').toHaveLength(2);
      return found;
    }, settled);
    expect(delivered).toStrictEqual(rows.map((row) => row.payload));
  });

  it('when 50 different sources are uploaded at once, then the versions are exactly 1..50', async () => {
    const { projectId, owner } = await service.createProject();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => put(projectId, owner, { key: `value ${i}`, [`k${i}`]: 'x' })),
    );
    expect(responses.map((r) => r.status)).toStrictEqual(Array(50).fill(200));
    expect(responses.map((r) => r.body.version as number).sort((a, b) => a - b)).toStrictEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const list = await service.call('GET', path(projectId, '/versions'), { as: owner });
    expect(list.body.versions.map((v: { version: number }) => v.version)).toStrictEqual(
      Array.from({ length: 50 }, (_, i) => 50 - i),
    );
  });

  it('when If-Match names the current version, then the upload proceeds; when stale, then 412 and nothing stored', async () => {
    const { projectId, owner } = await service.createProject();
    expect((await put(projectId, owner, { a: 'A' }, { 'if-match': '"0"' })).body.version).toBe(1);
    expect((await put(projectId, owner, { a: 'B' }, { 'if-match': 'W/"1"' })).body.version).toBe(2);
    expect((await put(projectId, owner, { a: 'C' }, { 'if-match': '2' })).body.version).toBe(3);
    expectError(await put(projectId, owner, { a: 'D' }, { 'if-match': '"2"' }), 412, 'PRECONDITION_FAILED');
    expectError(await put(projectId, owner, { a: 'C' }, { 'if-match': '"1"' }), 412, 'PRECONDITION_FAILED');
    expect((await put(projectId, owner, { a: 'D' }, { 'if-match': '*' })).body.version).toBe(4);
    for (const bad of ['"abc"', 'W/', '"1', '-1', '"1" "2"']) {
      expectError(await put(projectId, owner, { a: 'E' }, { 'if-match': bad }), 400, 'VALIDATION_ERROR');
    }
    const current = await service.call('GET', path(projectId), { as: owner });
    expect(current.body.version).toBe(4);
  });

  it('when dryRun=true, then the would-be answer and nothing stored, no event; other values are 400', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A' });
    const dry = await put(projectId, owner, { a: 'A2', b: 'B' }, {}, '?dryRun=true');
    expect(dry.body).toStrictEqual({
      version: 2,
      diff: { added: ['b'], modified: ['a'], deleted: [] },
      keyCount: 2,
      needsTranslation: true,
    });
    expect((await service.call('GET', path(projectId), { as: owner })).body.version).toBe(1);
    expect(await service.outboxRows(projectId)).toHaveLength(1);
    expect((await put(projectId, owner, { a: 'A3' }, {}, '?dryRun=false')).body.version).toBe(2);
    for (const bad of ['yes', '1', '', 'TRUE']) {
      expectError(await put(projectId, owner, { a: 'A4' }, {}, `?dryRun=${bad}`), 400, 'VALIDATION_ERROR');
    }
  });

  it('when dryRun is spelt any other way (brackets, twice, unknown parameters), then 400 naming it and nothing stored', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A' });
    const cases: [string, RegExp][] = [
      ['?dryRun[]=true', /^query\.dryRun\[\]: bracket syntax is not accepted; send dryRun=<value> once$/],
      ['?dryRun[x]=true', /^query\.dryRun\[x\]: bracket syntax is not accepted/],
      ['?dryRun%5B%5D=true', /^query\.dryRun\[\]: bracket syntax/],
      ['?dryRun=true&dryRun=true', /^query\.dryRun: given 2 times; send it once$/],
      ['?dryRun=false&dryRun=true', /^query\.dryRun: given 2 times/],
      [
        '?dry_run=true',
        /^query\.dry_run: is not a parameter of this route; this route accepts dryRun, each once$/,
      ],
      ['?dryrun=true', /^query\.dryrun: is not a parameter of this route/],
      ['?dryRun=true&force=1', /^query\.force: is not a parameter of this route/],
      ['?dryRun', /^query\.dryRun: must be true or false$/],
    ];
    for (const [query, message] of cases) {
      const response = await put(projectId, owner, { a: 'A2', b: 'B' }, {}, query);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message, query).toMatch(message);
    }
    const current = await service.call('GET', path(projectId), { as: owner });
    expect(current.body.version).toBe(1);
    expect(JSON.parse(current.body.content as string)).toStrictEqual({ a: 'A' });
    expect(await service.outboxRows(projectId)).toHaveLength(1);
  });

  it('when a route that takes no query parameters gets one, then 400 naming it', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A' });
    for (const rest of ['', '/versions', '/versions/1']) {
      const response = await service.call('GET', path(projectId, `${rest}?_=1700000000000`), { as: owner });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe(
        'query._: is not a parameter of this route; this route takes no query parameters',
      );
    }
  });

  it('when the body is bad, then the right error and nothing stored', async () => {
    const { projectId, owner } = await service.createProject();
    const raw = (rawBody: string, contentType = 'application/json') =>
      service.call('PUT', path(projectId), { as: { ...owner, 'content-type': contentType }, rawBody });
    expectError(await raw('{"a":'), 400, 'INVALID_JSON');
    expectError(await raw('["a"]'), 400, 'VALIDATION_ERROR');
    expectError(await raw('"a"'), 400, 'VALIDATION_ERROR');
    expectError(await raw('a=b', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    for (const body of [{ a: 1 }, { a: true }, { a: null }, { a: { b: 2 } }]) {
      expectError(await put(projectId, owner, body), 400, 'VALIDATION_ERROR');
    }
    expectError(await put(projectId, owner, { 'a.b': 'x', a: { b: 'y' } }), 400, 'VALIDATION_ERROR');
    expectError(await put(projectId, owner, { '@a': { description: 'x' } }), 400, 'VALIDATION_ERROR');
    let deep: unknown = 'leaf';
    for (let i = 0; i < 40; i++) deep = { n: deep };
    expectError(await put(projectId, owner, deep), 400, 'VALIDATION_ERROR');
    expectError(await put(projectId, owner, { ['k'.repeat(1001)]: 'x' }), 400, 'VALIDATION_ERROR');
    expectError(await service.call('GET', path(projectId), { as: owner }), 404, 'NOT_FOUND');
  });

  it('when __proto__ and constructor are keys, then they are stored as data and nothing is polluted', async () => {
    const { projectId, owner } = await service.createProject();
    const rawBody = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":"x"},"a":"A"}';
    const response = await service.call('PUT', path(projectId), {
      as: { ...owner, 'content-type': 'application/json' },
      rawBody,
    });
    expect(response.body.diff.added).toStrictEqual(['__proto__.polluted', 'constructor.prototype', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const current = await service.call('GET', path(projectId), { as: owner });
    expect(current.body.content).toBe(rawBody);
  });

  it('when the project does not exist or a read token uploads, then 404 / 403; no principal → 401', async () => {
    const { projectId } = await service.createProject();
    const { owner } = await service.createProject();
    expectError(await put('prj_missing', owner, { a: 'A' }), 404, 'NOT_FOUND');
    expectError(
      await put(projectId, await service.asProjectToken(projectId, 'read'), { a: 'A' }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await put(projectId, await service.asProjectToken('prj_other', 'read_write'), { a: 'A' }),
      404,
      'NOT_FOUND',
    );
    expectError(await put(projectId, {}, { a: 'A' }), 401, 'UNAUTHORIZED');
    expect(
      (await put(projectId, await service.asProjectToken(projectId, 'read_write'), { a: 'A' })).body.version,
    ).toBe(1);
  });
});

describe('GET /v1/projects/:projectId/source', () => {
  it("when a source exists, then every field of the Source file object, the project's locale and the ETag", async () => {
    const { projectId, owner } = await service.createProject({ sourceLocale: 'pt-br' });
    const body = {
      home: { '@title': { maxLength: 40 }, title: 'Hi', steps: ['one', 'two'] },
      '@@locale': 'pt-BR',
    };
    const before = Date.now();
    await put(projectId, owner, body);
    const response = await service.call('GET', path(projectId), {
      as: await service.asProjectToken(projectId, 'read'),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"1"');
    expect(sourceFileResponseSchema.parse(response.body)).toStrictEqual({
      version: 1,
      locale: 'pt-BR',
      keyCount: 3,
      content: JSON.stringify(body),
      pendingDiff: { added: ['home.title', 'home.steps.0', 'home.steps.1'], modified: [], deleted: [] },
      updatedAt: expect.any(Number),
    });
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(before - 1000);
  });

  it('when nothing was uploaded yet, then 404 NOT_FOUND', async () => {
    const { projectId, owner } = await service.createProject();
    expectError(await service.call('GET', path(projectId), { as: owner }), 404, 'NOT_FOUND');
  });

  it('when the project source locale is changed, then GET reports the new one', async () => {
    const { projectId, owner, ownerId } = await service.createProject();
    await put(projectId, owner, { a: 'A' });
    await service.patchProject(ownerId, projectId, { sourceLocale: 'de' });
    await vi.waitFor(async () => {
      const response = await service.call('GET', path(projectId), { as: owner });
      expect(response.body.locale, 'ProjectUpdated applied').toBe('de');
    }, settled);
  });
});

describe('versions and diffs', () => {
  it('when versions exist, then the list with counts newest first, each version by number, and diffs between any two', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A', b: 'B' });
    await put(projectId, owner, { a: 'A2', c: 'C' });
    const list = await service.call('GET', path(projectId, '/versions'), { as: owner });
    const nothingCarried = {
      createdAt: expect.any(Number),
      renamed: 0,
      restored: 0,
      renames: [],
      restores: [],
    };
    expect(versionListResponseSchema.parse(list.body).versions).toStrictEqual([
      { version: 2, keyCount: 2, added: 1, modified: 1, deleted: 1, ...nothingCarried },
      { version: 1, keyCount: 2, added: 2, modified: 0, deleted: 0, ...nothingCarried },
    ]);

    const first = await service.call('GET', path(projectId, '/versions/1'), { as: owner });
    expect(sourceFileResponseSchema.parse(first.body)).toMatchObject({
      version: 1,
      keyCount: 2,
      content: '{"a":"A","b":"B"}',
      pendingDiff: { added: ['a', 'b'], modified: [], deleted: [] },
    });

    const diff = (q: string) => service.call('GET', path(projectId, `/diff${q}`), { as: owner });
    expect((await diff('?from=1&to=2')).body).toStrictEqual({
      added: ['c'],
      modified: ['a'],
      deleted: ['b'],
    });
    expect((await diff('?from=0&to=2')).body).toStrictEqual({ added: ['a', 'c'], modified: [], deleted: [] });
    expect((await diff('?from=2&to=0')).body).toStrictEqual({ added: [], modified: [], deleted: ['a', 'c'] });
    expectError(await diff('?from=1&to=3'), 404, 'NOT_FOUND');
    for (const q of ['', '?from=1', '?from=a&to=2', '?from=-1&to=1', '?from=1.5&to=2']) {
      expectError(await diff(q), 400, 'VALIDATION_ERROR');
    }
    const refused: [string, string][] = [
      ['?from=1', 'query.to: is required (a version number (a non-negative integer))'],
      ['?from=1e0&to=2', 'query.from: must be a version number (a non-negative integer)'],
      ['?from=1&to=2&to=2', 'query.to: given 2 times; send it once'],
      ['?from[]=1&to=2', 'query.from[]: bracket syntax is not accepted; send from=<value> once'],
      [
        '?from=1&to=2&verbose=1',
        'query.verbose: is not a parameter of this route; this route accepts from, to, each once',
      ],
    ];
    for (const [q, message] of refused) {
      const response = await diff(q);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message, q).toBe(message);
    }
    expectError(await service.call('GET', path(projectId, '/versions/3'), { as: owner }), 404, 'NOT_FOUND');
    expectError(await service.call('GET', path(projectId, '/versions/0'), { as: owner }), 404, 'NOT_FOUND');
    expectError(
      await service.call('GET', path(projectId, '/versions/x'), { as: owner }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('events consumed', () => {
  it('when TranslationBaselineChanged arrives, then pendingDiff and needsTranslation follow it; duplicates and older sequences do not regress it', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A', b: 'B' });
    await put(projectId, owner, { a: 'A2', b: 'B', c: 'C' });

    const caughtUp = await service.publish('TranslationBaselineChanged', {
      projectId,
      baselineVersion: 2,
      sequence: 5,
    });
    await expect
      .poll(async () => await service.processed(caughtUp.id), { ...settled, message: 'baseline' })
      .toBe(true);
    const current = await service.call('GET', path(projectId), { as: owner });
    expect(current.body.pendingDiff).toStrictEqual({ added: [], modified: [], deleted: [] });
    expect((await put(projectId, owner, { a: 'A2', b: 'B', c: 'C' })).body).toMatchObject({
      version: 2,
      needsTranslation: false,
    });

    const older = await service.publish('TranslationBaselineChanged', {
      projectId,
      baselineVersion: 0,
      sequence: 4,
    });
    await service.publish(
      'TranslationBaselineChanged',
      { projectId, baselineVersion: 0, sequence: 6 },
      { id: caughtUp.id },
    );
    await expect
      .poll(async () => await service.processed(older.id), { ...settled, message: 'older' })
      .toBe(true);
    expect((await service.call('GET', path(projectId), { as: owner })).body.pendingDiff.added).toStrictEqual(
      [],
    );

    const newLocale = await service.publish('TranslationBaselineChanged', {
      projectId,
      baselineVersion: 1,
      sequence: 7,
    });
    await expect
      .poll(async () => await service.processed(newLocale.id), { ...settled, message: 'new' })
      .toBe(true);
    expect((await service.call('GET', path(projectId), { as: owner })).body.pendingDiff).toStrictEqual({
      added: ['c'],
      modified: ['a'],
      deleted: [],
    });
  });

  it('when ProjectDeleted is consumed, then every row of the project is purged and the source is gone', async () => {
    const { projectId, owner, ownerId } = await service.createProject();
    await put(projectId, owner, { a: 'A' });
    await service.deleteProject(ownerId, projectId);
    await vi.waitFor(async () => {
      const { rows } = await service.db.query(`SELECT 1 FROM versions WHERE project_id = $1`, [projectId]);
      expect(rows, 'purge').toHaveLength(0);
    }, settled);
    for (const table of ['projects', 'version_contents', 'baselines']) {
      const { rows } = await service.db.query(`SELECT 1 FROM ${table} WHERE project_id = $1`, [projectId]);
      expect(rows, table).toHaveLength(0);
    }
    expectError(await service.call('GET', path(projectId), { as: owner }), 404, 'NOT_FOUND');
    expectError(await put(projectId, owner, { a: 'B' }), 404, 'NOT_FOUND');
  });
});
