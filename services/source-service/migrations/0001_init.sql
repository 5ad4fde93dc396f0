-- source-service: source versions of every project, the local copy of what it needs to know of
-- projects, the translation baseline. Runs inside the `source` schema.

-- One row per project known here (from ProjectCreated/Updated, or asked of project-service). The
-- row is also the head of the project's sources: every upload locks it (FOR UPDATE), so versions
-- are assigned one at a time per project, gapless.
CREATE TABLE IF NOT EXISTS projects (
  project_id         text PRIMARY KEY,
  source_locale      text NOT NULL,
  -- project-service's updatedAt of what we know: an older ProjectUpdated never overwrites it.
  project_updated_at timestamptz NOT NULL,
  -- 0 before the first upload.
  current_version    integer NOT NULL DEFAULT 0 CHECK (current_version >= 0),
  -- When the current version was created; null before the first upload.
  source_updated_at  timestamptz
);

-- Projects deleted (ProjectDeleted): only the id, so that a late lookup or event cannot bring
-- one back.
CREATE TABLE IF NOT EXISTS deleted_projects (
  project_id text PRIMARY KEY,
  deleted_at timestamptz NOT NULL
);

-- One row per version, with the counts of its diff against the previous version. The keys of
-- the diff are not stored: any diff is computed from two contents.
CREATE TABLE IF NOT EXISTS versions (
  project_id     text NOT NULL,
  version        integer NOT NULL CHECK (version >= 1),
  key_count      integer NOT NULL,
  added_count    integer NOT NULL,
  modified_count integer NOT NULL,
  deleted_count  integer NOT NULL,
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (project_id, version)
);

-- The whole parsed source of a version (keys, values, layout, annotations, metadata) as
-- gzip-compressed JSON: one row per version, never one per key.
CREATE TABLE IF NOT EXISTS version_contents (
  project_id text NOT NULL,
  version    integer NOT NULL,
  content    bytea NOT NULL,
  PRIMARY KEY (project_id, version)
);

-- The translation baseline announced by locale-service (TranslationBaselineChanged): the
-- version every target locale has caught up with. The highest `sequence` wins.
CREATE TABLE IF NOT EXISTS baselines (
  project_id       text PRIMARY KEY,
  baseline_version integer NOT NULL CHECK (baseline_version >= 0),
  sequence         bigint NOT NULL
);

-- The bus's tables (outbox, processed_events) were first created here; they are the bus's now
-- and the service frame creates them before every run (tables.ts of @tolk/bus).
-- supersedes sha256:9af1132f6cf52b3c88592d004610d2c4498714f79001cacd1d304c1596410830
