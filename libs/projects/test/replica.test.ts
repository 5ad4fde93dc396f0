import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@tolk/db';
import { openTestDatabase, tableColumns, type TestDatabase } from '@tolk/testing';
import {
  createProjectReplica,
  replicaTables,
  sourceLocaleColumn,
  type ReplicaExtraColumn,
} from '../src/index.js';

/**
 * Two replicas as services keep them (each service's own tests hold its migrated tables to
 * `replicaTables`): one with extra columns written from the project's facts, one with none.
 */
const LOCALE_COLUMNS: readonly ReplicaExtraColumn[] = [
  sourceLocaleColumn,
  { name: 'i18next_plurals', type: 'boolean', nullable: false, fromFacts: (f) => f.i18nextPlurals ?? true },
  {
    name: 'key_rules',
    type: 'jsonb',
    nullable: false,
    fromFacts: (f) => JSON.stringify(f.keyRules ?? { humanOnly: [], neverTranslate: [], exclude: [] }),
  },
];
const REPLICAS = [
  {
    schema: 'replica_locale',
    extra: LOCALE_COLUMNS,
    projectColumns:
      ', source_locale text NOT NULL, i18next_plurals boolean NOT NULL DEFAULT true,' +
      ` key_rules jsonb NOT NULL DEFAULT '{"humanOnly": [], "neverTranslate": [], "exclude": []}'::jsonb`,
  },
  { schema: 'replica_plain', extra: [], projectColumns: '' },
];

let database: TestDatabase;
const dbs: Db[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  for (const { schema, projectColumns } of REPLICAS) {
    const db = database.db(schema);
    dbs.push(db);
    await db.query(`CREATE SCHEMA ${schema}`);
    await db.query(
      `CREATE TABLE ${schema}.projects (project_id text PRIMARY KEY, project_updated_at timestamptz NOT NULL${projectColumns});
       CREATE TABLE ${schema}.deleted_projects (project_id text PRIMARY KEY, deleted_at timestamptz NOT NULL)`,
    );
  }
});

afterAll(async () => {
  for (const db of dbs) await db.close();
  await database?.drop();
});

describe('the project replica tables', () => {
  it('when tables are made as the shared definition says, then replicaTables describes them exactly', async () => {
    for (const [index, { extra }] of REPLICAS.entries()) {
      const expected = replicaTables(extra);
      for (const table of ['projects', 'deleted_projects']) {
        const columns = [...expected[table]!].sort((a, b) => (a.name < b.name ? -1 : 1));
        expect(await tableColumns(dbs[index]!, table), table).toEqual(columns);
      }
    }
  });
});

describe('the project replica', () => {
  const localeDb = () => dbs[0]!;
  const localeReplica = () =>
    createProjectReplica(localeDb(), {
      extra: LOCALE_COLUMNS,
      toProject: (row: {
        project_id: string;
        source_locale: string;
        i18next_plurals: boolean;
        key_rules: unknown;
      }) => row,
    });
  const tokenReplica = () =>
    createProjectReplica(dbs[1]!, { toProject: (row: { project_id: string }) => row.project_id });

  it('when a project is remembered, then its facts are stored with the source locale canonical', async () => {
    const replica = localeReplica();
    expect(await replica.remember({ projectId: 'p-new', sourceLocale: 'pt-br', updatedAt: 1000 })).toEqual({
      changed: [],
    });
    expect(await replica.find('p-new')).toEqual({
      project_id: 'p-new',
      source_locale: 'pt-BR',
      i18next_plurals: true,
      key_rules: { humanOnly: [], neverTranslate: [], exclude: [] },
    });
  });

  it('when the key rules change, then remember names them, and an equal set changes nothing', async () => {
    const replica = localeReplica();
    const keyRules = { humanOnly: ['legal.*'], neverTranslate: [], exclude: ['debug.**'] };
    await replica.remember({ projectId: 'p-rules', sourceLocale: 'en', updatedAt: 1000 });
    expect(
      await replica.remember({ projectId: 'p-rules', sourceLocale: 'en', keyRules, updatedAt: 2000 }),
    ).toEqual({ changed: ['key_rules'] });
    expect(
      await replica.remember({
        projectId: 'p-rules',
        sourceLocale: 'en',
        keyRules: { ...keyRules },
        updatedAt: 3000,
      }),
    ).toEqual({ changed: [] });
    expect(await replica.find('p-rules')).toMatchObject({ key_rules: keyRules });
  });

  it('when an older change arrives after a newer one, then the newer stays; an equal one is applied again', async () => {
    const replica = localeReplica();
    await replica.remember({ projectId: 'p-order', sourceLocale: 'de', updatedAt: 2000 });
    await replica.remember({
      projectId: 'p-order',
      sourceLocale: 'fr',
      i18nextPlurals: false,
      updatedAt: 1000,
    });
    expect(await replica.find('p-order')).toMatchObject({ source_locale: 'de', i18next_plurals: true });
    await replica.remember({ projectId: 'p-order', sourceLocale: 'de', updatedAt: 2000 });
    expect(await replica.find('p-order')).toMatchObject({ source_locale: 'de', i18next_plurals: true });
  });

  it('when a known project changes an extra column, then remember names it, and only then', async () => {
    const replica = localeReplica();
    await replica.remember({ projectId: 'p-plurals', sourceLocale: 'en', updatedAt: 1000 });
    expect(
      await replica.remember({
        projectId: 'p-plurals',
        sourceLocale: 'en',
        i18nextPlurals: false,
        updatedAt: 2000,
      }),
    ).toEqual({ changed: ['i18next_plurals'] });
    expect(
      await replica.remember({
        projectId: 'p-plurals',
        sourceLocale: 'de',
        i18nextPlurals: false,
        updatedAt: 3000,
      }),
    ).toEqual({ changed: ['source_locale'] });
    expect(
      await replica.remember({
        projectId: 'p-plurals',
        sourceLocale: 'en',
        i18nextPlurals: true,
        updatedAt: 2500,
      }),
    ).toEqual({ changed: [] });
  });

  it('when a project is buried, then it is gone and a later change does not bring it back', async () => {
    const replica = tokenReplica();
    await replica.remember({ projectId: 'p-gone', sourceLocale: 'en', updatedAt: 1000 });
    expect(await replica.find('p-gone')).toBe('p-gone');
    await dbs[1]!.transaction((tx) => replica.bury('p-gone', 5000, tx));
    await dbs[1]!.transaction((tx) => replica.bury('p-gone', 6000, tx));
    await replica.remember({ projectId: 'p-gone', sourceLocale: 'en', updatedAt: 9000 });
    expect(await replica.find('p-gone')).toBeUndefined();
    expect(await replica.isDeleted('p-gone')).toBe(true);
    expect(await replica.isDeleted('p-never')).toBe(false);
  });

  it('when a project is locked, then it is returned inside the transaction; an unknown one is undefined', async () => {
    const replica = tokenReplica();
    await replica.remember({ projectId: 'p-lock', sourceLocale: 'en', updatedAt: 1000 });
    await dbs[1]!.transaction(async (tx) => {
      expect(await replica.lock('p-lock', tx)).toBe('p-lock');
      expect(await replica.lock('p-lock', tx, 'share')).toBe('p-lock');
      expect(await replica.lock('p-unknown', tx)).toBeUndefined();
    });
  });
});
