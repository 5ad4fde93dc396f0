import { eventEnvelopeSchema, type EventEnvelope } from '@tolk/contracts';
import { assertSchemaName, type Db, type Queryable } from '@tolk/db';
import { currentRequestId, runWithRequestId, type Logger } from '@tolk/logger';
import type { Bus } from './bus.js';
import { noteRelayed, watchOutboxBacklog } from './metrics.js';

/** The NOTIFY channel that wakes the relay of one schema's outbox. */
export function outboxChannel(schema: string): string {
  return `tolk_outbox_${assertSchemaName(schema)}`;
}

/**
 * Writes an event to the outbox inside the caller's transaction: it exists, and is relayed,
 * exactly when the state change commits. The NOTIFY is delivered at commit and wakes the relay.
 */
export async function enqueueEvent(tx: Queryable, schema: string, envelope: EventEnvelope): Promise<void> {
  const event = eventEnvelopeSchema.parse(envelope);
  await tx.query(
    `INSERT INTO ${assertSchemaName(schema)}.outbox (id, type, payload, request_id) VALUES ($1, $2, $3, $4)`,
    [event.id, event.type, JSON.stringify(event), currentRequestId() ?? null],
  );
  await tx.query('SELECT pg_notify($1, $2)', [outboxChannel(schema), '']);
}

export type OutboxRelayOptions = {
  db: Db;
  bus: Bus;
  logger: Logger;
  /** Safety net for a missed NOTIFY; the relay normally wakes within milliseconds of a commit. */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Published rows older than this are deleted now and then. Default one day. */
  retainPublishedMs?: number;
  /**
   * The only relay of this outbox, in a process whose consumers share its database connection
   * (the embedded mode): rows are read, published and then marked without a transaction held
   * across the publish, since the in-process bus runs the consumers — and their transactions —
   * inside it. A crash in between sends them again (at-least-once), as in the default mode.
   */
  singleRelay?: boolean;
};

export type OutboxRelay = {
  /** Stops listening and polling; waits for a batch in progress. */
  stop(): Promise<void>;
  /** Relays what is pending now; resolves when done (or when the broker refused, logged). */
  flush(): Promise<void>;
  /** Age of the oldest unpublished event, 0 when none: the number to alert on. */
  oldestPendingAgeMs(): Promise<number>;
  /** Deletes published rows older than the given age; returns how many. */
  deletePublishedOlderThan(ageMs: number): Promise<number>;
};

type OutboxRow = { seq: number; id: string; payload: unknown; request_id: string | null };

const CLEANUP_INTERVAL_MS = 10 * 60_000;

/**
 * Relays a service's outbox to the bus. Rows are claimed with FOR UPDATE SKIP LOCKED and marked
 * published in the same transaction as their confirmed publish, so several instances share the
 * work without sending a row twice; a crash between publish and commit sends it again
 * (at-least-once), which idempotent consumers absorb. While the broker is away rows stay
 * pending and go out after it returns.
 */
export async function startOutboxRelay(options: OutboxRelayOptions): Promise<OutboxRelay> {
  const { db, bus, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const batchSize = options.batchSize ?? 100;
  const retainPublishedMs = options.retainPublishedMs ?? 24 * 60 * 60_000;
  const outbox = `${assertSchemaName(db.schema)}.outbox`;
  const retryDelayMs = Math.min(pollIntervalMs, 1000);

  let stopped = false;
  let requested: { done: Promise<void>; resolve: () => void } | undefined;
  let running: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;

  async function publishRow(row: OutboxRow): Promise<void> {
    const parsed = eventEnvelopeSchema.safeParse(row.payload);
    if (!parsed.success) {
      // Cannot happen through enqueueEvent; a hand-written row must not stall the outbox.
      logger.error({ eventId: row.id, err: parsed.error }, 'invalid outbox row skipped');
      return;
    }
    const publish = () => bus.publish(parsed.data);
    await (row.request_id ? runWithRequestId(row.request_id, publish) : publish());
  }

  /** Relays one batch; returns how many rows it claimed. */
  function relayBatch(): Promise<number> {
    if (options.singleRelay) return relayBatchAlone();
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<OutboxRow>(
        `SELECT seq, id, payload, request_id FROM ${outbox}
          WHERE published_at IS NULL
          ORDER BY seq
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      if (rows.length === 0) return 0;
      // Published in order on one channel; confirms are awaited together.
      await Promise.all(rows.map(publishRow));
      await markPublished(tx, rows);
      return rows.length;
    });
  }

  async function relayBatchAlone(): Promise<number> {
    const { rows } = await db.query<OutboxRow>(
      `SELECT seq, id, payload, request_id FROM ${outbox} WHERE published_at IS NULL ORDER BY seq LIMIT $1`,
      [batchSize],
    );
    if (rows.length === 0) return 0;
    for (const row of rows) await publishRow(row);
    await markPublished(db, rows);
    return rows.length;
  }

  /** Marks rows published and reports each one's lag, from its transaction on (database clock). */
  async function markPublished(client: Queryable, rows: OutboxRow[]): Promise<void> {
    const published = await client.query<{ lag_seconds: number }>(
      `UPDATE ${outbox} SET published_at = now() WHERE seq = ANY($1::bigint[])
        RETURNING extract(epoch FROM clock_timestamp() - created_at)::float8 AS lag_seconds`,
      [rows.map((row) => row.seq)],
    );
    noteRelayed(db.schema, published);
  }

  /** The backlog for /metrics, on scrape: how many rows wait and how long the oldest has. */
  async function measureBacklog() {
    const { rows } = await db.query<{ pending: number; oldest_age_seconds: number }>(
      `SELECT count(*)::int AS pending,
              coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_age_seconds
         FROM ${outbox}
        WHERE published_at IS NULL`,
    );
    const row = rows[0];
    return {
      schema: db.schema,
      pending: Number(row?.pending ?? 0),
      oldestAgeSeconds: Math.max(0, Number(row?.oldest_age_seconds ?? 0)),
    };
  }

  async function drain(): Promise<void> {
    if (!bus.isConnected()) {
      scheduleRetry();
      return;
    }
    try {
      let claimed = batchSize;
      while (!stopped && claimed === batchSize) claimed = await relayBatch();
    } catch (err) {
      // Rolled back: the rows stay pending and are tried again shortly.
      logger.warn({ err }, 'outbox relay failed; retrying');
      scheduleRetry();
    }
  }

  function scheduleRetry(): void {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void wake();
    }, retryDelayMs);
    retryTimer.unref();
  }

  /**
   * Asks for a pass over the outbox; resolves when a pass that started after the call is done.
   * Calls during a pass share the one pass after it, so a burst of NOTIFYs costs two passes.
   */
  function wake(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (!requested) {
      let resolve: () => void = () => undefined;
      const done = new Promise<void>((r) => (resolve = r));
      requested = { done, resolve };
    }
    const { done } = requested;
    running ??= runPasses().finally(() => (running = undefined));
    return done;
  }

  async function runPasses(): Promise<void> {
    while (requested) {
      const pass = requested;
      requested = undefined;
      if (!stopped) await drain();
      pass.resolve();
    }
  }

  async function deletePublishedOlderThan(ageMs: number): Promise<number> {
    const { rowCount } = await db.query(
      `DELETE FROM ${outbox}
        WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [ageMs],
    );
    return rowCount;
  }

  const unlisten = await db.listen(outboxChannel(db.schema), () => void wake());
  const poll = setInterval(() => void wake(), pollIntervalMs);
  poll.unref();
  const cleanup = setInterval(() => {
    deletePublishedOlderThan(retainPublishedMs).catch((err: unknown) =>
      logger.warn({ err }, 'outbox cleanup failed'),
    );
  }, CLEANUP_INTERVAL_MS);
  cleanup.unref();
  const stopReportingBacklog = watchOutboxBacklog(measureBacklog);
  void wake();

  return {
    async stop() {
      stopped = true;
      stopReportingBacklog();
      clearInterval(poll);
      clearInterval(cleanup);
      clearTimeout(retryTimer);
      await unlisten();
      await running;
    },
    flush: wake,
    async oldestPendingAgeMs() {
      const { rows } = await db.query<{ age_ms: number }>(
        `SELECT (extract(epoch FROM now() - created_at) * 1000)::bigint AS age_ms FROM ${outbox}
          WHERE published_at IS NULL
          ORDER BY seq
          LIMIT 1`,
      );
      return Math.max(0, rows[0]?.age_ms ?? 0);
    },
    deletePublishedOlderThan,
  };
}
