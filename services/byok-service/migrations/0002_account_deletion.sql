-- byok-service: what deleting an account (UserDeleted) needs. Its keys are deleted; the user id
-- stays here so that no key is stored for it afterwards (an access token still in flight).
CREATE TABLE IF NOT EXISTS deleted_users (
  user_id    text PRIMARY KEY,
  deleted_at timestamptz NOT NULL
);

-- The processed-event record of its consumer was first created here; it is the bus's now and
-- the service frame creates it before every run (tables.ts of @tolk/bus).
-- supersedes sha256:c9d733e20e7fc6d3c60fb001e85cacaef15c8f8cd412e7b737c0fb01d98f6d46
