-- What an upload teaches the translation memory (DESIGN §13), committed with the upload and learned
-- right after it: an import's 30 locales of 50,000 translations each spent most of their time
-- indexing the memory while the project's uploads waited. A row is learned (and deleted) when the
-- project's uploads are done, and before any lookup of its locale. `entries`: gzip of a JSON array
-- of {"s": source text, "t": translation, "k": key}; `learned_at` the upload's time, which orders
-- two uploads' translations of one text.
CREATE TABLE IF NOT EXISTS memory_pending (
  id          bigserial PRIMARY KEY,
  project_id  text NOT NULL,
  locale      text NOT NULL,
  learned_at  timestamptz NOT NULL,
  entries     bytea NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_pending_locale_idx ON memory_pending (project_id, locale, id);
-- Compressed already.
ALTER TABLE memory_pending ALTER COLUMN entries SET STORAGE EXTERNAL;
