import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessBus } from '@tolk/bus';
import { createLogger } from '@tolk/logger';
import { openService } from '@tolk/service';
import { listen, request } from '@tolk/testing';
import { projectService } from '../src/index.js';
import { INTERNAL_SECRET, expectError, startProjectService, type ProjectService } from './project-harness.js';

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService();
});
afterAll(async () => {
  await service?.close();
});

async function raw(method: string, path: string, rawBody: string, contentType = 'application/json') {
  const { userId } = await service.signUp();
  return request(`${service.url}${path}`, {
    method,
    rawBody,
    headers: { ...(await service.as(userId)), 'content-type': contentType },
  });
}

describe('request bodies', () => {
  const BODY_ROUTES: Array<[string, string]> = [
    ['POST', '/v1/projects'],
    ['PATCH', '/v1/projects/prj_any'],
    ['POST', '/v1/projects/prj_any/members'],
  ];

  it.each(BODY_ROUTES)('when the JSON is malformed on %s %s, then 400 INVALID_JSON', async (method, path) => {
    expectError(await raw(method, path, '{"name": "x",'), 400, 'INVALID_JSON');
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('when the body is %s, then 400 VALIDATION_ERROR about the body', async (_case, rawBody) => {
    const { userId } = await service.signUp();
    const project = await service.createProject(userId);
    for (const [method, path] of [
      ['POST', '/v1/projects'],
      ['PATCH', `/v1/projects/${project.projectId}`],
      ['POST', `/v1/projects/${project.projectId}/members`],
    ]) {
      const response = await request(`${service.url}${path}`, {
        method,
        rawBody,
        headers: { ...(await service.as(userId)), 'content-type': 'application/json' },
      });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe('body: must be a JSON object');
    }
  });

  it.each([
    ['POST', 'the name', '{"name":"Site \\ud800","sourceLocale":"en"}', 'body.name (\\ud800)'],
    [
      'POST',
      'the settings',
      '{"name":"Site","sourceLocale":"en","settings":{"instructions":"Be brief \\udfff"}}',
      'body.settings.instructions (\\udfff)',
    ],
    ['PATCH', 'the name', '{"name":"\\ud800"}', 'body.name (\\ud800)'],
    ['PATCH', 'the settings', '{"settings":{"model":"m\\udbff"}}', 'body.settings.model (\\udbff)'],
  ])(
    'when %s holds a lone surrogate in %s, then 400 VALIDATION_ERROR naming the path and nothing changes',
    async (method, _field, rawBody, where) => {
      const [path, surrogate] = where.split(' ');
      const { userId } = await service.signUp();
      const project = await service.createProject(userId);
      const response = await request(
        `${service.url}/v1/projects${method === 'PATCH' ? `/${project.projectId}` : ''}`,
        { method, rawBody, headers: { ...(await service.as(userId)), 'content-type': 'application/json' } },
      );
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe(
        `${path}: must be well-formed Unicode, not a lone surrogate ${surrogate}`,
      );
      const list = await service.call('GET', '/v1/projects', { as: await service.as(userId) });
      expect(list.body.projects).toStrictEqual([project]);
    },
  );

  it.each(BODY_ROUTES)(
    'when %s %s comes with an empty body, then 400 "a JSON body is required"',
    async (method, path) => {
      const response = await raw(method, path, '');
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toBe('body: a JSON body is required');
    },
  );

  it('when the body is not sent as JSON, then 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const response = await raw(
      'POST',
      '/v1/projects',
      'name=x&sourceLocale=en',
      'application/x-www-form-urlencoded',
    );
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('when the JSON has extra fields beside the settings, then they are ignored', async () => {
    const { userId } = await service.signUp();
    const response = await service.call('POST', '/v1/projects', {
      as: await service.as(userId),
      body: {
        name: 'x',
        sourceLocale: 'en',
        role: 'member',
        projectId: 'prj_mine',
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.role).toBe('owner');
    expect(response.body.projectId).not.toBe('prj_mine');
    expect(response.body.settings).toStrictEqual({
      provider: null,
      model: null,
      instructions: null,
      i18nextPlurals: true,
      keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
      outdateOnContextChange: true,
    });
  });

  it('when the settings have an extra field, then 400 naming it: a setting is never dropped unsaid', async () => {
    const { userId } = await service.signUp();
    const response = await service.call('POST', '/v1/projects', {
      as: await service.as(userId),
      body: { name: 'x', sourceLocale: 'en', settings: { temperature: 2 } },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(/^body\.settings: settings\.temperature is not a setting;/);
  });

  it('when a field is named __proto__, then nothing is polluted and it is data like any other', async () => {
    const response = await raw(
      'POST',
      '/v1/projects',
      '{"__proto__": {"polluted": true}, "name": "x", "sourceLocale": "en", "settings": {"provider": "mistral"}}',
    );
    expect(response.status).toBe(201);
    expect(response.body.settings.provider).toBe('mistral');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // In the settings, an unknown setting like any other.
    const setting = await raw(
      'POST',
      '/v1/projects',
      '{"name": "x", "sourceLocale": "en", "settings": {"__proto__": {"provider": "openai"}}}',
    );
    expectError(setting, 400, 'VALIDATION_ERROR');
    expect(setting.body.error.message).toMatch(/^body\.settings: settings\.__proto__ is not a setting;/);
    expect(({} as Record<string, unknown>)['provider']).toBeUndefined();
  });
});

describe('routes', () => {
  it.each([
    ['PUT', '/v1/projects', 'GET, POST, HEAD'],
    ['DELETE', '/v1/projects', 'GET, POST, HEAD'],
    ['PATCH', '/v1/projects', 'GET, POST, HEAD'],
    ['POST', '/v1/projects/prj_x', 'GET, PATCH, DELETE, HEAD'],
    ['PUT', '/v1/projects/prj_x', 'GET, PATCH, DELETE, HEAD'],
    ['PUT', '/v1/projects/prj_x/members', 'GET, POST, HEAD'],
    ['DELETE', '/v1/projects/prj_x/members', 'GET, POST, HEAD'],
    ['GET', '/v1/projects/prj_x/members/usr_x', 'PATCH, DELETE'],
    ['POST', '/v1/projects/prj_x/members/usr_x', 'PATCH, DELETE'],
    ['PUT', '/v1/projects/prj_x/members/usr_x', 'PATCH, DELETE'],
  ])('when %s %s, then 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const response = await service.call(method, path, { as: await service.as('usr_any') });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('when a request id is sent, then the same id is echoed, on errors too', async () => {
    const response = await service.call('GET', '/v1/projects/prj_missing', {
      as: { ...(await service.as('usr_any')), 'x-request-id': 'req-project-123' },
    });
    expectError(response, 404, 'NOT_FOUND');
    expect(response.headers.get('x-request-id')).toBe('req-project-123');
  });

  it('when asked for health and readiness, then both answer 200 (database and RabbitMQ reachable)', async () => {
    expect((await service.call('GET', '/healthz')).status).toBe(200);
    await expect
      .poll(async () => (await service.call('GET', '/readyz')).body, { timeout: 10_000 })
      .toEqual({ status: 'ready' });
  });

  it('when RabbitMQ is not connected, then readiness answers 503 SERVICE_UNAVAILABLE', async () => {
    const logger = createLogger({ name: 'project-service', level: 'silent' });
    const bus = createInProcessBus({ logger });
    await bus.close();
    const { app } = await openService(projectService, {
      env: {
        DATABASE_URL: 'postgres://unused',
        AMQP_URL: 'amqp://unused',
        INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      },
      db: service.db,
      bus,
      logger,
    });
    const server = await listen(app);
    try {
      const response = await request(`${server.url}/readyz`);
      expect(response.status).toBe(503);
      expect(response.body).toStrictEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) },
      });
      expect((await request(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
