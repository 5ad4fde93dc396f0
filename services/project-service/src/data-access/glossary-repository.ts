import { glossaryEntryBytes } from '@tolk/contracts';
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

/** What a glossary holds: its entries and the bytes of their text (glossaryEntryBytes). */
export type GlossarySize = { entries: number; bytes: number };

/** One page of entries in term order; `next`: the term key the next page starts after, if any. */
export type GlossaryPageRecords = { entries: GlossaryEntryRecord[]; next: string | undefined };

/** The row of an entry as jsonb_to_recordset reads it (timestamps as ISO strings). */
function toRecordsetRow(entry: GlossaryEntryRecord) {
  return {
    size_bytes: glossaryEntryBytes(entry),
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

/**
 * About the most JSON one upsert statement's parameter holds (an entry's text, 12 bytes a
 * rendering, 120 an entry): it is built on the event loop in one go, so a glossary at its bound
 * is written in some twenty statements of a few milliseconds' work each.
 */
const UPSERT_JSON_BYTES = 256 * 1024;

function* upsertBatches(entries: readonly GlossaryEntryRecord[]) {
  let batch: ReturnType<typeof toRecordsetRow>[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const row = toRecordsetRow(entry);
    const json = row.size_bytes + 12 * Object.keys(entry.translations).length + 120;
    if (batch.length > 0 && bytes + json > UPSERT_JSON_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(row);
    bytes += json;
  }
  if (batch.length > 0) yield batch;
}

export function createGlossaryRepository(db: Db) {
  return {
    /**
     * Entries in term order after the term key `after` (from the first when undefined): at most
     * `limit`, and once the first is in, only while their text stays within `budget` bytes. The
     * running sum is taken in SQL, so entries past the page are not read out of the database but
     * one, which says that there is a next page.
     */
    async page(
      projectId: string,
      options: { after: string | undefined; limit: number; budget: number },
      q: Queryable = db,
    ): Promise<GlossaryPageRecords> {
      const { rows } = await q.query<EntryRow & { running: string }>(
        `SELECT ${ENTRY_COLUMNS}, running
           FROM (SELECT ${ENTRY_COLUMNS}, size_bytes,
                        sum(size_bytes) OVER (ORDER BY term_key ROWS UNBOUNDED PRECEDING) AS running,
                        row_number() OVER (ORDER BY term_key) AS position
                   FROM glossary_entries
                  WHERE project_id = $1 AND term_key > $2
                  ORDER BY term_key
                  LIMIT $3) AS candidates
          WHERE running - size_bytes <= $4 OR position <= 2
          ORDER BY term_key`,
        // Every term key sorts after '' (a term is never empty).
        [projectId, options.after ?? '', options.limit + 1, options.budget],
      );
      const inPage = rows.filter(
        (row, index) => index === 0 || (index < options.limit && Number(row.running) <= options.budget),
      );
      const entries = inPage.map(toEntry);
      return { entries, next: rows.length > inPage.length ? entries.at(-1)?.termKey : undefined };
    },

    /** The project's entries and the bytes of their text. */
    async size(projectId: string, q: Queryable = db): Promise<GlossarySize> {
      const { rows } = await q.query<{ entries: number; bytes: string }>(
        `SELECT count(*)::int AS entries, coalesce(sum(size_bytes), 0)::bigint AS bytes
           FROM glossary_entries WHERE project_id = $1`,
        [projectId],
      );
      return { entries: rows[0]?.entries ?? 0, bytes: Number(rows[0]?.bytes ?? 0) };
    },

    /** The project's entries whose term keys are among `termKeys`. */
    async findByTermKeys(
      projectId: string,
      termKeys: readonly string[],
      q: Queryable = db,
    ): Promise<GlossaryEntryRecord[]> {
      if (termKeys.length === 0) return [];
      const { rows } = await q.query<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM glossary_entries WHERE project_id = $1 AND term_key = ANY($2::text[])`,
        [projectId, termKeys],
      );
      return rows.map(toEntry);
    },

    /** Deletes every entry of the project whose term key is not among `termKeys`; how many went. */
    async deleteAllBut(projectId: string, termKeys: readonly string[], tx: Queryable): Promise<number> {
      const { rowCount } = await tx.query(
        `DELETE FROM glossary_entries WHERE project_id = $1 AND NOT (term_key = ANY($2::text[]))`,
        [projectId, termKeys],
      );
      return rowCount ?? 0;
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
     * Inserts the entries, or replaces those whose id exists, with their sizes: a statement for
     * each UPSERT_JSON_BYTES of them.
     */
    async upsert(entries: readonly GlossaryEntryRecord[], tx: Queryable): Promise<void> {
      for (const batch of upsertBatches(entries)) {
        await tx.query(
          `INSERT INTO glossary_entries (${ENTRY_COLUMNS}, size_bytes)
           SELECT entry_id, project_id, term, term_key, case_sensitive, keep_as_is, note, translations,
                  created_at, updated_at, size_bytes
             FROM jsonb_to_recordset($1::jsonb) AS e(
                    entry_id text, project_id text, term text, term_key text, case_sensitive boolean,
                    keep_as_is boolean, note text, translations jsonb, created_at timestamptz,
                    updated_at timestamptz, size_bytes integer)
           ON CONFLICT (entry_id) DO UPDATE
              SET term = EXCLUDED.term, term_key = EXCLUDED.term_key,
                  case_sensitive = EXCLUDED.case_sensitive, keep_as_is = EXCLUDED.keep_as_is,
                  note = EXCLUDED.note, translations = EXCLUDED.translations,
                  updated_at = EXCLUDED.updated_at, size_bytes = EXCLUDED.size_bytes`,
          [JSON.stringify(batch)],
        );
      }
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
