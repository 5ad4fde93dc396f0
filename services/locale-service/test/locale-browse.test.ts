/** DESIGN §13 on locale-service: the translation browser, `GET /v1/projects/{projectId}/keys`. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settled } from '@tolk/testing';
import { expectError, startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

type Page = {
  sourceVersion: number;
  locales: string[];
  total: number;
  offset: number;
  limit: number;
  keys: {
    key: string;
    source: string | null;
    description: string | null;
    locales: Record<
      string,
      { value: string | null; status: string; provenance: { by: string } | null; findings: unknown[] }
    >;
  }[];
};

const SOURCE = {
  title: 'Your cart',
  '@title': { description: 'Heading of the cart page' },
  items_one: '{{count}} item',
  items_other: '{{count}} items',
};

/** A project with de (translated) and pl (not), its source uploaded. */
async function cartProject() {
  const project = await service.projectWithLocales(['de', 'pl']);
  const { version } = await service.putSource(project.projectId, project.owner, SOURCE);
  await service.waitForSourceVersion(project.projectId, 'de', project.owner, version);
  const uploaded = await service.putTranslations(project.projectId, 'de', project.owner, version, {
    title: 'Ihr Warenkorb',
    items_one: '{{count}} Artikel',
    items_other: '{{count}} Artikel',
  });
  expect(uploaded.status).toBe(200);
  return project;
}

async function browse(project: { projectId: string; owner: Record<string, string> }, query = '') {
  const response = await service.call('GET', `/v1/projects/${project.projectId}/keys${query}`, {
    as: project.owner,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Page;
}

describe('GET /v1/projects/:projectId/keys', () => {
  it("when a project has keys, then each comes with its source, description and every locale's value and state, plural forms at their group's place", async () => {
    const project = await cartProject();
    const page = await browse(project);
    expect(page).toMatchObject({ sourceVersion: 1, locales: ['de', 'pl'], total: 5, offset: 0, limit: 50 });
    expect(page.keys.map((k) => k.key)).toEqual([
      'title',
      'items_one',
      'items_few',
      'items_many',
      'items_other',
    ]);
    expect(page.keys[0]).toEqual({
      key: 'title',
      source: 'Your cart',
      description: 'Heading of the cart page',
      locales: {
        de: {
          value: 'Ihr Warenkorb',
          status: 'translated',
          provenance: { by: 'human', at: expect.any(Number) },
          findings: [],
        },
        pl: { value: null, status: 'missing', provenance: null, findings: [] },
      },
    });
    // Polish's own form: the group's other form is its source text; German has no such key.
    expect(page.keys[2]).toEqual({
      key: 'items_few',
      source: '{{count}} items',
      description: null,
      locales: { pl: { value: null, status: 'missing', provenance: null, findings: [] } },
    });
  });

  it('when filtered by locale, state and text, and paged, then only the matching keys come, counted on every page', async () => {
    const project = await cartProject();
    const german = await browse(project, '?locale=DE');
    expect(german.locales).toEqual(['de']);
    expect(german.keys.map((k) => k.key)).toEqual(['title', 'items_one', 'items_other']);

    const missing = await browse(project, '?status=missing');
    expect(missing.total).toBe(5);
    expect((await browse(project, '?status=missing&locale=de')).total).toBe(0);
    expect((await browse(project, '?status=translated&locale=de,pl')).total).toBe(3);

    expect((await browse(project, '?by=human')).total).toBe(3);
    expect((await browse(project, '?by=ai')).total).toBe(0);

    const search = await browse(project, '?q=WARENKORB');
    expect(search.keys.map((k) => k.key)).toEqual(['title']);
    expect((await browse(project, '?q=items')).total).toBe(4);

    const second = await browse(project, '?offset=1&limit=2');
    expect(second).toMatchObject({ total: 5, offset: 1, limit: 2 });
    expect(second.keys.map((k) => k.key)).toEqual(['items_one', 'items_few']);
  });

  it('when a source text changes, then its translations show outdated', async () => {
    const project = await cartProject();
    const { version } = await service.putSource(project.projectId, project.owner, {
      ...SOURCE,
      title: 'Your basket',
    });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, version);
    const page = await browse(project, '?status=outdated');
    expect(page.keys).toEqual([
      expect.objectContaining({
        key: 'title',
        source: 'Your basket',
        locales: expect.objectContaining({
          de: expect.objectContaining({ value: 'Ihr Warenkorb', status: 'outdated' }),
        }),
      }),
    ]);
  });

  it('when translations, settings or locales change after a page was shown, then the next page shows them', async () => {
    const project = await cartProject();
    const first = await browse(project, '?locale=de');
    expect(first.keys[0]!.locales['de']).toMatchObject({ value: 'Ihr Warenkorb', status: 'translated' });
    expect((await browse(project, '?q=warenkorb')).total).toBe(1);

    // Another upload for the same source version.
    const uploaded = await service.putTranslations(project.projectId, 'de', project.owner, 1, {
      title: 'Dein Einkaufswagen',
      items_one: '{{count}} Artikel',
      items_other: '{{count}} Artikel',
    });
    expect(uploaded.status).toBe(200);
    const second = await browse(project, '?locale=de');
    expect(second.keys[0]!.locales['de']).toMatchObject({
      value: 'Dein Einkaufswagen',
      status: 'translated',
    });
    expect((await browse(project, '?q=warenkorb')).total).toBe(0);
    expect((await browse(project, '?q=einkaufswagen')).total).toBe(1);

    // Key rules leave the title out of every target.
    await service.patchProject(project.ownerId, project.projectId, {
      settings: { keyRules: { exclude: ['title'] } },
    });
    await vi.waitFor(async () => {
      expect((await browse(project, '?locale=de')).keys.map((k) => k.key)).toEqual([
        'items_one',
        'items_other',
      ]);
    }, settled);

    // A locale added later is shown too.
    const added = await service.call('POST', `/v1/projects/${project.projectId}/locales`, {
      as: project.owner,
      body: { locale: 'fr' },
    });
    expect(added.status).toBe(201);
    expect((await browse(project)).locales).toEqual(['de', 'pl', 'fr']);
  });

  it('when the project has no source yet, then the page is empty', async () => {
    const project = await service.projectWithLocales(['de']);
    expect(await browse(project)).toEqual({
      sourceVersion: 0,
      locales: ['de'],
      total: 0,
      offset: 0,
      limit: 50,
      keys: [],
    });
  });

  it.each([
    ['?locale=fr', 'query.locale: fr is not a target locale of this project'],
    ['?locale=xx-', 'query.locale: "xx-" is not a BCP 47 locale code'],
    ['?status=done', 'must be missing, outdated or translated'],
    ['?limit=0', 'limit: must be a whole number from 1 to 200'],
    ['?limit=201', 'limit: must be a whole number from 1 to 200'],
    ['?offset=-1', 'offset: must be a whole number from 0'],
    ['?by=robot', 'by: must be ai, human, memory or unknown'],
    ['?page=2', 'page'],
  ])('when the query is %s, then 400 VALIDATION_ERROR saying %s', async (query, message) => {
    const project = await cartProject();
    const response = await service.call('GET', `/v1/projects/${project.projectId}/keys${query}`, {
      as: project.owner,
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain(message);
  });

  it("when a person's values have findings, then each cell lists them and the findings filter keeps their keys", async () => {
    const project = await service.projectWithLocales(['de', 'pl']);
    const { version } = await service.putSource(project.projectId, project.owner, SOURCE);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, version);
    const uploaded = await service.putTranslations(project.projectId, 'de', project.owner, version, {
      title: 'Your cart',
      items_one: '{{count}} Artikel',
      items_other: 'Artikel',
    });
    expect(uploaded.body).toMatchObject({ translatedCount: 3, errorCount: 1, warningCount: 1 });

    const errors = await browse(project, '?findings=error');
    expect(errors.keys.map((k) => k.key)).toEqual(['items_other']);
    expect(errors.keys[0]!.locales['de']).toMatchObject({
      value: 'Artikel',
      status: 'translated',
      findings: [
        {
          kind: 'placeholder',
          severity: 'error',
          message: 'placeholders differ from the source: lost {{count}}',
        },
      ],
    });
    const warnings = await browse(project, '?findings=warning');
    expect(warnings.keys.map((k) => k.key)).toEqual(['title']);
    expect(warnings.keys[0]!.locales['de']!.findings).toEqual([
      { kind: 'copy', severity: 'warning', message: 'the same text as the source (en): not translated?' },
    ]);
    expect((await browse(project, '?findings=any')).keys.map((k) => k.key)).toEqual(['title', 'items_other']);
    expect((await browse(project, '?findings=any&locale=pl')).total).toBe(0);
    const bad = await service.call('GET', `/v1/projects/${project.projectId}/keys?findings=all`, {
      as: project.owner,
    });
    expectError(bad, 400, 'VALIDATION_ERROR');
  });
});
