/**
 * Projects through the one public entry: the real gateway in front of the real identity- and
 * project-service, on real Postgres, RabbitMQ and Redis — create, list, share by email, leave,
 * delete, as a dashboard or the CLI would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from './system.js';

describe('projects through the gateway', () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem();
  });
  afterAll(async () => {
    await system?.close();
  });

  const call: System['call'] = (...args) => system.call(...args);
  const signUp = () => system.signUp();

  it('when a user creates a project and shares it by email, then both see it with their roles', async () => {
    const owner = await signUp();
    const colleague = await signUp();
    const outsider = await signUp();

    const created = await call('POST', '/v1/projects', owner.token, { name: 'App', sourceLocale: 'pt-br' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'App', sourceLocale: 'pt-BR', role: 'owner' });
    const projectPath = `/v1/projects/${created.body.projectId}`;

    const added = await call('POST', `${projectPath}/members`, owner.token, { email: colleague.email });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ userId: colleague.userId, email: colleague.email, role: 'member' });

    const listed = await call('GET', '/v1/projects', colleague.token);
    expect(listed.body.projects).toEqual([{ ...created.body, role: 'member' }]);
    const members = await call('GET', `${projectPath}/members`, colleague.token);
    expect(members.body.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'member']);

    expect((await call('GET', projectPath, outsider.token)).status).toBe(404);
    expect((await call('PATCH', projectPath, colleague.token, { name: 'Mine' })).status).toBe(403);

    expect((await call('DELETE', `${projectPath}/members/${colleague.userId}`, colleague.token)).status).toBe(
      204,
    );
    expect((await call('GET', projectPath, colleague.token)).status).toBe(404);

    expect((await call('DELETE', projectPath, owner.token)).status).toBe(204);
    expect((await call('GET', projectPath, owner.token)).status).toBe(404);
  });

  it('when an owner patches an unknown setting, then 400 naming it and the known ones, and nothing changes; the document says settings are closed', async () => {
    const owner = await signUp();
    const created = await call('POST', '/v1/projects', owner.token, { name: 'App', sourceLocale: 'en' });
    const projectPath = `/v1/projects/${created.body.projectId}`;

    const patched = await call('PATCH', projectPath, owner.token, {
      settings: { fooBar: 1, model: 'gpt-4o' },
    });
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message:
          'body.settings: settings.fooBar is not a setting; the settings are provider, model, instructions, ' +
          'i18nextPlurals, keyRules, outdateOnContextChange',
      },
    });
    expect((await call('GET', projectPath, owner.token)).body).toEqual(created.body);

    const document = await call('GET', '/v1/openapi.json');
    for (const name of ['CreateProjectRequest', 'UpdateProjectRequest']) {
      const settings = document.body.components.schemas[name].properties.settings;
      expect(settings.additionalProperties, name).toBe(false);
      expect(settings.properties.keyRules.additionalProperties, name).toBe(false);
    }
  });

  it('when a client asks the gateway for an internal route, then it is not there', async () => {
    const owner = await signUp();
    const created = await call('POST', '/v1/projects', owner.token, { name: 'App', sourceLocale: 'en' });
    const internal = await call(
      'GET',
      `/internal/projects/${created.body.projectId}/members/${owner.userId}`,
      owner.token,
    );
    expect(internal.status).toBe(404);
    const viaPath = await call(
      'GET',
      `/v1/projects/${created.body.projectId}/members/../../../internal/users`,
      owner.token,
    );
    expect(viaPath.status).toBe(404);
  });

  it('without a token, then 401 from the gateway', async () => {
    const response = await call('GET', '/v1/projects');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });
});
