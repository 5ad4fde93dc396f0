-- The project's key rules (DESIGN §13), as project-service describes them: a locale's keys and
-- counts depend on them. No rules by default, as in project-service.
ALTER TABLE projects ADD COLUMN IF NOT EXISTS key_rules jsonb NOT NULL
  DEFAULT '{"humanOnly": [], "neverTranslate": [], "exclude": []}'::jsonb;
