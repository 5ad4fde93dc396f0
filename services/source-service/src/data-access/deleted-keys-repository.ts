import type { Db, Queryable } from '@tolk/db';

/** A key as it was when it was last deleted (see carry-over.ts for the hashes). */
export type DeletedKey = { key: string; valueHash: string; contextHash: string; revision: number };

export function createDeletedKeysRepository(db: Db) {
  return {
    /**
     * The last deletion of each of `keys` that the project ever deleted. One primary-key probe a
     * key, whatever the project's history: `key = ANY(...)` has the planner read every deleted
     * key of the project (it cannot tell they are many), which grows with every deletion.
     */
    async find(projectId: string, keys: readonly string[], q: Queryable = db): Promise<DeletedKey[]> {
      if (keys.length === 0) return [];
      const { rows } = await q.query<{
        key: string;
        value_hash: string;
        context_hash: string;
        revision: number;
      }>(
        // LIMIT keeps the subquery a per-key lookup (no join the planner could turn into a scan).
        `SELECT d.key, d.value_hash, d.context_hash, d.revision
           FROM unnest($2::text[]) AS wanted(key)
           CROSS JOIN LATERAL (
             SELECT key, value_hash, context_hash, revision FROM deleted_keys
              WHERE project_id = $1 AND key = wanted.key
              LIMIT 1
           ) AS d`,
        [projectId, keys],
      );
      return rows.map((row) => ({
        key: row.key,
        valueHash: row.value_hash,
        contextHash: row.context_hash,
        revision: row.revision,
      }));
    },

    /** Keys deleted in `version`: each replaces what was remembered of its earlier deletion. */
    async remember(projectId: string, version: number, deleted: readonly DeletedKey[], tx: Queryable) {
      if (deleted.length === 0) return;
      await tx.query(
        `INSERT INTO deleted_keys (project_id, key, value_hash, context_hash, revision, deleted_in)
         SELECT $1, k, v, c, r, $2
           FROM unnest($3::text[], $4::text[], $5::text[], $6::integer[]) AS d(k, v, c, r)
         ON CONFLICT (project_id, key) DO UPDATE
           SET value_hash = EXCLUDED.value_hash, context_hash = EXCLUDED.context_hash,
               revision = EXCLUDED.revision, deleted_in = EXCLUDED.deleted_in`,
        [
          projectId,
          version,
          deleted.map((d) => d.key),
          deleted.map((d) => d.valueHash),
          deleted.map((d) => d.contextHash),
          deleted.map((d) => d.revision),
        ],
      );
    },

    async purge(projectId: string, tx: Queryable): Promise<void> {
      await tx.query(`DELETE FROM deleted_keys WHERE project_id = $1`, [projectId]);
    },
  };
}

export type DeletedKeysRepository = ReturnType<typeof createDeletedKeysRepository>;
