import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventEnvelopeSchema, internalProjectResponseSchema, projectEventDataSchemas } from '@tolk/contracts';
import { projectResponseSchema } from '@tolk/contracts';
import { expectError, startProjectService, type ProjectService } from './project-harness.js';

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService();
});
afterAll(async () => {
  await service?.close();
});

const NO_RULES = { humanOnly: [], neverTranslate: [], exclude: [] };

async function patch(userId: string, projectId: string, body: unknown) {
  return service.call('PATCH', `/v1/projects/${projectId}`, { as: await service.as(userId), body });
}

async function read(userId: string, projectId: string) {
  return service.call('GET', `/v1/projects/${projectId}`, { as: await service.as(userId) });
}

/** The data of the project's events of `type`, in the order written, each held to its contract. */
async function eventData<T extends 'ProjectCreated' | 'ProjectUpdated'>(type: T, projectId: string) {
  const rows = (await service.outboxRows(projectId)).filter((row) => row.type === type);
  const schema = projectEventDataSchemas[type] as (typeof projectEventDataSchemas)[T];
  return rows.map(
    (row) => schema.parse(eventEnvelopeSchema.parse(row.payload).data) as z.infer<typeof schema>,
  );
}

const BAD_RULES: [string, unknown, RegExp][] = [
  [
    'an unbalanced bracket',
    { exclude: ['legal.['] },
    /^body\.settings\.keyRules\.exclude\.0: "legal\.\[" is not a valid glob pattern: Missing closing: "\]"/,
  ],
  [
    'an unbalanced parenthesis in the second pattern',
    { neverTranslate: ['brand.name', '@(a|b'] },
    /^body\.settings\.keyRules\.neverTranslate\.1: "@\(a\|b" is not a valid glob pattern: Missing closing: "\)"/,
  ],
  [
    'an unbalanced brace',
    { humanOnly: ['legal.{terms,privacy'] },
    /^body\.settings\.keyRules\.humanOnly\.0: "legal\.\{terms,privacy" is not a valid glob pattern: Missing closing: "\}"/,
  ],
  [
    'a negated pattern',
    { exclude: ['!legal.*'] },
    /^body\.settings\.keyRules\.exclude\.0: "!legal\.\*" is not a valid glob pattern: negation \(a leading "!"\) is not supported$/,
  ],
  [
    'an empty pattern',
    { humanOnly: ['legal.*', ''] },
    /^body\.settings\.keyRules\.humanOnly\.1: must not be empty$/,
  ],
  ['a blank pattern', { exclude: ['  '] }, /^body\.settings\.keyRules\.exclude\.0: must not be empty$/],
  [
    'a pattern of 501 characters',
    { neverTranslate: ['k'.repeat(501)] },
    /^body\.settings\.keyRules\.neverTranslate\.0: must be at most 500 characters \(501 given\)$/,
  ],
  [
    '201 patterns in a list',
    { exclude: Array.from({ length: 201 }, (_, i) => `key${i}`) },
    /^body\.settings\.keyRules\.exclude: must hold at most 200 patterns \(201 given\)$/,
  ],
  [
    'a number as a pattern',
    { humanOnly: [42] },
    /^body\.settings\.keyRules\.humanOnly\.0: must be a string \(a glob pattern\)$/,
  ],
  [
    'null as a pattern',
    { exclude: ['a', null] },
    /^body\.settings\.keyRules\.exclude\.1: must be a string \(a glob pattern\)$/,
  ],
  [
    'a string as a list',
    { exclude: 'legal.*' },
    /^body\.settings\.keyRules\.exclude: must be an array of glob patterns$/,
  ],
  [
    'a list of an unknown name',
    { humanonly: ['legal.*'] },
    /^body\.settings\.keyRules: has no list humanonly: the lists are humanOnly, neverTranslate, exclude$/,
  ],
  [
    'an array as the rules',
    ['legal.*'],
    /^body\.settings\.keyRules: must be a JSON object with the lists humanOnly, neverTranslate, exclude$/,
  ],
  [
    'null as the rules',
    null,
    /^body\.settings\.keyRules: must be a JSON object with the lists humanOnly, neverTranslate, exclude$/,
  ],
];

describe('settings.keyRules', () => {
  it('when a project is created, then its key rules are three empty lists', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId);
    expect(project.settings.keyRules).toStrictEqual(NO_RULES);
    const [created] = await eventData('ProjectCreated', project.projectId);
    expect(created!.keyRules).toStrictEqual(NO_RULES);
  });

  it('when a project is created with key rules, then they are stored as given and ProjectCreated carries them', async () => {
    const { userId } = await service.signUp();
    const response = await service.call('POST', '/v1/projects', {
      as: await service.as(userId),
      body: {
        name: 'Shop',
        sourceLocale: 'en',
        settings: { keyRules: { neverTranslate: ['brand.name', '**.url'], exclude: ['debug.**'] } },
      },
    });
    expect(response.status).toBe(201);
    const project = projectResponseSchema.parse(response.body);
    const rules = { humanOnly: [], neverTranslate: ['brand.name', '**.url'], exclude: ['debug.**'] };
    expect(project.settings.keyRules).toStrictEqual(rules);
    expect((await read(userId, project.projectId)).body.settings.keyRules).toStrictEqual(rules);
    expect(await eventData('ProjectCreated', project.projectId)).toStrictEqual([
      {
        projectId: project.projectId,
        name: 'Shop',
        sourceLocale: 'en',
        ownerId: userId,
        i18nextPlurals: true,
        keyRules: rules,
        outdateOnContextChange: true,
      },
    ]);
  });

  it('when lists are patched, then each list given replaces that list, the others stay, and ProjectUpdated carries them all', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId);

    const first = await patch(userId, project.projectId, {
      settings: { keyRules: { humanOnly: ['legal.*'], exclude: ['internal.**'] } },
    });
    expect(first.status).toBe(200);
    expect(first.body.settings.keyRules).toStrictEqual({
      humanOnly: ['legal.*'],
      neverTranslate: [],
      exclude: ['internal.**'],
    });

    const second = await patch(userId, project.projectId, {
      settings: { keyRules: { exclude: [], neverTranslate: ['brand.{name,slogan}'] } },
    });
    const rules = { humanOnly: ['legal.*'], neverTranslate: ['brand.{name,slogan}'], exclude: [] };
    expect(second.body.settings.keyRules).toStrictEqual(rules);
    expect((await read(userId, project.projectId)).body.settings.keyRules).toStrictEqual(rules);

    const updates = await eventData('ProjectUpdated', project.projectId);
    expect(updates.map((data) => data.settings.keyRules)).toStrictEqual([
      first.body.settings.keyRules,
      rules,
    ]);

    const internal = await service.call('GET', `/internal/projects/${project.projectId}`, {
      as: await service.asInternalCaller(),
    });
    expect(internalProjectResponseSchema.parse(internal.body).keyRules).toStrictEqual(rules);
  });

  it('when the same rules are patched again, then nothing changes and no event is written', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId);
    const rules = { humanOnly: ['legal.*'], neverTranslate: [], exclude: [] };
    const first = await patch(userId, project.projectId, { settings: { keyRules: rules } });
    const again = await patch(userId, project.projectId, {
      settings: { keyRules: { humanOnly: ['legal.*'] } },
    });
    expect(again.body.updatedAt).toBe(first.body.updatedAt);
    expect(await eventData('ProjectUpdated', project.projectId)).toHaveLength(1);
  });

  it('when patterns are 500 characters and 200 to a list, then they are stored', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId);
    const exclude = Array.from({ length: 200 }, (_, i) => `${i}.${'k'.repeat(500 - String(i).length - 1)}`);
    const response = await patch(userId, project.projectId, { settings: { keyRules: { exclude } } });
    expect(response.status).toBe(200);
    expect(response.body.settings.keyRules.exclude).toStrictEqual(exclude);
  });

  it.each(BAD_RULES)(
    'when a patch has %s, then 400 VALIDATION_ERROR naming the list and pattern, and nothing is stored',
    async (_case, keyRules, message) => {
      const { userId } = await service.signUp();
      const project = await service.createProject(userId);
      const response = await patch(userId, project.projectId, {
        name: 'Renamed',
        settings: { model: 'm', keyRules },
      });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toMatch(message);
      expect((await read(userId, project.projectId)).body).toStrictEqual(project);
      expect(await eventData('ProjectUpdated', project.projectId)).toEqual([]);
    },
  );

  it.each(BAD_RULES)(
    'when a new project has %s, then 400 VALIDATION_ERROR and no project is made',
    async (_case, keyRules, message) => {
      const { userId } = await service.signUp();
      const response = await service.call('POST', '/v1/projects', {
        as: await service.as(userId),
        body: { name: 'x', sourceLocale: 'en', settings: { keyRules } },
      });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toMatch(message);
      const list = await service.call('GET', '/v1/projects', { as: await service.as(userId) });
      expect(list.body.projects).toEqual([]);
    },
  );

  it('when two lists have bad patterns, then the message names every one', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId);
    const response = await patch(userId, project.projectId, {
      settings: { keyRules: { humanOnly: ['a.['], exclude: ['', 'ok.*'] } },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(
      /^body\.settings\.keyRules\.humanOnly\.0: "a\.\[" is not a valid glob pattern: .*; body\.settings\.keyRules\.exclude\.0: must not be empty$/,
    );
  });
});

describe('the cost of settings.keyRules', () => {
  /** 60 patterns each of which has too many cases to determinise: each costs its size a character. */
  const COSTLY = Array.from({ length: 60 }, (_, i) => `**.k${i}${'.*'.repeat(14)}`);
  const REAL = { humanOnly: ['legal.**'], neverTranslate: ['**.url', 'brand.name'], exclude: ['debug.**'] };

  it('when rules cost more than 2,000 steps a key character, then 400 VALIDATION_ERROR naming the cost, and nothing is stored', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId);
    const response = await patch(userId, project.projectId, { settings: { keyRules: { exclude: COSTLY } } });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(
      /^body\.settings\.keyRules: these key rules take \d+ steps for each character of a key, more than the 2000 allowed: use fewer or simpler patterns/,
    );
    expect((await read(userId, project.projectId)).body).toStrictEqual(project);
    expect(await eventData('ProjectUpdated', project.projectId)).toEqual([]);

    const created = await service.call('POST', '/v1/projects', {
      as: await service.as(userId),
      body: { name: 'x', sourceLocale: 'en', settings: { keyRules: { exclude: COSTLY } } },
    });
    expectError(created, 400, 'VALIDATION_ERROR');
  });

  it("when the rules' work over the project's source passes the budget, then 400 VALIDATION_ERROR naming it, and nothing is stored", async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId);
    // Three lists, one step a character each, over 40 million characters of keys: 120 million steps.
    service.setSourceKeyCharacters(project.projectId, 40_000_000);
    const response = await patch(userId, project.projectId, { settings: { keyRules: REAL } });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe(
      "body.settings.keyRules: checking the source's keys (40000000 characters) against the key rules " +
        'would take up to 120000000 steps (3 a character), over the budget of 100000000: use fewer or ' +
        'simpler patterns, or fewer keys',
    );
    expect((await read(userId, project.projectId)).body).toStrictEqual(project);
    expect(await eventData('ProjectUpdated', project.projectId)).toEqual([]);

    // One list less: 80 million steps.
    const fewer = await patch(userId, project.projectId, {
      settings: { keyRules: { ...REAL, humanOnly: [] } },
    });
    expect(fewer.status).toBe(200);
    // Other settings never ask what the rules cost.
    service.setSourceKeyCharacters(project.projectId, 400_000_000);
    expect((await patch(userId, project.projectId, { settings: { model: 'm' } })).status).toBe(200);
  });

  it('when a member who is no owner patches rules, then 403 and their cost is not told', async () => {
    const { member, project } = await service.projectWithMember();
    const response = await patch(member.userId, project.projectId, {
      settings: { keyRules: { exclude: COSTLY } },
    });
    expectError(response, 403, 'FORBIDDEN');
  });
});

describe('settings.keyRules while source-service is down', () => {
  let down: ProjectService;
  beforeAll(async () => {
    down = await startProjectService({ sourceUrl: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await down?.close();
  });

  it('when rules are patched, then 503 and nothing is stored; other settings still change', async () => {
    const { userId } = await down.signUp();
    const project = await down.createProject(userId);
    const as = await down.as(userId);
    const path = `/v1/projects/${project.projectId}`;
    const rules = await down.call('PATCH', path, {
      as,
      body: { settings: { keyRules: { exclude: ['a.*'] } } },
    });
    expectError(rules, 503, 'SERVICE_UNAVAILABLE');
    expect((await down.call('GET', path, { as })).body.settings.keyRules.exclude).toEqual([]);
    expect((await down.call('PATCH', path, { as, body: { name: 'Renamed' } })).status).toBe(200);
  });
});
