-- project-service: projects, their members and the CLI settings.
-- Runs inside the `projects` schema (search_path is set by the migrator).

CREATE TABLE IF NOT EXISTS projects (
  project_id    text PRIMARY KEY,
  name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  -- Canonical form only: language lower-case, region upper-case (pt-BR).
  source_locale text NOT NULL CHECK (source_locale ~ '^[a-z]{2,3}(-[A-Z]{2,3})?$'),
  -- The CLI's configuration (settings); null = not set, the CLI decides. The provider is checked
  -- by the service against the shared list, not here, so that adding one needs no migration.
  provider      text,
  model         text CHECK (char_length(model) <= 200),
  instructions  text CHECK (char_length(instructions) <= 10000),
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS project_members (
  project_id text NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  -- identity-service's user id; that service owns the user (and the email).
  user_id    text NOT NULL,
  role       text NOT NULL CHECK (role IN ('owner', 'member')),
  added_at   timestamptz NOT NULL,
  PRIMARY KEY (project_id, user_id)
);
-- A user's projects.
CREATE INDEX IF NOT EXISTS project_members_user_idx ON project_members (user_id);

-- The bus's tables (outbox, processed_events) were first created here; they are the bus's now
-- and the service frame creates them before every run (tables.ts of @tolk/bus).
-- supersedes sha256:d7101350a9bbb390ffcaca280d9e63c654696552991a5b45f707256ff1110713
