import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRuleMatcher, type EventEnvelope } from '@tolk/contracts';
import { ruledKeysOf } from '../src/domain/locale-state.js';
import { startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const SOURCE = {
  title: 'Cart',
  brand: { name: 'Tolk' },
  footer: { url: 'https://tolk.dev', note: 'Made in Lisbon' },
  legal: { terms: 'Terms of use' },
  debug: { id: 'Build {id}' },
};

const RULES = {
  humanOnly: ['legal.*'],
  neverTranslate: ['brand.name', '**.url'],
  exclude: ['debug.**'],
};

/** The counts of a locale, as GET .../locales/{locale} answers them. */
function counts(body: Record<string, unknown>) {
  const { keyCount, translatedCount, missingCount, outdatedCount, missing, outdated, status } = body;
  return { keyCount, translatedCount, missingCount, outdatedCount, missing, outdated, status };
}

describe('key rules in the counts (DESIGN §13)', () => {
  it('when the project has rules, then excluded keys are no keys, never-translated ones count as translated, human-only ones as missing', async () => {
    const project = await service.projectWithLocales(['de'], { settings: { keyRules: RULES } });
    const { projectId, owner } = project;
    await service.putSource(projectId, owner, SOURCE);
    await service.waitForSourceVersion(projectId, 'de', owner, 1);

    expect(counts(await service.getLocale(projectId, 'de', owner))).toStrictEqual({
      keyCount: 5,
      translatedCount: 2,
      missingCount: 3,
      outdatedCount: 0,
      missing: ['title', 'footer.note', 'legal.terms'],
      outdated: [],
      status: 'behind',
    });

    const upload = await service.putTranslations(projectId, 'de', owner, 1, {
      title: 'Warenkorb',
      footer: { note: 'Gemacht in Lissabon' },
    });
    expect(upload.status).toBe(200);
    expect(upload.body).toMatchObject({ keyCount: 5, translatedCount: 4, missingCount: 1, status: 'behind' });
    expect((await service.getLocale(projectId, 'de', owner)).missing).toEqual(['legal.terms']);
    expect(await service.download(projectId, 'de', owner)).toStrictEqual({
      title: 'Warenkorb',
      brand: { name: 'Tolk' },
      footer: { url: 'https://tolk.dev', note: 'Gemacht in Lissabon' },
    });
  });

  it('when an upload has values for excluded and never-translated keys, then they are ignored, even bad ones', async () => {
    const project = await service.projectWithLocales(['de'], { settings: { keyRules: RULES } });
    const { projectId, owner } = project;
    await service.putSource(projectId, owner, SOURCE);
    await service.waitForSourceVersion(projectId, 'de', owner, 1);

    const upload = await service.putTranslations(projectId, 'de', owner, 1, {
      title: 'Warenkorb',
      brand: { name: 'Tolk GmbH' },
      footer: { url: 'https://tolk.de', note: 'Gemacht in Lissabon' },
      legal: { terms: 'Nutzungsbedingungen' },
      // A placeholder the source lacks: refused for any other key, never looked at here.
      debug: { id: 'Version {version}' },
    });
    expect(upload.status).toBe(200);
    expect(upload.body).toMatchObject({
      keyCount: 5,
      translatedCount: 5,
      missingCount: 0,
      status: 'up_to_date',
      syncedVersion: 1,
    });
    expect(await service.download(projectId, 'de', owner)).toStrictEqual({
      title: 'Warenkorb',
      brand: { name: 'Tolk' },
      footer: { url: 'https://tolk.dev', note: 'Gemacht in Lissabon' },
      legal: { terms: 'Nutzungsbedingungen' },
    });
  });

  it('when a locale is added after the source, then its counts follow the rules before any upload', async () => {
    const project = await service.createProject({ settings: { keyRules: RULES } });
    const { projectId, owner } = project;
    await service.putSource(projectId, owner, SOURCE);
    const added = await service.call('POST', `/v1/projects/${projectId}/locales`, {
      as: owner,
      body: { locale: 'fr' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ keyCount: 5, translatedCount: 2, missingCount: 3 });
    expect(await service.download(projectId, 'fr', owner)).toStrictEqual({
      brand: { name: 'Tolk' },
      footer: { url: 'https://tolk.dev' },
    });
  });

  it('when the rules change, then ProjectUpdated reaches locale-service and the counts change with them', async () => {
    const project = await service.projectWithLocales(['de']);
    const { projectId, owner, ownerId } = project;
    await service.putSource(projectId, owner, SOURCE);
    await service.waitForSourceVersion(projectId, 'de', owner, 1);
    await service.putTranslations(projectId, 'de', owner, 1, { title: 'Warenkorb' });
    expect(counts(await service.getLocale(projectId, 'de', owner))).toMatchObject({
      keyCount: 6,
      translatedCount: 1,
      missingCount: 5,
    });

    await service.patchProject(ownerId, projectId, { settings: { keyRules: RULES } });
    const ruled = await service.waitForLocale(projectId, 'de', owner, '5 keys', (l) => l['keyCount'] === 5);
    expect(counts(ruled)).toStrictEqual({
      keyCount: 5,
      translatedCount: 3,
      missingCount: 2,
      outdatedCount: 0,
      missing: ['footer.note', 'legal.terms'],
      outdated: [],
      status: 'behind',
    });

    await service.patchProject(ownerId, projectId, {
      settings: { keyRules: { neverTranslate: [], exclude: ['footer.*', 'legal.*', 'debug.*', 'brand.*'] } },
    });
    const fewer = await service.waitForLocale(projectId, 'de', owner, '1 key', (l) => l['keyCount'] === 1);
    expect(counts(fewer)).toMatchObject({ keyCount: 1, translatedCount: 1, missingCount: 0, missing: [] });
    expect(await service.download(projectId, 'de', owner)).toStrictEqual({ title: 'Warenkorb' });

    await service.patchProject(ownerId, projectId, {
      settings: { keyRules: { humanOnly: [], exclude: [] } },
    });
    const all = await service.waitForLocale(projectId, 'de', owner, '6 keys', (l) => l['keyCount'] === 6);
    expect(counts(all)).toMatchObject({ keyCount: 6, translatedCount: 1, missingCount: 5 });
  });

  it('when a ProjectUpdated written before key rules existed arrives, then the project has no rules', async () => {
    const project = await service.projectWithLocales(['de'], { settings: { keyRules: RULES } });
    const { projectId, owner } = project;
    await service.putSource(projectId, owner, SOURCE);
    await service.waitForSourceVersion(projectId, 'de', owner, 1);
    expect(await service.getLocale(projectId, 'de', owner)).toMatchObject({ keyCount: 5 });

    const envelope: EventEnvelope = {
      id: randomUUID(),
      type: 'ProjectUpdated',
      occurredAt: Date.now() + 60_000,
      producer: 'project-service',
      data: {
        projectId,
        name: 'Website',
        sourceLocale: 'en',
        settings: { provider: null, model: null, instructions: null, i18nextPlurals: true },
      },
    };
    await service.bus.publish(envelope);
    const plain = await service.waitForLocale(projectId, 'de', owner, '6 keys', (l) => l['keyCount'] === 6);
    expect(counts(plain)).toMatchObject({ keyCount: 6, translatedCount: 0, missingCount: 6 });
  });

  it("when a plural group is never translated, then each of the locale's own forms carries the source text", async () => {
    const project = await service.projectWithLocales(['pl'], {
      settings: { keyRules: { neverTranslate: ['cart.items_*'] } },
    });
    const { projectId, owner } = project;
    await service.putSource(projectId, owner, {
      cart: { title: 'Cart', items_one: '{{count}} item', items_other: '{{count}} items' },
    });
    await service.waitForSourceVersion(projectId, 'pl', owner, 1);
    expect(counts(await service.getLocale(projectId, 'pl', owner))).toMatchObject({
      keyCount: 5,
      translatedCount: 4,
      missingCount: 1,
      missing: ['cart.title'],
    });
    expect(await service.download(projectId, 'pl', owner)).toStrictEqual({
      cart: {
        items_one: '{{count}} item',
        items_few: '{{count}} items',
        items_many: '{{count}} items',
        items_other: '{{count}} items',
      },
    });
  });

  it('when the same keys meet equal rules again, then their rules are worked out once', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `section${i % 10}.key${i}.url`);
    const rules = () => keyRuleMatcher({ humanOnly: [], neverTranslate: ['**.url'], exclude: [] });
    const first = ruledKeysOf({ keys }, undefined, rules());
    const again = ruledKeysOf({ keys }, undefined, rules());
    expect(again).toBe(first);
    expect(first).toMatchObject({ excluded: 0, neverTranslated: 1000 });
    expect(ruledKeysOf({ keys }, undefined, keyRuleMatcher(undefined))).toBeUndefined();
  });
});
