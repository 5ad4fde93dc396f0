/**
 * The tables the bus keeps in the schema of each service that publishes or consumes events. The
 * service frame applies them at every migration run, before the service's own migrations, so a
 * service declares what it does (`outbox`, `consumes`) and never copies this SQL. Every statement
 * is idempotent: on a database where a service's early migrations created these tables (before
 * they were rewritten without them: their former checksums are in the service's landed.json),
 * nothing changes.
 */

/**
 * Events written in the same transaction as the state change; the relay sends them in `seq`
 * order and marks them published.
 */
export const OUTBOX_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS outbox (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  type text NOT NULL,
  payload jsonb NOT NULL,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
CREATE INDEX IF NOT EXISTS outbox_unpublished_idx ON outbox (seq) WHERE published_at IS NULL;
`;

/** What each consumer has already applied (handleOnce). */
export const PROCESSED_EVENTS_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS processed_events (
  consumer text NOT NULL,
  event_id text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
`;

/**
 * The bus's tables for a service that publishes (`outbox`) and/or consumes (`consumes`) events,
 * unqualified: run with the service's schema as search_path. Empty when it does neither.
 */
export function busTablesSql(uses: { outbox: boolean; consumes: boolean }): string {
  return (uses.outbox ? OUTBOX_TABLE_SQL : '') + (uses.consumes ? PROCESSED_EVENTS_TABLE_SQL : '');
}
