import { hash } from 'node:crypto';
import type { Db, Queryable } from '@tolk/db';
import { compress, decompress } from '@tolk/locale-file';

/** A translation the memory holds. */
export type MemoryEntry = {
  translation: string;
  key: string;
  projectId: string;
  updatedAt: number;
};

export type NearEntry = MemoryEntry & { source: string; similarity: number };

type Row = {
  project_id: string;
  source_text: string;
  translation: string;
  key: string;
  updated_at: Date;
};

function toEntry(row: Row): MemoryEntry {
  return {
    translation: row.translation,
    key: row.key,
    projectId: row.project_id,
    updatedAt: row.updated_at.getTime(),
  };
}

/** What identifies a source text in the memory's index. */
export function textHash(text: string): Buffer {
  // One call, no Hash object: an upload hashes each of its texts.
  return hash('sha256', text, 'buffer');
}

/** Postgres' SQLSTATE of a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

/**
 * Learns one kept upload (`$4`: its entries' JSON) of project `$1`'s locale `$2`, made at `$3`:
 * each text once per project, then the locale's translation of it — a newer one than the memory
 * holds, by upload time (uploads may be learned out of order). The rows are taken in the order of
 * their hashes: two statements that hold the same texts (two locales of a project) lock them in
 * the same order, so neither waits for what the other holds.
 */
const LEARN = `WITH u AS (
    SELECT DISTINCT ON (hash) sha256(convert_to(e.s, 'UTF8')) AS hash, e.s, e.t, e.k
      FROM json_to_recordset($4::json) AS e(s text, t text, k text)
     ORDER BY hash
  ), texts AS (
    INSERT INTO memory_texts (project_id, source_hash, source_text)
    SELECT $1, u.hash, u.s FROM u
    ON CONFLICT (project_id, source_hash) DO NOTHING
  )
  INSERT INTO memory (project_id, locale, source_hash, translation, key, updated_at)
  SELECT $1, $2, u.hash, u.t, u.k, $3 FROM u
  ON CONFLICT (project_id, locale, source_hash)
  DO UPDATE SET translation = EXCLUDED.translation, key = EXCLUDED.key, updated_at = EXCLUDED.updated_at
  WHERE memory.updated_at <= EXCLUDED.updated_at`;

type PendingRow = { id: string; project_id: string; locale: string; learned_at: Date; entries: Buffer };

/** Learns the kept uploads `rows` (locked in `tx`) and deletes them. */
async function learnRows(rows: readonly PendingRow[], tx: Queryable): Promise<void> {
  for (const row of rows) {
    const json = (await decompress(row.entries)).toString('utf8');
    await tx.query(LEARN, [row.project_id, row.locale, row.learned_at, json]);
    await tx.query(`DELETE FROM memory_pending WHERE id = $1`, [row.id]);
  }
}

const PENDING_COLUMNS = `id, project_id, locale, learned_at, entries`;

/** A translation an upload teaches: its source text, the translation, the key it was made for. */
type Lesson = { source: string; translation: string; key: string };

/** Lessons as kept: one JSON text, compressed. */
export type KeptLessons = Buffer;

async function lessons(entries: readonly Lesson[]): Promise<KeptLessons | undefined> {
  if (entries.length === 0) return undefined;
  // One JSON text (node-postgres writes a text[] parameter element by element in JavaScript),
  // compressed: 50,000 entries are 8 MB, which Postgres would write to its log for every locale.
  const json = JSON.stringify(
    entries.map((entry) => ({ s: entry.source, t: entry.translation, k: entry.key })),
  );
  return compress(Buffer.from(json, 'utf8'));
}

async function keep(
  projectId: string,
  locale: string,
  kept: KeptLessons | undefined,
  at: number,
  tx: Queryable,
): Promise<void> {
  if (!kept) return;
  await tx.query(
    `INSERT INTO memory_pending (project_id, locale, learned_at, entries) VALUES ($1, $2, $3, $4)`,
    [projectId, locale, new Date(at), kept],
  );
}

/**
 * The translation memory of locale-service (DESIGN §13). `nearTimeoutMs`: how long a near-match
 * search may take before it is given up (a positive whole number: 0 would be no limit to Postgres).
 */
export function createMemoryRepository(db: Db, options: { nearTimeoutMs: number }) {
  const { nearTimeoutMs } = options;
  return {
    /**
     * What an upload teaches the memory (`{source, translation, key}`, texts distinct), made ready
     * to keep: worked out before the upload's transaction, which holds the locale's lock. Undefined
     * when there is nothing to learn.
     */
    lessons,

    /** Keeps `lessons` in the upload's transaction, to be learned by `learnNext` or `learnPending` right after. */
    keep,

    /** lessons and keep at once. */
    async defer(
      projectId: string,
      locale: string,
      entries: readonly Lesson[],
      at: number,
      tx: Queryable,
    ): Promise<void> {
      await keep(projectId, locale, await lessons(entries), at, tx);
    },

    /**
     * Learns the project's oldest kept upload that no one else is learning; false when there is
     * none left.
     */
    async learnNext(projectId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<PendingRow>(
          `SELECT ${PENDING_COLUMNS} FROM memory_pending WHERE project_id = $1
            ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [projectId],
        );
        await learnRows(rows, tx);
        return rows.length > 0;
      });
    },

    /**
     * Learns every kept upload of `locale` in `projectIds`, waiting for those being learned: what a
     * lookup of the locale reads next is all that was uploaded before it.
     */
    async learnPending(projectIds: readonly string[], locale: string): Promise<void> {
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<PendingRow>(
          `SELECT ${PENDING_COLUMNS} FROM memory_pending WHERE project_id = ANY($1::text[]) AND locale = $2
            ORDER BY id FOR UPDATE`,
          [projectIds, locale],
        );
        await learnRows(rows, tx);
      });
    },

    /** The projects with uploads not yet learned (a service stopped before it learned them). */
    async pendingProjects(): Promise<string[]> {
      const { rows } = await db.query<{ project_id: string }>(
        `SELECT DISTINCT project_id FROM memory_pending`,
      );
      return rows.map((row) => row.project_id);
    },

    /** Forgets a locale's memory (the locale was removed from the project). */
    async forgetLocale(projectId: string, locale: string, tx: Queryable): Promise<void> {
      await tx.query(`DELETE FROM memory_pending WHERE project_id = $1 AND locale = $2`, [projectId, locale]);
      await tx.query(`DELETE FROM memory WHERE project_id = $1 AND locale = $2`, [projectId, locale]);
    },

    /** Forgets a project's memory (the project was deleted). */
    async forgetProject(projectId: string, tx: Queryable): Promise<void> {
      await tx.query(`DELETE FROM memory_pending WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM memory WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM memory_texts WHERE project_id = $1`, [projectId]);
    },

    /**
     * For each text, its translation into `locale` in the projects `projectIds`: the one of
     * `preferred` first, else the most recently stored. Undefined where none holds the text.
     */
    async exact(
      projectIds: readonly string[],
      preferred: string,
      locale: string,
      texts: readonly string[],
    ): Promise<(MemoryEntry | undefined)[]> {
      const hashes = texts.map(textHash);
      // One primary-key probe a text (a join made the planner scan the locale's whole memory of
      // the project and sort it: 53 against 13 ms for 2,000 texts on 14,731 remembered).
      const { rows } = await db.query<Row & { i: number }>(
        `SELECT q.i::int AS i, m.project_id, t.source_text, m.translation, m.key, m.updated_at
           FROM unnest($3::bytea[]) WITH ORDINALITY AS q(hash, i)
           CROSS JOIN LATERAL (
             SELECT c.* FROM memory c
              WHERE c.project_id = ANY($1::text[]) AND c.locale = $2 AND c.source_hash = q.hash
              ORDER BY (c.project_id = $4) DESC, c.updated_at DESC, c.project_id
              LIMIT 1
           ) m
           JOIN memory_texts t ON t.project_id = m.project_id AND t.source_hash = m.source_hash`,
        [projectIds, locale, hashes, preferred],
      );
      const found: (MemoryEntry | undefined)[] = texts.map(() => undefined);
      // A hash is the text's; the comparison only guards against a collision.
      for (const row of rows) if (row.source_text === texts[row.i - 1]) found[row.i - 1] = toEntry(row);
      return found;
    },

    /**
     * For each text, up to `limit` translations into `locale` of similar, not identical, texts in
     * the projects `projectIds` (pg_trgm similarity above its threshold, 0.3 unless set), the most
     * similar first. Undefined when the search took longer than `nearTimeoutMs` and was given up.
     */
    async near(
      projectIds: readonly string[],
      locale: string,
      texts: readonly string[],
      limit: number,
    ): Promise<NearEntry[][] | undefined> {
      const found: NearEntry[][] = texts.map(() => []);
      try {
        await db.transaction(async (tx) => {
          // Near matches are hints for the prompt: a search that takes long is given up, not waited for.
          await tx.query(`SET LOCAL statement_timeout = ${nearTimeoutMs}`);
          // Nearest first by trigram distance (1 − similarity), walking the GiST index: it stops
          // at the few asked for instead of ranking every text above the threshold. Nothing else
          // may serve the search (the project and locale compared as expressions no index serves,
          // no bitmap or sequential scan): with statistics not yet updated after a large upload,
          // the planner took the primary key or a bitmap scan and ranked every text of the
          // project (0.5 to 1.7 s against 22 ms for a batch's 10 longest texts).
          await tx.query(`SET LOCAL enable_bitmapscan = off`);
          await tx.query(`SET LOCAL enable_seqscan = off`);
          const { rows } = await tx.query<Row & { i: number; similarity: number }>(
            `SELECT q.i::int AS i, m.project_id, m.source_text, m.translation, m.key, m.updated_at, m.similarity
           FROM unnest($3::text[]) WITH ORDINALITY AS q(text, i)
           CROSS JOIN LATERAL (
             SELECT c.project_id, t.source_text, c.translation, c.key, c.updated_at,
                    public.similarity(t.source_text, q.text)::float8 AS similarity
               FROM memory_texts t
               JOIN memory c ON c.project_id = t.project_id AND c.source_hash = t.source_hash AND c.locale = $2
              WHERE (t.project_id || '') = ANY($1::text[])
                AND t.source_text OPERATOR(public.%) q.text AND t.source_text <> q.text
              ORDER BY t.source_text OPERATOR(public.<->) q.text
              LIMIT $4
           ) m
          ORDER BY q.i, m.similarity DESC, m.updated_at DESC`,
            [projectIds, locale, texts, limit],
          );
          for (const row of rows) {
            found[row.i - 1]!.push({ ...toEntry(row), source: row.source_text, similarity: row.similarity });
          }
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === QUERY_CANCELED) return undefined;
        throw error;
      }
      return found;
    },
  };
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;
