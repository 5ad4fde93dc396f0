import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@tolk/logger';
import type { Db } from './db.js';

const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;
/** A line of a rewritten migration naming the checksum of a text it replaces. */
const SUPERSEDES = /^-- supersedes sha256:([0-9a-f]{64})\s*$/gm;

/**
 * The checksums of the former texts a migration file declares it replaces, one line each:
 * `-- supersedes sha256:<hex>`. A migration is rewritten only when what it did has moved
 * elsewhere (the bus's tables, which the frame now creates before every run): a database that
 * applied the former text is then in the state the new one describes.
 */
export function supersededChecksums(sql: string): string[] {
  return [...sql.matchAll(SUPERSEDES)].map((match) => match[1]!);
}

/**
 * Applies a service's plain SQL migrations in file-name order, all in one transaction,
 * under an advisory lock so that concurrent starts of the same service apply them once.
 * A landed migration that was edited afterwards stops the start: migrations are append-only,
 * except a rewrite that names the former text's checksum (`supersededChecksums`): it is accepted
 * where that text was applied, and its own checksum recorded instead.
 * `options.before` is SQL that is not the service's own (the bus's tables): applied at every run,
 * in the same transaction and schema, before the files, so it must be idempotent
 * (`CREATE ... IF NOT EXISTS`); it is not recorded in schema_migrations.
 */
export async function migrate(
  db: Db,
  directory: string,
  logger?: Logger,
  options: { before?: string } = {},
): Promise<string[]> {
  const files = (await readdir(directory)).filter((f) => MIGRATION_FILE.test(f)).sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    // Transaction-scoped lock: released at commit, and held while every file is applied.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tolk.migrate.${db.schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${db.schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${db.schema}.schema_migrations (
         name text PRIMARY KEY,
         checksum text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await tx.query<{ name: string; checksum: string }>(
      `SELECT name, checksum FROM ${db.schema}.schema_migrations`,
    );
    const done = new Map(rows.map((r) => [r.name, r.checksum]));
    if (options.before) {
      await tx.query(`SET LOCAL search_path TO ${db.schema}`);
      await tx.query(options.before);
    }
    for (const file of files) {
      const sql = await readFile(path.join(directory, file), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const previous = done.get(file);
      if (previous === checksum) continue;
      if (previous !== undefined) {
        if (!supersededChecksums(sql).includes(previous)) {
          throw new Error(
            `Migration ${db.schema}/${file} changed after it was applied; add a new migration instead`,
          );
        }
        await tx.query(`UPDATE ${db.schema}.schema_migrations SET checksum = $2 WHERE name = $1`, [
          file,
          checksum,
        ]);
        logger?.info(
          { migration: file, schema: db.schema },
          'rewritten migration: its former text was applied',
        );
        continue;
      }
      await tx.query(`SET LOCAL search_path TO ${db.schema}`);
      await tx.query(sql);
      await tx.query(`INSERT INTO ${db.schema}.schema_migrations (name, checksum) VALUES ($1, $2)`, [
        file,
        checksum,
      ]);
      applied.push(file);
      logger?.info({ migration: file, schema: db.schema }, 'migration applied');
    }
  });
  return applied;
}
