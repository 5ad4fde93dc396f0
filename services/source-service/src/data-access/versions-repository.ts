import { VERSION_CARRY_OVER_SHOWN, type KeyRename, type KeyRestore } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';

/**
 * One source version with the counts of its diff against the previous one, and what it carried
 * over (DESIGN §13): how many renames and restores, and they themselves (when listed, the first
 * VERSION_CARRY_OVER_SHOWN).
 */
export type VersionSummary = {
  version: number;
  keyCount: number;
  added: number;
  modified: number;
  deleted: number;
  createdAt: number;
  renamed: number;
  restored: number;
  renames: KeyRename[];
  restores: KeyRestore[];
};

type VersionRow = {
  version: number;
  key_count: number;
  added_count: number;
  modified_count: number;
  deleted_count: number;
  created_at: Date;
  renamed_count: number;
  restored_count: number;
  renames: KeyRename[] | null;
  restores: KeyRestore[] | null;
};

// Renames and restores as listed: the first few of each version (jsonpath array slice).
const SHOWN = `'$[0 to ${VERSION_CARRY_OVER_SHOWN - 1}]'`;
const COLUMNS = `version, key_count, added_count, modified_count, deleted_count, created_at,
  renamed_count, restored_count,
  jsonb_path_query_array(renames, ${SHOWN}) AS renames,
  jsonb_path_query_array(restores, ${SHOWN}) AS restores`;

function toSummary(row: VersionRow): VersionSummary {
  return {
    version: row.version,
    keyCount: row.key_count,
    added: row.added_count,
    modified: row.modified_count,
    deleted: row.deleted_count,
    createdAt: row.created_at.getTime(),
    renamed: row.renamed_count,
    restored: row.restored_count,
    renames: row.renames ?? [],
    restores: row.restores ?? [],
  };
}

/** A version's renames and restores, all of them. */
export type VersionCarryOver = { version: number; renames: KeyRename[]; restores: KeyRestore[] };

export type StoredVersion =
  { format: 2; document: Buffer; revisions: Buffer } | { format: 1; content: Buffer; hasRevisions: boolean };

export function createVersionsRepository(db: Db) {
  return {
    /** The version's row and its stored form (format 2: the document and the revisions). */
    async insert(
      projectId: string,
      summary: VersionSummary,
      stored: { document: Buffer; revisions: Buffer },
      tx: Queryable,
    ): Promise<void> {
      await tx.query(
        `INSERT INTO versions
           (project_id, version, key_count, added_count, modified_count, deleted_count, created_at,
            renamed_count, restored_count, renames, restores)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          projectId,
          summary.version,
          summary.keyCount,
          summary.added,
          summary.modified,
          summary.deleted,
          new Date(summary.createdAt),
          summary.renamed,
          summary.restored,
          summary.renamed > 0 ? JSON.stringify(summary.renames) : null,
          summary.restored > 0 ? JSON.stringify(summary.restores) : null,
        ],
      );
      await tx.query(
        `INSERT INTO version_contents (project_id, version, content, revisions, format, has_revisions)
         VALUES ($1, $2, $3, $4, 2, true)`,
        [projectId, summary.version, stored.document, stored.revisions],
      );
    },

    /** Newest first. */
    async list(projectId: string, q: Queryable = db): Promise<VersionSummary[]> {
      const { rows } = await q.query<VersionRow>(
        `SELECT ${COLUMNS} FROM versions WHERE project_id = $1 ORDER BY version DESC`,
        [projectId],
      );
      return rows.map(toSummary);
    },

    async find(projectId: string, version: number, q: Queryable = db): Promise<VersionSummary | undefined> {
      const { rows } = await q.query<VersionRow>(
        `SELECT ${COLUMNS} FROM versions WHERE project_id = $1 AND version = $2`,
        [projectId, version],
      );
      return rows[0] && toSummary(rows[0]);
    },

    /** The versions after `after` up to `through` that renamed or restored keys, oldest first. */
    async carryOvers(
      projectId: string,
      after: number,
      through: number,
      q: Queryable = db,
    ): Promise<VersionCarryOver[]> {
      const { rows } = await q.query<{
        version: number;
        renames: KeyRename[] | null;
        restores: KeyRestore[] | null;
      }>(
        `SELECT version, renames, restores FROM versions
          WHERE project_id = $1 AND version > $2 AND version <= $3
            AND (renamed_count > 0 OR restored_count > 0)
          ORDER BY version`,
        [projectId, after, through],
      );
      return rows.map((row) => ({
        version: row.version,
        renames: row.renames ?? [],
        restores: row.restores ?? [],
      }));
    },

    /**
     * A version as stored: format 2 is the document and the revisions column; format 1 the parsed
     * form in `content`, with revisions inside when `hasRevisions`.
     */
    async stored(projectId: string, version: number, q: Queryable = db): Promise<StoredVersion | undefined> {
      const { rows } = await q.query<{
        content: Buffer;
        revisions: Buffer | null;
        format: number;
        has_revisions: boolean;
      }>(
        `SELECT content, revisions, format, has_revisions FROM version_contents
          WHERE project_id = $1 AND version = $2`,
        [projectId, version],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.format === 2 && row.revisions
        ? { format: 2, document: row.content, revisions: row.revisions }
        : { format: 1, content: row.content, hasRevisions: row.has_revisions };
    },

    /** Rewrites a version stored in format 1 in format 2. */
    async upgrade(
      projectId: string,
      version: number,
      stored: { document: Buffer; revisions: Buffer },
      q: Queryable = db,
    ): Promise<void> {
      await q.query(
        `UPDATE version_contents SET content = $3, revisions = $4, format = 2, has_revisions = true
          WHERE project_id = $1 AND version = $2 AND format = 1`,
        [projectId, version, stored.document, stored.revisions],
      );
    },
  };
}

export type VersionsRepository = ReturnType<typeof createVersionsRepository>;
