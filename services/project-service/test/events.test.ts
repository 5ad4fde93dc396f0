import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventEnvelopeSchema, projectEventDataSchemas } from '@tolk/contracts';
import { realServers, settled } from '@tolk/testing';
import { expectError, startProjectService, type ProjectService } from './project-harness.js';

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService();
});
afterAll(async () => {
  await service?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function types(projectId: string): Promise<string[]> {
  return (await service.outboxRows(projectId)).map((row) => row.type);
}

/** The one event of `type` about the project: in the outbox at once, then delivered unchanged. */
async function expectEvent(type: keyof typeof projectEventDataSchemas, projectId: string, data: object) {
  const rows = (await service.outboxRows(projectId)).filter((row) => row.type === type);
  expect(rows).toHaveLength(1);
  const envelope = eventEnvelopeSchema.parse(rows[0]!.payload);
  expect(envelope).toStrictEqual({
    id: expect.stringMatching(UUID),
    type,
    occurredAt: expect.any(Number),
    producer: 'project-service',
    data,
  });
  expect(projectEventDataSchemas[type].parse(envelope.data)).toStrictEqual(data);

  await expect.poll(() => service.deliveredOf(type, projectId), settled).not.toHaveLength(0);
  const delivered = service.deliveredOf(type, projectId);
  expect(delivered).toHaveLength(1);
  expect(delivered[0]!.envelope).toStrictEqual(envelope);
  // The message properties are RabbitMQ's; the in-process bus of a run without it has none.
  if (realServers().rabbitmq) {
    expect(delivered[0]!.message).toStrictEqual({
      messageId: envelope.id,
      appId: 'project-service',
      persistent: true,
      routingKey: type,
    });
  }
  return envelope;
}

describe('events of project changes', () => {
  it('when a project is created, then ProjectCreated is in the outbox with the change and reaches RabbitMQ', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId, { name: 'Shop', sourceLocale: 'pt-br' });

    const envelope = await expectEvent('ProjectCreated', project.projectId, {
      projectId: project.projectId,
      name: 'Shop',
      sourceLocale: 'pt-BR',
      ownerId: owner.userId,
      i18nextPlurals: true,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
    });
    expect(envelope.occurredAt).toBe(project.createdAt);
  });

  it('when a project is updated, then ProjectUpdated carries its state after the change', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);

    const response = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
      body: { sourceLocale: 'en-gb', settings: { provider: 'mistral', instructions: 'Keep it short.' } },
    });
    expect(response.status).toBe(200);

    const envelope = await expectEvent('ProjectUpdated', project.projectId, {
      projectId: project.projectId,
      name: project.name,
      sourceLocale: 'en-GB',
      settings: {
        provider: 'mistral',
        model: null,
        instructions: 'Keep it short.',
        i18nextPlurals: true,
        keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
        outdateOnContextChange: true,
      },
    });
    expect(envelope.occurredAt).toBe(response.body.updatedAt);
  });

  it('when plural-key recognition is turned off, then ProjectUpdated says so', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    const response = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
      body: { settings: { i18nextPlurals: false, outdateOnContextChange: false } },
    });
    expect(response.status).toBe(200);
    expect(response.body.settings.i18nextPlurals).toBe(false);
    await expectEvent('ProjectUpdated', project.projectId, {
      projectId: project.projectId,
      name: project.name,
      sourceLocale: project.sourceLocale,
      settings: {
        provider: null,
        model: null,
        instructions: null,
        i18nextPlurals: false,
        keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
        outdateOnContextChange: false,
      },
    });
  });

  it('when a patch changes nothing, then no event is written', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    const response = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
      body: { name: project.name },
    });
    expect(response.status).toBe(200);
    expect(await types(project.projectId)).toEqual(['ProjectCreated']);
  });

  it('when a project is deleted, then ProjectDeleted is written with the deletion and reaches RabbitMQ', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    const response = await service.call('DELETE', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(response.status).toBe(204);

    await expectEvent('ProjectDeleted', project.projectId, { projectId: project.projectId });
  });

  it('when a member is added and removed, then each change publishes ProjectMembershipChanged saying which', async () => {
    const owner = await service.signUp();
    const member = await service.signUp();
    const project = await service.createProject(owner.userId);
    await service.addMember(owner.userId, project.projectId, member.email);
    const rows = await service.outboxRows(project.projectId);
    expect(rows.map((row) => [row.type, row.payload.data])).toEqual([
      ['ProjectCreated', expect.anything()],
      ['ProjectMembershipChanged', { projectId: project.projectId, userId: member.userId, change: 'added' }],
    ]);

    const removed = await service.call(
      'DELETE',
      `/v1/projects/${project.projectId}/members/${member.userId}`,
      {
        as: await service.as(member.userId),
      },
    );
    expect(removed.status).toBe(204);

    const membershipEvents = () =>
      service.delivered
        .filter((d) => d.envelope.type === 'ProjectMembershipChanged')
        .filter((d) => d.envelope.data['projectId'] === project.projectId)
        .map((d) => d.envelope.data);
    await expect.poll(membershipEvents, { timeout: 10_000 }).toEqual([
      { projectId: project.projectId, userId: member.userId, change: 'added' },
      { projectId: project.projectId, userId: member.userId, change: 'removed' },
    ]);
  });

  it('when one project changes several times, then its events arrive in the order of the changes', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    const as = await service.as(owner.userId);
    for (const name of ['Two', 'Three']) {
      await service.call('PATCH', `/v1/projects/${project.projectId}`, { as, body: { name } });
    }
    await service.call('DELETE', `/v1/projects/${project.projectId}`, { as });

    await expect
      .poll(() => service.deliveredOf('ProjectDeleted', project.projectId), settled)
      .not.toHaveLength(0);
    const arrived = service.delivered
      .filter((d) => d.envelope.data['projectId'] === project.projectId)
      .map((d) => [d.envelope.type, d.envelope.data['name']]);
    expect(arrived).toEqual([
      ['ProjectCreated', 'Website'],
      ['ProjectUpdated', 'Two'],
      ['ProjectUpdated', 'Three'],
      ['ProjectDeleted', undefined],
    ]);
  });

  it("when the request carries a request id, then the outbox row keeps it for the event's headers", async () => {
    const owner = await service.signUp();
    const response = await service.call('POST', '/v1/projects', {
      as: { ...(await service.as(owner.userId)), 'x-request-id': 'req-project-events-1' },
      body: { name: 'Traced', sourceLocale: 'en' },
    });
    expect(response.status).toBe(201);
    const { rows } = await service.db.query<{ request_id: string }>(
      `SELECT request_id FROM outbox WHERE payload -> 'data' ->> 'projectId' = $1`,
      [response.body.projectId],
    );
    expect(rows).toEqual([{ request_id: 'req-project-events-1' }]);
  });

  it('when a change is refused, then no event is written', async () => {
    const owner = await service.signUp();
    const member = await service.signUp();
    const project = await service.createProject(owner.userId);
    await service.addMember(owner.userId, project.projectId, member.email);
    const before = await types(project.projectId);

    const asMember = await service.as(member.userId);
    const asOwner = await service.as(owner.userId);
    const path = `/v1/projects/${project.projectId}`;
    expect((await service.call('PATCH', path, { as: asMember, body: { name: 'x' } })).status).toBe(403);
    expect((await service.call('PATCH', path, { as: asOwner, body: { name: '' } })).status).toBe(400);
    expect((await service.call('DELETE', path, { as: asMember })).status).toBe(403);
    expect(
      (await service.call('POST', `${path}/members`, { as: asOwner, body: { email: member.email } })).status,
    ).toBe(409);
    expect((await service.call('DELETE', `${path}/members/${owner.userId}`, { as: asOwner })).status).toBe(
      409,
    );

    expect(await types(project.projectId)).toEqual(before);
  });
});

describe('a change and its event commit together or not at all', () => {
  // The failure is injected at pg_notify, the last statement of enqueueEvent: the change and the
  // outbox row were both written by then, inside the transaction that then fails.
  const AFTER_THE_OUTBOX_ROW = /pg_notify/;

  it('when creating fails after the outbox insert, then neither the project nor ProjectCreated exists', async () => {
    const owner = await service.signUp();
    service.failNextTransactionAt(AFTER_THE_OUTBOX_ROW);

    const response = await service.call('POST', '/v1/projects', {
      as: await service.as(owner.userId),
      body: { name: 'Doomed', sourceLocale: 'en' },
    });

    expectError(response, 500, 'INTERNAL_ERROR');
    const list = await service.call('GET', '/v1/projects', { as: await service.as(owner.userId) });
    expect(list.body.projects).toEqual([]);
    const { rows } = await service.db.query(
      `SELECT 1 FROM outbox WHERE payload -> 'data' ->> 'ownerId' = $1`,
      [owner.userId],
    );
    expect(rows).toEqual([]);
  });

  it('when creating fails at the outbox insert itself, then the project is not created either', async () => {
    const owner = await service.signUp();
    service.failNextTransactionAt(/INSERT INTO projects\.outbox/);
    const response = await service.call('POST', '/v1/projects', {
      as: await service.as(owner.userId),
      body: { name: 'Doomed', sourceLocale: 'en' },
    });
    expectError(response, 500, 'INTERNAL_ERROR');
    const list = await service.call('GET', '/v1/projects', { as: await service.as(owner.userId) });
    expect(list.body.projects).toEqual([]);
  });

  it('when updating fails after the outbox insert, then the project is unchanged and there is no ProjectUpdated', async () => {
    const owner = await service.signUp();
    const project = await service.createProject(owner.userId);
    service.failNextTransactionAt(AFTER_THE_OUTBOX_ROW);

    const response = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
      body: { name: 'Changed', settings: { provider: 'google' } },
    });

    expectError(response, 500, 'INTERNAL_ERROR');
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(read.body).toStrictEqual(project);
    expect(await types(project.projectId)).toEqual(['ProjectCreated']);
  });

  it('when deleting fails after the outbox insert, then the project and its members stay and there is no ProjectDeleted', async () => {
    const owner = await service.signUp();
    const member = await service.signUp();
    const project = await service.createProject(owner.userId);
    await service.addMember(owner.userId, project.projectId, member.email);
    service.failNextTransactionAt(AFTER_THE_OUTBOX_ROW);

    const response = await service.call('DELETE', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });

    expectError(response, 500, 'INTERNAL_ERROR');
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(member.userId),
    });
    expect(read.body).toStrictEqual({ ...project, role: 'member' });
    expect(await types(project.projectId)).toEqual(['ProjectCreated', 'ProjectMembershipChanged']);
  });

  it('when adding a member fails after the outbox insert, then they are no member and there is no event', async () => {
    const owner = await service.signUp();
    const newcomer = await service.signUp();
    const project = await service.createProject(owner.userId);
    service.failNextTransactionAt(AFTER_THE_OUTBOX_ROW);

    const response = await service.call('POST', `/v1/projects/${project.projectId}/members`, {
      as: await service.as(owner.userId),
      body: { email: newcomer.email },
    });

    expectError(response, 500, 'INTERNAL_ERROR');
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(newcomer.userId),
    });
    expectError(read, 404, 'NOT_FOUND');
    expect(await types(project.projectId)).toEqual(['ProjectCreated']);
  });

  it('when removing a member fails after the outbox insert, then they stay and there is no new event', async () => {
    const owner = await service.signUp();
    const member = await service.signUp();
    const project = await service.createProject(owner.userId);
    await service.addMember(owner.userId, project.projectId, member.email);
    service.failNextTransactionAt(AFTER_THE_OUTBOX_ROW);

    const response = await service.call(
      'DELETE',
      `/v1/projects/${project.projectId}/members/${member.userId}`,
      {
        as: await service.as(owner.userId),
      },
    );

    expectError(response, 500, 'INTERNAL_ERROR');
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(member.userId),
    });
    expect(read.status).toBe(200);
    expect(await types(project.projectId)).toEqual(['ProjectCreated', 'ProjectMembershipChanged']);
  });

  it('when a failure happened, then the 500 tells nothing of it and the log has it with the request id', async () => {
    const owner = await service.signUp();
    service.failNextTransactionAt(AFTER_THE_OUTBOX_ROW);
    const response = await service.call('POST', '/v1/projects', {
      as: { ...(await service.as(owner.userId)), 'x-request-id': 'req-doomed-1' },
      body: { name: 'Doomed', sourceLocale: 'en' },
    });
    expectError(response, 500, 'INTERNAL_ERROR');
    expect(response.text).not.toContain('injected');
    const line = service.logLines.find((l) => l.includes('injected failure') && l.includes('req-doomed-1'));
    expect(line).toBeDefined();
  });
});
