import pg from 'pg';
import type { Logger } from '@tolk/logger';
import { assertSchemaName, type Db, type Queryable, type QueryResult } from './db.js';

// Timestamps travel as epoch milliseconds; `bigint` counts fit in a JS number here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

function wrap(client: pg.Pool | pg.PoolClient | pg.Client): Queryable {
  return {
    async query<R extends object>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
      const result = await client.query<R>(text, params as unknown[]);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
  };
}

/** A pg pool bound to one schema through `search_path`. */
export function createPgDb(options: {
  url: string;
  schema: string;
  max?: number;
  logger?: Logger;
  applicationName?: string;
}): Db {
  const schema = assertSchemaName(options.schema);
  const connection = {
    connectionString: options.url,
    options: `-c search_path=${schema}`,
    application_name: options.applicationName ?? schema,
  };
  const pool = new pg.Pool({ ...connection, max: options.max ?? 10, idleTimeoutMillis: 30_000 });
  pool.on('error', (err) => options.logger?.warn({ err }, 'idle database connection failed'));
  const listeners = new Set<pg.Client>();

  return {
    schema,
    ...wrap(pool),
    async transaction(fn, options = {}) {
      const client = await pool.connect();
      // The pool listens for errors only on idle clients: a connection lost while this one is
      // checked out (Postgres restarting between two statements) would otherwise be emitted
      // with no listener and end the process. The next statement fails with it instead, and the
      // broken client is discarded rather than returned to the pool.
      let lost: Error | undefined;
      const onError = (err: Error) => {
        lost = err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const tx = wrap(client);
        const result = await fn(tx);
        await options.beforeCommit?.(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        if (!lost) await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.removeListener('error', onError);
        client.release(lost);
      }
    },
    async listen(channel, onNotify) {
      let stopped = false;
      let client: pg.Client | undefined;
      const connect = async (): Promise<void> => {
        const next = new pg.Client(connection);
        next.on('notification', (message) => {
          if (message.channel === channel) onNotify(message.payload ?? '');
        });
        next.on('error', (err) => {
          options.logger?.warn({ err, channel }, 'listen connection lost; reconnecting');
          listeners.delete(next);
          next.end().catch(() => undefined);
          if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1000).unref();
        });
        await next.connect();
        await next.query(`LISTEN "${channel.replace(/"/g, '')}"`);
        listeners.add(next);
        client = next;
        // A reconnect may have missed notifications: tell the subscriber to look again.
        onNotify('');
      };
      await connect();
      return async () => {
        stopped = true;
        if (client) {
          listeners.delete(client);
          await client.end().catch(() => undefined);
        }
      };
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      listeners.clear();
      await pool.end();
    },
  };
}
