/**
 * DESIGN §11 on locale-service: translations held to the ICU rules of their source, for the CLDR
 * plural categories of the target locale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimedByModel, expectError, startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const localesPath = (projectId: string, rest = '') => `/v1/projects/${projectId}/locales${rest}`;

const SOURCE = {
  files: '{count, plural, one {# file} other {# files}}',
  place: 'You finished {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}',
  greeting: 'Hello {name}',
  title: 'Files',
};

/** A project with `locales` and SOURCE uploaded, each locale at source version 1. */
async function projectWith(locales: string[]) {
  const project = await service.projectWithLocales(locales, { sourceLocale: 'en' });
  await service.putSource(project.projectId, project.owner, SOURCE);
  for (const locale of locales)
    await service.waitForSourceVersion(project.projectId, locale, project.owner, 1);
  return project;
}

describe('PUT /v1/projects/:projectId/locales/:locale/translations: ICU plurals', () => {
  it("when the model's Polish translation lacks few and many, then 400 naming the keys and categories, and nothing is stored", async () => {
    const project = await projectWith(['pl']);
    const first = { title: 'Pliki' };
    expect((await service.putTranslations(project.projectId, 'pl', project.owner, 1, first)).status).toBe(
      200,
    );

    const response = await service.putTranslations(
      project.projectId,
      'pl',
      project.owner,
      1,
      claimedByModel({
        files: '{count, plural, one {# plik} other {# pliki}}',
        place: 'Skończyłeś {n}.',
        greeting: 'Cześć {name}',
        title: 'Pliki!',
      }),
    );
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe(
      'ICU messages break the rules for pl in 1 key(s): "files": {count, plural} lacks few, many ' +
        '(pl: one, few, many, other); nothing was stored',
    );
    const detail = await service.getLocale(project.projectId, 'pl', project.owner);
    expect(detail).toMatchObject({ translatedCount: 1, missingCount: 3 });
    const download = await service.call('GET', localesPath(project.projectId, '/pl/translations'), {
      as: project.owner,
    });
    expect(JSON.parse(download.body.content as string)).toStrictEqual(first);
  });

  it("when a person's Polish translation lacks many (other covers it), then it is stored, translated, with a plural warning", async () => {
    const project = await projectWith(['pl']);
    const response = await service.putTranslations(project.projectId, 'pl', project.owner, 1, {
      files: '{count, plural, one {# plik} few {# pliki} other {# pliku}}',
      place: 'Skończyłeś {n}.',
      greeting: 'Cześć {name}',
      title: 'Pliki',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      translatedCount: 4,
      missingCount: 0,
      errorCount: 0,
      warningCount: 1,
    });
    const detail = await service.getLocale(project.projectId, 'pl', project.owner);
    expect(detail.findings).toEqual([
      {
        key: 'files',
        kind: 'plural',
        severity: 'warning',
        message: '{count, plural} lacks many (pl: one, few, many, other)',
      },
    ]);
  });

  it("when a person's message does not parse, then it is stored with an ICU error beside the good ones", async () => {
    const project = await projectWith(['de']);
    const response = await service.putTranslations(project.projectId, 'de', project.owner, 1, {
      files: '{count, plural, one {# Datei} other {# Dateien}',
      greeting: 'Hallo {name}',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ translatedCount: 2, errorCount: 1, warningCount: 0 });
    const [finding, ...rest] = (await service.getLocale(project.projectId, 'de', project.owner))
      .findings as unknown[];
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ key: 'files', kind: 'icu', severity: 'error' });
    const download = await service.download(project.projectId, 'de', project.owner);
    expect(download['files']).toBe('{count, plural, one {# Datei} other {# Dateien}');
  });

  it('when a Polish translation has every category, then it is stored (the ordinal, which Polish does not inflect, may go)', async () => {
    const project = await projectWith(['pl']);
    const response = await service.putTranslations(project.projectId, 'pl', project.owner, 1, {
      files: '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}',
      place: 'Skończyłeś jako {n}.',
      greeting: 'Cześć {name}',
      title: 'Pliki',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'up_to_date', translatedCount: 4 });
  });

  it('when a Japanese translation uses the argument directly, then it is stored', async () => {
    const project = await projectWith(['ja']);
    const response = await service.putTranslations(project.projectId, 'ja', project.owner, 1, {
      files: '{count}個のファイル',
      place: '{n}位でした',
      greeting: 'こんにちは、{name}',
      title: 'ファイル',
    });
    expect(response.status).toBe(200);
  });

  it('when an ordinal lacks categories in en-GB and in cy, then each is named with its ordinals', async () => {
    const project = await projectWith(['en-GB', 'cy']);
    const english = await service.putTranslations(
      project.projectId,
      'en-gb',
      project.owner,
      1,
      claimedByModel({ place: 'You finished {n, selectordinal, one {#st} other {#th}}' }),
    );
    expectError(english, 400, 'VALIDATION_ERROR');
    expect(english.body.error.message).toContain(
      '"place": {n, selectordinal} lacks two, few (en-GB ordinals: one, two, few, other)',
    );
    const welsh = await service.putTranslations(
      project.projectId,
      'cy',
      project.owner,
      1,
      claimedByModel({
        files:
          '{count, plural, zero {# ffeiliau} one {# ffeil} two {# ffeil} few {# ffeil} many {# ffeil} other {# ffeil}}',
        place: 'Gorffennaist yn {n, selectordinal, one {#af} two {#il} other {#fed}}',
      }),
    );
    expectError(welsh, 400, 'VALIDATION_ERROR');
    expect(welsh.body.error.message).toContain(
      '"place": {n, selectordinal} lacks zero, few, many (cy ordinals',
    );
    expect(welsh.body.error.message).not.toContain('"files"');
  });

  it("when the model's translation does not parse where its source does, then 400 naming the key and the parser error", async () => {
    const project = await projectWith(['de']);
    const response = await service.putTranslations(
      project.projectId,
      'de',
      project.owner,
      1,
      claimedByModel({ files: '{count, plural, one {# Datei} other {# Dateien}', greeting: 'Hallo {name}' }),
    );
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(
      /^ICU messages break the rules for de in 1 key\(s\): "files": does not parse as an ICU message, as its source does \(EXPECT_ARGUMENT_CLOSING_BRACE at character \d+\); nothing was stored$/,
    );
    expect((await service.getLocale(project.projectId, 'de', project.owner)).translatedCount).toBe(0);
  });
});
