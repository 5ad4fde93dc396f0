import type { Queryable } from '@tolk/db';

/** The translation baseline last announced for a project, and the sequence of that announcement. */
export type Baseline = { baselineVersion: number; sequence: number };

/** Both run inside the caller's transaction: a baseline is only read under its lock. */
export function createBaselinesRepository() {
  return {
    /**
     * Locks the project's baseline row until the transaction ends (creating it at 0 when the
     * project has none yet): every change to a project's locales takes this lock first, so the
     * lowest synced version is read after the changes before it have committed. Undefined for a
     * deleted project: its rows stay purged.
     */
    async lock(projectId: string, tx: Queryable): Promise<Baseline | undefined> {
      await tx.query(
        `INSERT INTO baselines (project_id)
         SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM deleted_projects WHERE project_id = $1)
         ON CONFLICT DO NOTHING`,
        [projectId],
      );
      const { rows } = await tx.query<{ baseline_version: number; sequence: string }>(
        `SELECT baseline_version, sequence FROM baselines WHERE project_id = $1 FOR UPDATE`,
        [projectId],
      );
      const row = rows[0];
      return row && { baselineVersion: row.baseline_version, sequence: Number(row.sequence) };
    },

    async set(projectId: string, baseline: Baseline, tx: Queryable): Promise<void> {
      await tx.query(`UPDATE baselines SET baseline_version = $2, sequence = $3 WHERE project_id = $1`, [
        projectId,
        baseline.baselineVersion,
        baseline.sequence,
      ]);
    },
  };
}

export type BaselinesRepository = ReturnType<typeof createBaselinesRepository>;
