import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Db } from '@tolk/db';
import { LOCALE_PROJECT_COLUMNS, localeService } from '@tolk/locale-service';
import { SOURCE_PROJECT_COLUMNS, sourceService } from '@tolk/source-service';
import { openTestDatabase, type TestDatabase } from '@tolk/testing';
import { tokenService } from '@tolk/token-service';
import { createProjectReplica, replicaTables, type ReplicaColumn } from '../src/index.js';

/** Every service that keeps a project replica, and the extra columns it declares to the module. */
const SERVICES = [
  { service: sourceService, extra: SOURCE_PROJECT_COLUMNS },
  { service: localeService, extra: LOCALE_PROJECT_COLUMNS },
  { service: tokenService, extra: [] },
];

let database: TestDatabase;
const dbs: Db[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  for (const { service } of SERVICES) {
    const db = database.db(service.schema);
    dbs.push(db);
    await migrate(db, service.migrations);
  }
});

afterAll(async () => {
  for (const db of dbs) await db.close();
  await database?.drop();
});

const byName = (a: ReplicaColumn, b: ReplicaColumn) => a.name.localeCompare(b.name);

async function columnsOf(db: Db, schema: string, table: string): Promise<ReplicaColumn[]> {
  const { rows } = await db.query<{ column_name: string; data_type: string; is_nullable: string }>(
    `SELECT column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_schema = $1 AND table_name = $2`,
    [schema, table],
  );
  return rows
    .map((r) => ({ name: r.column_name, type: r.data_type, nullable: r.is_nullable === 'YES' }))
    .sort(byName);
}

describe('the project replica tables', () => {
  it.each(SERVICES.map((s) => [s.service.name, s] as const))(
    "when %s-service's migrations have run, then its tables are exactly the shared definition with its extra columns",
    async (_, { service, extra }) => {
      const db = dbs[SERVICES.findIndex((s) => s.service === service)]!;
      const expected = replicaTables(extra);
      for (const table of ['projects', 'deleted_projects']) {
        expect(await columnsOf(db, service.schema, table), `${service.schema}.${table}`).toEqual(
          [...expected[table]!].sort(byName),
        );
      }
    },
  );
});

describe('the project replica', () => {
  const localeDb = () => dbs[1]!;
  const localeReplica = () =>
    createProjectReplica(localeDb(), {
      extra: LOCALE_PROJECT_COLUMNS,
      toProject: (row: { project_id: string; source_locale: string; i18next_plurals: boolean }) => row,
    });
  const tokenReplica = () =>
    createProjectReplica(dbs[2]!, { toProject: (row: { project_id: string }) => row.project_id });

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
    await dbs[2]!.transaction((tx) => replica.bury('p-gone', 5000, tx));
    await dbs[2]!.transaction((tx) => replica.bury('p-gone', 6000, tx));
    await replica.remember({ projectId: 'p-gone', sourceLocale: 'en', updatedAt: 9000 });
    expect(await replica.find('p-gone')).toBeUndefined();
    expect(await replica.isDeleted('p-gone')).toBe(true);
    expect(await replica.isDeleted('p-never')).toBe(false);
  });

  it('when a project is locked, then it is returned inside the transaction; an unknown one is undefined', async () => {
    const replica = tokenReplica();
    await replica.remember({ projectId: 'p-lock', sourceLocale: 'en', updatedAt: 1000 });
    await dbs[2]!.transaction(async (tx) => {
      expect(await replica.lock('p-lock', tx)).toBe('p-lock');
      expect(await replica.lock('p-lock', tx, 'share')).toBe('p-lock');
      expect(await replica.lock('p-unknown', tx)).toBeUndefined();
    });
  });
});
