import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { realServers, settled, tableColumns } from '@tolk/testing';
import { expectError, startLocaleService, type LocaleService } from './locale-harness.js';
import { replicaTables } from '@tolk/projects';
import { LOCALE_PROJECT_COLUMNS } from '../src/index.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const sourceChanged = (projectId: string, version: number) => service.sourceChanged(projectId, version);

async function applied(eventId: string, times = 1): Promise<void> {
  await expect
    .poll(async () => service.consumed(eventId).length, {
      ...settled,
      message: `event ${eventId} consumed ${times} time(s)`,
    })
    .toBeGreaterThanOrEqual(times);
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
    const poison = '{"this is": "not an envelope"';
    await service.sendToQueue(poison);
    const wrongData = JSON.stringify({
      id: randomUUID(),
      type: 'SourceChanged',
      occurredAt: Date.now(),
      producer: 'test',
      data: { projectId: 'prj_x', version: 'two' },
    });
    await service.sendToQueue(wrongData);
    await expect
      .poll(async () => service.deadLettered.length, { ...settled, message: 'both in the dead-letter queue' })
      .toBeGreaterThanOrEqual(2);
    expect(service.deadLettered).toEqual(expect.arrayContaining([poison, wrongData]));

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
    await vi.waitFor(async () => {
      const response = await service.call('GET', `/v1/projects/${project.projectId}/locales`, {
        as: project.owner,
      });
      expect(response.status, 'locales gone').toBe(404);
      return response;
    }, settled);
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

  it('when the version not heard of lost a plural form, then the Polish forms are counted against it', async () => {
    const project = await quiet.projectWithLocales(['pl']);
    const { projectId, owner } = project;
    const v1 = { item_zero: 'No items', item_one: '{{count}} item', item_other: '{{count}} items' };
    await quiet.putSource(projectId, owner, v1);
    const forms = {
      item_one: '{{count}} przedmiot',
      item_few: '{{count}} przedmioty',
      item_many: '{{count}} przedmiotów',
      item_other: '{{count}} przedmiotu',
    };
    const first = await quiet.putTranslations(projectId, 'pl', owner, 1, { item_zero: 'Brak', ...forms });
    expect(first.body).toMatchObject({
      status: 'up_to_date',
      sourceVersion: 1,
      syncedVersion: 1,
      keyCount: 5,
    });

    // Version 2 drops item_zero; locale-service hears of it only through the upload made from it.
    const { item_zero: _dropped, ...v2 } = v1;
    expect((await quiet.putSource(projectId, owner, v2)).version).toBe(2);
    expect(await quiet.getLocale(projectId, 'pl', owner)).toMatchObject({
      sourceVersion: 1,
      status: 'up_to_date',
    });
    const second = await quiet.putTranslations(projectId, 'pl', owner, 2, { item_one: forms.item_one });
    expect(second.body).toMatchObject({
      status: 'behind',
      sourceVersion: 2,
      syncedVersion: 0,
      keyCount: 4,
      translatedCount: 1,
      missingCount: 3,
    });
    const third = await quiet.putTranslations(projectId, 'pl', owner, 2, forms);
    expect(third.body).toMatchObject({
      status: 'up_to_date',
      sourceVersion: 2,
      syncedVersion: 2,
      keyCount: 4,
    });
    await quiet.waitForPendingDiff(projectId, owner, { added: [], modified: [], deleted: [] });
  });
});

describe('the status with i18next plural groups under duplicate, late and reordered events', () => {
  const V1 = { title: 'Cart', item_one: '{{count}} item', item_other: '{{count}} items' };
  const V2 = { ...V1, item_one: 'One item' };
  const V3 = { ...V2, title: 'Basket' };
  const POLISH = {
    title: 'Koszyk',
    item_one: '{{count}} przedmiot',
    item_few: '{{count}} przedmioty',
    item_many: '{{count}} przedmiotów',
    item_other: '{{count}} przedmiotu',
  };
  const FORMS = ['item_one', 'item_few', 'item_many', 'item_other'];

  it('when the same event is delivered again, then it applies once and the Polish forms stay counted', async () => {
    const project = await service.projectWithLocales(['pl']);
    await service.putSource(project.projectId, project.owner, V1);
    await service.waitForSourceVersion(project.projectId, 'pl', project.owner, 1);
    expect(
      (await service.putTranslations(project.projectId, 'pl', project.owner, 1, POLISH)).body,
    ).toMatchObject({ status: 'up_to_date', keyCount: 5, translatedCount: 5 });

    const event = await sourceChanged(project.projectId, 1);
    await service.bus.publish(event);
    await applied(event.id, 2);
    expect(service.consumed(event.id)).toEqual([true, false]);
    expect(await service.getLocale(project.projectId, 'pl', project.owner)).toMatchObject({
      status: 'up_to_date',
      syncedVersion: 1,
      keyCount: 5,
      translatedCount: 5,
    });
  });

  it('when older versions arrive after a newer one, out of order, then the group outdated by the newer one stays so', async () => {
    const project = await service.projectWithLocales(['pl']);
    await service.putSource(project.projectId, project.owner, V1);
    await service.waitForSourceVersion(project.projectId, 'pl', project.owner, 1);
    expect((await service.putTranslations(project.projectId, 'pl', project.owner, 1, POLISH)).status).toBe(
      200,
    );
    await service.putSource(project.projectId, project.owner, V2);
    await service.putSource(project.projectId, project.owner, V3);
    await service.waitForSourceVersion(project.projectId, 'pl', project.owner, 3);
    const expected = {
      status: 'behind',
      syncedVersion: 1,
      sourceVersion: 3,
      keyCount: 5,
      translatedCount: 0,
      outdatedCount: 5,
      missing: [],
      outdated: ['title', ...FORMS],
    };
    expect(await service.getLocale(project.projectId, 'pl', project.owner)).toMatchObject(expected);

    // Version 2's event and then version 1's again, as new messages (redeliveries after a crash).
    for (const version of [2, 1]) {
      const late = { ...(await sourceChanged(project.projectId, version)), id: randomUUID() };
      await service.bus.publish(late);
      await applied(late.id);
      expect(service.consumed(late.id)).toEqual([true]);
      expect(await service.getLocale(project.projectId, 'pl', project.owner)).toMatchObject(expected);
    }
  });

  it('when a form is removed from the source, then the baseline stays where the translations were made until every locale catches up', async () => {
    const project = await service.projectWithLocales(['pl', 'de']);
    const { projectId, owner } = project;
    await service.putSource(projectId, owner, { ...V1, item_zero: 'No items' });
    await service.waitForSourceVersion(projectId, 'de', owner, 1);
    const german = { title: 'Warenkorb', item_one: '{{count}} Artikel', item_other: '{{count}} Artikel' };
    for (const [locale, translations] of [
      ['de', { ...german, item_zero: 'Keine Artikel' }],
      ['pl', { ...POLISH, item_zero: 'Brak przedmiotów' }],
    ] as const) {
      const response = await service.putTranslations(projectId, locale, owner, 1, translations);
      expect(response.body).toMatchObject({ status: 'up_to_date', syncedVersion: 1 });
    }
    await service.waitForPendingDiff(projectId, owner, { added: [], modified: [], deleted: [] });

    // No value changed, a form went: every form is outdated, and what is left to do is its removal.
    await service.putSource(projectId, owner, V1);
    await service.waitForSourceVersion(projectId, 'de', owner, 2);
    expect(await service.getLocale(projectId, 'de', owner)).toMatchObject({
      status: 'behind',
      syncedVersion: 1,
      outdated: ['item_one', 'item_other'],
    });
    await service.waitForPendingDiff(projectId, owner, { added: [], modified: [], deleted: ['item_zero'] });

    expect((await service.putTranslations(projectId, 'de', owner, 2, german)).body).toMatchObject({
      status: 'up_to_date',
      syncedVersion: 2,
    });
    const { item_one, item_few, item_many, item_other, title } = POLISH;
    const polish = { title, item_one, item_few, item_many, item_other };
    expect((await service.putTranslations(projectId, 'pl', owner, 2, polish)).body).toMatchObject({
      status: 'up_to_date',
      syncedVersion: 2,
    });
    await service.waitForPendingDiff(projectId, owner, { added: [], modified: [], deleted: [] });
    const baselines = (await service.outboxRows(projectId))
      .filter((row) => row.type === 'TranslationBaselineChanged')
      .map((row) => row.payload.data['baselineVersion']);
    expect(baselines).toEqual([1, 2]);
  });

  it('when the plural setting changes, then the synced version and the baseline follow it', async () => {
    const project = await service.projectWithLocales(['pl']);
    const { projectId, owner, ownerId } = project;
    await service.putSource(projectId, owner, V1);
    await service.waitForSourceVersion(projectId, 'pl', owner, 1);
    // English's forms only: with groups, Polish lacks few and many.
    const plain = { title: 'Koszyk', item_one: POLISH.item_one, item_other: POLISH.item_other };
    expect((await service.putTranslations(projectId, 'pl', owner, 1, plain)).body).toMatchObject({
      status: 'behind',
      syncedVersion: 0,
    });

    await service.patchProject(ownerId, projectId, { settings: { i18nextPlurals: false } });
    await service.waitForLocale(projectId, 'pl', owner, 'up to date', (l) => l['status'] === 'up_to_date');
    await service.waitForPendingDiff(projectId, owner, { added: [], modified: [], deleted: [] });

    await service.patchProject(ownerId, projectId, { settings: { i18nextPlurals: true } });
    const behind = await service.waitForLocale(
      projectId,
      'pl',
      owner,
      'behind',
      (l) => l['status'] === 'behind',
    );
    expect(behind).toMatchObject({ syncedVersion: 0, missing: ['item_few', 'item_many'] });
    await service.waitForPendingDiff(projectId, owner, {
      added: ['title', 'item_one', 'item_other'],
      modified: [],
      deleted: [],
    });
    const baselines = (await service.outboxRows(projectId))
      .filter((row) => row.type === 'TranslationBaselineChanged')
      .map((row) => row.payload.data['baselineVersion']);
    expect(baselines).toEqual([1, 0]);
  });
});

describe('the project replica', () => {
  it('when its migrations have run, then its tables are exactly the shared definition with its columns', async () => {
    const expected = replicaTables(LOCALE_PROJECT_COLUMNS);
    for (const table of ['projects', 'deleted_projects']) {
      const columns = [...expected[table]!].sort((a, b) => (a.name < b.name ? -1 : 1));
      expect(await tableColumns(service.db, table), table).toEqual(columns);
    }
  });
});

describe('SourceChanged beside a change of the same project', () => {
  it('when an upload or a refresh holds the project’s baseline, then the consumer waits for it before locking any locale row', async () => {
    const project = await service.projectWithLocales(['ar', 'de']);
    await service.putSource(project.projectId, project.owner, { a: 'A' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holder!: (pid: number) => void;
    const holding = new Promise<number>((resolve) => (holder = resolve));
    // What an upload or a refresh does first: the baseline's lock; then, later, locale rows.
    const lockedLocales = service.db.transaction(async (tx) => {
      await tx.query(`SELECT 1 FROM baselines WHERE project_id = $1 FOR UPDATE`, [project.projectId]);
      const { rows } = await tx.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`);
      holder(rows[0]!.pid);
      await released;
      const locked = await tx.query<{ locale: string }>(
        `SELECT locale FROM locales WHERE project_id = $1 ORDER BY locale FOR UPDATE NOWAIT`,
        [project.projectId],
      );
      return locked.rows.map((row) => row.locale);
    });
    const pid = await holding;

    await service.putSource(project.projectId, project.owner, { a: 'A', b: 'B' });
    // The consumer's transaction waits on the baseline, holding no locale row.
    await expect
      .poll(async () => {
        const { rows } = await service.db.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`,
          [pid],
        );
        return rows[0]!.waiting;
      }, settled)
      .toBe(1);
    // It is the consumer that waits: the source head has not moved yet.
    const head = await service.db.query<{ version: number }>(
      `SELECT version FROM source_heads WHERE project_id = $1`,
      [project.projectId],
    );
    expect(head.rows[0]!.version).toBe(1);
    release();
    expect(await lockedLocales).toStrictEqual(['ar', 'de']);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
  });
});
