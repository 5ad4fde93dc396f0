-- Key rules (DESIGN §13): glob patterns over keys, `{"humanOnly": [...], "neverTranslate": [...],
-- "exclude": [...]}`. Empty lists by default, which is what every project made before them gets.
ALTER TABLE projects ADD COLUMN IF NOT EXISTS key_rules jsonb NOT NULL
  DEFAULT '{"humanOnly": [], "neverTranslate": [], "exclude": []}'::jsonb;
