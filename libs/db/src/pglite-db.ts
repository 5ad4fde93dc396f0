import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir } from 'node:fs/promises';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { assertSchemaName, type Db, type Queryable, type QueryResult } from './db.js';

/**
 * Embedded Postgres (DESIGN §8): PGlite — real Postgres compiled to WebAssembly — in this
 * process, persisted in a directory, one database holding every service's schema as the server
 * does. PGlite is a single connection, so:
 * - one query or transaction runs at a time (a queue); each service's `Db` sets `search_path` to
 *   its schema when the connection last served another;
 * - a query made through `db` from inside a transaction of the same async flow joins that
 *   transaction (on the server it would take another pooled connection; here waiting for the
 *   connection would never end);
 * - a transaction's `beforeCommit` runs before it begins: it asks other services, whose queries
 *   would wait for this connection, and while the transaction runs no other can commit anyway.
 */
export async function openEmbeddedPostgres(options: { dataDir?: string } = {}) {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const pg = await PGlite.create({
    dataDir: options.dataDir,
    // Shipped with PGlite as with Postgres; locale-service's translation memory uses it.
    extensions: { pg_trgm },
    parsers: {
      // As the pg driver is configured (pg-db.ts): counts as numbers, bytea as Buffer.
      [types.INT8]: (value: string) => Number(value),
      [types.BYTEA]: (value: string) => Buffer.from(value.slice(2), 'hex'),
    },
    serializers: {
      // PGlite's own maps every byte through a JavaScript string: a compressed 10 MiB source
      // (a few megabytes) held the event loop for hundreds of milliseconds; Buffer's hex is native.
      [types.BYTEA]: (value: Uint8Array) =>
        `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`,
    },
  });
  let queue: Promise<unknown> = Promise.resolve();
  let currentSchema = '';
  const transactionOf = new AsyncLocalStorage<Queryable>();

  /** Runs `work` when the connection is free, with `search_path` at `schema`. */
  function exclusive<T>(schema: string, work: () => Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      if (currentSchema !== schema) {
        await pg.exec(`SET search_path TO ${schema}`);
        currentSchema = schema;
      }
      return work();
    });
    queue = run.catch(() => undefined);
    return run;
  }

  async function raw<R>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    if (params && params.length > 0) {
      const result = await pg.query<R>(text, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    // Without parameters a text may hold several statements (migrations): the last one answers.
    const results = await pg.exec(text);
    const last = results[results.length - 1];
    return { rows: (last?.rows ?? []) as R[], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
  }

  const direct: Queryable = { query: (text, params) => raw(text, params) };

  return {
    /** A `Db` bound to one service's schema. */
    forSchema(name: string): Db {
      const schema = assertSchemaName(name);
      return {
        schema,
        query(text, params) {
          const joined = transactionOf.getStore();
          if (joined) return joined.query(text, params);
          return exclusive(schema, () => raw(text, params));
        },
        async transaction(fn, options = {}) {
          await options.beforeCommit?.(undefined);
          const joined = transactionOf.getStore();
          if (joined) return fn(joined);
          return exclusive(schema, async () => {
            await pg.exec('BEGIN');
            try {
              const result = await transactionOf.run(direct, () => fn(direct));
              await pg.exec('COMMIT');
              return result;
            } catch (err) {
              await pg.exec('ROLLBACK').catch(() => undefined);
              throw err;
            }
          });
        },
        async listen(channel, onNotify) {
          const unlisten = await pg.listen(channel, (payload) => onNotify(payload));
          onNotify('');
          return unlisten;
        },
        async ping() {
          await this.query('SELECT 1');
        },
        // The shared instance is closed by its owner.
        async close() {},
      };
    },
    async close(): Promise<void> {
      await queue;
      await pg.close();
    },
  };
}

export type EmbeddedPostgres = Awaited<ReturnType<typeof openEmbeddedPostgres>>;
