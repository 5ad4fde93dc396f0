import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeResponseSchema, translationsResponseSchema } from '@tolk/contracts';
import { claimedByModel, expectError, startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService({
    env: {
      LOCALE_MAX_BODY_BYTES: '4096',
      LOCALE_MAX_KEYS: '50',
      LOCALE_MAX_VALUE_LENGTH: '200',
      LOCALE_MAX_VALUE_BRACES: '10',
    },
  });
});
afterAll(async () => {
  await service?.close();
});

const SOURCE = {
  title: 'Welcome, {name}!',
  items: '{count, plural, one {# item} other {# items}}',
  link: 'Read the <a href="/terms">terms</a>',
  steps: ['First', 'Second'],
};

/** A project with `de` added and SOURCE uploaded, its SourceChanged consumed. */
async function readyProject() {
  const project = await service.projectWithLocales(['de']);
  await service.putSource(project.projectId, project.owner, SOURCE);
  await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);
  return project;
}

const localesPath = (projectId: string, rest = '') => `/v1/projects/${projectId}/locales${rest}`;

describe('POST /v1/projects/:projectId/locales', () => {
  it('when the locale is written in any case, then it is stored canonically and every field is there', async () => {
    const project = await service.createProject();
    const response = await service.call('POST', localesPath(project.projectId), {
      as: project.owner,
      body: { locale: 'PT-br' },
    });
    expect(response.status).toBe(201);
    expect(localeResponseSchema.parse(response.body)).toStrictEqual({
      locale: 'pt-BR',
      status: 'up_to_date',
      syncedVersion: 0,
      sourceVersion: 0,
      keyCount: 0,
      translatedCount: 0,
      missingCount: 0,
      outdatedCount: 0,
      errorCount: 0,
      warningCount: 0,
      updatedAt: expect.any(Number),
    });
    expect(Math.abs((response.body.updatedAt as number) - Date.now())).toBeLessThan(60_000);
  });

  it('when the locale is already there, then 409 CONFLICT', async () => {
    const project = await service.projectWithLocales(['de']);
    const response = await service.call('POST', localesPath(project.projectId), {
      as: project.owner,
      body: { locale: 'DE' },
    });
    expectError(response, 409, 'CONFLICT');
  });

  it('when the locale is the project source locale, then 400 VALIDATION_ERROR', async () => {
    const project = await service.createProject({ sourceLocale: 'en' });
    const response = await service.call('POST', localesPath(project.projectId), {
      as: project.owner,
      body: { locale: 'EN' },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain('source locale');
  });

  it.each([
    ['no locale', {}, 'is required'],
    ['a number', { locale: 7 }, 'must be a string'],
    ['a malformed code', { locale: 'english' }, 'not a BCP 47 locale code'],
    ['a subtag of one letter', { locale: 'pt-B' }, 'not a BCP 47 locale code'],
    ['an array body', ['de'], 'JSON object'],
  ])('when the body has %s, then 400 VALIDATION_ERROR naming the problem', async (_what, body, message) => {
    const project = await service.createProject();
    const response = await service.call('POST', localesPath(project.projectId), { as: project.owner, body });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain(message);
  });

  it('when the body is not JSON or not application/json, then 400 INVALID_JSON or 415', async () => {
    const project = await service.createProject();
    const broken = await service.call('POST', localesPath(project.projectId), {
      as: { ...project.owner, 'content-type': 'application/json' },
      rawBody: '{"locale": ',
    });
    expectError(broken, 400, 'INVALID_JSON');
    const text = await service.call('POST', localesPath(project.projectId), {
      as: { ...project.owner, 'content-type': 'text/plain' },
      rawBody: 'de',
    });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('when a project API token adds a locale, then 403; another project token, then 404', async () => {
    const project = await service.createProject();
    const token = await service.asProjectToken(project.projectId, 'read_write');
    expectError(
      await service.call('POST', localesPath(project.projectId), { as: token, body: { locale: 'de' } }),
      403,
      'FORBIDDEN',
    );
    const other = await service.asProjectToken('prj_someone_else', 'read_write');
    expectError(await service.call('GET', localesPath(project.projectId), { as: other }), 404, 'NOT_FOUND');
  });

  it('when the project does not exist, then 404', async () => {
    const owner = await service.as('usr_nobody');
    expectError(
      await service.call('GET', localesPath('prj_does_not_exist'), { as: owner }),
      404,
      'NOT_FOUND',
    );
  });

  it('when an unsupported method is used, then 405 with Allow', async () => {
    const project = await service.createProject();
    const response = await service.call('PATCH', localesPath(project.projectId), {
      as: project.owner,
      body: {},
    });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toContain('POST');
  });
});

describe('GET and DELETE /v1/projects/:projectId/locales/:locale', () => {
  it('when the locale is not a target locale, then 404; when the code is malformed, then 400', async () => {
    const project = await service.projectWithLocales(['de']);
    expectError(
      await service.call('GET', localesPath(project.projectId, '/fr'), { as: project.owner }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await service.call('DELETE', localesPath(project.projectId, '/fr'), { as: project.owner }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await service.call('GET', localesPath(project.projectId, '/not_a_locale'), { as: project.owner }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('when a read token reads a locale, then 200; when it deletes one, then 403', async () => {
    const project = await service.projectWithLocales(['de']);
    const read = await service.asProjectToken(project.projectId, 'read');
    expect((await service.call('GET', localesPath(project.projectId, '/DE'), { as: read })).status).toBe(200);
    expectError(
      await service.call('DELETE', localesPath(project.projectId, '/de'), { as: read }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('PUT /v1/projects/:projectId/locales/:locale/translations', () => {
  const GERMAN = {
    title: 'Willkommen, {name}!',
    items: '{count, plural, one {# Artikel} other {# Artikel}}',
    link: 'Lies die <a href="/agb">AGB</a>',
    steps: ['Erstens', 'Zweitens'],
  };

  it('when the translations are good, then they are stored and downloaded in the source nesting', async () => {
    const project = await readyProject();
    const response = await service.putTranslations(project.projectId, 'de', project.owner, 1, GERMAN);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('up_to_date');
    const download = await service.call('GET', localesPath(project.projectId, '/de/translations'), {
      as: project.owner,
    });
    expect(download.status).toBe(200);
    expect(translationsResponseSchema.parse(download.body)).toMatchObject({ locale: 'de', syncedVersion: 1 });
    expect(JSON.parse(download.body.content as string)).toStrictEqual(GERMAN);
  });

  it('when the source is ARB with @@locale, then the download has the target locale in its place and no other metadata', async () => {
    const project = await service.projectWithLocales(['pt-BR']);
    await service.putSource(project.projectId, project.owner, {
      '@@locale': 'en',
      title: 'Hello',
      '@title': { description: 'Greeting' },
      '@@last_modified': '2026-01-01T00:00:00Z',
    });
    await service.waitForSourceVersion(project.projectId, 'pt-BR', project.owner, 1);
    await service.putTranslations(project.projectId, 'pt-BR', project.owner, 1, {
      '@@locale': 'en',
      title: 'Olá',
    });
    const download = await service.call('GET', localesPath(project.projectId, '/pt-br/translations'), {
      as: project.owner,
    });
    expect(download.body.content).toBe('{"@@locale":"pt-BR","title":"Olá"}');
  });

  it('when only some keys are translated, then the download holds just those and the rest are missing', async () => {
    const project = await readyProject();
    const partial = { title: GERMAN.title, steps: { 1: 'Zweitens' } };
    const response = await service.putTranslations(project.projectId, 'de', project.owner, 1, partial);
    expect(response.body).toMatchObject({ status: 'behind', translatedCount: 2, missingCount: 3 });
    const detail = await service.getLocale(project.projectId, 'de', project.owner);
    expect(detail.missing).toEqual(['items', 'link', 'steps.0']);
    const download = await service.call('GET', localesPath(project.projectId, '/de/translations'), {
      as: project.owner,
    });
    expect(JSON.parse(download.body.content as string)).toStrictEqual({
      title: GERMAN.title,
      steps: { 1: 'Zweitens' },
    });
  });

  it("when the model's placeholder is lost or invented, then 400 naming the keys and nothing of the upload is stored", async () => {
    const project = await readyProject();
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, 1, { title: GERMAN.title }))
        .status,
    ).toBe(200);
    const response = await service.putTranslations(
      project.projectId,
      'de',
      project.owner,
      1,
      claimedByModel({ ...GERMAN, title: 'Willkommen!', link: 'Lies die AGB {extra}' }),
    );
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain('"title"');
    expect(response.body.error.message).toContain('"link"');
    expect(response.body.error.message).toContain('{name}');
    const detail = await service.getLocale(project.projectId, 'de', project.owner);
    expect(detail).toMatchObject({ translatedCount: 1, missingCount: 4 });
  });

  it("when a person's placeholder is lost or invented, then it is stored, translated, with placeholder errors", async () => {
    const project = await readyProject();
    const response = await service.putTranslations(project.projectId, 'de', project.owner, 1, {
      ...GERMAN,
      title: 'Willkommen!',
      link: 'Lies die AGB {extra}',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      errorCount: 2,
      warningCount: 0,
      missingCount: 0,
      ignored: [],
      ignoredCount: 0,
    });
    const detail = await service.getLocale(project.projectId, 'de', project.owner);
    expect(detail).toMatchObject({ translatedCount: detail.keyCount, errorCount: 2 });
    expect(detail.findings).toEqual([
      {
        key: 'title',
        kind: 'placeholder',
        severity: 'error',
        message: 'placeholders differ from the source: lost {name}',
      },
      {
        key: 'link',
        kind: 'placeholder',
        severity: 'error',
        message: 'placeholders differ from the source: added {extra}',
      },
      {
        key: 'link',
        kind: 'markup',
        severity: 'error',
        message: 'tags differ from the source: lost <a> </a>',
      },
    ]);
  });

  it('when a plural has other categories than the source, then it is accepted (only the argument counts)', async () => {
    const project = await readyProject();
    const polishLike = {
      ...GERMAN,
      items: '{count, plural, one {# rzecz} few {# rzeczy} many {# rzeczy} other {# rzeczy}}',
    };
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, 1, polishLike)).status,
    ).toBe(200);
  });

  it('when the upload has keys the source version does not, then they are ignored and named, the rest stored', async () => {
    const project = await readyProject();
    const response = await service.putTranslations(project.projectId, 'de', project.owner, 1, {
      ...GERMAN,
      unknown: 'Unbekannt',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ignored: ['unknown'], ignoredCount: 1, missingCount: 0 });
    const detail = await service.getLocale(project.projectId, 'de', project.owner);
    expect(detail.translatedCount).toBe(detail.keyCount);
  });

  it.each([
    ['no sourceVersion', '', 'sourceVersion: is required'],
    ['sourceVersion=0', '?sourceVersion=0', 'positive integer'],
    ['sourceVersion=abc', '?sourceVersion=abc', 'positive integer'],
    ['sourceVersion=-1', '?sourceVersion=-1', 'positive integer'],
    ['sourceVersion=1.5', '?sourceVersion=1.5', 'positive integer'],
    ['a version that does not exist', '?sourceVersion=9', 'does not exist'],
    [
      'sourceVersion bracketed',
      '?sourceVersion[]=1',
      'query.sourceVersion[]: bracket syntax is not accepted',
    ],
    ['sourceVersion twice', '?sourceVersion=1&sourceVersion=1', 'query.sourceVersion: given 2 times'],
    ['an unknown parameter', '?sourceVersion=1&force=true', 'query.force: is not a parameter of this route'],
  ])('when the query has %s, then 400 VALIDATION_ERROR', async (_what, query, message) => {
    const project = await readyProject();
    const response = await service.call('PUT', localesPath(project.projectId, `/de/translations${query}`), {
      as: project.owner,
      body: GERMAN,
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain(message);
  });

  it.each([
    ['an array', ['a'], 'VALIDATION_ERROR'],
    ['a string', 'hello', 'VALIDATION_ERROR'],
    ['a number leaf', { title: 5 }, 'VALIDATION_ERROR'],
    ['a boolean leaf', { title: true }, 'VALIDATION_ERROR'],
    ['a null leaf', { title: null }, 'VALIDATION_ERROR'],
    ['a flat key colliding with a nested path', { 'steps.0': 'a', steps: ['b'] }, 'VALIDATION_ERROR'],
    ['an annotation without its key', { '@nothing': { description: 'x' } }, 'VALIDATION_ERROR'],
  ])('when the body is %s, then 400 %s', async (_what, body, code) => {
    const project = await readyProject();
    expectError(await service.putTranslations(project.projectId, 'de', project.owner, 1, body), 400, code);
  });

  it('when the body is malformed JSON, too large, has too many keys or the wrong type, then 400 / 413 / 415', async () => {
    const project = await readyProject();
    const url = localesPath(project.projectId, '/de/translations?sourceVersion=1');
    expectError(
      await service.call('PUT', url, {
        as: { ...project.owner, 'content-type': 'application/json' },
        rawBody: '{"a":',
      }),
      400,
      'INVALID_JSON',
    );
    expectError(
      await service.call('PUT', url, { as: project.owner, body: { title: 'x'.repeat(5000) } }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await service.call('PUT', url, { as: project.owner, body: many });
    expect(tooMany.status).toBe(413);
    expect(tooMany.text).toBe('{"error":{"code":"PAYLOAD_TOO_LARGE","message":"body: more than 50 keys"}}');
    const notString = await service.call('PUT', url, { as: project.owner, body: { a: { b: 1 } } });
    expect(notString.status).toBe(400);
    expect(notString.text).toBe(
      '{"error":{"code":"VALIDATION_ERROR","message":"a.b: must be a string, got number"}}',
    );
    expectError(
      await service.call('PUT', url, {
        as: { ...project.owner, 'content-type': 'text/plain' },
        rawBody: 'x',
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('when a value is longer than the limit or has more braces, then 400 naming the key and the limit, and nothing is stored', async () => {
    const project = await readyProject();
    const url = localesPath(project.projectId, '/de/translations?sourceVersion=1');
    const long = await service.call('PUT', url, {
      as: project.owner,
      body: { title: 'Willkommen, {name}!', steps: ['Erster', 'x'.repeat(201)] },
    });
    expect(long.text).toBe(
      '{"error":{"code":"VALIDATION_ERROR","message":"steps.1: value is 201 characters long, over the limit of 200 characters per value"}}',
    );
    const braces = await service.call('PUT', url, {
      as: project.owner,
      body: { items: `{count, plural, ${'=0 {#} '.repeat(10)}other {# Dinge}}` },
    });
    expect(braces.status).toBe(400);
    expect(braces.body.error.message).toBe(
      'items: value has more than 10 opening braces ({), the limit per value ' +
        '(each ICU argument, placeholder and plural or select branch takes one)',
    );
    const locale = await service.call('GET', localesPath(project.projectId, '/de'), { as: project.owner });
    expect(locale.body).toMatchObject({ translatedCount: 0, syncedVersion: 0 });
  });

  it('when the source has __proto__ and constructor keys, then translations of them are plain data', async () => {
    const project = await service.projectWithLocales(['de']);
    const source = JSON.parse('{"__proto__": {"polluted": "P"}, "constructor": "C"}') as unknown;
    await service.putSource(project.projectId, project.owner, source);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);
    const german = JSON.parse('{"__proto__": {"polluted": "V"}, "constructor": "K"}') as unknown;
    const response = await service.putTranslations(project.projectId, 'de', project.owner, 1, german);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('up_to_date');
    const download = await service.call('GET', localesPath(project.projectId, '/de/translations'), {
      as: project.owner,
    });
    expect(download.body.content).toBe('{"__proto__":{"polluted":"V"},"constructor":"K"}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('when a read token uploads, then 403; a read_write token, then 200', async () => {
    const project = await readyProject();
    const read = await service.asProjectToken(project.projectId, 'read');
    expectError(await service.putTranslations(project.projectId, 'de', read, 1, GERMAN), 403, 'FORBIDDEN');
    const write = await service.asProjectToken(project.projectId, 'read_write');
    expect((await service.putTranslations(project.projectId, 'de', write, 1, GERMAN)).status).toBe(200);
  });

  it('when translations from a newer source version are stored, then an upload from an older one is 409', async () => {
    const project = await readyProject();
    await service.putSource(project.projectId, project.owner, { ...SOURCE, title: 'Hi, {name}!' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    expect((await service.putTranslations(project.projectId, 'de', project.owner, 2, GERMAN)).status).toBe(
      200,
    );
    const stale = await service.putTranslations(project.projectId, 'de', project.owner, 1, GERMAN);
    expectError(stale, 409, 'CONFLICT');
    expect((await service.getLocale(project.projectId, 'de', project.owner)).syncedVersion).toBe(2);
  });

  it('when the locale is not a target locale of the project, then 404', async () => {
    const project = await readyProject();
    expectError(
      await service.putTranslations(project.projectId, 'fr', project.owner, 1, GERMAN),
      404,
      'NOT_FOUND',
    );
  });

  it('when no source was ever uploaded, then the download is an empty object', async () => {
    const project = await service.projectWithLocales(['de']);
    const download = await service.call('GET', localesPath(project.projectId, '/de/translations'), {
      as: project.owner,
    });
    expect(download.body).toMatchObject({ locale: 'de', syncedVersion: 0, content: '{}' });
  });
});
