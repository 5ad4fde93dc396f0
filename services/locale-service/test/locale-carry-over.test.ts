import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationsResponseSchema } from '@tolk/contracts';
import { decodeStoredEntries } from '@tolk/locale-file';
import { settled } from '@tolk/testing';
import { carryOver } from '../src/domain/carry-over.js';
import { startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const sourceChanged = (projectId: string, version: number) => service.sourceChanged(projectId, version);

/** The locale's stored translations and how far they are carried, read from the database. */
async function stored(db: LocaleService['db'], projectId: string, locale: string) {
  const { rows } = await db.query<{ content: Buffer; carried_version: number }>(
    `SELECT content, carried_version FROM locales WHERE project_id = $1 AND locale = $2`,
    [projectId, locale],
  );
  const entries = await decodeStoredEntries(rows[0]!.content);
  return {
    carried: rows[0]!.carried_version,
    translations: Object.fromEntries(entries.keys.map((key, i) => [key, entries.values[i]!])),
  };
}

/** A project with `de` translated at version 1 of `source`. */
async function translated(source: Record<string, unknown>, de: Record<string, unknown>) {
  const project = await service.projectWithLocales(['de']);
  await service.putSource(project.projectId, project.owner, source);
  await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);
  const upload = await service.putTranslations(project.projectId, 'de', project.owner, 1, de);
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  return project;
}

describe('carryOver (a key → value map)', () => {
  it('when keys are renamed and restored over several versions, then values follow in version order', () => {
    const values = new Map([
      ['a', 'A'],
      ['stale', 'old'],
    ]);
    const changed = carryOver(
      values,
      [
        { version: 2, renames: [{ from: 'a', to: 'b' }], restores: [] },
        {
          version: 3,
          renames: [
            { from: 'b', to: 'c' },
            { from: 'none', to: 'stale' },
          ],
          restores: [
            { key: 'r', version: 1 },
            { key: 'q', version: 2 },
          ],
        },
      ],
      (key, version) => (key === 'r' && version === 1 ? 'R' : undefined),
    );
    expect(changed).toBe(true);
    expect(Object.fromEntries(values)).toStrictEqual({ a: 'A', b: 'A', c: 'A', r: 'R' });
    expect(
      carryOver(values, [{ version: 4, renames: [], restores: [{ key: 'r', version: 1 }] }], () => 'X'),
    ).toBe(false);
  });
});

describe('SourceChanged with renames and restores (DESIGN §13)', () => {
  it('when a translated key is renamed, then its translation is carried: not missing, not outdated, downloaded under the new key, not pending', async () => {
    const project = await translated(
      { cart: { pay: 'Pay' }, title: 'Shop' },
      { cart: { pay: 'Zahlen' }, title: 'Laden' },
    );
    await service.putSource(project.projectId, project.owner, { checkout: { pay: 'Pay' }, title: 'Shop' });
    const locale = await service.waitForLocale(
      project.projectId,
      'de',
      project.owner,
      'at version 2',
      (b) => b['sourceVersion'] === 2,
    );
    expect(locale).toMatchObject({ status: 'behind', missingCount: 0, outdatedCount: 0, translatedCount: 2 });
    expect(locale.missing).toStrictEqual([]);
    expect(await service.download(project.projectId, 'de', project.owner)).toStrictEqual({
      checkout: { pay: 'Zahlen' },
      title: 'Laden',
    });
    await service.waitForPendingDiff(project.projectId, project.owner, {
      added: [],
      modified: [],
      deleted: ['cart.pay'],
    });
    expect((await stored(service.db, project.projectId, 'de')).carried).toBe(2);

    // Uploading what was downloaded brings the locale up to date without translating anything.
    const upload = await service.putTranslations(project.projectId, 'de', project.owner, 2, {
      checkout: { pay: 'Zahlen' },
      title: 'Laden',
    });
    expect(upload.body).toMatchObject({ status: 'up_to_date', missingCount: 0 });
  });

  it('when a deleted key is added back with its value, then its last translation is restored; with another value it is missing', async () => {
    const project = await translated({ a: 'A', b: 'B', c: 'C' }, { a: 'A-de', b: 'B-de', c: 'C-de' });
    await service.putSource(project.projectId, project.owner, { a: 'A' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    // Translations for version 2 replace the stored ones: b and c are retired.
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, 2, { a: 'A-de' })).status,
    ).toBe(200);
    expect(Object.keys((await stored(service.db, project.projectId, 'de')).translations)).toStrictEqual([
      'a',
    ]);

    await service.putSource(project.projectId, project.owner, { a: 'A', b: 'B', c: 'C changed' });
    const locale = await service.waitForLocale(
      project.projectId,
      'de',
      project.owner,
      'at version 3',
      (b) => b['sourceVersion'] === 3,
    );
    expect(locale).toMatchObject({ missingCount: 1, outdatedCount: 0, missing: ['c'] });
    expect(await service.download(project.projectId, 'de', project.owner)).toStrictEqual({
      a: 'A-de',
      b: 'B-de',
    });
  });

  it('when the rename event is delivered again, or again as a new message after a later version, then nothing changes', async () => {
    const project = await translated({ a: 'A', x: 'X' }, { a: 'A-de', x: 'X-de' });
    await service.putSource(project.projectId, project.owner, { b: 'A', x: 'X' });
    await service.putSource(project.projectId, project.owner, { c: 'A', x: 'X' });
    const at3 = await service.waitForLocale(
      project.projectId,
      'de',
      project.owner,
      'at version 3',
      (b) => b['sourceVersion'] === 3,
    );
    expect(at3).toMatchObject({ missingCount: 0, outdatedCount: 0, translatedCount: 2 });
    const before = await stored(service.db, project.projectId, 'de');
    expect(before).toStrictEqual({
      carried: 3,
      translations: { a: 'A-de', x: 'X-de', b: 'A-de', c: 'A-de' },
    });

    const event = await sourceChanged(project.projectId, 2);
    await service.bus.publish(event);
    await service.bus.publish({ ...event, id: randomUUID() });
    await expect.poll(() => service.consumed(event.id).length, settled).toBe(2);
    expect(service.consumed(event.id)).toStrictEqual([true, false]);
    expect(await stored(service.db, project.projectId, 'de')).toStrictEqual(before);
    expect(await service.getLocale(project.projectId, 'de', project.owner)).toMatchObject({
      sourceVersion: 3,
      missingCount: 0,
      translatedCount: 2,
    });
  });
});

describe('translations made before a rename, uploaded after it', () => {
  it('when an upload is made from the version before a rename, then the rename is carried into it', async () => {
    const project = await translated({ a: 'A', x: 'X' }, { a: 'A-de', x: 'X-de' });
    await service.putSource(project.projectId, project.owner, { b: 'A', x: 'X' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    const upload = await service.putTranslations(project.projectId, 'de', project.owner, 1, {
      a: 'A-de, reworded',
      x: 'X-de',
    });
    expect(upload.body).toMatchObject({ missingCount: 0, outdatedCount: 0, translatedCount: 2 });
    expect(await service.download(project.projectId, 'de', project.owner)).toStrictEqual({
      b: 'A-de, reworded',
      x: 'X-de',
    });
    expect((await stored(service.db, project.projectId, 'de')).carried).toBe(2);
  });
});

describe('more renames than an event holds', () => {
  it('when 1,001 keys are renamed at once, then the event names only how many and every translation is carried from source-service', async () => {
    const keys = Array.from({ length: 1_001 }, (_, i) => i);
    const source = Object.fromEntries(keys.map((i) => [`old${i}`, `Text ${i}`]));
    const de = Object.fromEntries(keys.map((i) => [`old${i}`, `Text ${i} (de)`]));
    const project = await translated(source, de);
    await service.putSource(
      project.projectId,
      project.owner,
      Object.fromEntries(keys.map((i) => [`new${i}`, `Text ${i}`])),
    );
    const event = await service.sourceChanged(project.projectId, 2);
    expect(event.data).toMatchObject({ renamed: 1_001, restored: 0, renames: [], restores: [] });
    const locale = await service.waitForLocale(
      project.projectId,
      'de',
      project.owner,
      'at version 2',
      (b) => b['sourceVersion'] === 2,
    );
    expect(locale).toMatchObject({ missingCount: 0, outdatedCount: 0, translatedCount: 1_001 });
    const downloaded = await service.download(project.projectId, 'de', project.owner);
    expect(downloaded['new1000']).toBe('Text 1000 (de)');
    expect(Object.keys(downloaded)).toHaveLength(1_001);
  });
});

describe('versions whose events arrive out of order', () => {
  it('when version 3 arrives before version 2, then the consumer leaves the gap to the refresh, which carries both renames in order; version 2 then changes nothing', async () => {
    const late = await startLocaleService({ consume: false });
    try {
      const project = await late.projectWithLocales(['de']);
      await late.putSource(project.projectId, project.owner, { a: 'A', x: 'X' });
      const upload = await late.putTranslations(project.projectId, 'de', project.owner, 1, {
        a: 'A-de',
        x: 'X-de',
      });
      expect(upload.status).toBe(200);
      await late.putSource(project.projectId, project.owner, { b: 'A', x: 'X' });
      await late.putSource(project.projectId, project.owner, { c: 'A', x: 'X' });
      const [v2, v3] = [await sourceChanged(project.projectId, 2), await sourceChanged(project.projectId, 3)];

      await late.startConsuming();
      await late.bus.publish(v3);
      await expect.poll(() => late.consumed(v3.id), settled).toStrictEqual([true]);
      const locale = await late.waitForLocale(
        project.projectId,
        'de',
        project.owner,
        'at version 3',
        (b) => b['sourceVersion'] === 3,
      );
      expect(locale).toMatchObject({ missingCount: 0, outdatedCount: 0, translatedCount: 2, missing: [] });
      const carried = await stored(late.db, project.projectId, 'de');
      expect(carried).toStrictEqual({
        carried: 3,
        translations: { a: 'A-de', x: 'X-de', b: 'A-de', c: 'A-de' },
      });

      await late.bus.publish(v2);
      await expect.poll(() => late.consumed(v2.id), settled).toStrictEqual([true]);
      expect(await stored(late.db, project.projectId, 'de')).toStrictEqual(carried);
      expect(await late.download(project.projectId, 'de', project.owner)).toStrictEqual({
        c: 'A-de',
        x: 'X-de',
      });
    } finally {
      await late.close();
    }
  });
});

describe('who wrote a carried translation (DESIGN §13)', () => {
  const MODEL = 'openai:gpt-4o-mini';

  async function writers(projectId: string, as: Record<string, string>) {
    const response = await service.call('GET', `/v1/projects/${projectId}/locales/de/translations`, { as });
    expect(response.status).toBe(200);
    const body = translationsResponseSchema.parse(response.body);
    return Object.fromEntries(Object.entries(body.provenance).map(([key, p]) => [key, p.by]));
  }

  it('when a key the model wrote is deleted and added back, then its translation comes back as the model’s, not a person’s', async () => {
    const project = await translated(
      { a: 'A', b: 'B' },
      {
        a: 'A-de',
        b: 'B-de',
        '@@provenance': { ai: { model: MODEL, keys: ['b'] } },
      },
    );
    await service.putSource(project.projectId, project.owner, { a: 'A' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    // Translations for version 2 replace the stored ones: b is retired with its writer.
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, 2, { a: 'A-de' })).status,
    ).toBe(200);

    await service.putSource(project.projectId, project.owner, { a: 'A', b: 'B' });
    await service.waitForLocale(
      project.projectId,
      'de',
      project.owner,
      'b restored',
      (b) => b['missingCount'] === 0 && b['sourceVersion'] === 3,
    );
    expect(await writers(project.projectId, project.owner)).toStrictEqual({ a: 'human', b: 'ai' });
  });

  it('when an upload made before a rename and a restore claims the model wrote a key, then the claim goes with it to the new name, and the restored key keeps its writer', async () => {
    const project = await translated(
      { a: 'A', b: 'B', x: 'X' },
      {
        a: 'A-de',
        b: 'B-de',
        x: 'X-de',
        '@@provenance': { ai: { model: MODEL, keys: ['b'] } },
      },
    );
    await service.putSource(project.projectId, project.owner, { a: 'A', x: 'X' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    expect(
      (await service.putTranslations(project.projectId, 'de', project.owner, 2, { a: 'A-de', x: 'X-de' }))
        .status,
    ).toBe(200);
    // Version 3 renames a to c and restores b.
    await service.putSource(project.projectId, project.owner, { c: 'A', b: 'B', x: 'X' });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 3);

    const upload = await service.putTranslations(project.projectId, 'de', project.owner, 2, {
      a: 'A-de, by the model',
      x: 'X-de',
      '@@provenance': { ai: { model: MODEL, keys: ['a'] } },
    });
    expect(upload.body).toMatchObject({ missingCount: 0, outdatedCount: 0, translatedCount: 3 });
    expect(await service.download(project.projectId, 'de', project.owner)).toStrictEqual({
      c: 'A-de, by the model',
      b: 'B-de',
      x: 'X-de',
    });
    expect(await writers(project.projectId, project.owner)).toMatchObject({ c: 'ai', b: 'ai', x: 'human' });
  });
});
