import type { Db, Queryable } from '@tolk/db';

export type User = { userId: string; email: string; name: string | null; createdAt: number };

type UserRow = { user_id: string; email: string; name: string | null; created_at: Date };

function toUser(row: UserRow): User {
  return { userId: row.user_id, email: row.email, name: row.name, createdAt: row.created_at.getTime() };
}

export function createUsersRepository(db: Db) {
  return {
    /** Inserts the user unless the email is taken; then nothing is written and undefined returned. */
    async insertUnlessEmailTaken(
      user: User & { passwordHash: string },
      q: Queryable = db,
    ): Promise<User | undefined> {
      const { rows } = await q.query<UserRow>(
        `INSERT INTO users (user_id, email, password_hash, name, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (email) DO NOTHING
         RETURNING user_id, email, name, created_at`,
        [user.userId, user.email, user.passwordHash, user.name, new Date(user.createdAt)],
      );
      return rows[0] && toUser(rows[0]);
    },

    async findById(userId: string, q: Queryable = db): Promise<User | undefined> {
      const { rows } = await q.query<UserRow>(
        `SELECT user_id, email, name, created_at FROM users WHERE user_id = $1`,
        [userId],
      );
      return rows[0] && toUser(rows[0]);
    },

    /** `email` as stored: in normalizeEmail's form (@tolk/contracts), as the request schemas leave it. */
    async findByEmail(email: string, q: Queryable = db): Promise<User | undefined> {
      const { rows } = await q.query<UserRow>(
        `SELECT user_id, email, name, created_at FROM users WHERE email = $1`,
        [email],
      );
      return rows[0] && toUser(rows[0]);
    },

    /** The users among `userIds` that exist, in no particular order. */
    async findByIds(userIds: string[], q: Queryable = db): Promise<User[]> {
      const { rows } = await q.query<UserRow>(
        `SELECT user_id, email, name, created_at FROM users WHERE user_id = ANY($1::text[])`,
        [userIds],
      );
      return rows.map(toUser);
    },

    /**
     * Deletes the user, and with them (ON DELETE CASCADE) every refresh-token family and device
     * login of theirs; false when there was no such user.
     */
    async delete(userId: string, q: Queryable = db): Promise<boolean> {
      const { rowCount } = await q.query(`DELETE FROM users WHERE user_id = $1`, [userId]);
      return rowCount > 0;
    },

    async findWithPasswordByEmail(
      email: string,
      q: Queryable = db,
    ): Promise<{ user: User; passwordHash: string } | undefined> {
      const { rows } = await q.query<UserRow & { password_hash: string }>(
        `SELECT user_id, email, name, created_at, password_hash FROM users WHERE email = $1`,
        [email],
      );
      const row = rows[0];
      return row && { user: toUser(row), passwordHash: row.password_hash };
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
