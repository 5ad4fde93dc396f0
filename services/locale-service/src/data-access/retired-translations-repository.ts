import type { KeyProvenance } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';

/**
 * A translation of a deleted source key, the revision of the source key it was made for, and who
 * wrote it when known.
 */
export type RetiredTranslation = {
  key: string;
  sourceRevision: number;
  translation: string;
  provenance?: KeyProvenance;
};

/** At most this many retired translations are kept per locale; the oldest retirements go first. */
export const RETIRED_PER_LOCALE = 20_000;

export function createRetiredTranslationsRepository(db: Db) {
  return {
    /** The retired translations of the locale among `keys`. */
    async find(
      projectId: string,
      locale: string,
      keys: readonly string[],
      q: Queryable = db,
    ): Promise<RetiredTranslation[]> {
      if (keys.length === 0) return [];
      const { rows } = await q.query<{
        key: string;
        source_revision: number;
        translation: string;
        provenance: KeyProvenance | null;
      }>(
        `SELECT key, source_revision, translation, provenance FROM retired_translations
          WHERE project_id = $1 AND locale = $2 AND key = ANY($3::text[])`,
        [projectId, locale, keys],
      );
      return rows.map((row) => ({
        key: row.key,
        sourceRevision: row.source_revision,
        translation: row.translation,
        ...(row.provenance && { provenance: row.provenance }),
      }));
    },

    /** Each replaces the key's earlier retirement; then the locale keeps its newest RETIRED_PER_LOCALE. */
    async retire(
      projectId: string,
      locale: string,
      retired: readonly RetiredTranslation[],
      at: number,
      tx: Queryable,
    ): Promise<void> {
      if (retired.length === 0) return;
      await tx.query(
        `INSERT INTO retired_translations
           (project_id, locale, key, source_revision, translation, provenance, retired_at)
         SELECT $1, $2, k, r, t, p, $7
           FROM unnest($3::text[], $4::integer[], $5::text[], $6::jsonb[]) AS d(k, r, t, p)
         ON CONFLICT (project_id, locale, key) DO UPDATE
           SET source_revision = EXCLUDED.source_revision, translation = EXCLUDED.translation,
               provenance = EXCLUDED.provenance, retired_at = EXCLUDED.retired_at`,
        [
          projectId,
          locale,
          retired.map((r) => r.key),
          retired.map((r) => r.sourceRevision),
          retired.map((r) => r.translation),
          retired.map((r) => (r.provenance ? JSON.stringify(r.provenance) : null)),
          new Date(at),
        ],
      );
      await tx.query(
        `DELETE FROM retired_translations
          WHERE project_id = $1 AND locale = $2
            AND key IN (SELECT key FROM retired_translations WHERE project_id = $1 AND locale = $2
                         ORDER BY retired_at DESC, key OFFSET $3)`,
        [projectId, locale, RETIRED_PER_LOCALE],
      );
    },

    /** The locale's retired translations go with it (`locale` undefined: every locale's). */
    async purge(projectId: string, locale: string | undefined, tx: Queryable): Promise<void> {
      await tx.query(
        `DELETE FROM retired_translations WHERE project_id = $1 AND ($2::text IS NULL OR locale = $2)`,
        [projectId, locale ?? null],
      );
    },
  };
}

export type RetiredTranslationsRepository = ReturnType<typeof createRetiredTranslationsRepository>;
