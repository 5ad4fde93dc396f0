-- Who wrote each translation of a locale (DESIGN §13): `ai` (with the model), `human` or
-- `memory`, and when. Kept beside `content` and written in the same statement, as one gzip JSON
-- document per locale (domain/provenance.ts), never one row per key. NULL: nothing uploaded
-- since provenance was kept; such keys have none.
ALTER TABLE locales ADD COLUMN IF NOT EXISTS provenance bytea;
