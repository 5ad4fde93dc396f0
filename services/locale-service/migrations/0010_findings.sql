-- The findings of a locale's stored translations (DESIGN §15): a person's translation is stored
-- whatever it says, with what is wrong in it. `findings` holds them as judged when the upload was
-- stored, against the source version it was made from (gzip JSON of keys and, per key, its list
-- of kind, severity and message; NULL: none); the counts are of the locale's keys in the source
-- version of `counts_version` only: a key with an error, and a key with warnings but no error.
ALTER TABLE locales ADD COLUMN IF NOT EXISTS findings bytea;
ALTER TABLE locales ADD COLUMN IF NOT EXISTS error_count integer NOT NULL DEFAULT 0;
ALTER TABLE locales ADD COLUMN IF NOT EXISTS warning_count integer NOT NULL DEFAULT 0;
