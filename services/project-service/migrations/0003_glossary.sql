-- The project's glossary (DESIGN §13): terms with a rendering per target locale, or kept as is.
-- A term is one entry whatever its case: term_key is the term NFC-normalised and lower-cased by
-- the service (glossaryTermKey in @tolk/contracts), so the rule does not hang on the database's
-- collation. Entries go with their project.
CREATE TABLE IF NOT EXISTS glossary_entries (
  entry_id       text PRIMARY KEY,
  project_id     text NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  term           text NOT NULL CHECK (char_length(term) BETWEEN 1 AND 200),
  term_key       text NOT NULL,
  case_sensitive boolean NOT NULL DEFAULT false,
  keep_as_is     boolean NOT NULL DEFAULT false,
  note           text CHECK (char_length(note) <= 1000),
  -- Canonical target locale code → rendering; empty when keep_as_is.
  translations   jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  CONSTRAINT glossary_entries_term_unique UNIQUE (project_id, term_key)
);
