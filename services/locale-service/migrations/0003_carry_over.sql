-- Renames and restores carried over (DESIGN §13).

-- The source version up to which the renames and restores of the source have been applied to a
-- locale's stored translations: a SourceChanged applies its own when the locale is at the version
-- before it, a refresh applies every version it missed (asked of source-service). Translations
-- stored before this existed were made before any rename was recorded: they start at the head.
ALTER TABLE locales ADD COLUMN IF NOT EXISTS carried_version integer NOT NULL DEFAULT 0;
UPDATE locales l SET carried_version = h.version
  FROM source_heads h
 WHERE h.project_id = l.project_id AND l.carried_version < h.version;

-- Translations of keys the source deleted, kept for when a key is added again with the value it
-- had (a restore): the translation, and the revision of the source key it was made for (the
-- version in which the key got that value: it names the value, as a hash of it would). One row
-- per key, its latest retirement; at most RETIRED_PER_LOCALE per locale, the oldest go first.
CREATE TABLE IF NOT EXISTS retired_translations (
  project_id      text NOT NULL,
  locale          text NOT NULL,
  key             text NOT NULL,
  source_revision integer NOT NULL CHECK (source_revision >= 1),
  translation     text NOT NULL,
  retired_at      timestamptz NOT NULL,
  PRIMARY KEY (project_id, locale, key)
);
CREATE INDEX IF NOT EXISTS retired_translations_age_idx ON retired_translations (project_id, locale, retired_at);
