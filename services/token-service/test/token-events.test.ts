import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settled, tableColumns } from '@tolk/testing';
import { TOKEN_INTROSPECTION_PATH, hashProjectToken } from '@tolk/contracts';
import { expectError, startTokenService, type TokenService } from './token-harness.js';
import { replicaTables } from '@tolk/projects';

let service: TokenService;
beforeAll(async () => {
  service = await startTokenService();
});
afterAll(async () => {
  await service?.close();
});

async function rowsOf(table: string, projectId: string) {
  const { rows } = await service.db.query(`SELECT * FROM ${table} WHERE project_id = $1`, [projectId]);
  return rows;
}

async function waitUntilBuried(projectId: string) {
  await expect
    .poll(async () => (await rowsOf('deleted_projects', projectId)).length, {
      ...settled,
      message: `project ${projectId} tombstoned`,
    })
    .toBeGreaterThan(0);
}

describe('ProjectDeleted', () => {
  it('when a project is deleted, then each of its live tokens is revoked with one TokenRevoked, and none introspects again', async () => {
    const project = await service.createProject();
    const tokens = [
      await service.createToken(project.projectId, project.owner, { label: 'a', permissions: 'read' }),
      await service.createToken(project.projectId, project.owner, { label: 'b', permissions: 'read_write' }),
      await service.createToken(project.projectId, project.owner, { label: 'c', permissions: 'read' }),
    ];
    const alreadyRevoked = await service.createToken(project.projectId, project.owner);
    await service.call('DELETE', service.tokensPath(project.projectId, alreadyRevoked.tokenId), {
      as: project.owner,
    });
    const bystanderProject = await service.createProject();
    const bystander = await service.createToken(bystanderProject.projectId, bystanderProject.owner);

    await service.deleteProject(project.ownerId, project.projectId);
    await waitUntilBuried(project.projectId);

    const expected = tokens
      .map((token) => ({
        tokenId: token.tokenId,
        projectId: project.projectId,
        tokenHash: hashProjectToken(token.token),
      }))
      .sort((x, y) => x.tokenId.localeCompare(y.tokenId));
    const outbox = await service.outboxRows(project.projectId);
    // The revocation by hand first, then one per token that was still live.
    expect(outbox.map((row) => row.type)).toEqual(Array(4).fill('TokenRevoked'));
    expect(outbox[0]!.payload.data).toStrictEqual({
      tokenId: alreadyRevoked.tokenId,
      projectId: project.projectId,
      tokenHash: hashProjectToken(alreadyRevoked.token),
    });
    const onDeletion = outbox.slice(1).map((row) => row.payload.data as { tokenId: string });
    expect(onDeletion.sort((x, y) => x.tokenId.localeCompare(y.tokenId))).toStrictEqual(expected);

    // And they are published, for the gateway to evict every one.
    const published = await vi.waitFor(async () => {
      const found = service.published.filter((event) => outbox.some((row) => row.id === event.id));
      expect(found, 'all TokenRevoked published').toHaveLength(4);
      return found;
    }, settled);
    expect(published.every((event) => event.producer === 'token-service')).toBe(true);

    for (const token of [...tokens, alreadyRevoked]) {
      expectError(
        await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: hashProjectToken(token.token) }),
        404,
        'NOT_FOUND',
      );
    }
    // The project's rows are gone; another project's token is untouched.
    expect(await rowsOf('api_tokens', project.projectId)).toEqual([]);
    expect(await rowsOf('projects', project.projectId)).toEqual([]);
    expect(
      (await service.internal(TOKEN_INTROSPECTION_PATH, { tokenHash: hashProjectToken(bystander.token) }))
        .status,
    ).toBe(200);
  });

  it('when a project is deleted, then its token routes answer 404 and no token can be created for it', async () => {
    const project = await service.createProject();
    const created = await service.createToken(project.projectId, project.owner);
    await service.deleteProject(project.ownerId, project.projectId);
    await waitUntilBuried(project.projectId);

    expectError(
      await service.call('GET', service.tokensPath(project.projectId), { as: project.owner }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await service.call('POST', service.tokensPath(project.projectId), {
        as: project.owner,
        body: { label: 'after', permissions: 'read' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await service.call('DELETE', service.tokensPath(project.projectId, created.tokenId), {
        as: project.owner,
      }),
      404,
      'NOT_FOUND',
    );
    expect(await rowsOf('api_tokens', project.projectId)).toEqual([]);
  });

  it('when a project without tokens is deleted, then it is tombstoned and nothing is published', async () => {
    const project = await service.createProject();
    await service.deleteProject(project.ownerId, project.projectId);
    await waitUntilBuried(project.projectId);
    expect(await service.outboxRows(project.projectId)).toEqual([]);
  });

  it('when ProjectDeleted is delivered again, then it applies once and announces nothing more', async () => {
    const project = await service.createProject();
    await service.createToken(project.projectId, project.owner);
    const event = await service.publish('ProjectDeleted', { projectId: project.projectId });
    await expect
      .poll(async () => service.consumed(event.id).length, { ...settled, message: 'consumed' })
      .toBeGreaterThanOrEqual(1);
    await service.publish('ProjectDeleted', { projectId: project.projectId }, { id: event.id });
    await expect
      .poll(async () => service.consumed(event.id).length, { ...settled, message: 'consumed twice' })
      .toBeGreaterThanOrEqual(2);
    expect(service.consumed(event.id)).toEqual([true, false]);
    // A new event about the same deletion (another id) finds nothing left to revoke.
    const again = await service.publish('ProjectDeleted', { projectId: project.projectId });
    await expect
      .poll(async () => service.consumed(again.id).length, { ...settled, message: 'consumed' })
      .toBeGreaterThanOrEqual(1);
    expect((await service.outboxRows(project.projectId)).map((row) => row.type)).toEqual(['TokenRevoked']);
  });

  it('when ProjectCreated or ProjectUpdated arrives after ProjectDeleted, then the project stays deleted', async () => {
    const projectId = `prj_${randomUUID().replaceAll('-', '')}`;
    const deleted = await service.publish('ProjectDeleted', { projectId });
    await expect
      .poll(async () => service.consumed(deleted.id).length, { ...settled, message: 'deleted' })
      .toBeGreaterThan(0);
    const late = [
      await service.publish('ProjectCreated', { projectId, name: 'X', sourceLocale: 'en', ownerId: 'usr_x' }),
      await service.publish('ProjectUpdated', {
        projectId,
        name: 'X',
        sourceLocale: 'en',
        settings: { provider: null, model: null, instructions: null },
      }),
    ];
    for (const event of late) {
      await expect
        .poll(async () => service.consumed(event.id).length, { ...settled, message: 'consumed' })
        .toBeGreaterThan(0);
    }
    expect(await rowsOf('projects', projectId)).toEqual([]);
    expectError(
      await service.call('POST', service.tokensPath(projectId), {
        as: await service.as('usr_x'),
        body: { label: 'CI', permissions: 'read' },
      }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('ProjectCreated and ProjectUpdated', () => {
  it('when a project is created at project-service, then token-service learns of it from the event', async () => {
    const project = await service.createProject();
    await expect
      .poll(async () => (await rowsOf('projects', project.projectId)).length, {
        ...settled,
        message: 'remembered',
      })
      .toBeGreaterThan(0);
  });

  it('when an older ProjectUpdated arrives after a newer one, then the newer state is kept', async () => {
    const projectId = `prj_${randomUUID().replaceAll('-', '')}`;
    const data = {
      projectId,
      name: 'X',
      sourceLocale: 'en',
      settings: { provider: null, model: null, instructions: null },
    };
    const newer = await service.publish('ProjectUpdated', data, { occurredAt: 2_000_000_000_000 });
    await expect
      .poll(async () => service.consumed(newer.id).length, { ...settled, message: 'newer' })
      .toBeGreaterThan(0);
    const older = await service.publish('ProjectUpdated', data, { occurredAt: 1_000_000_000_000 });
    await expect
      .poll(async () => service.consumed(older.id).length, { ...settled, message: 'older' })
      .toBeGreaterThan(0);
    const [row] = await rowsOf('projects', projectId);
    expect((row!['project_updated_at'] as Date).getTime()).toBe(2_000_000_000_000);
  });
});

describe('the project replica', () => {
  it('when its migrations have run, then its tables are exactly the shared definition with its columns', async () => {
    const expected = replicaTables([]);
    for (const table of ['projects', 'deleted_projects']) {
      const columns = [...expected[table]!].sort((a, b) => (a.name < b.name ? -1 : 1));
      expect(await tableColumns(service.db, table), table).toEqual(columns);
    }
  });
});
