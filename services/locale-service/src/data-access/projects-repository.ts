import type { Db, Queryable } from '@tolk/db';
import type { ProjectFacts } from '@tolk/http';

/** What locale-service knows of a project. */
export type LocaleProject = {
  projectId: string;
  /** Canonical (`pt-BR`). */
  sourceLocale: string;
  /** Whether keys are read as i18next plural groups (DESIGN §11). */
  i18nextPlurals: boolean;
};

export function createProjectsRepository(db: Db) {
  return {
    async find(projectId: string, q: Queryable = db): Promise<LocaleProject | undefined> {
      const { rows } = await q.query<{ source_locale: string; i18next_plurals: boolean }>(
        `SELECT source_locale, i18next_plurals FROM projects WHERE project_id = $1`,
        [projectId],
      );
      return (
        rows[0] && {
          projectId,
          sourceLocale: rows[0].source_locale,
          i18nextPlurals: rows[0].i18next_plurals,
        }
      );
    },

    /**
     * The plural-key setting, with the project's row share-locked until the transaction ends: a
     * ProjectUpdated that changes it (and marks the locales' counts stale) waits for the
     * transaction, so a locale row inserted in it is marked too. Taken before any locale row, as
     * the consumer takes the project's row before the locales'. Absent project: the default, true.
     */
    async lockPluralsSetting(projectId: string, tx: Queryable): Promise<boolean> {
      const { rows } = await tx.query<{ i18next_plurals: boolean }>(
        `SELECT i18next_plurals FROM projects WHERE project_id = $1 FOR SHARE`,
        [projectId],
      );
      return rows[0]?.i18next_plurals ?? true;
    },

    async isDeleted(projectId: string, q: Queryable = db): Promise<boolean> {
      const { rows } = await q.query(`SELECT 1 FROM deleted_projects WHERE project_id = $1`, [projectId]);
      return rows.length > 0;
    },

    /**
     * Unless the project was deleted or what is stored is newer (by project-service's updatedAt).
     * Returns whether the plural-key setting of a project already known changed: its locales'
     * keys, and so their counts, are not what they were.
     */
    async remember(facts: ProjectFacts, q: Queryable = db): Promise<{ pluralsChanged: boolean }> {
      const { rows } = await q.query<{ before: boolean | null; after: boolean }>(
        `WITH known AS (SELECT i18next_plurals FROM projects WHERE project_id = $1)
         INSERT INTO projects (project_id, source_locale, i18next_plurals, project_updated_at)
         SELECT $1, $2, $3, $4
          WHERE NOT EXISTS (SELECT 1 FROM deleted_projects WHERE project_id = $1)
         ON CONFLICT (project_id) DO UPDATE
           SET source_locale = EXCLUDED.source_locale, i18next_plurals = EXCLUDED.i18next_plurals,
               project_updated_at = EXCLUDED.project_updated_at
         WHERE projects.project_updated_at <= EXCLUDED.project_updated_at
         RETURNING (SELECT i18next_plurals FROM known) AS before, i18next_plurals AS after`,
        [facts.projectId, facts.sourceLocale, facts.i18nextPlurals ?? true, new Date(facts.updatedAt)],
      );
      const row = rows[0];
      return { pluralsChanged: row !== undefined && row.before !== null && row.before !== row.after };
    },

    /**
     * Drops every row of the project and leaves its tombstone. The baseline row goes first: a
     * change to the project's locales in progress holds its lock, so this waits for it and then
     * removes what it wrote too.
     */
    async purge(projectId: string, at: number, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO deleted_projects (project_id, deleted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [projectId, new Date(at)],
      );
      await tx.query(`DELETE FROM baselines WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM locales WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM source_heads WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM projects WHERE project_id = $1`, [projectId]);
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
