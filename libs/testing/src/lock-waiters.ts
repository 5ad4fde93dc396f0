import { expect } from 'vitest';
import { holdAdvisoryLocks, type Db, type Queryable } from '@tolk/db';
import { settled } from './settled.js';

/**
 * How many sessions of this database wait for a lock now: for tests that hold a lock on a
 * connection of their own and go on once a request waits for it (never a sleep). `kind`:
 * `'advisory'` counts only waits for advisory locks (the fences that order writes and
 * revocations), `'row'` only waits for rows (`FOR UPDATE`, another transaction's write).
 * Read outside the transaction that holds the lock: inside it, pg_stat_activity stays as first
 * read.
 */
export async function lockWaiters(db: Queryable, kind: 'any' | 'advisory' | 'row' = 'any'): Promise<number> {
  const events = { any: null, advisory: ['advisory'], row: ['transactionid', 'tuple'] }[kind];
  const { rows } = await db.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'
        AND ($1::text[] IS NULL OR wait_event = ANY($1::text[]))`,
    [events],
  );
  return rows[0]?.waiting ?? 0;
}

/**
 * Runs `revoke` (a removal, a revocation, a deletion of an account) while a transaction of the
 * test's own holds `lock` shared, as a write in another service holds it from the question
 * whether its sender may still write until its commit (`writeRightLock` of @tolk/contracts).
 * Fails if `revoke` answers before that transaction ends; once it waits for the lock, the
 * transaction commits, and `revoke`'s answer is returned.
 */
export async function revokeWhileWriteCommits<T>(db: Db, lock: string, revoke: () => Promise<T>): Promise<T> {
  let revoking: Promise<T> | undefined;
  await db.transaction(async (tx) => {
    await holdAdvisoryLocks(tx, [lock], 'shared');
    let answered = false;
    const started = revoke();
    revoking = started;
    started.then(
      () => (answered = true),
      () => (answered = true),
    );
    await expect
      .poll(
        async () => (answered ? 'answered while the write held its lock' : await lockWaiters(db, 'advisory')),
        {
          ...settled,
          message: 'the revocation waits for the write',
        },
      )
      .toBe(1);
  });
  return revoking!;
}

/**
 * Sends `request` while a transaction of the test's own holds the rows `lock` (a `FOR UPDATE`
 * query with `params`) locks, as another upload holding them would: once `waiting` sessions wait
 * for rows (1 by default), `meanwhile` runs, then the transaction ends. Resolves with what
 * `request` resolved with.
 */
export async function whileRowsLocked<T>(
  db: Db,
  lock: { sql: string; params: unknown[] },
  request: () => Promise<T>,
  options: { waiting?: number; meanwhile?: () => Promise<unknown> } = {},
): Promise<T> {
  let sent: Promise<T> | undefined;
  await db.transaction(async (tx) => {
    await tx.query(lock.sql, lock.params);
    sent = request();
    await expect
      .poll(() => lockWaiters(db, 'row'), { ...settled, message: 'the request waits for the rows' })
      .toBe(options.waiting ?? 1);
    await options.meanwhile?.();
  });
  return sent!;
}
