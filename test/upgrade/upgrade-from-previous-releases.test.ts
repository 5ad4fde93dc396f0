/**
 * A database made by a previous release, migrated by this one: each fixture is the dump of every
 * service's schema after that release's own system went through real API steps (fixtures/README.md
 * says how they were made). Restored into a database of its own and migrated by every service's
 * frame, it must hold what a fresh database migrated by this release holds: the same tables,
 * columns, constraints, indexes and recorded migrations, and every row it had.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@tolk/db';
import { migrateSchema } from '@tolk/service';
import { openTestDatabase, type TestDatabase } from '@tolk/testing';
import { SERVICES } from '../../scripts/services.js';
import { restoreRelease } from './release-database.js';

/** The releases whose databases are upgraded, and what each is a test of. */
const RELEASES = [
  { commit: 'fbfd8dad', what: 'the first release: every service at its first migrations' },
  { commit: '704ca92', what: "source-service's first text of 0005_key_rules.sql" },
  { commit: '48cc596', what: 'the last release numbering four locale-service migrations 0003' },
];

/** Every table, column, constraint, index and sequence of `schema`, and its recorded migrations. */
async function schemaOf(db: Db, schema: string): Promise<unknown> {
  const select = async (sql: string) => (await db.query(sql, [schema])).rows;
  return {
    relations: await select(
      `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 ORDER BY c.relname`,
    ),
    columns: await select(
      // The order of a table's columns, not their numbers: a restored dump numbers them anew
      // where a migration dropped one.
      `SELECT table_name, column_name, data_type, is_nullable, column_default,
              row_number() OVER (PARTITION BY table_name ORDER BY ordinal_position) AS position
         FROM information_schema.columns WHERE table_schema = $1
        ORDER BY table_name, ordinal_position`,
    ),
    constraints: await select(
      `SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
         FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = $1 ORDER BY t.relname, c.conname`,
    ),
    indexes: await select(
      `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1
        ORDER BY tablename, indexname`,
    ),
    storage: await select(
      `SELECT c.relname AS table, a.attname AS column, a.attstorage AS storage
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY c.relname, a.attname`,
    ),
    migrations: (await db.query(`SELECT name, checksum FROM ${schema}.schema_migrations ORDER BY name`)).rows,
  };
}

/** Every row of every table of `schema` but schema_migrations, as JSON, by table. */
async function rowsOf(db: Db, schema: string): Promise<Map<string, unknown[]>> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'
      ORDER BY table_name`,
    [schema],
  );
  const rows = new Map<string, unknown[]>();
  for (const { name } of tables) {
    const { rows: found } = await db.query<{ row: unknown }>(
      `SELECT to_jsonb(t) AS row FROM ${schema}.${name} t`,
    );
    rows.set(
      name,
      found.map((r) => r.row),
    );
  }
  return rows;
}

/**
 * The columns whose stored values a migration brings up to date on purpose: the counts of every
 * locale are stale after 0013_state_of_earlier_rules.sql (recomputed before they are next shown).
 */
const BROUGHT_UP_TO_DATE: Record<string, readonly string[]> = { 'locales.locales': ['counts_version'] };

/**
 * The rows of `before` that `table` of `schema` no longer holds: a row is held when one row of the
 * table has each of its columns that the table still has with the same value (but those brought up
 * to date).
 */
async function rowsLost(db: Db, schema: string, table: string, before: unknown[]): Promise<unknown[]> {
  const { rows } = await db.query<{ row: unknown }>(
    `WITH kept AS (
       SELECT array_agg(column_name::text) AS columns FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = $2 AND NOT column_name = ANY($4::text[])
     )
     SELECT b.row FROM jsonb_array_elements($3::jsonb) AS b(row), kept
      WHERE NOT EXISTS (
        SELECT 1 FROM ${schema}.${table} t
         WHERE to_jsonb(t) @> (SELECT jsonb_object_agg(key, value) FROM jsonb_each(b.row)
                                WHERE key = ANY(kept.columns))
      )`,
    [schema, table, JSON.stringify(before), BROUGHT_UP_TO_DATE[`${schema}.${table}`] ?? []],
  );
  return rows.map((r) => r.row);
}

// Each test migrates a database of every schema; PGlite (a run with no Postgres) takes seconds a schema.
const MIGRATING = { timeout: 120_000 };

describe('a database made by a previous release, migrated by this one', MIGRATING, () => {
  const opened: TestDatabase[] = [];
  const dbs: Db[] = [];
  const fresh = new Map<string, unknown>();

  async function openDatabase(): Promise<TestDatabase> {
    const database = await openTestDatabase();
    opened.push(database);
    return database;
  }
  function dbOf(database: TestDatabase, schema: string): Db {
    const db = database.db(schema);
    dbs.push(db);
    return db;
  }
  async function migrateAll(database: TestDatabase): Promise<void> {
    for (const definition of SERVICES) await migrateSchema(definition, dbOf(database, definition.schema));
  }

  beforeAll(async () => {
    const database = await openDatabase();
    await migrateAll(database);
    for (const { schema } of SERVICES) fresh.set(schema, await schemaOf(dbOf(database, schema), schema));
  }, MIGRATING.timeout);
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
    await Promise.all(opened.map((database) => database.drop()));
  });

  for (const release of RELEASES) {
    it(`when the database of ${release.commit} (${release.what}) is migrated, then it holds what a fresh one holds, and every row it had`, async () => {
      const database = await openDatabase();
      await restoreRelease(database, release.commit);
      const before = new Map<string, Map<string, unknown[]>>();
      for (const { schema } of SERVICES) before.set(schema, await rowsOf(dbOf(database, schema), schema));

      await migrateAll(database);

      for (const { schema } of SERVICES) {
        const db = dbOf(database, schema);
        expect(await schemaOf(db, schema), `${release.commit}: the ${schema} schema`).toEqual(
          fresh.get(schema),
        );
        for (const [table, rows] of before.get(schema)!) {
          expect(
            await rowsLost(db, schema, table, rows),
            `${release.commit}: rows of ${schema}.${table}`,
          ).toEqual([]);
        }
      }
    });
  }
});
