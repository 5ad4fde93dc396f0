import type { Db, Queryable } from '@tolk/db';

/** One glossary entry as stored; `termKey` is glossaryTermKey(term), the entry's identity. */
export type GlossaryEntryRecord = {
  entryId: string;
  projectId: string;
  term: string;
  termKey: string;
  caseSensitive: boolean;
  keepAsIs: boolean;
  note: string | null;
  translations: Record<string, string>;
  createdAt: number;
  updatedAt: number;
};

type EntryRow = {
  entry_id: string;
  project_id: string;
  term: string;
  term_key: string;
  case_sensitive: boolean;
  keep_as_is: boolean;
  note: string | null;
  translations: Record<string, string>;
  created_at: Date;
  updated_at: Date;
};

const ENTRY_COLUMNS = `entry_id, project_id, term, term_key, case_sensitive, keep_as_is, note, translations,
       created_at, updated_at`;

function toEntry(row: EntryRow): GlossaryEntryRecord {
  return {
    entryId: row.entry_id,
    projectId: row.project_id,
    term: row.term,
    termKey: row.term_key,
    caseSensitive: row.case_sensitive,
    keepAsIs: row.keep_as_is,
    note: row.note,
    translations: row.translations,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

/** The row of an entry as jsonb_to_recordset reads it (timestamps as ISO strings). */
function toRecordsetRow(entry: GlossaryEntryRecord) {
  return {
    entry_id: entry.entryId,
    project_id: entry.projectId,
    term: entry.term,
    term_key: entry.termKey,
    case_sensitive: entry.caseSensitive,
    keep_as_is: entry.keepAsIs,
    note: entry.note,
    translations: entry.translations,
    created_at: new Date(entry.createdAt).toISOString(),
    updated_at: new Date(entry.updatedAt).toISOString(),
  };
}

/** The project's entry whose `column` (unique per project) is `value`. */
async function findOne(
  q: Queryable,
  column: 'entry_id' | 'term_key',
  projectId: string,
  value: string,
): Promise<GlossaryEntryRecord | undefined> {
  const { rows } = await q.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM glossary_entries WHERE project_id = $1 AND ${column} = $2`,
    [projectId, value],
  );
  return rows[0] && toEntry(rows[0]);
}

export function createGlossaryRepository(db: Db) {
  return {
    /** Every entry of the project, ordered by term ignoring case. */
    async list(projectId: string, q: Queryable = db): Promise<GlossaryEntryRecord[]> {
      const { rows } = await q.query<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM glossary_entries WHERE project_id = $1 ORDER BY term_key, entry_id`,
        [projectId],
      );
      return rows.map(toEntry);
    },

    async count(projectId: string, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM glossary_entries WHERE project_id = $1`,
        [projectId],
      );
      return rows[0]?.n ?? 0;
    },

    async find(
      projectId: string,
      entryId: string,
      q: Queryable = db,
    ): Promise<GlossaryEntryRecord | undefined> {
      return findOne(q, 'entry_id', projectId, entryId);
    },

    async findByTermKey(
      projectId: string,
      termKey: string,
      q: Queryable = db,
    ): Promise<GlossaryEntryRecord | undefined> {
      return findOne(q, 'term_key', projectId, termKey);
    },

    /**
     * Inserts the entries, or replaces those whose id exists: one statement for any number (an
     * import of 10,000 is one round trip).
     */
    async upsert(entries: GlossaryEntryRecord[], tx: Queryable): Promise<void> {
      if (entries.length === 0) return;
      await tx.query(
        `INSERT INTO glossary_entries (${ENTRY_COLUMNS})
         SELECT entry_id, project_id, term, term_key, case_sensitive, keep_as_is, note, translations,
                created_at, updated_at
           FROM jsonb_to_recordset($1::jsonb) AS e(
                  entry_id text, project_id text, term text, term_key text, case_sensitive boolean,
                  keep_as_is boolean, note text, translations jsonb, created_at timestamptz,
                  updated_at timestamptz)
         ON CONFLICT (entry_id) DO UPDATE
            SET term = EXCLUDED.term, term_key = EXCLUDED.term_key,
                case_sensitive = EXCLUDED.case_sensitive, keep_as_is = EXCLUDED.keep_as_is,
                note = EXCLUDED.note, translations = EXCLUDED.translations,
                updated_at = EXCLUDED.updated_at`,
        [JSON.stringify(entries.map(toRecordsetRow))],
      );
    },

    async delete(projectId: string, entryIds: string[], tx: Queryable): Promise<void> {
      if (entryIds.length === 0) return;
      await tx.query(`DELETE FROM glossary_entries WHERE project_id = $1 AND entry_id = ANY($2::text[])`, [
        projectId,
        entryIds,
      ]);
    },
  };
}

export type GlossaryRepository = ReturnType<typeof createGlossaryRepository>;
