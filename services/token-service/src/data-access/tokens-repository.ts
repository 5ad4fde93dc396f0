import type { Db, Queryable } from '@tolk/db';

export type TokenPermissions = 'read' | 'read_write';

/** A token as the list view shows it; never the token itself, which is not stored. */
export type TokenRow = {
  tokenId: string;
  tokenPrefix: string;
  label: string;
  permissions: TokenPermissions;
  lastUsedAt: number | null;
  createdAt: number;
  /** The member who created it, and owns it: removing them from the project revokes it. */
  createdBy: string;
};

/** What is stored of a new token. */
export type NewToken = {
  tokenId: string;
  projectId: string;
  /** SHA-256 of the whole token, hex. */
  tokenHash: string;
  tokenPrefix: string;
  label: string;
  permissions: TokenPermissions;
  createdBy: string;
  createdAt: number;
};

/** A token that stopped working, as TokenRevoked announces it. */
export type RevokedToken = { tokenId: string; projectId: string; tokenHash: string };

/** Who a live token is, for the gateway. */
export type LiveToken = { tokenId: string; projectId: string; permissions: TokenPermissions };

type Row = {
  token_id: string;
  token_prefix: string;
  label: string;
  permissions: TokenPermissions;
  last_used_at: Date | null;
  created_at: Date;
  created_by: string;
};

function toToken(row: Row): TokenRow {
  return {
    tokenId: row.token_id,
    tokenPrefix: row.token_prefix,
    label: row.label,
    permissions: row.permissions,
    lastUsedAt: row.last_used_at?.getTime() ?? null,
    createdAt: row.created_at.getTime(),
    createdBy: row.created_by,
  };
}

export function createTokensRepository(db: Db) {
  async function findLiveBy(
    column: 'token_hash' | 'token_id',
    value: string,
    q: Queryable,
  ): Promise<LiveToken | undefined> {
    const { rows } = await q.query<{ token_id: string; project_id: string; permissions: TokenPermissions }>(
      `SELECT token_id, project_id, permissions FROM api_tokens WHERE ${column} = $1 AND revoked_at IS NULL`,
      [value],
    );
    const row = rows[0];
    return row && { tokenId: row.token_id, projectId: row.project_id, permissions: row.permissions };
  }

  return {
    async insert(token: NewToken, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO api_tokens
           (token_id, project_id, token_hash, token_prefix, label, permissions, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          token.tokenId,
          token.projectId,
          token.tokenHash,
          token.tokenPrefix,
          token.label,
          token.permissions,
          token.createdBy,
          new Date(token.createdAt),
        ],
      );
    },

    async countLive(projectId: string, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM api_tokens WHERE project_id = $1 AND revoked_at IS NULL`,
        [projectId],
      );
      return rows[0]?.count ?? 0;
    },

    /** The project's live tokens, newest first. */
    async listLive(projectId: string, q: Queryable = db): Promise<TokenRow[]> {
      const { rows } = await q.query<Row>(
        `SELECT token_id, token_prefix, label, permissions, last_used_at, created_at, created_by
           FROM api_tokens
          WHERE project_id = $1 AND revoked_at IS NULL
          ORDER BY created_at DESC, token_id DESC`,
        [projectId],
      );
      return rows.map(toToken);
    },

    /** Revokes a live token of the project; undefined when there is none with that id. */
    async revoke(
      projectId: string,
      tokenId: string,
      by: { userId: string; at: number },
      tx: Queryable,
    ): Promise<RevokedToken | undefined> {
      const { rows } = await tx.query<{ token_hash: string }>(
        `UPDATE api_tokens SET revoked_at = $3, revoked_by = $4
          WHERE project_id = $1 AND token_id = $2 AND revoked_at IS NULL
          RETURNING token_hash`,
        [projectId, tokenId, new Date(by.at), by.userId],
      );
      return rows[0] && { tokenId, projectId, tokenHash: rows[0].token_hash };
    },

    /**
     * Revokes every live token `createdBy` created, in one project or (without `projectId`) in
     * all; returns them. `revoked_by` says why: no user revoked them. Rows are locked in token-id
     * order, as a usage report locks them, so the two never deadlock.
     */
    async revokeCreatedBy(
      createdBy: string,
      projectId: string | undefined,
      by: { reason: string; at: number },
      tx: Queryable,
    ): Promise<RevokedToken[]> {
      const { rows } = await tx.query<{ token_id: string; project_id: string; token_hash: string }>(
        `UPDATE api_tokens SET revoked_at = $3, revoked_by = $4
          WHERE token_id IN (
            SELECT token_id FROM api_tokens
             WHERE created_by = $1 AND ($2::text IS NULL OR project_id = $2) AND revoked_at IS NULL
             ORDER BY token_id FOR UPDATE)
          RETURNING token_id, project_id, token_hash`,
        [createdBy, projectId ?? null, new Date(by.at), by.reason],
      );
      return rows.map((row) => ({
        tokenId: row.token_id,
        projectId: row.project_id,
        tokenHash: row.token_hash,
      }));
    },

    /** The live token with this hash, if any. */
    findLive(tokenHash: string, q: Queryable = db): Promise<LiveToken | undefined> {
      return findLiveBy('token_hash', tokenHash, q);
    },

    /** The token with this id while it is live; undefined once revoked, or when there is none. */
    findLiveById(tokenId: string, q: Queryable = db): Promise<LiveToken | undefined> {
      return findLiveBy('token_id', tokenId, q);
    },

    /**
     * Moves `last_used_at` of live tokens forward to the reported time, but only where it is more
     * than a minute behind: within a minute of the stored time nothing is written at all. One
     * statement for the whole report (one use per token). Rows are locked in token-id order, so
     * two reports that overlap wait for each other instead of deadlocking, and the condition is
     * checked again on the row as the other left it. Returns how many rows were written.
     */
    async recordUses(uses: { tokenId: string; at: number }[], q: Queryable = db): Promise<number> {
      if (uses.length === 0) return 0;
      const { rowCount } = await q.query(
        `WITH reported AS (
           SELECT * FROM unnest($1::text[], $2::timestamptz[]) AS r (token_id, at)
         ), due AS (
           SELECT t.token_id, reported.at
             FROM api_tokens t JOIN reported USING (token_id)
            WHERE t.revoked_at IS NULL
              AND (t.last_used_at IS NULL OR t.last_used_at < reported.at - interval '60 seconds')
            ORDER BY t.token_id
              FOR UPDATE OF t
         )
         UPDATE api_tokens t SET last_used_at = due.at FROM due WHERE t.token_id = due.token_id`,
        [uses.map((use) => use.tokenId), uses.map((use) => new Date(use.at))],
      );
      return rowCount;
    },

    /**
     * Deletes every token of the project; returns those that were live (now revoked). Rows are
     * locked in token-id order, as a usage report locks them, so the two never deadlock.
     */
    async deleteProject(projectId: string, tx: Queryable): Promise<RevokedToken[]> {
      const { rows } = await tx.query<{ token_id: string; token_hash: string; revoked_at: Date | null }>(
        `DELETE FROM api_tokens
          WHERE token_id IN (SELECT token_id FROM api_tokens WHERE project_id = $1 ORDER BY token_id FOR UPDATE)
          RETURNING token_id, token_hash, revoked_at`,
        [projectId],
      );
      return rows
        .filter((row) => row.revoked_at === null)
        .map((row) => ({ tokenId: row.token_id, projectId, tokenHash: row.token_hash }));
    },
  };
}

export type TokensRepository = ReturnType<typeof createTokensRepository>;
