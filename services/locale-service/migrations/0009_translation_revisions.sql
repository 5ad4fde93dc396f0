-- The revision of a locale's translations: the entity tag of its download and what an upload's
-- If-Match is compared with. It changes whenever what a download returns of the stored
-- translations changes: an upload, a carry-over of renames and restores into them, a change of the
-- project's plural-key setting or key rules. Revisions come from a counter per project kept on the
-- project's baseline row (locked by every change to its locales): a locale removed and added
-- again never has a revision it had before, so an old entity tag never matches a new locale.
ALTER TABLE baselines ADD COLUMN IF NOT EXISTS last_revision bigint NOT NULL DEFAULT 0;
ALTER TABLE locales ADD COLUMN IF NOT EXISTS revision bigint NOT NULL DEFAULT 0;
