/**
 * The bus's tables (outbox, processed_events) are the bus's: the frame creates them. The first
 * services' migrations held copies of that DDL; those migrations were rewritten without it, and
 * each service's landed.json names the former texts' checksums. These tests migrate a database
 * with the former texts (kept in fixture/former-migrations), then run the frame with the
 * rewritten ones, and keep new migrations from creating a bus table again.
 */
import { createHash } from 'node:crypto';
import { copyFile, cp, mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busTablesSql } from '@tolk/bus';
import { migrate, type Db } from '@tolk/db';
import { openTestDatabase, type TestDatabase } from '@tolk/testing';
import { migrateSchema } from '../src/index.js';

const SERVICES = path.resolve(import.meta.dirname, '../../../services');
const FORMER = path.resolve(import.meta.dirname, 'fixture/former-migrations');
const BUS_TABLES = ['outbox', 'processed_events'] as const;
const ALL = { outbox: true, consumes: true };

async function serviceMigrations(): Promise<Array<{ service: string; directory: string }>> {
  const services = (await readdir(SERVICES)).sort();
  const found = [];
  for (const service of services) {
    const directory = path.join(SERVICES, service, 'migrations');
    if ((await readdir(directory).catch(() => undefined)) !== undefined) found.push({ service, directory });
  }
  return found;
}

/**
 * A table's columns (name, type, nullability, default), its constraints and its indexes, with
 * the schema's name taken out.
 */
async function shapeOf(db: Db, table: string): Promise<unknown> {
  const unqualified = (text: string | null) => text?.replaceAll(`${db.schema}.`, '') ?? null;
  const columns = await db.query<Record<string, string | null>>(
    `SELECT column_name, data_type, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
      ORDER BY ordinal_position`,
    [db.schema, table],
  );
  const constraints = await db.query<{ name: string; definition: string }>(
    `SELECT c.conname AS name, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND t.relname = $2 ORDER BY c.conname`,
    [db.schema, table],
  );
  const indexes = await db.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE schemaname = $1 AND tablename = $2 ORDER BY indexname`,
    [db.schema, table],
  );
  return {
    columns: columns.rows.map((row) => ({
      ...row,
      column_default: unqualified(row['column_default'] ?? null),
    })),
    constraints: constraints.rows,
    indexes: indexes.rows.map((row) => ({ ...row, definition: unqualified(row.definition) })),
  };
}

async function tableNames(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1`,
    [db.schema],
  );
  return rows.map((row) => row.name);
}

describe("the bus's tables in the services' migrations", () => {
  let database: TestDatabase;
  const dbs: Db[] = [];
  const reference = new Map<string, unknown>();

  function open(schema: string): Db {
    const db = database.db(schema);
    dbs.push(db);
    return db;
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    const bus = open('bus_tables');
    await migrate(bus, await mkdtemp(path.join(os.tmpdir(), 'tolk-bus-tables-')), undefined, {
      before: busTablesSql(ALL),
    });
    for (const table of BUS_TABLES) reference.set(table, await shapeOf(bus, table));
  });
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
    await database.drop();
  });

  it("when the bus's DDL is applied, then it creates both tables, with the outbox's index", async () => {
    expect(reference.get('outbox')).toMatchObject({
      columns: [
        { column_name: 'seq', data_type: 'bigint', is_nullable: 'NO' },
        { column_name: 'id' },
        { column_name: 'type' },
        { column_name: 'payload', data_type: 'jsonb' },
        { column_name: 'request_id', is_nullable: 'YES' },
        { column_name: 'created_at' },
        { column_name: 'published_at' },
      ],
      indexes: expect.arrayContaining([expect.objectContaining({ name: 'outbox_unpublished_idx' })]),
    });
    expect(reference.get('processed_events')).toMatchObject({
      constraints: [{ name: 'processed_events_pkey', definition: 'PRIMARY KEY (consumer, event_id)' }],
    });
  });

  it("when a database migrated with a service's former migrations starts with the rewritten ones, then nothing is refused or reapplied and its rows stay", async () => {
    const rewritten: string[] = [];
    for (const service of (await readdir(FORMER)).sort()) {
      const directory = path.join(SERVICES, service, 'migrations');
      // The service's migrations as they were: the former texts in place of the rewritten ones.
      const former = await mkdtemp(path.join(os.tmpdir(), `tolk-former-${service}-`));
      await cp(directory, former, { recursive: true });
      for (const file of await readdir(path.join(FORMER, service))) {
        await copyFile(path.join(FORMER, service, file), path.join(former, file));
        rewritten.push(`${service}/${file}`);
      }
      const db = open(`former_${service.replace(/-service$/, '')}`);
      await migrate(db, former);
      const created = (await tableNames(db)).filter((name) =>
        (BUS_TABLES as readonly string[]).includes(name),
      );
      for (const table of created) {
        expect(await shapeOf(db, table), `${service}: its ${table}`).toEqual(reference.get(table));
      }
      await db.query(`INSERT INTO processed_events (consumer, event_id) VALUES ('former', 'evt-1')`);

      expect(
        await migrateSchema({ name: 'token', schema: db.schema, migrations: directory, ...ALL }, db),
      ).toEqual([]);
      expect((await db.query('SELECT consumer, event_id FROM processed_events')).rows).toEqual([
        { consumer: 'former', event_id: 'evt-1' },
      ]);
      for (const table of BUS_TABLES) expect(await shapeOf(db, table)).toEqual(reference.get(table));
      const { rows } = await db.query<{ name: string; checksum: string }>(
        'SELECT name, checksum FROM schema_migrations ORDER BY name',
      );
      for (const { name, checksum } of rows) {
        const text = await readFile(path.join(directory, name));
        expect(checksum, `${service}/${name}`).toBe(createHash('sha256').update(text).digest('hex'));
      }
    }
    expect(rewritten).toEqual([
      'byok-service/0002_account_deletion.sql',
      'identity-service/0002_outbox.sql',
      'locale-service/0001_init.sql',
      'project-service/0001_init.sql',
      'source-service/0001_init.sql',
      'token-service/0001_init.sql',
    ]);
  });

  it("when the services' migrations run alone, then none creates a bus table (the frame does)", async () => {
    const creating: string[] = [];
    for (const { service, directory } of await serviceMigrations()) {
      for (const file of (await readdir(directory)).sort()) {
        const sql = await readFile(path.join(directory, file), 'utf8');
        if (
          /CREATE\s+(UNLOGGED\s+)?TABLE\s+(IF\s+NOT\s+EXISTS\s+)?(\w+\.)?"?(outbox|processed_events)\b/i.test(
            sql,
          )
        ) {
          creating.push(`${service}/migrations/${file}`);
        }
      }
      const db = open(`alone_${service.replace(/-service$/, '')}`);
      await migrate(db, directory);
      expect(await tableNames(db), service).not.toEqual(expect.arrayContaining(['outbox']));
      expect(await tableNames(db), service).not.toEqual(expect.arrayContaining(['processed_events']));
    }
    // A service declares `outbox` / `consumes` in its definition; the frame creates the tables.
    expect(creating).toEqual([]);
  });
});
