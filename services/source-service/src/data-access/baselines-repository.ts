import type { Db, Queryable } from '@tolk/db';

export function createBaselinesRepository(db: Db) {
  return {
    /** The translation baseline version; 0 when locale-service has announced none. */
    async version(projectId: string, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ baseline_version: number }>(
        `SELECT baseline_version FROM baselines WHERE project_id = $1`,
        [projectId],
      );
      return rows[0]?.baseline_version ?? 0;
    },

    /**
     * Keeps the announcement with the highest sequence: a duplicate or an older one changes
     * nothing. Unless the project was deleted (its rows stay purged).
     */
    async apply(projectId: string, baselineVersion: number, sequence: number, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO baselines (project_id, baseline_version, sequence)
         SELECT $1, $2, $3
          WHERE NOT EXISTS (SELECT 1 FROM deleted_projects WHERE project_id = $1)
         ON CONFLICT (project_id) DO UPDATE
           SET baseline_version = EXCLUDED.baseline_version, sequence = EXCLUDED.sequence
         WHERE baselines.sequence < EXCLUDED.sequence`,
        [projectId, baselineVersion, sequence],
      );
    },
  };
}

export type BaselinesRepository = ReturnType<typeof createBaselinesRepository>;
