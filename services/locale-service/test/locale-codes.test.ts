/** DESIGN §11 on locale-service: target locales are BCP 47 codes, stored canonically. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const localesPath = (projectId: string, rest = '') => `/v1/projects/${projectId}/locales${rest}`;

describe('POST /v1/projects/:projectId/locales with BCP 47 codes', () => {
  it.each([
    ['zh-hant', 'zh-Hant'],
    ['EN-gb', 'en-GB'],
    ['es-419', 'es-419'],
    ['sr-latn', 'sr-Latn'],
    ['pt-PT', 'pt-PT'],
  ])(
    'when %s is added, then it is stored and returned as %s, and found by any spelling',
    async (code, canonical) => {
      const project = await service.createProject({ sourceLocale: 'en' });
      const added = await service.call('POST', localesPath(project.projectId), {
        as: project.owner,
        body: { locale: code },
      });
      expect(added.status).toBe(201);
      expect(added.body.locale).toBe(canonical);
      const list = await service.call('GET', localesPath(project.projectId), { as: project.owner });
      expect(list.body.locales).toMatchObject([{ locale: canonical }]);
      for (const spelling of [code, canonical, canonical.toUpperCase(), canonical.toLowerCase()]) {
        const found = await service.call('GET', localesPath(project.projectId, `/${spelling}`), {
          as: project.owner,
        });
        expect(found.status, spelling).toBe(200);
        expect(found.body.locale).toBe(canonical);
      }
      const again = await service.call('POST', localesPath(project.projectId), {
        as: project.owner,
        body: { locale: canonical.toLowerCase() },
      });
      expectError(again, 409, 'CONFLICT');
    },
  );

  it.each([
    ['xx-', '"xx-" is not a BCP 47 locale code'],
    ['12', '"12" is not a BCP 47 locale code'],
    ['pt_BR', '(BCP 47 separates with "-": pt-BR)'],
    ['x'.repeat(40), 'is 40 characters long; a locale code has at most 35'],
  ])('when %s is added, then 400 VALIDATION_ERROR naming the value', async (code, message) => {
    const project = await service.createProject();
    const response = await service.call('POST', localesPath(project.projectId), {
      as: project.owner,
      body: { locale: code },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain(`body.locale: `);
    expect(response.body.error.message).toContain(message);
    const path = await service.call('GET', localesPath(project.projectId, `/${encodeURIComponent(code)}`), {
      as: project.owner,
    });
    expectError(path, 400, 'VALIDATION_ERROR');
    expect(path.body.error.message).toContain(`path.locale: `);
    expect(path.body.error.message).toContain(message);
  });
});
