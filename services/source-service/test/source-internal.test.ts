import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessBus } from '@tolk/bus';
import { INTERNAL_CALLER_HEADER, SOURCE_VERSION_HEADER } from '@tolk/contracts';
import { createInternalCallerSigner } from '@tolk/http';
import { decodeSourceVersion, encodeStoredSource, parseSourceDocument } from '@tolk/locale-file';
import { createLogger } from '@tolk/logger';
import { openService } from '@tolk/service';
import { listen } from '@tolk/testing';
import { sourceService } from '../src/index.js';
import { INTERNAL_SECRET, startSourceService, type SourceService } from './source-harness.js';

let service: SourceService;
beforeAll(async () => {
  service = await startSourceService();
});
afterAll(async () => {
  await service?.close();
});

const signCaller = createInternalCallerSigner(INTERNAL_SECRET, 'locale-service');

async function stored(projectId: string, version: number | 'current') {
  const response = await fetch(`${service.url}/internal/projects/${projectId}/source/versions/${version}`, {
    headers: { [INTERNAL_CALLER_HEADER]: await signCaller() },
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    version: response.headers.get(SOURCE_VERSION_HEADER),
    source: response.status === 200 ? await decodeSourceVersion(bytes) : undefined,
  };
}

describe('GET /internal/projects/:projectId/source/versions/:version', () => {
  it('when versions change keys, then each key carries the version its value last changed in', async () => {
    const { projectId, owner } = await service.createProject();
    for (const body of [
      { a: 'A', b: 'B', c: 'C' },
      { a: 'A', b: 'B2', c: 'C' },
      { c: 'C', a: 'A', b: 'B2', d: 'D' },
    ]) {
      expect(
        (await service.call('PUT', `/v1/projects/${projectId}/source`, { as: owner, body })).status,
      ).toBe(200);
    }
    const current = await stored(projectId, 'current');
    expect(current.version).toBe('3');
    expect(current.source?.keys).toEqual(['c', 'a', 'b', 'd']);
    expect(current.source?.revisions).toEqual([1, 1, 2, 3]);
    expect((await stored(projectId, 2)).source?.revisions).toEqual([1, 2, 1]);
  });

  it('when a version was stored in the earlier format without revisions, then they are derived and it is written back in the current one', async () => {
    const { projectId, owner } = await service.createProject();
    await service.call('PUT', `/v1/projects/${projectId}/source`, { as: owner, body: { a: 'A', b: 'B' } });
    await service.call('PUT', `/v1/projects/${projectId}/source`, { as: owner, body: { a: 'A2', b: 'B' } });
    // Both versions as the earlier format stored them: no revisions.
    for (const [version, body] of [
      [1, { a: 'A', b: 'B' }],
      [2, { a: 'A2', b: 'B' }],
    ] as const) {
      await service.db.query(
        `UPDATE version_contents SET content = $3, revisions = NULL, format = 1, has_revisions = false
          WHERE project_id = $1 AND version = $2`,
        [projectId, version, await encodeStoredSource(parseSourceDocument(body))],
      );
    }
    // A fresh instance would not have them cached: read through a new service on the same data.
    const fresh = await startSourceServiceOn(service);
    try {
      const answer = await fetch(`${fresh.url}/internal/projects/${projectId}/source/versions/2`, {
        headers: { [INTERNAL_CALLER_HEADER]: await signCaller() },
      });
      const source = await decodeSourceVersion(Buffer.from(await answer.arrayBuffer()));
      expect(source.revisions).toEqual([2, 1]);
    } finally {
      await fresh.close();
    }
    const { rows } = await service.db.query<{ format: number }>(
      `SELECT format FROM version_contents WHERE project_id = $1 ORDER BY version`,
      [projectId],
    );
    expect(rows.map((row) => row.format)).toEqual([1, 2]);
    // And what was written back reads the same.
    expect((await stored(projectId, 2)).source).toMatchObject({
      keys: ['a', 'b'],
      values: ['A2', 'B'],
      revisions: [2, 1],
    });
  });

  it('when the project has no source or is unknown, then version 0; a version past the current, 404', async () => {
    const { projectId } = await service.createProject();
    const empty = await stored(projectId, 'current');
    expect({ status: empty.status, version: empty.version, keys: empty.source?.keys }).toEqual({
      status: 200,
      version: '0',
      keys: [],
    });
    expect((await stored(projectId, 1)).status).toBe(404);
    expect((await stored(projectId, 'abc' as never)).status).toBe(400);
  });

  it('when called without an internal caller token, then it is refused', async () => {
    const response = await fetch(`${service.url}/internal/projects/x/source/versions/current`);
    expect(response.status).toBe(401);
  });
});

/** Another source-service on the same database, with nothing cached. */
async function startSourceServiceOn(existing: SourceService) {
  const logger = createLogger({ name: 'source-service', level: 'silent' });
  const { app } = await openService(sourceService, {
    env: {
      DATABASE_URL: existing.databaseUrl,
      AMQP_URL: existing.amqpUrl,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      PROJECT_SERVICE_URL: existing.projectUrl,
    },
    db: existing.db,
    bus: createInProcessBus({ logger }),
    logger,
  });
  return listen(app);
}
