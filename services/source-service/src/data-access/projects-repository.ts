import type { Db, Queryable } from '@tolk/db';
import type { ProjectFacts } from '@tolk/http';

/** What source-service knows of a project, and the head of its sources. */
export type SourceProject = {
  projectId: string;
  /** Canonical (`pt-BR`). */
  sourceLocale: string;
  /** 0 before the first upload. */
  currentVersion: number;
  /** When the current version was created; null before the first upload. */
  sourceUpdatedAt: number | null;
};

type ProjectRow = {
  project_id: string;
  source_locale: string;
  current_version: number;
  source_updated_at: Date | null;
};

const COLUMNS = 'project_id, source_locale, current_version, source_updated_at';

function toProject(row: ProjectRow): SourceProject {
  return {
    projectId: row.project_id,
    sourceLocale: row.source_locale,
    currentVersion: row.current_version,
    sourceUpdatedAt: row.source_updated_at?.getTime() ?? null,
  };
}

export function createProjectsRepository(db: Db) {
  return {
    async find(projectId: string, q: Queryable = db): Promise<SourceProject | undefined> {
      const { rows } = await q.query<ProjectRow>(`SELECT ${COLUMNS} FROM projects WHERE project_id = $1`, [
        projectId,
      ]);
      return rows[0] && toProject(rows[0]);
    },

    /**
     * Locks the project's row until the transaction ends: uploads to one project take this lock
     * first, so they get their versions one at a time.
     */
    async lock(projectId: string, tx: Queryable): Promise<SourceProject | undefined> {
      const { rows } = await tx.query<ProjectRow>(
        `SELECT ${COLUMNS} FROM projects WHERE project_id = $1 FOR UPDATE`,
        [projectId],
      );
      return rows[0] && toProject(rows[0]);
    },

    async isDeleted(projectId: string, q: Queryable = db): Promise<boolean> {
      const { rows } = await q.query(`SELECT 1 FROM deleted_projects WHERE project_id = $1`, [projectId]);
      return rows.length > 0;
    },

    /**
     * Records the project's source locale unless the project was deleted or what is stored is
     * newer (by project-service's updatedAt); the sources of the project are left as they are.
     */
    async remember(facts: ProjectFacts, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO projects (project_id, source_locale, project_updated_at)
         SELECT $1, $2, $3
          WHERE NOT EXISTS (SELECT 1 FROM deleted_projects WHERE project_id = $1)
         ON CONFLICT (project_id) DO UPDATE
           SET source_locale = EXCLUDED.source_locale, project_updated_at = EXCLUDED.project_updated_at
         WHERE projects.project_updated_at <= EXCLUDED.project_updated_at`,
        [facts.projectId, facts.sourceLocale, new Date(facts.updatedAt)],
      );
    },

    async setCurrentVersion(projectId: string, version: number, at: number, tx: Queryable): Promise<void> {
      await tx.query(
        `UPDATE projects SET current_version = $2, source_updated_at = $3 WHERE project_id = $1`,
        [projectId, version, new Date(at)],
      );
    },

    /**
     * Drops every row of the project and leaves its tombstone. The project's row goes first: an
     * upload in progress holds its lock, so this waits for it and then removes its version too.
     */
    async purge(projectId: string, at: number, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO deleted_projects (project_id, deleted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [projectId, new Date(at)],
      );
      await tx.query(`DELETE FROM projects WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM versions WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM version_contents WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM baselines WHERE project_id = $1`, [projectId]);
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
