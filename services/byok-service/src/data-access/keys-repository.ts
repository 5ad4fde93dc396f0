import type { AiProvider } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import type { KeyOwner, SealedKey } from '../domain/key-cipher.js';

/** What a list shows of a stored key: never the key. */
export type StoredKeySummary = { provider: AiProvider; hint: string; updatedAt: number };

export type StoredKey = StoredKeySummary & { sealed: SealedKey };

type SummaryRow = { provider: AiProvider; hint: string; updated_at: Date };
type KeyRow = SummaryRow & { key_id: string; nonce: Buffer; ciphertext: Buffer; tag: Buffer };
type OwnedKeyRow = KeyRow & { user_id: string };

const KEY_COLUMNS = 'provider, hint, updated_at, key_id, nonce, ciphertext, tag';

function toSummary(row: SummaryRow): StoredKeySummary {
  return { provider: row.provider, hint: row.hint, updatedAt: row.updated_at.getTime() };
}

function toStoredKey(row: KeyRow): StoredKey {
  return {
    ...toSummary(row),
    sealed: { keyId: row.key_id, nonce: row.nonce, ciphertext: row.ciphertext, tag: row.tag },
  };
}

export function createKeysRepository(db: Db) {
  return {
    async find(owner: KeyOwner, q: Queryable = db): Promise<StoredKey | undefined> {
      const { rows } = await q.query<KeyRow>(
        `SELECT ${KEY_COLUMNS} FROM provider_keys WHERE user_id = $1 AND provider = $2`,
        [owner.userId, owner.provider],
      );
      return rows[0] && toStoredKey(rows[0]);
    },

    async listSummaries(userId: string, q: Queryable = db): Promise<StoredKeySummary[]> {
      const { rows } = await q.query<SummaryRow>(
        `SELECT provider, hint, updated_at FROM provider_keys WHERE user_id = $1`,
        [userId],
      );
      return rows.map(toSummary);
    },

    /**
     * Stores the key, replacing any the user had for the provider; undefined (nothing stored) when
     * the user's account has been deleted.
     */
    async upsert(
      owner: KeyOwner,
      key: { sealed: SealedKey; hint: string; at: number },
      q: Queryable = db,
    ): Promise<StoredKeySummary | undefined> {
      const { sealed } = key;
      const { rows } = await q.query<SummaryRow>(
        `INSERT INTO provider_keys
           (user_id, provider, key_id, nonce, ciphertext, tag, hint, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $8
          WHERE NOT EXISTS (SELECT 1 FROM deleted_users WHERE user_id = $1)
         ON CONFLICT (user_id, provider) DO UPDATE
           SET key_id = EXCLUDED.key_id, nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext,
               tag = EXCLUDED.tag, hint = EXCLUDED.hint, updated_at = EXCLUDED.updated_at
         RETURNING provider, hint, updated_at`,
        [
          owner.userId,
          owner.provider,
          sealed.keyId,
          sealed.nonce,
          sealed.ciphertext,
          sealed.tag,
          key.hint,
          new Date(key.at),
        ],
      );
      return rows[0] && toSummary(rows[0]);
    },

    /** UserDeleted: every key of the user goes, and the user id is kept so none is stored again. */
    async deleteUser(userId: string, at: number, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO deleted_users (user_id, deleted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [userId, new Date(at)],
      );
      await q.query(`DELETE FROM provider_keys WHERE user_id = $1`, [userId]);
    },

    async delete(owner: KeyOwner, q: Queryable = db): Promise<boolean> {
      const { rowCount } = await q.query(`DELETE FROM provider_keys WHERE user_id = $1 AND provider = $2`, [
        owner.userId,
        owner.provider,
      ]);
      return rowCount > 0;
    },

    // ---- master key rotation ----

    /**
     * Locks the next `limit` keys not encrypted under `keyId`, in (user, provider) order after
     * `after`, until the transaction ends. A key re-encrypted meanwhile by a write is skipped.
     */
    async lockNotUnder(
      keyId: string,
      after: KeyOwner | undefined,
      limit: number,
      tx: Queryable,
    ): Promise<(StoredKey & { owner: KeyOwner })[]> {
      const { rows } = await tx.query<OwnedKeyRow>(
        `SELECT user_id, ${KEY_COLUMNS} FROM provider_keys
          WHERE key_id <> $1 AND ($2::text IS NULL OR (user_id, provider) > ($2, $3))
          ORDER BY user_id, provider
          LIMIT $4
          FOR UPDATE`,
        [keyId, after?.userId ?? null, after?.provider ?? null, limit],
      );
      return rows.map((row) => ({
        ...toStoredKey(row),
        owner: { userId: row.user_id, provider: row.provider },
      }));
    },

    /** Replaces the ciphertext of a key locked by `lockNotUnder`; when the user set it stays as it was. */
    async reseal(owner: KeyOwner, sealed: SealedKey, tx: Queryable): Promise<void> {
      await tx.query(
        `UPDATE provider_keys SET key_id = $3, nonce = $4, ciphertext = $5, tag = $6
          WHERE user_id = $1 AND provider = $2`,
        [owner.userId, owner.provider, sealed.keyId, sealed.nonce, sealed.ciphertext, sealed.tag],
      );
    },

    /** How many keys each master key encrypts. */
    async countByKeyId(q: Queryable = db): Promise<Record<string, number>> {
      const { rows } = await q.query<{ key_id: string; keys: number }>(
        `SELECT key_id, count(*)::bigint AS keys FROM provider_keys GROUP BY key_id ORDER BY key_id`,
      );
      return Object.fromEntries(rows.map((row) => [row.key_id, row.keys]));
    },
  };
}

export type KeysRepository = ReturnType<typeof createKeysRepository>;
