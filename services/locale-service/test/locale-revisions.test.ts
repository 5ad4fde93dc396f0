/**
 * The revision of a locale's translations (ETag) and optimistic concurrency on their upload
 * (If-Match), read as source uploads read it: a stale If-Match is 412 and stores nothing, even
 * when two uploads with the same If-Match arrive together.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, realServers, settled, whileRowsLocked } from '@tolk/testing';
import { startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const SOURCE = { title: 'Shop', cart: { pay: 'Pay {amount}', empty: 'Empty' } };

type Project = Awaited<ReturnType<LocaleService['projectWithLocales']>>;

/** A project with `de`, its source at version 1. */
async function projectAtVersion1(source: Record<string, unknown> = SOURCE): Promise<Project> {
  const project = await service.projectWithLocales(['de']);
  await service.putSource(project.projectId, project.owner, source);
  await service.waitForSourceVersion(project.projectId, 'de', project.owner, 1);
  return project;
}

const translationsPath = (project: Project, locale = 'de') =>
  `/v1/projects/${project.projectId}/locales/${locale}/translations`;

/** `GET .../translations`: the document and its ETag. */
async function download(project: Project, locale = 'de') {
  const response = await service.call('GET', translationsPath(project, locale), { as: project.owner });
  expect(response.status).toBe(200);
  return { etag: response.headers.get('etag'), content: JSON.parse(response.body.content as string) };
}

/** `PUT .../translations?sourceVersion=1`, with `If-Match` when given. */
function upload(project: Project, body: unknown, ifMatch?: string, locale = 'de') {
  return service.call('PUT', `${translationsPath(project, locale)}?sourceVersion=1`, {
    as: { ...project.owner, ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) },
    body,
  });
}

const revisionOf = (etag: string | null) => Number(/^"(\d+)"$/.exec(etag ?? '')?.[1]);

describe('GET and PUT /v1/projects/:projectId/locales/:locale/translations: ETag', () => {
  it('when translations are uploaded, then the answer and the download carry the same new ETag, new on every upload', async () => {
    const project = await projectAtVersion1();
    const before = await download(project);
    expect(before.etag).toMatch(/^"\d+"$/);

    const first = await upload(project, { title: 'Laden' });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toMatch(/^"\d+"$/);
    expect(first.headers.get('etag')).not.toBe(before.etag);
    expect((await download(project)).etag).toBe(first.headers.get('etag'));

    // The same translations again are still a stored upload: a client that merged before it learns of it.
    const again = await upload(project, { title: 'Laden' });
    expect(again.status).toBe(200);
    expect(revisionOf(again.headers.get('etag'))).toBeGreaterThan(revisionOf(first.headers.get('etag')));
  });

  it('when a locale is removed and added again, then its ETag is none it had before', async () => {
    const project = await projectAtVersion1();
    const seen = [(await download(project)).etag];
    seen.push((await upload(project, { title: 'Laden' })).headers.get('etag'));
    const removed = await service.call('DELETE', `/v1/projects/${project.projectId}/locales/de`, {
      as: project.owner,
    });
    expect(removed.status).toBe(204);
    const added = await service.call('POST', `/v1/projects/${project.projectId}/locales`, {
      as: project.owner,
      body: { locale: 'de' },
    });
    expect(added.status).toBe(201);
    const fresh = await download(project);
    expect(seen).not.toContain(fresh.etag);
    expectError(await upload(project, { title: 'Alt' }, seen[1]!), 412, 'PRECONDITION_FAILED');
  });

  it('when a rename is carried into the stored translations, then their ETag changes', async () => {
    const project = await projectAtVersion1();
    const stored = await upload(project, { title: 'Laden', cart: { pay: 'Zahle {amount}' } });
    expect(stored.status).toBe(200);
    await service.putSource(project.projectId, project.owner, {
      title: 'Shop',
      checkout: { pay: 'Pay {amount}' },
      cart: { empty: 'Empty' },
    });
    await service.waitForSourceVersion(project.projectId, 'de', project.owner, 2);
    const carried = await download(project);
    expect(carried.content).toMatchObject({ checkout: { pay: 'Zahle {amount}' } });
    expect(carried.etag).not.toBe(stored.headers.get('etag'));
  });

  it('when the key rules change, then the ETag changes with what the download shows', async () => {
    const project = await projectAtVersion1();
    const stored = await upload(project, { title: 'Laden' });
    expect(stored.status).toBe(200);
    await service.patchProject(project.ownerId, project.projectId, {
      settings: { keyRules: { neverTranslate: ['title'] } },
    });
    const ruled = await vi.waitFor(async () => {
      const now = await download(project);
      expect(now.content, 'title never translated').toMatchObject({ title: 'Shop' });
      return now;
    }, settled);
    expect(ruled.etag).not.toBe(stored.headers.get('etag'));
  });
});

describe('PUT /v1/projects/:projectId/locales/:locale/translations: If-Match', () => {
  it('when If-Match names the current revision, in any of the forms source uploads take, then the upload is stored', async () => {
    const project = await projectAtVersion1();
    let etag = (await download(project)).etag!;
    const forms = [
      (tag: string) => tag,
      (tag: string) => `W/${tag}`,
      (tag: string) => tag.slice(1, -1),
      (tag: string) => `"0", ${tag}`,
      () => '*',
    ];
    for (const [i, form] of forms.entries()) {
      const stored = await upload(project, { title: `Laden ${i}` }, form(etag));
      expect(stored.status, `${form(etag)}: ${stored.text}`).toBe(200);
      etag = stored.headers.get('etag')!;
      expect((await download(project)).content).toMatchObject({ title: `Laden ${i}` });
    }
  });

  it('when If-Match is stale, then 412 naming the current revision, and nothing is stored', async () => {
    const project = await projectAtVersion1();
    const first = await download(project);
    const mine = await upload(project, { title: 'Laden' }, first.etag!);
    expect(mine.status).toBe(200);
    const stale = await upload(project, { title: 'Geschäft', cart: { empty: 'Leer' } }, first.etag!);
    expectError(stale, 412, 'PRECONDITION_FAILED');
    const current = revisionOf(mine.headers.get('etag'));
    expect(stale.body.error.message).toBe(
      `If-Match does not match: the translations of de are at revision ${current}; ` +
        'nothing was stored (download them again and merge)',
    );
    const after = await download(project);
    expect(after).toEqual({ etag: mine.headers.get('etag'), content: { title: 'Laden' } });
  });

  it('when two uploads with the same If-Match arrive together, then exactly one is stored and the other is 412', async () => {
    const project = await projectAtVersion1();
    const { etag } = await download(project);
    const bodies = [
      { title: 'Laden', cart: { pay: 'Zahle {amount}' } },
      { title: 'Geschäft', cart: { empty: 'Leer' } },
    ];
    const answers = await Promise.all(bodies.map((body) => upload(project, body, etag!)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    const winner = answers.findIndex((answer) => answer.status === 200);
    expectError(answers[1 - winner]!, 412, 'PRECONDITION_FAILED');
    const after = await download(project);
    expect(after).toEqual({ etag: answers[winner]!.headers.get('etag'), content: bodies[winner] });
  });

  // Both uploads pass the check made before the upload is checked; only the check under the row's
  // lock can tell them apart. Another connection holds the project's lock until both wait for it.
  it.skipIf(!realServers().postgres)(
    'when two uploads with the same If-Match both wait for the lock, then the one that gets it second is 412',
    async () => {
      const project = await projectAtVersion1();
      const { etag } = await download(project);
      const bodies = [{ title: 'Laden' }, { title: 'Geschäft' }];
      const answers = await whileRowsLocked(
        service.db,
        { sql: 'SELECT 1 FROM baselines WHERE project_id = $1 FOR UPDATE', params: [project.projectId] },
        () => Promise.all(bodies.map((body) => upload(project, body, etag!))),
        { waiting: 2 },
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
      const winner = answers.findIndex((answer) => answer.status === 200);
      expect(await download(project)).toEqual({
        etag: answers[winner]!.headers.get('etag'),
        content: bodies[winner],
      });
    },
  );

  it('when If-Match is not an entity tag of a revision, then 400 naming the header, and nothing is stored', async () => {
    const project = await projectAtVersion1();
    const before = await download(project);
    for (const bad of ['abc', '"x"', '"1', '"99999999999999999"', '"1",', '']) {
      const refused = await upload(project, { title: 'Laden' }, bad);
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(refused.body.error.message).toBe(
        'If-Match: must be a revision of the translations as an entity tag, e.g. "3", or *',
      );
    }
    expect(await download(project)).toEqual(before);
  });

  it('when there is no If-Match, then uploads are stored as before, the last one winning', async () => {
    const project = await projectAtVersion1();
    expect((await upload(project, { title: 'Laden' })).status).toBe(200);
    expect((await upload(project, { title: 'Geschäft' })).status).toBe(200);
    expect((await download(project)).content).toEqual({ title: 'Geschäft' });
  });

  it('when If-Match is stale and the upload is also invalid, then 412: nothing of it is checked', async () => {
    const project = await projectAtVersion1();
    const { etag } = await download(project);
    expect((await upload(project, { title: 'Laden' })).status).toBe(200);
    expectError(await upload(project, { title: 'Laden', nope: 'x' }, etag!), 412, 'PRECONDITION_FAILED');
  });
});
