import type { Db, Queryable } from '@tolk/db';
import type { ProjectFacts } from '@tolk/http';

/** What token-service knows of a project: that it exists. */
export type TokenProject = { projectId: string };

export function createProjectsRepository(db: Db) {
  return {
    async find(projectId: string, q: Queryable = db): Promise<TokenProject | undefined> {
      const { rows } = await q.query(`SELECT 1 FROM projects WHERE project_id = $1`, [projectId]);
      return rows.length > 0 ? { projectId } : undefined;
    },

    async isDeleted(projectId: string, q: Queryable = db): Promise<boolean> {
      const { rows } = await q.query(`SELECT 1 FROM deleted_projects WHERE project_id = $1`, [projectId]);
      return rows.length > 0;
    },

    /** Unless the project was deleted or what is stored is newer (by project-service's updatedAt). */
    async remember(facts: ProjectFacts, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO projects (project_id, project_updated_at)
         SELECT $1, $2
          WHERE NOT EXISTS (SELECT 1 FROM deleted_projects WHERE project_id = $1)
         ON CONFLICT (project_id) DO UPDATE SET project_updated_at = EXCLUDED.project_updated_at
         WHERE projects.project_updated_at <= EXCLUDED.project_updated_at`,
        [facts.projectId, new Date(facts.updatedAt)],
      );
    },

    /**
     * Locks the project's row until the transaction ends; false when the project is not (or no
     * longer) known. Token creation takes it, and so does ProjectDeleted (by deleting the row).
     */
    async lock(projectId: string, tx: Queryable): Promise<boolean> {
      const { rows } = await tx.query(`SELECT 1 FROM projects WHERE project_id = $1 FOR UPDATE`, [projectId]);
      return rows.length > 0;
    },

    /**
     * Leaves the project's tombstone and deletes its row, which waits for a token creation in
     * progress (it holds the row's lock): the tokens deleted after this see that token too.
     */
    async bury(projectId: string, at: number, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO deleted_projects (project_id, deleted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [projectId, new Date(at)],
      );
      await tx.query(`DELETE FROM projects WHERE project_id = $1`, [projectId]);
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
