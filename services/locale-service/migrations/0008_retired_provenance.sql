-- Who wrote a retired translation (DESIGN §13): a restored key gets its translation back with it.
-- NULL for translations retired before this column, or whose writer was not known.
ALTER TABLE retired_translations ADD COLUMN IF NOT EXISTS provenance jsonb;
