import { hash } from 'node:crypto';
import type { Db, Queryable } from '@tolk/db';

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
 * Learns the kept uploads `claim` picks (the rest of a `SELECT id FROM memory_pending WHERE ...`)
 * and deletes them, in one statement: each text once per project, then each locale's translation
 * of it — a newer one than the memory holds, by upload time (uploads may be learned out of order).
 * The rows are taken in the order of their hashes: two statements that hold the same texts (two
 * locales of a project) lock them in the same order, so neither waits for what the other holds.
 * Gives the number of uploads learned.
 */
function learnPendingSql(claim: string): string {
  return `WITH p AS (
      DELETE FROM memory_pending WHERE id IN (SELECT id FROM memory_pending WHERE ${claim})
      RETURNING id, project_id, locale, learned_at, entries
    ), u AS (
      SELECT DISTINCT ON (p.project_id, p.locale, hash)
             p.project_id, p.locale, p.learned_at, sha256(convert_to(e.s, 'UTF8')) AS hash, e.s, e.t, e.k
        FROM p CROSS JOIN LATERAL json_to_recordset(p.entries) AS e(s text, t text, k text)
       ORDER BY p.project_id, p.locale, hash, p.learned_at DESC, p.id DESC
    ), texts AS (
      INSERT INTO memory_texts (project_id, source_hash, source_text)
      SELECT u.project_id, u.hash, u.s FROM u ORDER BY u.project_id, u.hash
      ON CONFLICT (project_id, source_hash) DO NOTHING
    ), learned AS (
      INSERT INTO memory (project_id, locale, source_hash, translation, key, updated_at)
      SELECT u.project_id, u.locale, u.hash, u.t, u.k, u.learned_at FROM u
      ON CONFLICT (project_id, locale, source_hash)
      DO UPDATE SET translation = EXCLUDED.translation, key = EXCLUDED.key, updated_at = EXCLUDED.updated_at
      WHERE memory.updated_at <= EXCLUDED.updated_at
    )
    SELECT count(*)::int AS learned FROM p`;
}

/**
 * The translation memory of locale-service (DESIGN §13). `nearTimeoutMs`: how long a near-match
 * search may take before it is given up (a positive whole number: 0 would be no limit to Postgres).
 */
export function createMemoryRepository(db: Db, options: { nearTimeoutMs: number }) {
  const { nearTimeoutMs } = options;
  return {
    /**
     * Keeps what an upload teaches the memory (`{source, translation, key}`, texts distinct), in the
     * upload's transaction, to be learned by `learnNext` or `learnPending` right after.
     */
    async defer(
      projectId: string,
      locale: string,
      entries: readonly { source: string; translation: string; key: string }[],
      at: number,
      tx: Queryable,
    ): Promise<void> {
      if (entries.length === 0) return;
      // One JSON text: node-postgres writes a text[] parameter element by element in JavaScript.
      const json = JSON.stringify(
        entries.map((entry) => ({ s: entry.source, t: entry.translation, k: entry.key })),
      );
      await tx.query(
        `INSERT INTO memory_pending (project_id, locale, learned_at, entries) VALUES ($1, $2, $3, $4::json)`,
        [projectId, locale, new Date(at), json],
      );
    },

    /**
     * Learns the project's oldest kept upload that no one else is learning; false when there is
     * none left.
     */
    async learnNext(projectId: string): Promise<boolean> {
      const { rows } = await db.query<{ learned: number }>(
        learnPendingSql(`project_id = $1 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`),
        [projectId],
      );
      return (rows[0]?.learned ?? 0) > 0;
    },

    /**
     * Learns every kept upload of `locale` in `projectIds`, waiting for those being learned: what a
     * lookup of the locale reads next is all that was uploaded before it.
     */
    async learnPending(projectIds: readonly string[], locale: string): Promise<void> {
      await db.query(learnPendingSql(`project_id = ANY($1::text[]) AND locale = $2 ORDER BY id FOR UPDATE`), [
        projectIds,
        locale,
      ]);
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
