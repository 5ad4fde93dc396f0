import type { Db, Queryable } from '@tolk/db';

export type StoredRefreshToken = {
  familyId: string;
  userId: string;
  expiresAt: number;
  rotatedAt: number | null;
  familyRevokedAt: number | null;
};

type StoredRefreshTokenRow = {
  family_id: string;
  user_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
};

export function createRefreshTokensRepository(db: Db) {
  return {
    async insertFamily(
      family: { familyId: string; userId: string; createdAt: number },
      q: Queryable = db,
    ): Promise<void> {
      await q.query(
        `INSERT INTO refresh_token_families (family_id, user_id, created_at) VALUES ($1, $2, $3)`,
        [family.familyId, family.userId, new Date(family.createdAt)],
      );
    },

    async insertToken(
      token: { tokenHash: Buffer; familyId: string; createdAt: number; expiresAt: number },
      q: Queryable = db,
    ): Promise<void> {
      await q.query(
        `INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
        [token.tokenHash, token.familyId, new Date(token.createdAt), new Date(token.expiresAt)],
      );
    },

    /** The token and its family, locked until the transaction ends so one rotation wins. */
    async findForUpdate(tokenHash: Buffer, q: Queryable): Promise<StoredRefreshToken | undefined> {
      const { rows } = await q.query<StoredRefreshTokenRow>(
        `SELECT t.family_id, f.user_id, t.expires_at, t.rotated_at, f.revoked_at
           FROM refresh_tokens t
           JOIN refresh_token_families f ON f.family_id = t.family_id
          WHERE t.token_hash = $1
            FOR UPDATE`,
        [tokenHash],
      );
      const row = rows[0];
      return (
        row && {
          familyId: row.family_id,
          userId: row.user_id,
          expiresAt: row.expires_at.getTime(),
          rotatedAt: row.rotated_at?.getTime() ?? null,
          familyRevokedAt: row.revoked_at?.getTime() ?? null,
        }
      );
    },

    async markRotated(tokenHash: Buffer, at: number, q: Queryable = db): Promise<void> {
      await q.query(`UPDATE refresh_tokens SET rotated_at = $2 WHERE token_hash = $1`, [
        tokenHash,
        new Date(at),
      ]);
    },

    async revokeFamily(familyId: string, at: number, q: Queryable = db): Promise<void> {
      await q.query(
        `UPDATE refresh_token_families SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`,
        [familyId, new Date(at)],
      );
    },

    /** Revokes the family the token belongs to; an unknown token changes nothing. */
    async revokeFamilyOfToken(tokenHash: Buffer, at: number, q: Queryable = db): Promise<void> {
      await q.query(
        `UPDATE refresh_token_families SET revoked_at = $2
          WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)
            AND revoked_at IS NULL`,
        [tokenHash, new Date(at)],
      );
    },
  };
}

export type RefreshTokensRepository = ReturnType<typeof createRefreshTokensRepository>;
