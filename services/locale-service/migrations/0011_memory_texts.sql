-- The memory's source texts, once per project (DESIGN §13): a text is the same in every target
-- locale, so it is held and indexed for near matches once, not once per locale. Importing an app
-- of 50,000 texts into 30 locales indexed 1.5 million texts in the trigram index, most of each
-- upload's time; now 50,000, and a locale's upload adds rows of its translations only.
-- A text no locale's translation refers to any more (its locale removed) is never found: lookups
-- join a locale's translations.
CREATE TABLE IF NOT EXISTS memory_texts (
  project_id  text NOT NULL,
  source_hash bytea NOT NULL,
  source_text text NOT NULL,
  PRIMARY KEY (project_id, source_hash)
);
CREATE INDEX IF NOT EXISTS memory_texts_nearest_idx
  ON memory_texts USING gist (source_text public.gist_trgm_ops (siglen = 256));

INSERT INTO memory_texts (project_id, source_hash, source_text)
  SELECT DISTINCT ON (project_id, source_hash) project_id, source_hash, source_text FROM memory
  ON CONFLICT DO NOTHING;
DROP INDEX IF EXISTS memory_source_text_nearest_idx;
ALTER TABLE memory DROP COLUMN IF EXISTS source_text;
