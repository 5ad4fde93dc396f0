import type { Db, Queryable } from '@tolk/db';

/** The latest source version known of a project, and its number of keys. */
export type SourceHead = { version: number; keyCount: number };

export function createSourceHeadsRepository(db: Db) {
  return {
    async find(projectId: string, q: Queryable = db): Promise<SourceHead | undefined> {
      const { rows } = await q.query<{ version: number; key_count: number }>(
        `SELECT version, key_count FROM source_heads WHERE project_id = $1`,
        [projectId],
      );
      return rows[0] && { version: rows[0].version, keyCount: rows[0].key_count };
    },

    /**
     * The version guard: a head only moves forward, so a duplicate, late or reordered
     * SourceChanged changes nothing. Nothing is recorded for a deleted project. Returns whether
     * the head moved.
     */
    async advance(projectId: string, head: SourceHead, q: Queryable = db): Promise<boolean> {
      const { rowCount } = await q.query(
        `INSERT INTO source_heads (project_id, version, key_count)
         SELECT $1, $2, $3
          WHERE NOT EXISTS (SELECT 1 FROM deleted_projects WHERE project_id = $1)
         ON CONFLICT (project_id) DO UPDATE
           SET version = EXCLUDED.version, key_count = EXCLUDED.key_count
         WHERE source_heads.version < EXCLUDED.version`,
        [projectId, head.version, head.keyCount],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}

export type SourceHeadsRepository = ReturnType<typeof createSourceHeadsRepository>;
