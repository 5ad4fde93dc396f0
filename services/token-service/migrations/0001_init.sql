-- token-service: project API tokens (DESIGN §2, §7), what it needs to know of projects.
-- Runs inside the `tokens` schema.

-- Projects as project-service describes them (ProjectCreated/Updated, or asked of it): only
-- that they exist. Creating a token locks the project's row, so ProjectDeleted waits for a
-- creation in progress and then revokes that token too.
CREATE TABLE IF NOT EXISTS projects (
  project_id         text PRIMARY KEY,
  -- project-service's updatedAt of what we know: an older ProjectUpdated never overwrites it.
  project_updated_at timestamptz NOT NULL
);

-- Projects deleted (ProjectDeleted): only the id, so that a late lookup or event cannot bring
-- one back.
CREATE TABLE IF NOT EXISTS deleted_projects (
  project_id text PRIMARY KEY,
  deleted_at timestamptz NOT NULL
);

-- One row per token. The token itself is never stored: only the SHA-256 of the whole value
-- (hex), which the gateway looks up, and its first 10 characters for the list view. A revoked
-- token keeps its row (who revoked it and when) but is never listed nor introspected; the rows
-- of a deleted project go with it.
CREATE TABLE IF NOT EXISTS api_tokens (
  token_id     text PRIMARY KEY,
  project_id   text NOT NULL,
  token_hash   text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  token_prefix text NOT NULL CHECK (char_length(token_prefix) = 10),
  label        text NOT NULL,
  permissions  text NOT NULL CHECK (permissions IN ('read', 'read_write')),
  created_by   text NOT NULL,
  created_at   timestamptz NOT NULL,
  -- Kept from the gateway's usage reports, written at most about once a minute per token.
  last_used_at timestamptz,
  revoked_at   timestamptz,
  revoked_by   text
);
-- A project's tokens newest first (the list view), and all of them (ProjectDeleted).
CREATE INDEX IF NOT EXISTS api_tokens_project_idx ON api_tokens (project_id, created_at DESC, token_id DESC);

-- The bus's tables (outbox, processed_events) were first created here; they are the bus's now
-- and the service frame creates them before every run (tables.ts of @tolk/bus).
-- supersedes sha256:a02686fc0ce95979275e1786427289cd05cf3a13968e44a73cbebf2473f2be09
