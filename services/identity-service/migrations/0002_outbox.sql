-- identity-service: the outbox of its events (UserDeleted, when an account is deleted) and the
-- processed-event record (OUTBOX_MIGRATION_SQL of @tolk/bus).
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

CREATE TABLE IF NOT EXISTS processed_events (
  consumer text NOT NULL,
  event_id text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
