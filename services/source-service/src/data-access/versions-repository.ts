import type { Db, Queryable } from '@tolk/db';

/** One source version with the counts of its diff against the previous one. */
export type VersionSummary = {
  version: number;
  keyCount: number;
  added: number;
  modified: number;
  deleted: number;
  createdAt: number;
};

type VersionRow = {
  version: number;
  key_count: number;
  added_count: number;
  modified_count: number;
  deleted_count: number;
  created_at: Date;
};

const COLUMNS = 'version, key_count, added_count, modified_count, deleted_count, created_at';

function toSummary(row: VersionRow): VersionSummary {
  return {
    version: row.version,
    keyCount: row.key_count,
    added: row.added_count,
    modified: row.modified_count,
    deleted: row.deleted_count,
    createdAt: row.created_at.getTime(),
  };
}

export function createVersionsRepository(db: Db) {
  return {
    /** The version's row and its compressed content. */
    async insert(projectId: string, summary: VersionSummary, content: Buffer, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO versions
           (project_id, version, key_count, added_count, modified_count, deleted_count, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          projectId,
          summary.version,
          summary.keyCount,
          summary.added,
          summary.modified,
          summary.deleted,
          new Date(summary.createdAt),
        ],
      );
      await tx.query(
        `INSERT INTO version_contents (project_id, version, content, has_revisions) VALUES ($1, $2, $3, true)`,
        [projectId, summary.version, content],
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

    async content(projectId: string, version: number, q: Queryable = db): Promise<Buffer | undefined> {
      const { rows } = await q.query<{ content: Buffer }>(
        `SELECT content FROM version_contents WHERE project_id = $1 AND version = $2`,
        [projectId, version],
      );
      return rows[0]?.content;
    },

    /** The stored content as it is, and whether it carries the keys' revisions. */
    async storedContent(
      projectId: string,
      version: number,
      q: Queryable = db,
    ): Promise<{ content: Buffer; hasRevisions: boolean } | undefined> {
      const { rows } = await q.query<{ content: Buffer; has_revisions: boolean }>(
        `SELECT content, has_revisions FROM version_contents WHERE project_id = $1 AND version = $2`,
        [projectId, version],
      );
      const row = rows[0];
      return row && { content: row.content, hasRevisions: row.has_revisions };
    },

    /** Writes back a content stored before revisions were kept, now with them. */
    async backfillRevisions(projectId: string, version: number, content: Buffer, q: Queryable = db) {
      await q.query(
        `UPDATE version_contents SET content = $3, has_revisions = true
          WHERE project_id = $1 AND version = $2 AND NOT has_revisions`,
        [projectId, version, content],
      );
    },
  };
}

export type VersionsRepository = ReturnType<typeof createVersionsRepository>;
