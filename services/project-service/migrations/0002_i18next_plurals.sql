-- Whether keys `x_one`, `x_other` are read as i18next plural groups (DESIGN §11); on by default,
-- which is what every project made before this setting existed gets.
ALTER TABLE projects ADD COLUMN IF NOT EXISTS i18next_plurals boolean NOT NULL DEFAULT true;
