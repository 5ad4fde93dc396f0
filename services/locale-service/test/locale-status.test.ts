import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeDetailResponseSchema, localeListResponseSchema } from '@tolk/contracts';
import { startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const SOURCE = { greeting: 'Hello {name}', nav: { home: 'Home', about: 'About us' } };
const GERMAN = { greeting: 'Hallo {name}', nav: { home: 'Startseite', about: 'Über uns' } };

describe('locale status through its transitions', () => {
  it('when a locale is added to a project with a source, then it is behind with every key missing', async () => {
    const project = await service.createProject();
    const { version } = await service.putSource(project.projectId, project.owner, SOURCE);
    const added = await service.call('POST', `/v1/projects/${project.projectId}/locales`, {
      as: project.owner,
      body: { locale: 'de' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      locale: 'de',
      status: 'behind',
      syncedVersion: 0,
      sourceVersion: version,
      keyCount: 3,
      translatedCount: 0,
      missingCount: 3,
      outdatedCount: 0,
    });
    const detail = await service.getLocale(project.projectId, 'de', project.owner);
    // The answer is the documented shape, field for field (parse drops what the schema does not name).
    expect(localeDetailResponseSchema.parse(detail)).toStrictEqual(detail);
    expect(detail.missing).toEqual(['greeting', 'nav.home', 'nav.about']);
    expect(detail.outdated).toEqual([]);
  });

  it('when translations for the current version cover every key, then the locale is up_to_date', async () => {
    const project = await service.projectWithLocales(['de']);
    const { version } = await service.putSource(project.projectId, project.owner, SOURCE);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, version);
    const uploaded = await service.putTranslations(project.projectId, 'de', project.owner, version, GERMAN);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({
      locale: 'de',
      status: 'up_to_date',
      syncedVersion: version,
      sourceVersion: version,
      keyCount: 3,
      translatedCount: 3,
      missingCount: 0,
      outdatedCount: 0,
    });
  });

  it('when one source value is modified, then the locale is behind with exactly that key outdated', async () => {
    const project = await service.projectWithLocales(['de', 'fr']);
    const first = await service.putSource(project.projectId, project.owner, SOURCE);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, first.version);
    expect((await service.putTranslations(project.projectId, 'de', project.owner, 1, GERMAN)).status).toBe(
      200,
    );

    const second = await service.putSource(project.projectId, project.owner, {
      ...SOURCE,
      nav: { ...SOURCE.nav, about: 'About' },
    });
    expect(second.version).toBe(2);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    const detail = await service.getLocale(project.projectId, 'de', project.owner);
    expect(detail).toMatchObject({
      status: 'behind',
      syncedVersion: 1,
      sourceVersion: 2,
      translatedCount: 2,
      missingCount: 0,
      outdatedCount: 1,
      missing: [],
      outdated: ['nav.about'],
    });
    // The untouched locale stays with everything missing.
    const french = await service.getLocale(project.projectId, 'fr', project.owner);
    expect(french).toMatchObject({ status: 'behind', missingCount: 3, outdatedCount: 0, syncedVersion: 0 });
  });

  it('when every target locale has caught up, then pendingDiff is empty and a re-upload needs no translation', async () => {
    const project = await service.projectWithLocales(['de', 'fr']);
    const { version } = await service.putSource(project.projectId, project.owner, SOURCE);
    await service.waitForSourceVersion(project.projectId, 'fr', project.owner, version);
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, version, GERMAN)).status,
    ).toBe(200);
    // fr still behind: the baseline is 0, so everything is pending.
    const source = await service.getSource(project.projectId, project.owner);
    expect(source.pendingDiff.added).toEqual(['greeting', 'nav.home', 'nav.about']);

    const french = { greeting: 'Bonjour {name}', nav: { home: 'Accueil', about: 'À propos' } };
    expect(
      (await service.putTranslations(project.projectId, 'fr', project.owner, version, french)).status,
    ).toBe(200);
    await service.waitForPendingDiff(project.projectId, project.owner, {
      added: [],
      modified: [],
      deleted: [],
    });
    const again = await service.putSource(project.projectId, project.owner, SOURCE);
    expect(again).toMatchObject({ version, needsTranslation: false });
  });

  it('when the only behind locale is removed, then the baseline moves up to the others', async () => {
    const project = await service.projectWithLocales(['de', 'fr']);
    const { version } = await service.putSource(project.projectId, project.owner, SOURCE);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, version);
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, version, GERMAN)).status,
    ).toBe(200);
    const removed = await service.call('DELETE', `/v1/projects/${project.projectId}/locales/fr`, {
      as: project.owner,
    });
    expect(removed.status).toBe(204);
    await service.waitForPendingDiff(project.projectId, project.owner, {
      added: [],
      modified: [],
      deleted: [],
    });
    const events = (await service.outboxRows(project.projectId)).filter(
      (row) => row.type === 'TranslationBaselineChanged',
    );
    expect(events.map((row) => row.payload.data['baselineVersion'])).toEqual([version]);
    const list = await service.call('GET', `/v1/projects/${project.projectId}/locales`, {
      as: project.owner,
    });
    expect(localeListResponseSchema.parse(list.body).locales.map((l) => l.locale)).toEqual(['de']);
  });

  it('when keys are only deleted from the source, then the locale is behind until translations for that version are uploaded', async () => {
    const project = await service.projectWithLocales(['de']);
    await service.putSource(project.projectId, project.owner, SOURCE);
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);
    expect((await service.putTranslations(project.projectId, 'de', project.owner, 1, GERMAN)).status).toBe(
      200,
    );
    await service.putSource(project.projectId, project.owner, { greeting: SOURCE.greeting });
    const behind = await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    expect(behind).toMatchObject({ status: 'behind', missingCount: 0, outdatedCount: 0, syncedVersion: 1 });
    const uploaded = await service.putTranslations(project.projectId, 'de', project.owner, 2, {
      greeting: GERMAN.greeting,
    });
    expect(uploaded.body).toMatchObject({ status: 'up_to_date', syncedVersion: 2, keyCount: 1 });
  });

  it('when translations are uploaded for an older source version, then keys changed since are outdated and the rest count', async () => {
    const project = await service.projectWithLocales(['de']);
    await service.putSource(project.projectId, project.owner, SOURCE);
    await service.putSource(project.projectId, project.owner, { ...SOURCE, extra: 'New key' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    const uploaded = await service.putTranslations(project.projectId, 'de', project.owner, 1, GERMAN);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({
      status: 'behind',
      syncedVersion: 1,
      sourceVersion: 2,
      translatedCount: 3,
      missingCount: 1,
    });
  });
});
