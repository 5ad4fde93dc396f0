import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '@tolk/testing';
import { LANDED_MANIFEST, migrate, sha256, type Db, type LandedManifest } from '@tolk/db';

describe('migrate', () => {
  let database: TestDatabase;
  const dbs: Db[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
    await database.drop();
  });

  async function migrationsDir(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tolk-migrations-'));
    for (const [name, sql] of Object.entries(files)) await writeFile(path.join(dir, name), sql);
    return dir;
  }

  function open(schema: string): Db {
    const db = database.db(schema);
    dbs.push(db);
    return db;
  }

  it('when several processes start at once, then each migration is applied exactly once', async () => {
    const dir = await migrationsDir({
      '0001_init.sql': 'CREATE TABLE widgets (id int PRIMARY KEY);',
      '0002_more.sql': 'INSERT INTO widgets VALUES (1);',
    });
    const results = await Promise.all([1, 2, 3, 4].map(() => migrate(open('concurrent'), dir)));
    expect(results.flat().sort()).toEqual(['0001_init.sql', '0002_more.sql']);
    const { rows } = await open('concurrent').query<{ n: number }>('SELECT count(*)::int AS n FROM widgets');
    expect(rows[0]?.n).toBe(1);
  });

  it('when a landed migration was edited, then the start stops with a message naming it', async () => {
    const db = open('edited');
    const dir = await migrationsDir({ '0001_init.sql': 'CREATE TABLE a (id int PRIMARY KEY);' });
    await migrate(db, dir);
    await writeFile(path.join(dir, '0001_init.sql'), 'CREATE TABLE a (id bigint PRIMARY KEY);');
    await expect(migrate(db, dir)).rejects.toThrow(/edited\/0001_init.sql changed after it was applied/);
  });

  describe("a database that recorded a migration otherwise than its service's landed.json", () => {
    const former = 'CREATE TABLE a (id int PRIMARY KEY);\nCREATE TABLE moved (id int PRIMARY KEY);\n';
    const current = 'CREATE TABLE a (id int PRIMARY KEY);\n';

    async function migratedWith(
      schema: string,
      files: Record<string, string>,
    ): Promise<{ db: Db; dir: string }> {
      const db = open(schema);
      const dir = await migrationsDir(files);
      await migrate(db, dir);
      await db.query('INSERT INTO a VALUES (1)');
      return { db, dir };
    }

    async function landed(dir: string, manifest: LandedManifest): Promise<void> {
      await writeFile(path.join(dir, LANDED_MANIFEST), JSON.stringify(manifest));
    }

    async function recorded(db: Db): Promise<Array<{ name: string; checksum: string }>> {
      const { rows } = await db.query<{ name: string; checksum: string }>(
        'SELECT name, checksum FROM schema_migrations ORDER BY name',
      );
      return rows;
    }

    it('when it applied a former text the manifest names, then nothing runs again and the landed checksum is recorded', async () => {
      const { db, dir } = await migratedWith('former_text', { '0001_init.sql': former });
      await writeFile(path.join(dir, '0001_init.sql'), current);
      await landed(dir, { '0001_init.sql': { sha256: sha256(current), formerSha256: [sha256(former)] } });
      expect(await migrate(db, dir)).toEqual([]);
      expect((await db.query('SELECT id FROM a')).rows).toEqual([{ id: 1 }]);
      expect(await recorded(db)).toEqual([{ name: '0001_init.sql', checksum: sha256(current) }]);
      expect(await migrate(db, dir)).toEqual([]);
    });

    it('when it applied a text the manifest does not name, then the start stops naming the file', async () => {
      const { db, dir } = await migratedWith('other_text', { '0001_init.sql': former });
      await writeFile(path.join(dir, '0001_init.sql'), current);
      await landed(dir, {
        '0001_init.sql': { sha256: sha256(current), formerSha256: [sha256('another text')] },
      });
      await expect(migrate(db, dir)).rejects.toThrow(
        /other_text\/0001_init.sql changed after it was applied/,
      );
    });

    it('when a file names its former text in a comment only, then the start stops as for any edit', async () => {
      const { db, dir } = await migratedWith('comment_only', { '0001_init.sql': former });
      await writeFile(path.join(dir, '0001_init.sql'), `${current}-- supersedes sha256:${sha256(former)}\n`);
      await expect(migrate(db, dir)).rejects.toThrow(
        /comment_only\/0001_init.sql changed after it was applied/,
      );
    });

    it('when files were renumbered, then their rows take the new names and only the files after them run', async () => {
      const { db, dir } = await migratedWith('renumbered', {
        '0001_init.sql': current,
        '0002_b.sql': 'ALTER TABLE a ADD COLUMN b int;',
        '0002_c.sql': 'ALTER TABLE a ADD COLUMN c int;',
      });
      await rename(path.join(dir, '0002_c.sql'), path.join(dir, '0003_c.sql'));
      await writeFile(path.join(dir, '0004_d.sql'), 'ALTER TABLE a ADD COLUMN d int;');
      await landed(dir, {
        '0001_init.sql': { sha256: sha256(current) },
        '0002_b.sql': { sha256: sha256('ALTER TABLE a ADD COLUMN b int;') },
        '0003_c.sql': { sha256: sha256('ALTER TABLE a ADD COLUMN c int;'), formerName: '0002_c.sql' },
      });
      expect(await migrate(db, dir)).toEqual(['0004_d.sql']);
      expect((await recorded(db)).map((row) => row.name)).toEqual([
        '0001_init.sql',
        '0002_b.sql',
        '0003_c.sql',
        '0004_d.sql',
      ]);
      expect(await migrate(db, dir)).toEqual([]);
    });

    it('when a database never applied a renumbered file, then it runs under its new name', async () => {
      const db = open('renumbered_fresh');
      const dir = await migrationsDir({
        '0001_init.sql': current,
        '0003_c.sql': 'ALTER TABLE a ADD COLUMN c int;',
      });
      await landed(dir, {
        '0003_c.sql': { sha256: sha256('ALTER TABLE a ADD COLUMN c int;'), formerName: '0002_c.sql' },
      });
      expect(await migrate(db, dir)).toEqual(['0001_init.sql', '0003_c.sql']);
    });
  });

  it('when a migration fails, then nothing of that run is kept', async () => {
    const db = open('failing');
    const dir = await migrationsDir({
      '0001_ok.sql': 'CREATE TABLE ok (id int PRIMARY KEY);',
      '0002_bad.sql': 'CREATE TABLE broken (id nonsense_type);',
    });
    await expect(migrate(db, dir)).rejects.toThrow();
    const { rows } = await db.query(`SELECT to_regclass('failing.ok') AS t`);
    expect(rows[0]).toEqual({ t: null });
  });

  it('binds unqualified names to the service schema only', async () => {
    const a = open('schema_a');
    const b = open('schema_b');
    const dir = await migrationsDir({ '0001_init.sql': 'CREATE TABLE things (name text PRIMARY KEY);' });
    await migrate(a, dir);
    await migrate(b, dir);
    await a.query(`INSERT INTO things VALUES ('only-in-a')`);
    const { rows } = await b.query('SELECT * FROM things');
    expect(rows).toEqual([]);
  });
  it('when SQL is given to run before the files, then it runs first at every run, in the schema, unrecorded', async () => {
    const db = open('before');
    const before = `CREATE TABLE IF NOT EXISTS shared (id int PRIMARY KEY);
      INSERT INTO shared VALUES (1) ON CONFLICT DO NOTHING;`;
    const dir = await migrationsDir({ '0001_init.sql': 'INSERT INTO shared VALUES (2);' });
    expect(await migrate(db, dir, undefined, { before })).toEqual(['0001_init.sql']);
    expect(await migrate(db, dir, undefined, { before })).toEqual([]);
    const { rows } = await db.query('SELECT id FROM before.shared ORDER BY id');
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
    const recorded = await db.query('SELECT name FROM before.schema_migrations');
    expect(recorded.rows).toEqual([{ name: '0001_init.sql' }]);
  });

  it('when the SQL run before the files fails, then no migration of that run is kept', async () => {
    const db = open('before_failing');
    const dir = await migrationsDir({ '0001_ok.sql': 'CREATE TABLE ok (id int PRIMARY KEY);' });
    await expect(
      migrate(db, dir, undefined, { before: 'CREATE TABLE broken (id nonsense_type);' }),
    ).rejects.toThrow(/nonsense_type/);
    const { rows } = await db.query(`SELECT to_regclass('before_failing.ok') AS t`);
    expect(rows[0]).toEqual({ t: null });
  });
});
