import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPgDb, openEmbeddedPostgres, type Db } from '@tolk/db';
import { EMBEDDED } from './infrastructure.js';

/**
 * A database of its own for one test file, created on the shared server and dropped after.
 * Each service then migrates its own schema inside it, exactly as at start.
 */
export async function createTestDatabase(
  postgresUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tolk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The database of one test file, from the run's infrastructure: a database of its own on the
 * Postgres server, or — where the run has none (DESIGN §8) — an embedded PGlite in memory,
 * behind the same `Db` interface. Each service takes a `Db` of its own schema from it.
 */
export async function openTestDatabase(
  postgresUrl: string = inject('infrastructure').postgresUrl,
): Promise<TestDatabase> {
  if (postgresUrl === EMBEDDED) {
    const postgres = await openEmbeddedPostgres();
    return {
      url: 'postgres://embedded/tolk',
      embedded: true,
      db: (schema) => postgres.forSchema(schema),
      // On PGlite's one connection, consumers that an in-process bus runs inside the publish
      // would join a transaction held across it: the relay holds none.
      relayOptions: { singleRelay: true },
      drop: () => postgres.close(),
    };
  }
  const database = await createTestDatabase(postgresUrl);
  return {
    url: database.url,
    embedded: false,
    db: (schema) => createPgDb({ url: database.url, schema }),
    relayOptions: {},
    drop: database.drop,
  };
}

export type TestDatabase = {
  /** DATABASE_URL for the services' configurations (they take their `Db` from `db()`). */
  url: string;
  /** PGlite in this process rather than a database on a server. */
  embedded: boolean;
  /** A `Db` bound to `schema`; close it as usual (PGlite's is closed by `drop()`). */
  db(schema: string): Db;
  /** What startOutboxRelay needs besides db, bus and logger on this database. */
  relayOptions: { singleRelay?: boolean };
  drop(): Promise<void>;
};

/** The columns of a table of `db`'s schema (name, type, nullability), by name. */
export async function tableColumns(
  db: Pick<Db, 'query' | 'schema'>,
  table: string,
): Promise<Array<{ name: string; type: string; nullable: boolean }>> {
  const { rows } = await db.query<{ column_name: string; data_type: string; is_nullable: string }>(
    `SELECT column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_schema = $1 AND table_name = $2`,
    [db.schema, table],
  );
  return rows
    .map((r) => ({ name: r.column_name, type: r.data_type, nullable: r.is_nullable === 'YES' }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}
