import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INTERNAL_CALLER_HEADER, sourceKeyCharactersResponseSchema } from '@tolk/contracts';
import { createInternalCallerSigner } from '@tolk/http';
import { expectError, INTERNAL_SECRET, startSourceService, type SourceService } from './source-harness.js';

/** Small enough that a few keys pass it: 1,000 steps of rule work. */
const BUDGET = 1_000;

let service: SourceService;
beforeAll(async () => {
  service = await startSourceService({ env: { KEY_RULES_BUDGET: String(BUDGET) } });
});
afterAll(async () => {
  await service?.close();
});

const signCaller = createInternalCallerSigner(INTERNAL_SECRET, 'project-service');

async function keyCharacters(projectId: string) {
  const response = await fetch(`${service.url}/internal/projects/${projectId}/source/key-characters`, {
    headers: { [INTERNAL_CALLER_HEADER]: await signCaller() },
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** A source of `count` keys of 10 characters each (`key.00000`…). */
function source(count: number): Record<string, Record<string, string>> {
  const keys = Array.from({ length: count }, (_, i) => [String(i).padStart(5, '0'), `Value ${i}`]);
  return { key_: Object.fromEntries(keys) };
}

describe('the key rules of an upload', () => {
  it('when the rules over the uploaded keys pass the budget, then 400 VALIDATION_ERROR naming it, and nothing is stored', async () => {
    // Three lists: 3 steps a character; 100 keys of 10 characters: 3,000 steps.
    const rules = { humanOnly: ['legal.*'], neverTranslate: ['**.url'], exclude: ['debug.**'] };
    const { projectId, owner } = await service.createProject({ settings: { keyRules: rules } });
    const url = `/v1/projects/${projectId}/source`;

    for (const dryRun of [true, false]) {
      const refused = await service.call('PUT', `${url}${dryRun ? '?dryRun=true' : ''}`, {
        as: owner,
        body: source(100),
      });
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(refused.body.error.message).toBe(
        "body: checking the source's keys (1000 characters) against the key rules would take up to " +
          `3000 steps (3 a character), over the budget of ${BUDGET}: use fewer or simpler patterns, ` +
          'or fewer keys; nothing was stored',
      );
    }
    expectError(await service.call('GET', url, { as: owner }), 404, 'NOT_FOUND');

    const within = await service.call('PUT', url, { as: owner, body: source(30) });
    expect(within.status).toBe(200);
    expect(within.body).toMatchObject({ version: 1, keyCount: 30 });
  });

  it('when the rules change after the project is known, then the next upload is held to the new ones', async () => {
    const { projectId, owner, ownerId } = await service.createProject();
    const url = `/v1/projects/${projectId}/source`;
    expect((await service.call('PUT', url, { as: owner, body: source(50) })).status).toBe(200);

    await service.patchProject(ownerId, projectId, { settings: { keyRules: { exclude: ['debug.**'] } } });
    // A dry run until ProjectUpdated has reached source-service: it stores nothing either way.
    await vi.waitFor(
      async () => {
        const tried = await service.call('PUT', `${url}?dryRun=true`, { as: owner, body: source(150) });
        expectError(tried, 400, 'VALIDATION_ERROR');
      },
      { timeout: 10_000, interval: 50 },
    );
    expectError(await service.call('PUT', url, { as: owner, body: source(150) }), 400, 'VALIDATION_ERROR');
    const current = await service.call('GET', url, { as: owner });
    expect(current.body).toMatchObject({ version: 1, keyCount: 50 });
  });
});

describe('the key rules of a project known before source-service kept them', () => {
  it('when its replica row has no rules yet (as the migration leaves it), then the upload asks project-service and is held to them', async () => {
    const rules = { humanOnly: ['legal.*'], neverTranslate: ['**.url'], exclude: ['debug.**'] };
    const { projectId, owner } = await service.createProject({ settings: { keyRules: rules } });
    const url = `/v1/projects/${projectId}/source`;
    expect((await service.call('PUT', url, { as: owner, body: source(30) })).status).toBe(200);
    // What an existing row holds after the migration: its rules not known.
    await service.db.query(`UPDATE projects SET key_rules = NULL WHERE project_id = $1`, [projectId]);

    const refused = await service.call('PUT', url, { as: owner, body: source(100) });
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect(refused.body.error.message).toContain(`over the budget of ${BUDGET}`);
    const { rows } = await service.db.query<{ key_rules: unknown }>(
      `SELECT key_rules FROM projects WHERE project_id = $1`,
      [projectId],
    );
    expect(rows[0]?.key_rules).toStrictEqual(rules);
    expect((await service.call('GET', url, { as: owner })).body).toMatchObject({ version: 1, keyCount: 30 });
  });
});

describe('GET /internal/projects/:projectId/source/key-characters', () => {
  it('when a project has a source, then its current version and its keys’ characters; 0 before the first upload', async () => {
    const { projectId, owner } = await service.createProject();
    expect(await keyCharacters(projectId)).toEqual({
      status: 200,
      body: { version: 0, keyCount: 0, keyCharacters: 0 },
    });
    await service.call('PUT', `/v1/projects/${projectId}/source`, { as: owner, body: source(7) });
    const answer = await keyCharacters(projectId);
    expect(sourceKeyCharactersResponseSchema.parse(answer.body)).toEqual({
      version: 1,
      keyCount: 7,
      keyCharacters: 70,
    });
  });

  it('when the project was deleted, then 404', async () => {
    const { projectId, ownerId } = await service.createProject();
    await service.deleteProject(ownerId, projectId);
    await vi.waitFor(async () => expect((await keyCharacters(projectId)).status).toBe(404), {
      timeout: 10_000,
      interval: 50,
    });
  });
});
