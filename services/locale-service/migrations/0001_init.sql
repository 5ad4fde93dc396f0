-- locale-service: target locales of every project, their translations and status, what it needs
-- to know of projects and of their sources, the translation baseline.
-- Runs inside the `locales` schema.

-- Projects as project-service describes them (ProjectCreated/Updated, or asked of it).
CREATE TABLE IF NOT EXISTS projects (
  project_id         text PRIMARY KEY,
  source_locale      text NOT NULL,
  -- project-service's updatedAt of what we know: an older ProjectUpdated never overwrites it.
  project_updated_at timestamptz NOT NULL
);

-- Projects deleted (ProjectDeleted): only the id, so that a late lookup or event cannot bring
-- one back.
CREATE TABLE IF NOT EXISTS deleted_projects (
  project_id text PRIMARY KEY,
  deleted_at timestamptz NOT NULL
);

-- The latest source version known of each project (SourceChanged, or asked of source-service
-- on first sight) and its number of keys. The version only ever grows: a duplicate or late
-- SourceChanged changes nothing.
CREATE TABLE IF NOT EXISTS source_heads (
  project_id text PRIMARY KEY,
  version    integer NOT NULL CHECK (version >= 0),
  key_count  integer NOT NULL CHECK (key_count >= 0)
);

-- One row per project with target locales, or that had some: the translation baseline last
-- announced (TranslationBaselineChanged) and the sequence of the announcements. Every change to
-- a project's locales locks this row first, so baselines are computed one at a time.
CREATE TABLE IF NOT EXISTS baselines (
  project_id       text PRIMARY KEY,
  baseline_version integer NOT NULL DEFAULT 0 CHECK (baseline_version >= 0),
  sequence         bigint NOT NULL DEFAULT 0
);

-- Target locales. `content` is the last translation upload, whole (gzip JSON of keys and values,
-- never one row per key), made from source version `translated_from` (0: nothing uploaded).
-- The counts and `synced_version` were computed against source version `counts_version`; when
-- the source head is newer they are recomputed before they are shown.
CREATE TABLE IF NOT EXISTS locales (
  project_id       text NOT NULL,
  locale           text NOT NULL,
  content          bytea,
  translated_from  integer NOT NULL DEFAULT 0 CHECK (translated_from >= 0),
  translated_at    timestamptz,
  counts_version   integer NOT NULL DEFAULT 0,
  key_count        integer NOT NULL DEFAULT 0,
  translated_count integer NOT NULL DEFAULT 0,
  missing_count    integer NOT NULL DEFAULT 0,
  outdated_count   integer NOT NULL DEFAULT 0,
  synced_version   integer NOT NULL DEFAULT 0 CHECK (synced_version >= 0),
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (project_id, locale)
);

-- The bus's tables (outbox, processed_events) were first created here; they are the bus's now
-- and the service frame creates them before every run (tables.ts of @tolk/bus).
-- supersedes sha256:e64c545f42bfb91ad3a3d462c2895faf91b0594e65b060904065c5d72eda723b
