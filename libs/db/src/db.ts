/**
 * The small database interface every service codes against. The Postgres pool implements it
 * today; an embedded implementation can sit behind the same interface.
 */
import { hash } from 'node:crypto';

export type QueryResult<R> = { rows: R[]; rowCount: number };

export interface Queryable {
  query<R extends object = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<QueryResult<R>>;
}

export type TransactionOptions = {
  /**
   * What must still hold when the transaction commits and is asked of other services (a writer's
   * right to write). On a server it runs in the transaction after `fn`, last before COMMIT, given
   * the transaction, so that the locks it takes there are held until the commit. Embedded (one
   * connection), where the services it asks could not answer while the transaction holds that
   * connection, it runs before the transaction begins, given nothing. Throwing stores nothing.
   */
  beforeCommit?: (tx: Queryable | undefined) => Promise<void>;
};

export interface Db extends Queryable {
  /** The one schema this service owns; every unqualified name resolves inside it. */
  readonly schema: string;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
  return schema;
}

/**
 * Takes the advisory locks named `names` for the rest of the transaction `tx`: `shared` ones
 * together, an `exclusive` one waits for them all and they for it. They order transactions of
 * different services (whose rows they never share) on one database: see the fences of
 * @tolk/contracts' `writeRightLock`. Named by text, hashed here to Postgres' 64-bit lock keys (a
 * name may hold what a text parameter may not, a NUL of an id from a path); two names with one
 * hash only wait for each other needlessly.
 */
export async function holdAdvisoryLocks(
  tx: Queryable,
  names: readonly string[],
  mode: 'shared' | 'exclusive',
): Promise<void> {
  if (names.length === 0) return;
  const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  const keys = [...new Set(names.map((name) => hash('sha256', name, 'buffer').readBigInt64BE(0)))];
  // Sorted: two transactions taking the same names take them in the same order.
  keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  await tx.query(`SELECT ${lock}(key) FROM unnest($1::int8[]) WITH ORDINALITY AS k(key, i) ORDER BY i`, [
    keys.map(String),
  ]);
}
