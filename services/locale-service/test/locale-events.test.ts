import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@tolk/contracts';
import { realServers } from '@tolk/testing';
import { expectError, startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

/** The SourceChanged source-service published for a project's version, as delivered. */
async function sourceChanged(projectId: string, version: number): Promise<EventEnvelope> {
  return service.waitFor(`SourceChanged ${version} of ${projectId}`, async () =>
    service.source.delivered.find(
      (event) =>
        event.type === 'SourceChanged' &&
        (event.data as { projectId: string; version: number }).projectId === projectId &&
        (event.data as { version: number }).version === version,
    ),
  );
}

async function applied(eventId: string, times = 1): Promise<void> {
  await service.waitFor(`event ${eventId} consumed ${times} time(s)`, async () =>
    service.consumed(eventId).length >= times ? true : undefined,
  );
}

describe('SourceChanged consumed more than once, late or out of order', () => {
  it('when the same event is delivered again, then it applies once and the status stays', async () => {
    const project = await service.projectWithLocales(['de']);
    await service.putSource(project.projectId, project.owner, { a: 'A' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, 1, { a: 'A-de' })).status,
    ).toBe(200);

    const event = await sourceChanged(project.projectId, 1);
    await service.bus.publish(event);
    await applied(event.id, 2);
    expect(service.consumed(event.id)).toEqual([true, false]);
    expect(await service.getLocale(project.projectId, 'de', project.owner)).toMatchObject({
      status: 'up_to_date',
      syncedVersion: 1,
    });
  });

  it('when an older version arrives after a newer one, then the status does not regress', async () => {
    const project = await service.projectWithLocales(['de']);
    await service.putSource(project.projectId, project.owner, { a: 'A' });
    await service.putSource(project.projectId, project.owner, { a: 'A2' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, 2, { a: 'A2-de' })).status,
    ).toBe(200);

    // The first version's event again, as a new message (a redelivery after a crash, say).
    const late = { ...(await sourceChanged(project.projectId, 1)), id: randomUUID() };
    await service.bus.publish(late);
    await applied(late.id);
    expect(service.consumed(late.id)).toEqual([true]);
    expect(await service.getLocale(project.projectId, 'de', project.owner)).toMatchObject({
      status: 'up_to_date',
      syncedVersion: 2,
      sourceVersion: 2,
    });
  });

  it('when versions are skipped (an event still on its way), then the locale catches up to the latest', async () => {
    const project = await service.projectWithLocales(['de']);
    for (const value of ['A', 'B', 'C'])
      await service.putSource(project.projectId, project.owner, { a: value, b: 'x' });
    const locale = await service.waitForSourceVersion(project.projectId, 'de', project.owner, 3);
    expect(locale).toMatchObject({ status: 'behind', keyCount: 2, missingCount: 2 });
  });
});

describe('a poison message', () => {
  it('when a message cannot be read, then it goes to the dead-letter queue and later events still flow', async ({
    skip,
  }) => {
    skip(!realServers().rabbitmq, 'puts unreadable messages straight on a RabbitMQ queue');
    const poison = await service.sendToQueue('{"this is": "not an envelope"');
    const wrongData = JSON.stringify({
      id: randomUUID(),
      type: 'SourceChanged',
      occurredAt: Date.now(),
      producer: 'test',
      data: { projectId: 'prj_x', version: 'two' },
    });
    await service.sendToQueue(wrongData);
    await service.waitFor('both in the dead-letter queue', async () =>
      service.deadLettered.length >= 2 ? true : undefined,
    );
    expect(service.deadLettered).toEqual(expect.arrayContaining([wrongData]));
    expect(poison).toBeTruthy();

    const project = await service.projectWithLocales(['de']);
    await service.putSource(project.projectId, project.owner, { a: 'A' });
    expect(await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1)).toMatchObject({
      status: 'behind',
    });
  });
});

describe('ProjectDeleted', () => {
  it('when a project is deleted, then its locales, translations and source head are purged', async () => {
    const project = await service.projectWithLocales(['de', 'fr']);
    await service.putSource(project.projectId, project.owner, { a: 'A' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, 1, { a: 'A-de' })).status,
    ).toBe(200);

    await service.deleteProject(project.ownerId, project.projectId);
    await service.waitFor('locales gone', async () => {
      const response = await service.call('GET', `/v1/projects/${project.projectId}/locales`, {
        as: project.owner,
      });
      return response.status === 404 ? response : undefined;
    });
    for (const table of ['locales', 'source_heads', 'baselines', 'projects']) {
      const { rows } = await service.db.query(`SELECT 1 FROM ${table} WHERE project_id = $1`, [
        project.projectId,
      ]);
      expect(rows, table).toEqual([]);
    }
    expectError(
      await service.putTranslations(project.projectId, 'de', project.owner, 1, { a: 'A-de' }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('a translation upload made from a version whose SourceChanged has not arrived', () => {
  let quiet: LocaleService;
  beforeAll(async () => {
    quiet = await startLocaleService({ consume: false });
  });
  afterAll(async () => {
    await quiet?.close();
  });

  it('when the version exists at source-service, then the locale catches up to it and the upload counts', async () => {
    const project = await quiet.projectWithLocales(['de']);
    await quiet.putSource(project.projectId, project.owner, { a: 'A', b: 'B' });
    const uploaded = await quiet.putTranslations(project.projectId, 'de', project.owner, 1, {
      a: 'A-de',
      b: 'B-de',
    });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({
      status: 'up_to_date',
      sourceVersion: 1,
      syncedVersion: 1,
      keyCount: 2,
    });
    // And the baseline still reaches source-service through locale-service's outbox.
    await quiet.waitForPendingDiff(project.projectId, project.owner, {
      added: [],
      modified: [],
      deleted: [],
    });
  });
});
