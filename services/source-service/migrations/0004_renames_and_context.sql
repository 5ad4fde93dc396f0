-- Renames, restores and context as content (DESIGN §13).

-- The project setting: whether a changed context annotation gives its key a new revision.
ALTER TABLE projects ADD COLUMN IF NOT EXISTS outdate_on_context_change boolean NOT NULL DEFAULT true;

-- Each version's renames ([{from, to}]) and restores ([{key, version}]), in the order of the new
-- keys; null when there are none. The counts let the history show how many without reading them.
ALTER TABLE versions ADD COLUMN IF NOT EXISTS renamed_count integer NOT NULL DEFAULT 0;
ALTER TABLE versions ADD COLUMN IF NOT EXISTS restored_count integer NOT NULL DEFAULT 0;
ALTER TABLE versions ADD COLUMN IF NOT EXISTS renames jsonb;
ALTER TABLE versions ADD COLUMN IF NOT EXISTS restores jsonb;

-- The last deletion of every key a project ever deleted: what it was (hashes of its value and of
-- its context annotation, '' for none) and its revision then. A key added again with the same
-- value and context gets that revision back (a restore). One row per key: bounded by the keys a
-- project ever had, as a version is.
CREATE TABLE IF NOT EXISTS deleted_keys (
  project_id   text NOT NULL,
  key          text NOT NULL,
  value_hash   text NOT NULL,
  context_hash text NOT NULL,
  revision     integer NOT NULL CHECK (revision >= 1),
  deleted_in   integer NOT NULL CHECK (deleted_in >= 1),
  PRIMARY KEY (project_id, key)
);
