import { NO_KEY_RULES, type KeyRules } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import type { KeySettings } from './projects-repository.js';

/** The counts of a locale against one source version (DESIGN §5). */
export type LocaleCounts = {
  /** The source version they were computed against. */
  countsVersion: number;
  keyCount: number;
  translatedCount: number;
  missingCount: number;
  outdatedCount: number;
  syncedVersion: number;
  /** The locale's keys with an error finding (DESIGN §15). */
  errorCount: number;
  /** The locale's keys with warning findings and no error. */
  warningCount: number;
};

/** A target locale as stored, without its translations. */
export type LocaleRow = LocaleCounts & {
  locale: string;
  /** Source version of the last translation upload; 0 when nothing was uploaded. */
  translatedFrom: number;
  /** When the last translation upload was stored; null when nothing was uploaded. */
  translatedAt: number | null;
  /** Source version up to which renames and restores were applied to the translations (DESIGN §13). */
  carriedVersion: number;
  /** Whether translations are stored. */
  hasContent: boolean;
  /**
   * Whether its stored translations are yet to be judged and taught to the translation memory as
   * this release does: some may have been stored before findings and the memory existed.
   */
  storedBehind: boolean;
  /** The revision of the translations as a download shows them (see NEXT_REVISION). */
  revision: number;
  createdAt: number;
  updatedAt: number;
};

type Row = {
  locale: string;
  translated_from: number;
  translated_at: Date | null;
  counts_version: number;
  key_count: number;
  translated_count: number;
  missing_count: number;
  outdated_count: number;
  synced_version: number;
  error_count: number;
  warning_count: number;
  carried_version: number;
  has_content: boolean;
  stored_behind: boolean;
  revision: string | number;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = `locale, translated_from, translated_at, counts_version, key_count, translated_count,
  missing_count, outdated_count, synced_version, error_count, warning_count, carried_version, (content IS NOT NULL) AS has_content,
  stored_behind, revision, created_at, updated_at`;

/**
 * A new revision of a locale's translations, for a statement that changes what a download of
 * them shows (`WITH next AS ... SET revision = (SELECT revision FROM next)`; `$1` is the
 * project): the project's counter, on its baseline row, moved on. Every change to a project's
 * locales holds that row's lock, so revisions are taken one at a time, and a locale removed and
 * added again never gets one it had before.
 */
const NEXT_REVISION = `next AS (
  UPDATE baselines SET last_revision = last_revision + 1 WHERE project_id = $1 RETURNING last_revision AS revision)`;

function toLocale(row: Row): LocaleRow {
  return {
    locale: row.locale,
    translatedFrom: row.translated_from,
    translatedAt: row.translated_at?.getTime() ?? null,
    countsVersion: row.counts_version,
    keyCount: row.key_count,
    translatedCount: row.translated_count,
    missingCount: row.missing_count,
    outdatedCount: row.outdated_count,
    syncedVersion: row.synced_version,
    errorCount: row.error_count,
    warningCount: row.warning_count,
    carriedVersion: row.carried_version,
    hasContent: row.has_content,
    storedBehind: row.stored_behind,
    revision: Number(row.revision),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

function countsParams(counts: LocaleCounts): number[] {
  return [
    counts.countsVersion,
    counts.keyCount,
    counts.translatedCount,
    counts.missingCount,
    counts.outdatedCount,
    counts.syncedVersion,
    counts.errorCount,
    counts.warningCount,
  ];
}

export function createLocalesRepository(db: Db) {
  return {
    /** In the order they were added. */
    async list(projectId: string, q: Queryable = db): Promise<LocaleRow[]> {
      const { rows } = await q.query<Row>(
        `SELECT ${COLUMNS} FROM locales WHERE project_id = $1 ORDER BY created_at, locale`,
        [projectId],
      );
      return rows.map(toLocale);
    },

    async find(projectId: string, locale: string, q: Queryable = db): Promise<LocaleRow | undefined> {
      const { rows } = await q.query<Row>(
        `SELECT ${COLUMNS} FROM locales WHERE project_id = $1 AND locale = $2`,
        [projectId, locale],
      );
      return rows[0] && toLocale(rows[0]);
    },

    /**
     * The locale and its project's plural-key setting and key rules, read in one snapshot. Counts are saved
     * with the setting as it stands when they commit (read under their row's lock, or
     * share-locked), and a change of the setting marks them stale (-1) in its own transaction:
     * so counts not stale here were computed with the setting read with them.
     */
    async findWithPluralsSetting(
      projectId: string,
      locale: string,
      q: Queryable = db,
    ): Promise<({ row: LocaleRow } & KeySettings) | undefined> {
      const { rows } = await q.query<Row & { i18next_plurals: boolean | null; key_rules: KeyRules | null }>(
        `SELECT ${COLUMNS}, p.i18next_plurals, p.key_rules
           FROM locales l LEFT JOIN projects p ON p.project_id = l.project_id
          WHERE l.project_id = $1 AND l.locale = $2`,
        [projectId, locale],
      );
      const row = rows[0];
      if (!row) return undefined;
      const settings = {
        i18nextPlurals: row.i18next_plurals ?? true,
        keyRules: row.key_rules ?? NO_KEY_RULES,
      };
      return { row: toLocale(row), ...settings };
    },

    /** Locks the locale's row until the transaction ends. */
    async lock(projectId: string, locale: string, tx: Queryable): Promise<LocaleRow | undefined> {
      const { rows } = await tx.query<Row>(
        `SELECT ${COLUMNS} FROM locales WHERE project_id = $1 AND locale = $2 FOR UPDATE`,
        [projectId, locale],
      );
      return rows[0] && toLocale(rows[0]);
    },

    /** The locales whose counts were computed against a version older than `version`, locked. */
    /**
     * The counts of every locale of the project are recomputed before they are next shown; a new
     * revision, as the setting or rules that changed change what their downloads show.
     */
    async markStale(projectId: string, tx: Queryable): Promise<void> {
      await tx.query(
        `WITH ${NEXT_REVISION}
         UPDATE locales SET counts_version = -1, revision = (SELECT revision FROM next) WHERE project_id = $1`,
        [projectId],
      );
    },

    async lockStale(projectId: string, version: number, tx: Queryable): Promise<LocaleRow[]> {
      const { rows } = await tx.query<Row>(
        `SELECT ${COLUMNS} FROM locales WHERE project_id = $1 AND counts_version < $2
          ORDER BY locale FOR UPDATE`,
        [projectId, version],
      );
      return rows.map(toLocale);
    },

    /** The findings of the stored translations (DESIGN §15), compressed; undefined when none. */
    async findings(projectId: string, locale: string, q: Queryable = db): Promise<Buffer | undefined> {
      const { rows } = await q.query<{ findings: Buffer | null }>(
        `SELECT findings FROM locales WHERE project_id = $1 AND locale = $2`,
        [projectId, locale],
      );
      return rows[0]?.findings ?? undefined;
    },

    /** The last translation upload, compressed; undefined when nothing was uploaded. */
    async content(projectId: string, locale: string, q: Queryable = db): Promise<Buffer | undefined> {
      const { rows } = await q.query<{ content: Buffer | null }>(
        `SELECT content FROM locales WHERE project_id = $1 AND locale = $2`,
        [projectId, locale],
      );
      return rows[0]?.content ?? undefined;
    },

    /**
     * The last translation upload and the provenance of its keys, each compressed (undefined when
     * not stored), when it was stored (null: nothing uploaded), and their revision, read with them.
     */
    async translations(
      projectId: string,
      locale: string,
      q: Queryable = db,
    ): Promise<
      { content?: Buffer; provenance?: Buffer; translatedAt: number | null; revision: number } | undefined
    > {
      const { rows } = await q.query<{
        content: Buffer | null;
        provenance: Buffer | null;
        translated_at: Date | null;
        revision: string | number;
      }>(
        `SELECT content, provenance, translated_at, revision FROM locales WHERE project_id = $1 AND locale = $2`,
        [projectId, locale],
      );
      const row = rows[0];
      return (
        row && {
          content: row.content ?? undefined,
          provenance: row.provenance ?? undefined,
          translatedAt: row.translated_at?.getTime() ?? null,
          revision: Number(row.revision),
        }
      );
    },

    /** False when the project already has this locale. */
    async insert(projectId: string, locale: string, counts: LocaleCounts, at: number, tx: Queryable) {
      const { rowCount } = await tx.query(
        `WITH ${NEXT_REVISION}
         INSERT INTO locales (project_id, locale, counts_version, key_count, translated_count,
                              missing_count, outdated_count, synced_version, error_count, warning_count,
                              created_at, updated_at, revision)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, revision FROM next
         ON CONFLICT (project_id, locale) DO NOTHING`,
        [projectId, locale, ...countsParams(counts), new Date(at)],
      );
      return (rowCount ?? 0) > 0;
    },

    /** False when there was no such locale. */
    async delete(projectId: string, locale: string, tx: Queryable): Promise<boolean> {
      const { rowCount } = await tx.query(`DELETE FROM locales WHERE project_id = $1 AND locale = $2`, [
        projectId,
        locale,
      ]);
      return (rowCount ?? 0) > 0;
    },

    /**
     * Replaces the locale's translations with an upload made from source version `from`, and the
     * provenance of their keys with them, with the renames and restores of the versions after it
     * up to `carried` applied. Returns their new revision.
     */
    async saveTranslations(
      projectId: string,
      locale: string,
      upload: { content: Buffer; provenance: Buffer; findings: Buffer | null; from: number; carried: number },
      counts: LocaleCounts,
      at: number,
      tx: Queryable,
    ): Promise<number> {
      const { rows } = await tx.query<{ revision: string | number }>(
        `WITH ${NEXT_REVISION}
         UPDATE locales SET content = $3, provenance = $4, translated_from = $5, translated_at = $6,
                updated_at = $6, counts_version = $7, key_count = $8, translated_count = $9,
                missing_count = $10, outdated_count = $11, synced_version = $12, error_count = $13,
                warning_count = $14, carried_version = $15, findings = $16, revision = (SELECT revision FROM next)
          WHERE project_id = $1 AND locale = $2
          RETURNING revision`,
        [
          projectId,
          locale,
          upload.content,
          upload.provenance,
          upload.from,
          new Date(at),
          ...countsParams(counts),
          upload.carried,
          upload.findings,
        ],
      );
      return Number(rows[0]!.revision);
    },

    /**
     * The locales with translations whose renames and restores are applied up to a version
     * before `version`, locked, with their translations; in the order of lockStale.
     */
    async lockUncarried(
      projectId: string,
      version: number,
      tx: Queryable,
    ): Promise<{ locale: string; carriedVersion: number; content: Buffer; provenance?: Buffer }[]> {
      const { rows } = await tx.query<{
        locale: string;
        carried_version: number;
        content: Buffer;
        provenance: Buffer | null;
      }>(
        `SELECT locale, carried_version, content, provenance FROM locales
          WHERE project_id = $1 AND carried_version < $2 AND content IS NOT NULL
          ORDER BY locale FOR UPDATE`,
        [projectId, version],
      );
      return rows.map((row) => ({
        locale: row.locale,
        carriedVersion: row.carried_version,
        content: row.content,
        provenance: row.provenance ?? undefined,
      }));
    },

    /**
     * Translations with renames and restores applied up to `carried`; `content` undefined:
     * unchanged. Changed translations leave the counts stale (recomputed by the refresh) and get a
     * new revision.
     */
    async saveCarried(
      projectId: string,
      locale: string,
      carried: number,
      content: Buffer | undefined,
      tx: Queryable,
      provenance?: Buffer,
    ): Promise<void> {
      const changed = content !== undefined;
      await tx.query(
        `${changed ? `WITH ${NEXT_REVISION}` : ''}
         UPDATE locales SET carried_version = greatest(carried_version, $3), content = coalesce($4, content),
                provenance = coalesce($5, provenance),
                counts_version = CASE WHEN $4::bytea IS NULL THEN counts_version ELSE -1 END,
                revision = ${changed ? '(SELECT revision FROM next)' : 'revision'}
          WHERE project_id = $1 AND locale = $2`,
        [projectId, locale, carried, content ?? null, provenance ?? null],
      );
    },

    /**
     * Version `version` carries nothing over: every locale whose translations were carried up to
     * the version before it (or that has none) is carried up to it.
     */
    async carryNothing(projectId: string, version: number, tx: Queryable): Promise<void> {
      await tx.query(
        `UPDATE locales SET carried_version = $2
          WHERE project_id = $1 AND carried_version < $2 AND (carried_version = $2 - 1 OR content IS NULL)`,
        [projectId, version],
      );
    },

    /** New counts; `updated_at` moves only when something shown changed. */
    async saveCounts(projectId: string, locale: string, counts: LocaleCounts, at: number, tx: Queryable) {
      await tx.query(
        `UPDATE locales SET counts_version = $3, key_count = $4, translated_count = $5, missing_count = $6,
                outdated_count = $7, synced_version = $8, error_count = $9, warning_count = $10,
                updated_at = CASE WHEN (key_count, translated_count, missing_count, outdated_count, synced_version,
                                        error_count, warning_count)
                                       IS DISTINCT FROM ($4, $5, $6, $7, $8, $9, $10)
                                  THEN greatest(updated_at, $11) ELSE updated_at END
          WHERE project_id = $1 AND locale = $2`,
        [projectId, locale, ...countsParams(counts), new Date(at)],
      );
    },

    /** A newer source version arrived: every locale not synced with it fell behind at `at`. */
    async touchBehind(projectId: string, version: number, at: number, tx: Queryable): Promise<void> {
      await tx.query(
        `UPDATE locales SET updated_at = greatest(updated_at, $3)
          WHERE project_id = $1 AND synced_version < $2`,
        [projectId, version, new Date(at)],
      );
    },

    /** The translation baseline: the lowest synced version among the target locales, 0 without any. */
    async lowestSynced(projectId: string, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ lowest: number | null }>(
        `SELECT min(synced_version) AS lowest FROM locales WHERE project_id = $1`,
        [projectId],
      );
      return rows[0]?.lowest ?? 0;
    },

    /**
     * The project's locales in the order they were added, each with the revision of its row, and
     * the project's plural-key setting and key rules, in one snapshot: what the translation
     * browser's state of each locale is computed from. The revision is the row's `xmin`, the
     * transaction that wrote its current version: any write of the row (an upload, a carry-over,
     * new counts) gives it another one, and rows a reader sees never share one.
     */
    async listRevisions(projectId: string, q: Queryable = db): Promise<LocaleRevision[]> {
      const { rows } = await q.query<{
        locale: string;
        revision: string;
        i18next_plurals: boolean | null;
        key_rules: KeyRules | null;
      }>(
        `SELECT l.locale, l.xmin::text AS revision, p.i18next_plurals, p.key_rules
           FROM locales l LEFT JOIN projects p ON p.project_id = l.project_id
          WHERE l.project_id = $1 ORDER BY l.created_at, l.locale`,
        [projectId],
      );
      return rows.map((row) => ({
        locale: row.locale,
        revision: row.revision,
        i18nextPlurals: row.i18next_plurals ?? true,
        keyRules: row.key_rules ?? NO_KEY_RULES,
      }));
    },

    /**
     * The locale's stored translations, their provenance and findings (compressed), the version they were
     * made from and the row's revision (see listRevisions), read together; undefined when the
     * locale is gone.
     */
    async translationsAtRevision(
      projectId: string,
      locale: string,
      q: Queryable = db,
    ): Promise<
      | {
          content?: Buffer;
          provenance?: Buffer;
          findings?: Buffer;
          translatedFrom: number;
          translatedAt: number | null;
          revision: string;
        }
      | undefined
    > {
      const { rows } = await q.query<{
        content: Buffer | null;
        provenance: Buffer | null;
        findings: Buffer | null;
        translated_from: number;
        translated_at: Date | null;
        revision: string;
      }>(
        `SELECT content, provenance, findings, translated_from, translated_at, xmin::text AS revision
           FROM locales WHERE project_id = $1 AND locale = $2`,
        [projectId, locale],
      );
      const row = rows[0];
      return (
        row && {
          content: row.content ?? undefined,
          provenance: row.provenance ?? undefined,
          findings: row.findings ?? undefined,
          translatedFrom: row.translated_from,
          translatedAt: row.translated_at?.getTime() ?? null,
          revision: row.revision,
        }
      );
    },

    /**
     * Records the findings of the locale's stored translations judged again, and that they were
     * taught to the memory, if the row is still at `revision` (see translationsAtRevision) and was
     * behind; its counts then follow the findings. False when it was not.
     */
    async catchUpStored(
      projectId: string,
      locale: string,
      revision: string,
      findings: Buffer | null,
      tx: Queryable,
    ): Promise<boolean> {
      const { rowCount } = await tx.query(
        `UPDATE locales SET stored_behind = false, findings = $4, counts_version = -1
          WHERE project_id = $1 AND locale = $2 AND stored_behind AND xmin::text = $3`,
        [projectId, locale, revision, findings],
      );
      return (rowCount ?? 0) > 0;
    },

    /** The projects with locales whose counts are stale or whose stored translations are behind. */
    async projectsBehind(): Promise<string[]> {
      const { rows } = await db.query<{ project_id: string }>(
        `SELECT DISTINCT project_id FROM locales WHERE counts_version < 0 OR stored_behind ORDER BY project_id`,
      );
      return rows.map((row) => row.project_id);
    },
  };
}

/** A locale's row revision and its project's key settings (see listRevisions). */
export type LocaleRevision = KeySettings & { locale: string; revision: string };

export type LocalesRepository = ReturnType<typeof createLocalesRepository>;
