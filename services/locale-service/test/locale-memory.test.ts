/** DESIGN §13 on locale-service: translation memory, filled by uploads, looked up per locale. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realServers, request } from '@tolk/testing';
import { expectError, startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

type Headers = Record<string, string>;
type Match = {
  text: string;
  exact: { translation: string; key: string; projectId: string; updatedAt: number } | null;
  near: { source: string; translation: string; similarity: number; projectId: string }[];
};

const memoryPath = (projectId: string, locale: string) =>
  `/v1/projects/${projectId}/locales/${locale}/memory`;

async function lookUp(projectId: string, locale: string, as: Headers, texts: string[], near?: number) {
  const response = await service.call('POST', memoryPath(projectId, locale), {
    as,
    body: near === undefined ? { texts } : { texts, near },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { matches: Match[] }).matches;
}

/** A project of `ownerId` (an existing user's second project), with target locales. */
async function projectOf(ownerId: string, locales: string[]) {
  const owner = await service.as(ownerId);
  const created = await request(`${service.source.projectUrl}/v1/projects`, {
    method: 'POST',
    headers: owner,
    body: { name: 'Another', sourceLocale: 'en' },
  });
  expect(created.status).toBe(201);
  const projectId = created.body.projectId as string;
  for (const locale of locales) {
    const added = await service.call('POST', `/v1/projects/${projectId}/locales`, {
      as: owner,
      body: { locale },
    });
    expect(added.status).toBe(201);
  }
  return { projectId, owner, ownerId };
}

/** The source `source` uploaded and `translations` uploaded for `locale`, made from its version. */
async function translated(
  project: { projectId: string; owner: Headers },
  locale: string,
  source: Record<string, unknown>,
  translations: Record<string, unknown>,
  on: LocaleService = service,
) {
  const { version } = await on.putSource(project.projectId, project.owner, source);
  await on.waitForSourceVersion(project.projectId, locale, project.owner, version);
  const uploaded = await on.putTranslations(project.projectId, locale, project.owner, version, translations);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  return version;
}

describe('translation memory lookups', () => {
  it('when translations are uploaded, then identical texts are found with their key, and others are not', async () => {
    const project = await service.projectWithLocales(['de']);
    await translated(
      project,
      'de',
      {
        save: 'Save',
        cancel: 'Cancel',
        nav: { save: 'Save' },
        plural: '{n, plural, one {# file} other {# files}}',
      },
      {
        save: 'Speichern',
        cancel: 'Abbrechen',
        nav: { save: 'Speichern' },
        plural: '{n, plural, one {# Datei} other {# Dateien}}',
      },
    );
    const matches = await lookUp(project.projectId, 'de', project.owner, [
      'Save',
      'Delete',
      'Cancel',
      '{n, plural, one {# file} other {# files}}',
      'save',
    ]);
    expect(matches.map((m) => m.exact?.translation ?? null)).toEqual([
      'Speichern',
      null,
      'Abbrechen',
      '{n, plural, one {# Datei} other {# Dateien}}',
      null,
    ]);
    expect(matches[0]!.exact).toMatchObject({ projectId: project.projectId });
    expect(['save', 'nav.save']).toContain(matches[0]!.exact!.key);
    expect(matches.every((m) => m.near.length === 0)).toBe(true);
  });

  it('when an unchanged value is uploaded again for a changed source text, then the memory does not pair them', async () => {
    const project = await service.projectWithLocales(['de']);
    await translated(project, 'de', { title: 'Your cart' }, { title: 'Ihr Warenkorb' });
    await translated(project, 'de', { title: 'Your basket' }, { title: 'Ihr Warenkorb' });
    const matches = await lookUp(project.projectId, 'de', project.owner, ['Your cart', 'Your basket']);
    expect(matches.map((m) => m.exact?.translation ?? null)).toEqual(['Ihr Warenkorb', null]);
  });

  it("when a person's value has an error, then the memory does not learn it; one with only a warning it does", async () => {
    const project = await service.projectWithLocales(['de']);
    const source = { pay: 'Pay {amount}', ok: 'OK', bye: 'Goodbye' };
    const version = await translated(project, 'de', source, {
      pay: 'Jetzt zahlen',
      ok: 'OK',
      bye: 'Tschüss',
    });
    const matches = await lookUp(project.projectId, 'de', project.owner, Object.values(source));
    expect(matches.map((m) => m.exact?.translation ?? null)).toEqual([null, 'OK', 'Tschüss']);
    // What the memory offers is taken as the memory's, held to every rule: it would refuse the upload.
    const again = await service.putTranslations(project.projectId, 'de', project.owner, version, {
      pay: 'Jetzt zahlen',
      ok: 'OK',
      bye: 'Tschüss',
      '@@provenance': { memory: { keys: ['ok', 'bye'] } },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const broken = await service.putTranslations(project.projectId, 'de', project.owner, version, {
      ...source,
      pay: 'Jetzt zahlen',
      '@@provenance': { memory: { keys: ['pay'] } },
    });
    expectError(broken, 400, 'VALIDATION_ERROR');
  });

  it("when the user has other projects, then their translations are found, this project's first", async () => {
    const first = await service.projectWithLocales(['de', 'fr']);
    await translated(first, 'de', { ok: 'OK', hello: 'Hello' }, { ok: 'In Ordnung', hello: 'Hallo' });
    const second = await projectOf(first.ownerId, ['de']);
    const before = await lookUp(second.projectId, 'de', second.owner, ['OK', 'Hello']);
    expect(before.map((m) => [m.exact?.translation, m.exact?.projectId])).toEqual([
      ['In Ordnung', first.projectId],
      ['Hallo', first.projectId],
    ]);
    await translated(second, 'de', { ok: 'OK' }, { ok: 'Okay' });
    const after = await lookUp(second.projectId, 'de', second.owner, ['OK', 'Hello']);
    expect(after.map((m) => [m.exact?.translation, m.exact?.projectId])).toEqual([
      ['Okay', second.projectId],
      ['Hallo', first.projectId],
    ]);
    // Another locale's memory is not this one's.
    const french = await lookUp(first.projectId, 'fr', first.owner, ['OK']);
    expect(french[0]!.exact).toBeNull();
  });

  it('when another user or a project token looks up, then no text of a project they cannot read comes back', async () => {
    const mine = await service.projectWithLocales(['de']);
    const secret = `Quarterly numbers ${randomUUID()}`;
    await translated(mine, 'de', { report: secret }, { report: 'Quartalszahlen' });
    const theirs = await service.projectWithLocales(['de']);
    const asOther = await lookUp(theirs.projectId, 'de', theirs.owner, [secret, 'Quarterly numbers'], 5);
    expect(asOther.map((m) => m.exact)).toEqual([null, null]);
    expect(asOther.flatMap((m) => m.near)).toEqual([]);

    // A token of the owner's second project reaches that project's memory only.
    const second = await projectOf(mine.ownerId, ['de']);
    const token = await service.asProjectToken(second.projectId, 'read');
    const byToken = await lookUp(second.projectId, 'de', token, [secret], 5);
    expect(byToken[0]).toMatchObject({ exact: null, near: [] });
    // ... while its owner finds it.
    const byOwner = await lookUp(second.projectId, 'de', second.owner, [secret]);
    expect(byOwner[0]!.exact).toMatchObject({ translation: 'Quartalszahlen', projectId: mine.projectId });
    // A token of another project learns nothing of this one.
    const foreign = await service.call('POST', memoryPath(mine.projectId, 'de'), {
      as: await service.asProjectToken(theirs.projectId, 'read'),
      body: { texts: [secret] },
    });
    expectError(foreign, 404, 'NOT_FOUND');
  });

  it('when near matches are asked for, then similar texts come back, most similar first, never the identical one', async () => {
    const project = await service.projectWithLocales(['de']);
    await translated(
      project,
      'de',
      { a: 'Delete this file', b: 'Delete these files', c: 'Something else entirely' },
      { a: 'Diese Datei löschen', b: 'Diese Dateien löschen', c: 'Etwas ganz anderes' },
    );
    const [match] = await lookUp(project.projectId, 'de', project.owner, ['Delete this file'], 2);
    expect(match!.exact?.translation).toBe('Diese Datei löschen');
    expect(match!.near.map((n) => [n.source, n.translation])).toEqual([
      ['Delete these files', 'Diese Dateien löschen'],
    ]);
    expect(match!.near[0]!.similarity).toBeGreaterThan(0.3);
    expect(match!.near[0]!.similarity).toBeLessThan(1);
    // A search that finished says nothing of giving up.
    const answer = await service.call('POST', memoryPath(project.projectId, 'de'), {
      as: project.owner,
      body: { texts: ['Delete this file'], near: 2 },
    });
    expect(answer.body).not.toHaveProperty('nearTimedOut');
  });

  it('when a locale is removed, then its memory goes with it', async () => {
    const project = await service.projectWithLocales(['de']);
    const text = `Goodbye ${randomUUID()}`;
    await translated(project, 'de', { bye: text }, { bye: 'Tschüss' });
    const second = await projectOf(project.ownerId, ['de']);
    expect((await lookUp(second.projectId, 'de', second.owner, [text]))[0]!.exact).not.toBeNull();
    const removed = await service.call('DELETE', `/v1/projects/${project.projectId}/locales/de`, {
      as: project.owner,
    });
    expect(removed.status).toBe(204);
    expect((await lookUp(second.projectId, 'de', second.owner, [text]))[0]!.exact).toBeNull();
  });
});

// PGlite has no statement_timeout: there a search is never given up.
describe.skipIf(!realServers().postgres)(
  'translation memory: a near-match search over its time budget',
  () => {
    let slow: LocaleService;
    beforeAll(async () => {
      // A budget of 1 ms: a real search of the memory below takes far longer (walking every similar
      // text of the other locale in order of similarity), so it is given up for real.
      slow = await startLocaleService({ env: { MEMORY_NEAR_TIMEOUT_MS: '1' } });
    });
    afterAll(async () => {
      await slow?.close();
    });

    it('when the search is given up, then the answer says so, every near is empty and exact matches are still found', async () => {
      // Another user's memory of 2,000 texts like the ones asked: the search walks them all (they
      // are not the caller's to see), so it takes far longer than 1 ms.
      const theirs = await slow.projectWithLocales(['fr']);
      const texts = Array.from(
        { length: 2000 },
        (_, i) => `Delete the file number ${i} from the shared folder`,
      );
      const keyed = (prefix: string) =>
        Object.fromEntries(texts.map((text, i) => [`k${i}`, `${prefix}${text}`]));
      await translated(theirs, 'fr', keyed(''), keyed('[fr] '), slow);
      const project = await slow.projectWithLocales(['fr']);
      await translated(project, 'fr', { k0: texts[0] }, { k0: '[fr] Supprimer le fichier 0' }, slow);

      const asked = [
        texts[0]!,
        ...Array.from({ length: 99 }, (_, i) => `Delete the file number ${i} of the folder`),
      ];
      const response = await slow.call('POST', memoryPath(project.projectId, 'fr'), {
        as: project.owner,
        body: { texts: asked, near: 3 },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.nearTimedOut).toBe(true);
      const matches = response.body.matches as Match[];
      expect(matches).toHaveLength(100);
      expect(matches.every((match) => match.near.length === 0)).toBe(true);
      expect(matches[0]!.exact?.translation).toBe('[fr] Supprimer le fichier 0');
      expect(slow.logLines.some((line) => line.includes('near-match search given up'))).toBe(true);

      // Without near matches there is nothing to give up.
      const exactOnly = await slow.call('POST', memoryPath(project.projectId, 'fr'), {
        as: project.owner,
        body: { texts: asked },
      });
      expect(exactOnly.status).toBe(200);
      expect(exactOnly.body).not.toHaveProperty('nearTimedOut');
      expect((exactOnly.body.matches as Match[])[0]!.exact?.translation).toBe('[fr] Supprimer le fichier 0');
    });
  },
);

describe('translation memory: bad input', () => {
  it.each([
    ['no texts', {}, 'texts'],
    ['an empty list', { texts: [] }, 'texts: must hold at least one text'],
    ['a string for texts', { texts: 'Save' }, 'texts: must be an array of source texts'],
    ['an empty text', { texts: [''] }, 'texts.0: must not be empty'],
    ['a number among texts', { texts: ['ok', 3] }, 'texts.1: must be strings'],
    ['a text of 5,001 characters', { texts: ['x'.repeat(5001)] }, 'texts.0: must be at most 5000 characters'],
    [
      '5,001 texts',
      { texts: Array.from({ length: 5001 }, (_, i) => `t${i}`) },
      'texts: must hold at most 5000 texts',
    ],
    ['near 6', { texts: ['ok'], near: 6 }, 'near: must be a whole number from 0 to 5'],
    ['near 1.5', { texts: ['ok'], near: 1.5 }, 'near: must be a whole number from 0 to 5'],
    [
      'near matches for 101 texts',
      { texts: Array.from({ length: 101 }, (_, i) => `t${i}`), near: 1 },
      'near: near matches are looked up for at most 100 texts at a time',
    ],
    ['an unknown member', { texts: ['ok'], exact: true }, 'unknown member exact'],
    ['an array', [], 'must be a JSON object'],
  ])('when the body has %s, then 400 VALIDATION_ERROR saying so', async (_what, body, message) => {
    const project = await service.projectWithLocales(['de']);
    const response = await service.call('POST', memoryPath(project.projectId, 'de'), {
      as: project.owner,
      body,
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toContain(message);
  });

  it('when the locale is not a target locale, then 404 naming it', async () => {
    const project = await service.projectWithLocales(['de']);
    const response = await service.call('POST', memoryPath(project.projectId, 'fr'), {
      as: project.owner,
      body: { texts: ['ok'] },
    });
    expectError(response, 404, 'NOT_FOUND');
    expect(response.body.error.message).toContain('fr');
  });
});
