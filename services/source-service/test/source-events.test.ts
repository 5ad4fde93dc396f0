import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realServers, settled, tableColumns } from '@tolk/testing';
import { startSourceService, type SourceService } from './source-harness.js';
import { replicaTables } from '@tolk/projects';
import { SOURCE_PROJECT_COLUMNS } from '../src/index.js';

let service: SourceService;
beforeAll(async () => {
  service = await startSourceService();
});
afterAll(async () => {
  await service?.close();
});

const path = (projectId: string) => `/v1/projects/${projectId}/source`;

/** ProjectUpdated's data as project-service publishes it. */
function projectUpdated(projectId: string, sourceLocale: string) {
  return {
    projectId,
    name: 'Website',
    sourceLocale,
    settings: { provider: null, model: null, instructions: null },
  };
}

async function localeOf(projectId: string, as: Record<string, string>): Promise<string> {
  const response = await service.call('GET', path(projectId), { as });
  expect(response.status).toBe(200);
  return response.body.locale as string;
}

async function applied(eventId: string): Promise<void> {
  await expect
    .poll(async () => await service.processed(eventId), { ...settled, message: `event ${eventId} applied` })
    .toBe(true);
}

/** A project created in project-service with a source uploaded, so that GET shows its locale. */
async function projectWithSource() {
  const project = await service.createProject({ sourceLocale: 'en' });
  const upload = await service.call('PUT', path(project.projectId), { as: project.owner, body: { a: 'A' } });
  expect(upload.status).toBe(200);
  return project;
}

describe('project events consumed out of order or more than once', () => {
  it('when ProjectUpdated with an older occurredAt arrives after a newer one, then the source locale stays the newer one', async () => {
    const { projectId, owner } = await projectWithSource();
    const now = Date.now();
    const newer = await service.publish('ProjectUpdated', projectUpdated(projectId, 'de'), {
      occurredAt: now + 2_000,
    });
    await applied(newer.id);
    expect(await localeOf(projectId, owner)).toBe('de');

    const older = await service.publish('ProjectUpdated', projectUpdated(projectId, 'fr'), {
      occurredAt: now + 1_000,
    });
    const lateCreated = await service.publish(
      'ProjectCreated',
      { projectId, name: 'Website', sourceLocale: 'ja', ownerId: 'usr_owner' },
      { occurredAt: now },
    );
    await applied(older.id);
    await applied(lateCreated.id);
    expect(await localeOf(projectId, owner)).toBe('de');
  });

  it('when the same event id is delivered again, then it is applied once', async () => {
    const { projectId, owner } = await projectWithSource();
    const now = Date.now();
    const first = await service.publish('ProjectUpdated', projectUpdated(projectId, 'de'), {
      occurredAt: now + 1_000,
    });
    await applied(first.id);
    const second = await service.publish('ProjectUpdated', projectUpdated(projectId, 'fr'), {
      occurredAt: now + 2_000,
    });
    await applied(second.id);

    // The first event again, twice. Its occurredAt is now the latest: applied again, it would win.
    for (let i = 0; i < 2; i++) {
      await service.publish('ProjectUpdated', projectUpdated(projectId, 'it'), {
        id: first.id,
        occurredAt: now + 3_000,
      });
    }
    await expect
      .poll(async () => service.consumed(first.id), { ...settled, message: 'both redeliveries consumed' })
      .toHaveLength(3);
    expect(service.consumed(first.id)).toStrictEqual([true, false, false]);
    expect(await localeOf(projectId, owner)).toBe('fr');
    const { rows } = await service.db.query(`SELECT 1 FROM processed_events WHERE event_id = $1`, [first.id]);
    expect(rows).toHaveLength(1);
  });
});

describe('poison messages', () => {
  it('when messages cannot be applied, then they end in the dead-letter queue while a following ProjectCreated is applied', async ({
    skip,
  }) => {
    skip(!realServers().rabbitmq, 'puts an unreadable message straight on a RabbitMQ queue');
    const { projectId, owner } = await projectWithSource();
    // Data that breaks ProjectUpdated's contract: a locale that is no string; no name nor settings.
    const wrongType = await service.publish('ProjectUpdated', {
      ...projectUpdated(projectId, 'de'),
      sourceLocale: 42,
    });
    const incomplete = await service.publish('ProjectUpdated', { projectId, sourceLocale: 'de' });
    const unreadable = await service.sendToQueue('{"id": "not json');

    // A project project-service does not know: only its event can make it known here.
    const lateProjectId = `prj_${randomUUID().replaceAll('-', '')}`;
    const good = await service.publish('ProjectCreated', {
      projectId: lateProjectId,
      name: 'Late',
      sourceLocale: 'pt-br',
      ownerId: 'usr_owner',
    });
    await applied(good.id);
    // Not held up behind the poison, which is still being retried (5 tries take seconds).
    const deadIds = () => service.deadLettered.map((message) => message.messageId);
    expect(deadIds()).not.toContain(wrongType.id);
    expect(deadIds()).not.toContain(incomplete.id);

    await expect
      .poll(async () => deadIds().length, { ...settled, timeout: 20_000, message: 'poison dead-lettered' })
      .toBeGreaterThanOrEqual(3);
    expect(service.deadLettered.map(({ messageId, attempt }) => ({ messageId, attempt }))).toStrictEqual(
      expect.arrayContaining([
        { messageId: unreadable, attempt: undefined },
        { messageId: wrongType.id, attempt: 5 },
        { messageId: incomplete.id, attempt: 5 },
      ]),
    );
    expect(service.deadLettered).toHaveLength(3);
    expect(await service.processed(wrongType.id)).toBe(false);
    expect(await service.processed(incomplete.id)).toBe(false);
    expect(await localeOf(projectId, owner)).toBe('en');

    const { rows } = await service.db.query(`SELECT source_locale FROM projects WHERE project_id = $1`, [
      lateProjectId,
    ]);
    expect(rows).toStrictEqual([{ source_locale: 'pt-BR' }]);
  }, 30_000);
});

describe('the project replica', () => {
  it('when its migrations have run, then its tables are exactly the shared definition with its columns', async () => {
    const expected = replicaTables(SOURCE_PROJECT_COLUMNS);
    for (const table of ['projects', 'deleted_projects']) {
      const columns = [...expected[table]!].sort((a, b) => (a.name < b.name ? -1 : 1));
      expect(await tableColumns(service.db, table), table).toEqual(columns);
    }
  });
});
