-- byok-service: what deleting an account (UserDeleted) needs. Its keys are deleted; the user id
-- stays here so that no key is stored for it afterwards (an access token still in flight).
CREATE TABLE IF NOT EXISTS deleted_users (
  user_id    text PRIMARY KEY,
  deleted_at timestamptz NOT NULL
);

-- The processed-event record of its consumer (OUTBOX_MIGRATION_SQL of @tolk/bus; this service
-- publishes nothing, so it has no outbox).
CREATE TABLE IF NOT EXISTS processed_events (
  consumer text NOT NULL,
  event_id text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
