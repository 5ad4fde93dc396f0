-- The project setting that turns the recognition of i18next plural keys off (DESIGN §11): a
-- locale's keys depend on it. On by default, as in project-service.
ALTER TABLE projects ADD COLUMN IF NOT EXISTS i18next_plurals boolean NOT NULL DEFAULT true;
