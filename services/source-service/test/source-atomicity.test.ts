import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settled } from '@tolk/testing';
import { expectError, startSourceService, type SourceService } from './source-harness.js';

let service: SourceService;
beforeAll(async () => {
  service = await startSourceService();
  // The outbox row is the last write of an upload's transaction. This trigger fails the
  // transaction right after it for the projects listed in doomed_projects, and only once the
  // version's row is there too: the failure comes after both were written.
  await service.db.query(`
    CREATE TABLE doomed_projects (project_id text PRIMARY KEY);
    CREATE FUNCTION fail_after_outbox_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM doomed_projects WHERE project_id = NEW.payload -> 'data' ->> 'projectId') THEN
        IF NOT EXISTS (
          SELECT 1 FROM versions
           WHERE project_id = NEW.payload -> 'data' ->> 'projectId'
             AND version = (NEW.payload -> 'data' ->> 'version')::integer
        ) THEN
          RAISE EXCEPTION 'the outbox row came before the version row';
        END IF;
        RAISE EXCEPTION 'injected failure after the version and outbox rows';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER fail_after_outbox_insert AFTER INSERT ON outbox
      FOR EACH ROW EXECUTE FUNCTION fail_after_outbox_insert();
  `);
});
afterAll(async () => {
  await service?.close();
});

const path = (projectId: string, rest = '') => `/v1/projects/${projectId}/source${rest}`;

async function doomed(projectId: string, run: () => Promise<void>): Promise<void> {
  await service.db.query(`INSERT INTO doomed_projects (project_id) VALUES ($1)`, [projectId]);
  try {
    await run();
  } finally {
    await service.db.query(`DELETE FROM doomed_projects WHERE project_id = $1`, [projectId]);
  }
}

async function storedVersions(projectId: string) {
  const versions = await service.db.query<{ version: number }>(
    `SELECT version FROM versions WHERE project_id = $1 ORDER BY version`,
    [projectId],
  );
  const contents = await service.db.query<{ version: number }>(
    `SELECT version FROM version_contents WHERE project_id = $1 ORDER BY version`,
    [projectId],
  );
  return { versions: versions.rows.map((r) => r.version), contents: contents.rows.map((r) => r.version) };
}

describe('PUT /v1/projects/:projectId/source: a version and its event commit together or not at all', () => {
  it('when the transaction fails after the version and SourceChanged were written, then neither exists and the next upload gets the next version', async () => {
    const { projectId, owner } = await service.createProject();
    expect((await service.call('PUT', path(projectId), { as: owner, body: { a: 'A' } })).body.version).toBe(
      1,
    );

    await doomed(projectId, async () => {
      const failed = await service.call('PUT', path(projectId), {
        as: { ...owner, 'x-request-id': `req-doomed-${projectId}` },
        body: { a: 'B', b: 'B' },
      });
      expectError(failed, 500, 'INTERNAL_ERROR');
      expect(failed.text).not.toContain('injected');
    });
    const logged = service.logLines.find(
      (line) => line.includes(`req-doomed-${projectId}`) && line.includes('"level":50'),
    );
    expect(logged).toContain('injected failure after the version and outbox rows');

    expect(await storedVersions(projectId)).toStrictEqual({ versions: [1], contents: [1] });
    expect((await service.outboxRows(projectId)).map((row) => row.payload.data['version'])).toStrictEqual([
      1,
    ]);
    const current = await service.call('GET', path(projectId), { as: owner });
    expect(current.body).toMatchObject({ version: 1, content: '{"a":"A"}' });
    expect(current.headers.get('etag')).toBe('"1"');

    // The same upload again, as a client retrying would.
    const retried = await service.call('PUT', path(projectId), { as: owner, body: { a: 'B', b: 'B' } });
    expect(retried.body).toMatchObject({ version: 2, diff: { added: ['b'], modified: ['a'], deleted: [] } });
    expect(await storedVersions(projectId)).toStrictEqual({ versions: [1, 2], contents: [1, 2] });
    const events = await service.outboxRows(projectId);
    const nothingCarried = { renamed: 0, restored: 0, renames: [], restores: [] };
    expect(events.map((row) => row.payload.data)).toStrictEqual([
      {
        projectId,
        version: 1,
        previousVersion: 0,
        keyCount: 1,
        added: 1,
        modified: 0,
        deleted: 0,
        ...nothingCarried,
      },
      {
        projectId,
        version: 2,
        previousVersion: 1,
        keyCount: 2,
        added: 1,
        modified: 1,
        deleted: 0,
        ...nothingCarried,
      },
    ]);
    const delivered = await vi.waitFor(async () => {
      const found = service.delivered.filter((event) => event.data['projectId'] === projectId);
      expect(found, 'delivery').toHaveLength(2);
      return found;
    }, settled);
    expect(delivered).toStrictEqual(events.map((row) => row.payload));
  });

  it('when the first upload fails so, then there is still no source and the next upload is version 1', async () => {
    const { projectId, owner } = await service.createProject();
    await doomed(projectId, async () => {
      const failed = await service.call('PUT', path(projectId), { as: owner, body: { a: 'A' } });
      expectError(failed, 500, 'INTERNAL_ERROR');
    });
    expect(await storedVersions(projectId)).toStrictEqual({ versions: [], contents: [] });
    expect(await service.outboxRows(projectId)).toStrictEqual([]);
    expectError(await service.call('GET', path(projectId), { as: owner }), 404, 'NOT_FOUND');
    const list = await service.call('GET', path(projectId, '/versions'), { as: owner });
    expect(list.body).toStrictEqual({ versions: [] });

    const next = await service.call('PUT', path(projectId), { as: owner, body: { a: 'A2' } });
    expect(next.body).toMatchObject({ version: 1, diff: { added: ['a'], modified: [], deleted: [] } });
    expect((await service.call('GET', path(projectId), { as: owner })).body.content).toBe('{"a":"A2"}');
  });
});
