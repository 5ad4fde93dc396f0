import type { KeyRules } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import {
  createProjectReplica,
  keyRulesColumn,
  sourceLocaleColumn,
  type ReplicaExtraColumn,
} from '@tolk/projects';

/** What source-service knows of a project, and the head of its sources. */
export type SourceProject = {
  projectId: string;
  /** Canonical (`pt-BR`). */
  sourceLocale: string;
  /** 0 before the first upload. */
  currentVersion: number;
  /** When the current version was created; null before the first upload. */
  sourceUpdatedAt: number | null;
  /** Whether a changed context annotation gives its key a new revision (DESIGN §13). */
  outdateOnContextChange: boolean;
  /**
   * The key rules (DESIGN §13): an upload keeps their work over its keys within the budget. Null
   * for a project known before source-service kept them, until project-service is asked.
   */
  keyRules: KeyRules | null;
};

type ProjectRow = {
  project_id: string;
  source_locale: string;
  current_version: number;
  source_updated_at: Date | null;
  outdate_on_context_change: boolean;
  key_rules: KeyRules | null;
};

/** The replica's columns of source-service: the source locale, the head of the sources, the key rules. */
export const SOURCE_PROJECT_COLUMNS: readonly ReplicaExtraColumn[] = [
  sourceLocaleColumn,
  { name: 'current_version', type: 'integer', nullable: false },
  { name: 'source_updated_at', type: 'timestamp with time zone', nullable: true },
  {
    name: 'outdate_on_context_change',
    type: 'boolean',
    nullable: false,
    fromFacts: (facts) => facts.outdateOnContextChange ?? true,
  },
  // Null where the project was known before the rules were kept (the migration leaves them so).
  { ...keyRulesColumn, nullable: true },
];

/**
 * The project replica. The project's row is also the head of its sources: uploads to one
 * project lock it first (`lock`), so they get their versions one at a time.
 */
export function createProjectsRepository(db: Db) {
  const replica = createProjectReplica(db, {
    extra: SOURCE_PROJECT_COLUMNS,
    toProject: (row: ProjectRow): SourceProject => ({
      projectId: row.project_id,
      sourceLocale: row.source_locale,
      currentVersion: row.current_version,
      sourceUpdatedAt: row.source_updated_at?.getTime() ?? null,
      outdateOnContextChange: row.outdate_on_context_change,
      keyRules: row.key_rules,
    }),
  });

  return {
    ...replica,

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
      await replica.bury(projectId, at, tx);
      await tx.query(`DELETE FROM versions WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM version_contents WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM baselines WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM deleted_keys WHERE project_id = $1`, [projectId]);
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
