import type { Db, Queryable } from '@tolk/db';
import { canonicalLocale, NO_KEY_RULES } from '@tolk/contracts';
import type { ProjectFacts } from './project-directory.js';

/** A column of the replica's tables, as `information_schema.columns` describes it. */
export type ReplicaColumn = { name: string; type: string; nullable: boolean };

/**
 * A column a service keeps in its `projects` table beyond the shared ones. With `fromFacts` it
 * is written from every change of the project (event or lookup); without, it is the service's
 * own (read with the row, written by the service alone).
 */
export type ReplicaExtraColumn = ReplicaColumn & { fromFacts?: (facts: ProjectFacts) => unknown };

/**
 * The replica's tables as every service that keeps one creates them in its own migrations: the
 * projects known (and project-service's updatedAt of what is known, so that an older change never
 * overwrites a newer one), and the tombstones of the deleted ones, so that a late lookup or event
 * cannot bring one back.
 */
export const REPLICA_TABLES = {
  projects: [
    { name: 'project_id', type: 'text', nullable: false },
    { name: 'project_updated_at', type: 'timestamp with time zone', nullable: false },
  ],
  deleted_projects: [
    { name: 'project_id', type: 'text', nullable: false },
    { name: 'deleted_at', type: 'timestamp with time zone', nullable: false },
  ],
} as const satisfies Record<string, readonly ReplicaColumn[]>;

/** The project's source locale, canonical (`pt-BR`). */
export const sourceLocaleColumn: ReplicaExtraColumn = {
  name: 'source_locale',
  type: 'text',
  nullable: false,
  fromFacts: (facts) => canonicalLocale(facts.sourceLocale),
};

/** The project's key rules (DESIGN §13), as project-service describes them; none by default. */
export const keyRulesColumn: ReplicaExtraColumn = {
  name: 'key_rules',
  type: 'jsonb',
  nullable: false,
  fromFacts: (facts) => JSON.stringify(facts.keyRules ?? NO_KEY_RULES),
};

/** The columns of both tables of a replica with these extra columns, for comparing with a database. */
export function replicaTables(extra: readonly ReplicaColumn[]): Record<string, ReplicaColumn[]> {
  const strip = ({ name, type, nullable }: ReplicaColumn): ReplicaColumn => ({ name, type, nullable });
  return {
    projects: [...REPLICA_TABLES.projects, ...extra.map(strip)],
    deleted_projects: [...REPLICA_TABLES.deleted_projects],
  };
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The projects a service knows (its `projects` and `deleted_projects` tables), kept from
 * project-service's events and lookups. `extra` names the service's own columns of `projects`;
 * `toProject` reads a row (`project_id` and the extra columns) as the service's project.
 */
export function createProjectReplica<Row extends { project_id: string }, Project>(
  db: Db,
  options: { extra?: readonly ReplicaExtraColumn[]; toProject: (row: Row) => Project },
) {
  const extra = options.extra ?? [];
  for (const column of extra) {
    if (!IDENTIFIER.test(column.name)) throw new Error(`Not a column name: ${column.name}`);
  }
  const { toProject } = options;
  const selected = ['project_id', ...extra.map((c) => c.name)].join(', ');
  const written = extra.filter((c) => c.fromFacts);
  const insertColumns = ['project_id', 'project_updated_at', ...written.map((c) => c.name)];
  const placeholders = insertColumns.map((_, i) => `$${i + 1}`).join(', ');
  const updates = insertColumns
    .slice(1)
    .map((name) => `${name} = EXCLUDED.${name}`)
    .join(', ');
  const changedOf = written
    .map((c) => `(SELECT ${c.name} FROM known) IS DISTINCT FROM projects.${c.name} AS ${c.name}`)
    .join(', ');
  const remember = `WITH known AS (SELECT ${written.map((c) => c.name).join(', ') || '1'} FROM projects WHERE project_id = $1)
     INSERT INTO projects (${insertColumns.join(', ')})
     SELECT ${placeholders}
      WHERE NOT EXISTS (SELECT 1 FROM deleted_projects WHERE project_id = $1)
     ON CONFLICT (project_id) DO UPDATE SET ${updates}
     WHERE projects.project_updated_at <= EXCLUDED.project_updated_at
     RETURNING EXISTS (SELECT 1 FROM known) AS known${changedOf ? `, ${changedOf}` : ''}`;

  async function select(projectId: string, q: Queryable, lock = ''): Promise<Project | undefined> {
    const { rows } = await q.query<Row>(`SELECT ${selected} FROM projects WHERE project_id = $1${lock}`, [
      projectId,
    ]);
    return rows[0] && toProject(rows[0]);
  }

  return {
    async find(projectId: string, q: Queryable = db): Promise<Project | undefined> {
      return select(projectId, q);
    },

    /**
     * The project, its row locked until the transaction ends (`share`: against changes only);
     * undefined when the project is not (or no longer) known. ProjectDeleted takes the row's lock
     * too (by deleting it), so it waits for the transaction.
     */
    async lock(projectId: string, tx: Queryable, mode: 'update' | 'share' = 'update') {
      return select(projectId, tx, mode === 'share' ? ' FOR SHARE' : ' FOR UPDATE');
    },

    async isDeleted(projectId: string, q: Queryable = db): Promise<boolean> {
      const { rows } = await q.query(`SELECT 1 FROM deleted_projects WHERE project_id = $1`, [projectId]);
      return rows.length > 0;
    },

    /**
     * Stores what project-service says of the project, unless it was deleted or what is stored
     * is newer (by project-service's updatedAt); an equal one is written again (idempotent).
     * Returns the written extra columns whose value changed for a project already known.
     */
    async remember(facts: ProjectFacts, q: Queryable = db): Promise<{ changed: string[] }> {
      const values = [
        facts.projectId,
        new Date(facts.updatedAt),
        ...written.map((c) => c.fromFacts?.(facts)),
      ];
      const { rows } = await q.query<Record<string, boolean>>(remember, values);
      const row = rows[0];
      if (!row?.known) return { changed: [] };
      return { changed: written.map((c) => c.name).filter((name) => row[name]) };
    },

    /**
     * Leaves the project's tombstone and deletes its row, which waits for any transaction
     * holding the row's lock. The service's other rows of the project are the service's to drop.
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
