-- Translation memory (DESIGN §13): every translation stored, by the source text it translates, per
-- project and target locale. Filled from translation uploads; asked before the model is.
-- pg_trgm (Postgres contrib; PGlite ships it too) finds near matches. One extension per database,
-- in `public`, created once however many services' schemas migrate at the same time.
SELECT pg_advisory_xact_lock(hashtext('tolk.extension.pg_trgm'));
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- `source_hash` is the SHA-256 of `source_text`: the exact lookup's index stays small however long
-- the texts. One translation per text: the latest stored. `key` is the key it was stored for.
CREATE TABLE IF NOT EXISTS memory (
  project_id  text NOT NULL,
  locale      text NOT NULL,
  source_hash bytea NOT NULL,
  source_text text NOT NULL,
  translation text NOT NULL,
  key         text NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (project_id, locale, source_hash)
);
CREATE INDEX IF NOT EXISTS memory_source_text_trgm_idx ON memory USING gin (source_text public.gin_trgm_ops);
