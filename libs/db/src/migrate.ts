/**
 * The migrator of every service's schema. Hand-written rather than postgrator's: every pending file
 * of a service is applied in one transaction under an advisory lock (postgrator applies each file
 * on its own and leaves the ones before a failure applied), the bus's SQL runs first in that same
 * transaction, and databases already hold this migrator's `schema_migrations` by file name, which
 * postgrator's numbered `schemaversion` table would have to be converted from: more code, not less.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@tolk/logger';
import type { Db, Queryable } from './db.js';

const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;

/** The manifest beside a service's migrations. */
export const LANDED_MANIFEST = 'landed.json';

/**
 * What `landed.json` says of one landed migration: the SHA-256 of its bytes, which never change
 * (a test holds each file to it), and how databases migrated before recorded it: the name it had
 * (`formerName`, before the service's files were numbered one each) and the checksums of texts it
 * replaced (`formerSha256`, texts applied before the rule that landed migrations never change).
 */
export type LandedMigration = { sha256: string; formerName?: string; formerSha256?: string[] };

export type LandedManifest = Record<string, LandedMigration>;

/** The manifest of the migrations in `directory`; empty where there is none. */
export async function readLandedManifest(directory: string): Promise<LandedManifest> {
  const text = await readFile(path.join(directory, LANDED_MANIFEST), 'utf8').catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '{}';
    throw err;
  });
  return JSON.parse(text) as LandedManifest;
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Records what a database migrated before recorded otherwise as its manifest says today: a former
 * name takes the file's name, a former text's checksum the file's own. Nothing of those files runs
 * again: what a former text did is what its file does now (the bus's tables, created by the frame
 * since; a later migration makes up any other difference).
 */
async function recordAsLanded(
  tx: Queryable,
  schema: string,
  manifest: LandedManifest,
  logger?: Logger,
): Promise<void> {
  for (const [file, landed] of Object.entries(manifest)) {
    if (landed.formerName !== undefined) {
      const renamed = await tx.query(`UPDATE ${schema}.schema_migrations SET name = $2 WHERE name = $1`, [
        landed.formerName,
        file,
      ]);
      if (renamed.rowCount > 0)
        logger?.info({ migration: file, schema, formerName: landed.formerName }, 'migration renamed');
    }
    if (landed.formerSha256?.length) {
      const updated = await tx.query(
        `UPDATE ${schema}.schema_migrations SET checksum = $2 WHERE name = $1 AND checksum = ANY($3::text[])`,
        [file, landed.sha256, landed.formerSha256],
      );
      if (updated.rowCount > 0)
        logger?.info({ migration: file, schema }, 'former text of a migration was applied');
    }
  }
}

/**
 * Applies a service's plain SQL migrations in file-name order, all in one transaction,
 * under an advisory lock so that concurrent starts of the same service apply them once.
 * Migrations never change once landed: one whose checksum differs from the one recorded stops
 * the start, except where the service's `landed.json` names the recorded name or checksum as a
 * former one of that file (`recordAsLanded`).
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
  const manifest = await readLandedManifest(directory);
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
    await recordAsLanded(tx, db.schema, manifest, logger);
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
      const checksum = sha256(sql);
      const previous = done.get(file);
      if (previous === checksum) continue;
      if (previous !== undefined) {
        throw new Error(
          `Migration ${db.schema}/${file} changed after it was applied; add a new migration instead`,
        );
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
