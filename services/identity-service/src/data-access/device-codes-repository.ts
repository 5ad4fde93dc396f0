import type { Db, Queryable } from '@tolk/db';

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'consumed';

export type StoredDeviceCode = {
  status: DeviceCodeStatus;
  userId: string | null;
  intervalSeconds: number;
  expiresAt: number;
  lastPolledAt: number | null;
};

type StoredDeviceCodeRow = {
  status: DeviceCodeStatus;
  user_id: string | null;
  interval_seconds: number;
  expires_at: Date;
  last_polled_at: Date | null;
};

export function createDeviceCodesRepository(db: Db) {
  return {
    /** Expired codes answer exactly like unknown ones, so they can simply go. */
    async deleteExpired(now: number, q: Queryable = db): Promise<void> {
      await q.query(`DELETE FROM device_codes WHERE expires_at <= $1`, [new Date(now)]);
    },

    /** Stores a new pending code; false when its user code is already in use. */
    async insertUnlessUserCodeTaken(
      code: {
        deviceCodeHash: Buffer;
        userCode: string;
        intervalSeconds: number;
        createdAt: number;
        expiresAt: number;
      },
      q: Queryable = db,
    ): Promise<boolean> {
      const { rowCount } = await q.query(
        `INSERT INTO device_codes (device_code_hash, user_code, status, interval_seconds, created_at, expires_at)
         VALUES ($1, $2, 'pending', $3, $4, $5)
         ON CONFLICT (user_code) DO NOTHING`,
        [
          code.deviceCodeHash,
          code.userCode,
          code.intervalSeconds,
          new Date(code.createdAt),
          new Date(code.expiresAt),
        ],
      );
      return rowCount === 1;
    },

    /** Locked until the transaction ends, so concurrent polls see each other's effects. */
    async findForUpdate(deviceCodeHash: Buffer, q: Queryable): Promise<StoredDeviceCode | undefined> {
      const { rows } = await q.query<StoredDeviceCodeRow>(
        `SELECT status, user_id, interval_seconds, expires_at, last_polled_at
           FROM device_codes
          WHERE device_code_hash = $1
            FOR UPDATE`,
        [deviceCodeHash],
      );
      const row = rows[0];
      return (
        row && {
          status: row.status,
          userId: row.user_id,
          intervalSeconds: row.interval_seconds,
          expiresAt: row.expires_at.getTime(),
          lastPolledAt: row.last_polled_at?.getTime() ?? null,
        }
      );
    },

    async recordPoll(
      deviceCodeHash: Buffer,
      poll: { at: number; intervalSeconds: number },
      q: Queryable = db,
    ): Promise<void> {
      await q.query(
        `UPDATE device_codes SET last_polled_at = $2, interval_seconds = $3 WHERE device_code_hash = $1`,
        [deviceCodeHash, new Date(poll.at), poll.intervalSeconds],
      );
    },

    async markConsumed(deviceCodeHash: Buffer, q: Queryable = db): Promise<void> {
      await q.query(`UPDATE device_codes SET status = 'consumed' WHERE device_code_hash = $1`, [
        deviceCodeHash,
      ]);
    },

    /** Approves or denies a pending, unexpired code; false when there is none. */
    async decide(
      decision: { userCode: string; status: 'approved' | 'denied'; userId: string; at: number },
      q: Queryable = db,
    ): Promise<boolean> {
      const { rowCount } = await q.query(
        `UPDATE device_codes SET status = $2, user_id = $3, decided_at = $4
          WHERE user_code = $1 AND status = 'pending' AND expires_at > $4`,
        [decision.userCode, decision.status, decision.userId, new Date(decision.at)],
      );
      return rowCount === 1;
    },
  };
}

export type DeviceCodesRepository = ReturnType<typeof createDeviceCodesRepository>;
