import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_PROVIDERS } from '@tolk/contracts';
import { projectListResponseSchema, projectResponseSchema } from '@tolk/contracts';
import { expectError, startProjectService, type ProjectService } from './project-harness.js';

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService();
});
afterAll(async () => {
  await service?.close();
});

const NO_SETTINGS = {
  provider: null,
  model: null,
  instructions: null,
  i18nextPlurals: true,
  keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
  outdateOnContextChange: true,
};

/** An owner, a member and an outsider of one new project. */
async function projectWithMember() {
  const owner = await service.signUp();
  const member = await service.signUp();
  const outsider = await service.signUp();
  const project = await service.createProject(owner.userId);
  await service.addMember(owner.userId, project.projectId, member.email, 'member');
  return { owner, member, outsider, project };
}

describe('POST /v1/projects', () => {
  it('when the input is valid, then 201 with exactly the Project, the creator its owner', async () => {
    const { userId } = await service.signUp();
    const before = Date.now();

    const response = await service.call('POST', '/v1/projects', {
      as: await service.as(userId),
      body: { name: 'Marketing site', sourceLocale: 'en' },
    });

    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const project = projectResponseSchema.parse(response.body);
    expect(Object.keys(response.body)).toEqual([
      'projectId',
      'name',
      'sourceLocale',
      'settings',
      'role',
      'createdAt',
      'updatedAt',
    ]);
    expect(project).toStrictEqual({
      projectId: expect.stringMatching(/^prj_[0-9a-f]{32}$/),
      name: 'Marketing site',
      sourceLocale: 'en',
      settings: NO_SETTINGS,
      role: 'owner',
      createdAt: expect.any(Number),
      updatedAt: project.createdAt,
    });
    expect(project.createdAt).toBeGreaterThanOrEqual(before);
    expect(project.createdAt).toBeLessThanOrEqual(Date.now());
  });

  it('when the name has surrounding spaces, then it is stored trimmed', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId, { name: '  Docs  ' });
    expect(project.name).toBe('Docs');
  });

  it('when the name is exactly 200 characters, then it is accepted', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId, { name: 'n'.repeat(200) });
    expect(project.name).toHaveLength(200);
  });

  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['pt-br', 'pt-BR'],
    ['PT-br', 'pt-BR'],
    ['zh-hk', 'zh-HK'],
    ['fil', 'fil'],
    ['yue-hkg', 'yue-HKG'],
  ])('when the source locale is %s, then it is stored canonically as %s', async (given, stored) => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId, { sourceLocale: given });
    expect(project.sourceLocale).toBe(stored);
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(userId),
    });
    expect(read.body.sourceLocale).toBe(stored);
  });

  it('when settings are given, then they are stored and the rest are null', async () => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId, {
      settings: { provider: 'anthropic', model: ' claude ' },
    });
    expect(project.settings).toStrictEqual({
      provider: 'anthropic',
      model: 'claude',
      instructions: null,
      i18nextPlurals: true,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
    });
  });

  it.each(AI_PROVIDERS)('when the provider is %s, then it is accepted', async (provider) => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId, { settings: { provider } });
    expect(project.settings.provider).toBe(provider);
  });

  it.each([
    ['no fields', {}, /^body\.name: is required; body\.sourceLocale: is required$/],
    ['an empty name', { name: '', sourceLocale: 'en' }, /^body\.name: must not be empty$/],
    ['a blank name', { name: '   ', sourceLocale: 'en' }, /^body\.name: must not be empty$/],
    [
      'a name of 201 characters',
      { name: 'n'.repeat(201), sourceLocale: 'en' },
      /^body\.name: must be at most 200/,
    ],
    ['a number as name', { name: 42, sourceLocale: 'en' }, /^body\.name: must be a string$/],
    ['a null name', { name: null, sourceLocale: 'en' }, /^body\.name: must be a string$/],
    [
      'a name with a line break',
      { name: 'a\nb', sourceLocale: 'en' },
      /^body\.name: must not contain control/,
    ],
    ['a name with NUL', { name: 'a\u0000b', sourceLocale: 'en' }, /^body\.name: must not contain control/],
    [
      'a locale in words',
      { name: 'x', sourceLocale: 'english' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale: a source locale is/,
    ],
    [
      'an underscore locale',
      { name: 'x', sourceLocale: 'en_US' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale/,
    ],
    [
      'a one-letter locale',
      { name: 'x', sourceLocale: 'e' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale/,
    ],
    [
      'a dangling dash',
      { name: 'x', sourceLocale: 'en-' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale/,
    ],
    [
      'a numeric region',
      { name: 'x', sourceLocale: 'es-419' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale/,
    ],
    [
      'a four-letter region',
      { name: 'x', sourceLocale: 'en-USAA' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale/,
    ],
    [
      'a padded locale',
      { name: 'x', sourceLocale: ' en' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale/,
    ],
    [
      'an empty locale',
      { name: 'x', sourceLocale: '' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale/,
    ],
    ['a number as locale', { name: 'x', sourceLocale: 7 }, /^body\.sourceLocale: must be a string$/],
    [
      'settings as a string',
      { name: 'x', sourceLocale: 'en', settings: 'x' },
      /^body\.settings: must be a JSON object$/,
    ],
    [
      'an unknown provider',
      { name: 'x', sourceLocale: 'en', settings: { provider: 'gpt' } },
      /^body\.settings\.provider: must be one of openai, anthropic, google, mistral, deepseek, openrouter, or null$/,
    ],
    [
      'a provider in upper case',
      { name: 'x', sourceLocale: 'en', settings: { provider: 'OpenAI' } },
      /^body\.settings\.provider: must be one of/,
    ],
    [
      'a model of 201 characters',
      { name: 'x', sourceLocale: 'en', settings: { model: 'm'.repeat(201) } },
      /^body\.settings\.model: must be at most 200 characters$/,
    ],
    [
      'a number as model',
      { name: 'x', sourceLocale: 'en', settings: { model: 4 } },
      /^body\.settings\.model: must be a string or null$/,
    ],
    [
      'a model with a line break',
      { name: 'x', sourceLocale: 'en', settings: { model: 'gpt\n4' } },
      /^body\.settings\.model: must not contain control characters$/,
    ],
    [
      'instructions with NUL',
      { name: 'x', sourceLocale: 'en', settings: { instructions: 'a\u0000b' } },
      /^body\.settings\.instructions: must not contain control characters$/,
    ],
    [
      'instructions of 10,001 characters',
      { name: 'x', sourceLocale: 'en', settings: { instructions: 'i'.repeat(10_001) } },
      /^body\.settings\.instructions: must be at most 10000 characters$/,
    ],
    [
      'an unknown setting beside known ones',
      { name: 'x', sourceLocale: 'en', settings: { provider: 'openai', fooBar: 1 } },
      /^body\.settings: settings\.fooBar is not a setting; the settings are provider, model, instructions, i18nextPlurals, keyRules, outdateOnContextChange$/,
    ],
  ])('when the body has %s, then 400 VALIDATION_ERROR naming the field', async (_case, body, message) => {
    const { userId } = await service.signUp();
    const response = await service.call('POST', '/v1/projects', { as: await service.as(userId), body });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(message);
    const list = await service.call('GET', '/v1/projects', { as: await service.as(userId) });
    expect(list.body.projects).toEqual([]);
  });

  it('when the instructions are 10,000 characters with line breaks, then they are stored as given', async () => {
    const { userId } = await service.signUp();
    const instructions = `Formal tone.\n\tKeep brand names.\n${'i'.repeat(10_000 - 32)}`;
    expect(instructions).toHaveLength(10_000);
    const project = await service.createProject(userId, { settings: { instructions } });
    expect(project.settings.instructions).toBe(instructions);
  });

  it('when there is no principal, then 401 UNAUTHORIZED and nothing is created', async () => {
    const response = await service.call('POST', '/v1/projects', { body: { name: 'x', sourceLocale: 'en' } });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('when the caller is a project token, then 403 FORBIDDEN', async () => {
    const response = await service.call('POST', '/v1/projects', {
      as: await service.asProjectToken('prj_any', 'read_write'),
      body: { name: 'x', sourceLocale: 'en' },
    });
    expectError(response, 403, 'FORBIDDEN');
  });
});

describe('GET /v1/projects', () => {
  it("when the caller owns some projects and is a member of others, then all of them newest first, each with the caller's role", async () => {
    const me = await service.signUp();
    const colleague = await service.signUp();
    const first = await service.createProject(me.userId, { name: 'First' });
    const theirs = await service.createProject(colleague.userId, { name: 'Theirs' });
    await service.addMember(colleague.userId, theirs.projectId, me.email, 'member');
    const last = await service.createProject(me.userId, { name: 'Last' });
    await service.createProject(colleague.userId, { name: 'Not mine' });

    const response = await service.call('GET', '/v1/projects', { as: await service.as(me.userId) });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { projects } = projectListResponseSchema.parse(response.body);
    expect(projects).toStrictEqual([last, { ...theirs, role: 'member' }, first]);
  });

  it('when the caller has no projects, then an empty list', async () => {
    const { userId } = await service.signUp();
    const response = await service.call('GET', '/v1/projects', { as: await service.as(userId) });
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ projects: [] });
  });

  it('when there is no principal, then 401; a project token, then 403', async () => {
    expectError(await service.call('GET', '/v1/projects'), 401, 'UNAUTHORIZED');
    expectError(
      await service.call('GET', '/v1/projects', { as: await service.asProjectToken('prj_any') }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /v1/projects/:projectId', () => {
  it('when the caller is the owner, then 200 with the project as created', async () => {
    const { owner, project } = await projectWithMember();
    const response = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(response.status).toBe(200);
    expect(projectResponseSchema.parse(response.body)).toStrictEqual(project);
  });

  it('when the caller is a member, then 200 with role member', async () => {
    const { member, project } = await projectWithMember();
    const response = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(member.userId),
    });
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ ...project, role: 'member' });
  });

  it('when the caller is not a member, then 404 NOT_FOUND, as for a project that does not exist', async () => {
    const { outsider, project } = await projectWithMember();
    const asOutsider = await service.as(outsider.userId);
    const hidden = await service.call('GET', `/v1/projects/${project.projectId}`, { as: asOutsider });
    const missing = await service.call('GET', '/v1/projects/prj_00000000000000000000000000000000', {
      as: asOutsider,
    });
    expectError(hidden, 404, 'NOT_FOUND');
    expectError(missing, 404, 'NOT_FOUND');
    expect(hidden.body).toStrictEqual(missing.body);
  });

  it.each([
    ['a NUL byte', '%00'],
    ['a space', 'prj%20x'],
    ['non-ASCII', '%C3%A9t%C3%A9'],
    ['an over-long id', 'p'.repeat(300)],
  ])('when the id holds %s, then 404 NOT_FOUND, never a 500', async (_case, id) => {
    const { userId } = await service.signUp();
    const as = await service.as(userId);
    for (const [method, path] of [
      ['GET', `/v1/projects/${id}`],
      ['PATCH', `/v1/projects/${id}`],
      ['DELETE', `/v1/projects/${id}`],
      ['GET', `/v1/projects/${id}/members`],
      ['POST', `/v1/projects/${id}/members`],
      ['DELETE', `/v1/projects/${id}/members/${id}`],
    ] as const) {
      const body =
        method === 'PATCH' ? { name: 'x' } : method === 'POST' ? { email: 'a@example.com' } : undefined;
      expectError(await service.call(method, path, { as, body }), 404, 'NOT_FOUND');
    }
  });

  it('when the id is malformed percent-encoding, then 400 VALIDATION_ERROR, never a 500', async () => {
    const { userId } = await service.signUp();
    const response = await service.call('GET', '/v1/projects/%E0%A4%A', { as: await service.as(userId) });
    expectError(response, 400, 'VALIDATION_ERROR');
  });

  it('when the caller is a read token of this project, then 200 with the project and a null role', async () => {
    const { project } = await projectWithMember();
    const response = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.asProjectToken(project.projectId, 'read'),
    });
    expect(response.status).toBe(200);
    expect(projectResponseSchema.parse(response.body)).toStrictEqual({ ...project, role: null });
  });

  it('when the caller is a token of another project, then 404', async () => {
    const { project } = await projectWithMember();
    const other = await projectWithMember();
    const response = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.asProjectToken(other.project.projectId, 'read_write'),
    });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('when there is no principal, then 401 UNAUTHORIZED', async () => {
    const { project } = await projectWithMember();
    expectError(await service.call('GET', `/v1/projects/${project.projectId}`), 401, 'UNAUTHORIZED');
  });
});

describe('PATCH /v1/projects/:projectId', () => {
  async function patch(userId: string, projectId: string, body: unknown) {
    return service.call('PATCH', `/v1/projects/${projectId}`, { as: await service.as(userId), body });
  }

  it('when the owner renames, then 200 with the new name, everything else unchanged, updatedAt moved', async () => {
    const { owner, project } = await projectWithMember();

    const response = await patch(owner.userId, project.projectId, { name: '  Renamed ' });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const updated = projectResponseSchema.parse(response.body);
    expect(updated).toStrictEqual({ ...project, name: 'Renamed', updatedAt: expect.any(Number) });
    expect(updated.updatedAt).toBeGreaterThanOrEqual(project.updatedAt);
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(read.body).toStrictEqual(updated);
  });

  it('when the source locale changes, then it is stored canonically', async () => {
    const { owner, project } = await projectWithMember();
    const response = await patch(owner.userId, project.projectId, { sourceLocale: 'DE-at' });
    expect(response.status).toBe(200);
    expect(response.body.sourceLocale).toBe('de-AT');
  });

  it('when settings are patched, then they merge field by field; null or blank clears one', async () => {
    const { owner, project } = await projectWithMember();

    const first = await patch(owner.userId, project.projectId, {
      settings: { provider: 'openai', model: 'gpt-4o' },
    });
    expect(first.body.settings).toStrictEqual({
      provider: 'openai',
      model: 'gpt-4o',
      instructions: null,
      i18nextPlurals: true,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
    });

    const second = await patch(owner.userId, project.projectId, { settings: { instructions: 'Be brief.' } });
    expect(second.body.settings).toStrictEqual({
      provider: 'openai',
      model: 'gpt-4o',
      instructions: 'Be brief.',
      i18nextPlurals: true,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
    });

    const third = await patch(owner.userId, project.projectId, {
      settings: { model: null, instructions: '  ' },
    });
    expect(third.body.settings).toStrictEqual({
      provider: 'openai',
      model: null,
      instructions: null,
      i18nextPlurals: true,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
    });

    const fourth = await patch(owner.userId, project.projectId, {
      name: 'Both',
      settings: { provider: null },
    });
    expect(fourth.body).toMatchObject({ name: 'Both', settings: NO_SETTINGS });
  });

  it('when the patch changes nothing, then 200 with the project as it was, updatedAt unchanged', async () => {
    const { owner, project } = await projectWithMember();
    const response = await patch(owner.userId, project.projectId, {
      name: project.name,
      sourceLocale: project.sourceLocale.toUpperCase(),
      settings: {},
    });
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual(project);
  });

  it.each([
    ['an empty object', {}, /^body: must contain at least one of name, sourceLocale, settings$/],
    [
      'only unknown fields',
      { title: 'x' },
      /^body: must contain at least one of name, sourceLocale, settings$/,
    ],
    ['an empty name', { name: ' ' }, /^body\.name: must not be empty$/],
    ['a null name', { name: null }, /^body\.name: must be a string$/],
    [
      'a bad locale',
      { sourceLocale: 'en-us-x' },
      /^body\.sourceLocale: "[^"]*" cannot be a source locale: a source locale is/,
    ],
    ['null settings', { settings: null }, /^body\.settings: must be a JSON object$/],
    ['an unknown provider', { settings: { provider: 'llama' } }, /^body\.settings\.provider: must be one of/],
    ['a long model', { settings: { model: 'm'.repeat(201) } }, /^body\.settings\.model: must be at most 200/],
    [
      'a plural-key setting that is not a boolean',
      { settings: { i18nextPlurals: 'no' } },
      /^body\.settings\.i18nextPlurals: must be true or false$/,
    ],
    [
      'a context setting that is not a boolean',
      { settings: { outdateOnContextChange: 1 } },
      /^body\.settings\.outdateOnContextChange: must be true or false$/,
    ],
    [
      'an unknown setting',
      { settings: { fooBar: 1 } },
      /^body\.settings: settings\.fooBar is not a setting; the settings are provider, model, instructions, i18nextPlurals, keyRules, outdateOnContextChange$/,
    ],
    [
      'two unknown settings beside a known one, and a bad value',
      { settings: { model: 'gpt-4o', i18nextplurals: false, theme: 'dark', provider: 'gpt' } },
      /^body\.settings\.provider: must be one of .*; body\.settings: settings\.i18nextplurals, settings\.theme are not settings; the settings are provider, /,
    ],
    [
      'a setting in the wrong case',
      { settings: { Provider: 'openai' } },
      /^body\.settings: settings\.Provider is not a setting;/,
    ],
  ])(
    'when the body is %s, then 400 VALIDATION_ERROR naming the field and nothing changes',
    async (_case, body, message) => {
      const { owner, project } = await projectWithMember();
      const response = await patch(owner.userId, project.projectId, body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toMatch(message);
      const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
        as: await service.as(owner.userId),
      });
      expect(read.body).toStrictEqual(project);
    },
  );

  it('when stored key rules hold a list of another name, then the project reads without it and the next change leaves it out', async () => {
    const { owner, project } = await projectWithMember();
    // Only another writer of the row could have stored it: requests never could.
    await service.db.query(
      `UPDATE projects SET key_rules = '{"humanOnly": ["legal.*"], "exclude": [], "fooBar": ["x"]}'::jsonb
        WHERE project_id = $1`,
      [project.projectId],
    );
    const keyRules = { humanOnly: ['legal.*'], neverTranslate: [], exclude: [] };
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(read.status).toBe(200);
    expect(projectResponseSchema.parse(read.body).settings.keyRules).toStrictEqual(keyRules);

    const changed = await patch(owner.userId, project.projectId, { settings: { model: 'gpt-4o' } });
    expect(changed.status).toBe(200);
    expect(changed.body.settings.keyRules).toStrictEqual(keyRules);
    const { rows } = await service.db.query<{ key_rules: unknown }>(
      `SELECT key_rules FROM projects WHERE project_id = $1`,
      [project.projectId],
    );
    expect(rows[0]!.key_rules).toStrictEqual(keyRules);
  });

  it('when there is no body at all, then 400 VALIDATION_ERROR', async () => {
    const { owner, project } = await projectWithMember();
    const response = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe('body: a JSON body is required');
  });

  it('when a member patches, then 403 FORBIDDEN and nothing changes', async () => {
    const { owner, member, project } = await projectWithMember();
    expectError(await patch(member.userId, project.projectId, { name: 'Mine now' }), 403, 'FORBIDDEN');
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(read.body.name).toBe(project.name);
  });

  it('when a non-member patches, or the project does not exist, then 404 NOT_FOUND', async () => {
    const { outsider, project } = await projectWithMember();
    expectError(await patch(outsider.userId, project.projectId, { name: 'x' }), 404, 'NOT_FOUND');
    expectError(await patch(outsider.userId, 'prj_missing', { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('when the caller is a project token, then 403 FORBIDDEN', async () => {
    const { project } = await projectWithMember();
    const response = await service.call('PATCH', `/v1/projects/${project.projectId}`, {
      as: await service.asProjectToken(project.projectId, 'read_write'),
      body: { name: 'x' },
    });
    expectError(response, 403, 'FORBIDDEN');
  });

  it('when two owners patch different settings at once, then both changes survive', async () => {
    const { owner, project } = await projectWithMember();
    const coOwner = await service.signUp();
    await service.addMember(owner.userId, project.projectId, coOwner.email, 'owner');

    await Promise.all([
      patch(owner.userId, project.projectId, { settings: { model: 'one' } }),
      patch(coOwner.userId, project.projectId, { settings: { instructions: 'two' } }),
    ]);

    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(read.body.settings).toStrictEqual({
      provider: null,
      model: 'one',
      instructions: 'two',
      i18nextPlurals: true,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
    });
  });
});

describe('DELETE /v1/projects/:projectId', () => {
  it('when the owner deletes, then 204 and the project and its memberships are gone', async () => {
    const { owner, member, project } = await projectWithMember();

    const response = await service.call('DELETE', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    for (const user of [owner, member]) {
      const as = await service.as(user.userId);
      expectError(await service.call('GET', `/v1/projects/${project.projectId}`, { as }), 404, 'NOT_FOUND');
      const list = await service.call('GET', '/v1/projects', { as });
      expect(list.body.projects).toEqual([]);
    }
    const { rows } = await service.db.query(
      `SELECT 1 FROM projects WHERE project_id = $1 UNION ALL SELECT 1 FROM project_members WHERE project_id = $1`,
      [project.projectId],
    );
    expect(rows).toEqual([]);
  });

  it('when it is deleted twice, then the second answer is 404 NOT_FOUND', async () => {
    const { owner, project } = await projectWithMember();
    const as = await service.as(owner.userId);
    expect((await service.call('DELETE', `/v1/projects/${project.projectId}`, { as })).status).toBe(204);
    expectError(await service.call('DELETE', `/v1/projects/${project.projectId}`, { as }), 404, 'NOT_FOUND');
  });

  it('when a member deletes, then 403 FORBIDDEN and the project stays', async () => {
    const { owner, member, project } = await projectWithMember();
    const response = await service.call('DELETE', `/v1/projects/${project.projectId}`, {
      as: await service.as(member.userId),
    });
    expectError(response, 403, 'FORBIDDEN');
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(read.status).toBe(200);
  });

  it('when a non-member deletes, then 404 NOT_FOUND and the project stays', async () => {
    const { owner, outsider, project } = await projectWithMember();
    const response = await service.call('DELETE', `/v1/projects/${project.projectId}`, {
      as: await service.as(outsider.userId),
    });
    expectError(response, 404, 'NOT_FOUND');
    const read = await service.call('GET', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(read.status).toBe(200);
  });

  it('when the caller is a project token, then 403 FORBIDDEN', async () => {
    const { project } = await projectWithMember();
    const response = await service.call('DELETE', `/v1/projects/${project.projectId}`, {
      as: await service.asProjectToken(project.projectId, 'read_write'),
    });
    expectError(response, 403, 'FORBIDDEN');
  });
});
