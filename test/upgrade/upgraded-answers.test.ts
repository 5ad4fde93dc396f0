/**
 * An upgrade recomputes what a new rule changes: the database the first release made (fixtures/
 * README.md), migrated and served by this release, answers what a fresh database answers after the
 * same steps — counts of the keys as this release derives them (i18next plural forms), the
 * translation memory holding the translations stored before it existed — except that the writer
 * of translations stored before provenance was kept is unknown rather than a person.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settled } from '@tolk/testing';
import { startSystem, type System } from '../e2e/system.js';
import { RELEASE_PASSWORD, SOURCE_V2, restoreRelease, takeReleaseSteps } from './release-database.js';

type Answers = Record<string, unknown>;

/** Starting a system migrates every schema: on PGlite (a run with no Postgres), tens of seconds. */
const STARTING_MS = 180_000;

/** Every answer about the project that its owner can read, ids and times taken out. */
async function answersOf(system: System, user: Owner, projectId: string): Promise<Answers> {
  const { token, userId } = user;
  const project = `/v1/projects/${projectId}`;
  const read = async (method: string, path: string, body?: unknown) => {
    const response = await system.call(method, path, token, body);
    expect(response.status, `${method} ${path}`).toBe(200);
    return response.body as unknown;
  };
  const texts = [...new Set(Object.values(SOURCE_V2).flatMap((group) => Object.values(group)))];
  const answers: Answers = {
    project: await read('GET', project),
    glossary: await read('GET', `${project}/glossary`),
    source: await read('GET', `${project}/source`),
    locales: await read('GET', `${project}/locales`),
    keys: await read('GET', `${project}/keys?locale=de,pl`),
  };
  for (const locale of ['de', 'pl']) {
    answers[locale] = {
      detail: await read('GET', `${project}/locales/${locale}`),
      translations: await read('GET', `${project}/locales/${locale}/translations`),
      memory: await read('POST', `${project}/locales/${locale}/memory`, { texts }),
    };
  }
  const TIMES = new Set(['updatedAt', 'createdAt', 'at']);
  const text = JSON.stringify(answers).replaceAll(projectId, '<project>').replaceAll(userId, '<user>');
  return JSON.parse(text, (key, value: unknown) =>
    TIMES.has(key) || key === 'entryId' ? undefined : value,
  ) as Answers;
}

/**
 * `answers` with every writer of a stored translation unknown: the browser's `{"by": "unknown"}`,
 * and a download's keys in `unknownWriters` rather than in `provenance`.
 */
function withWritersUnknown(answers: Answers): Answers {
  return JSON.parse(JSON.stringify(answers), (_key, value: unknown) => {
    if (value === null || typeof value !== 'object') return value;
    if ('unknownWriters' in value && 'provenance' in value) {
      return { ...value, provenance: {}, unknownWriters: Object.keys(value.provenance as object) };
    }
    return 'by' in value ? { by: 'unknown' } : value;
  }) as Answers;
}

type Owner = { token: string; userId: string };

/** Starts a system on the database of the release at `commit`; its user's email and its project's id. */
async function upgradedSystem(commit: string): Promise<{ system: System; email: string; projectId: string }> {
  let release = { email: '', projectId: '' };
  const system = await startSystem({
    sources: true,
    restore: async (database) => {
      await restoreRelease(database, commit);
      const identity = database.db('identity');
      const { rows } = await identity.query<{ email: string; project_id: string }>(
        'SELECT u.email, p.project_id FROM identity.users u, projects.projects p',
      );
      await identity.close();
      expect(rows).toHaveLength(1);
      release = { email: rows[0]!.email, projectId: rows[0]!.project_id };
    },
  });
  return { system, ...release };
}

async function logIn(system: System, email: string): Promise<Owner> {
  const login = await system.call('POST', '/v1/auth/login', undefined, { email, password: RELEASE_PASSWORD });
  expect(login.status).toBe(200);
  return { token: login.body.accessToken as string, userId: login.body.user.userId as string };
}

describe('the database of the first release, served by this one', () => {
  let upgraded: System;
  let fresh: System;
  let release: { email: string; projectId: string };

  beforeAll(async () => {
    const started = await upgradedSystem('fbfd8dad');
    upgraded = started.system;
    release = started;
    fresh = await startSystem({ sources: true });
  }, STARTING_MS);
  afterAll(async () => {
    await upgraded?.close();
    await fresh?.close();
  });

  it('when its project is read, then every answer is the one a fresh database gives after the same steps, its writers unknown', async () => {
    const owner = await logIn(upgraded, release.email);
    const steps = await takeReleaseSteps(fresh);

    const expected = await answersOf(fresh, steps, steps.projectId);
    const actual = await answersOf(upgraded, owner, release.projectId);

    // What the steps left: pl lacks the plural forms few and many that i18next has for it, and its
    // menu.help is the source text (a copy: a warning of this release, none of the first).
    expect(expected['pl']).toMatchObject({
      detail: {
        missing: expect.arrayContaining(['cart.items_few']),
        warningCount: 1,
        findings: [expect.objectContaining({ key: 'menu.help', kind: 'copy' })],
      },
    });
    expect(actual).toEqual(withWritersUnknown(expected));
    // The browser filters by the writer not known as by any other.
    const writtenBy = async (system: System, token: string, projectId: string, by: string) => {
      const page = await system.call('GET', `/v1/projects/${projectId}/keys?locale=de,pl&by=${by}`, token);
      expect(page.status).toBe(200);
      return (page.body.keys as Array<{ key: string }>).map((row) => row.key);
    };
    expect(await writtenBy(upgraded, owner.token, release.projectId, 'unknown')).toEqual(
      await writtenBy(fresh, steps.token, steps.projectId, 'human'),
    );
    expect(await writtenBy(upgraded, owner.token, release.projectId, 'human')).toEqual([]);
  });
});

describe("the first release's database, once this release has started on it", () => {
  let started: Awaited<ReturnType<typeof upgradedSystem>>;
  beforeAll(async () => {
    started = await upgradedSystem('fbfd8dad');
  }, STARTING_MS);
  afterAll(async () => {
    await started?.system.close();
  });

  it('when its project is not read, then the memory holds its stored translations all the same', async () => {
    const { system, email, projectId } = started;
    const { token } = await logIn(system, email);
    await vi.waitFor(async () => {
      const lookup = await system.call('POST', `/v1/projects/${projectId}/locales/de/memory`, token, {
        texts: ['Your cart', 'Help'],
      });
      expect(lookup.status).toBe(200);
      expect(lookup.body.matches).toMatchObject([
        { exact: { translation: 'Dein Warenkorb', key: 'cart.title' } },
        { exact: { translation: 'Hilfe', key: 'menu.help' } },
      ]);
    }, settled);
  });
});

describe.each(['704ca92', '48cc596'])(
  'the database of %s (key rules, a glossary), served by this one',
  (commit) => {
    let upgraded: Awaited<ReturnType<typeof upgradedSystem>>;
    let fresh: System;
    beforeAll(async () => {
      upgraded = await upgradedSystem(commit);
      fresh = await startSystem({ sources: true });
    }, STARTING_MS);
    afterAll(async () => {
      await upgraded?.system.close();
      await fresh?.close();
    });

    it('when its project is read, then every answer is the one a fresh database gives after the same steps', async () => {
      const owner = await logIn(upgraded.system, upgraded.email);
      const steps = await takeReleaseSteps(fresh, { rulesAndGlossary: true });
      const expected = await answersOf(fresh, steps, steps.projectId);
      expect(expected['pl']).toMatchObject({ detail: { warningCount: 1 } });
      expect(await answersOf(upgraded.system, owner, upgraded.projectId)).toEqual(expected);
    });
  },
);
