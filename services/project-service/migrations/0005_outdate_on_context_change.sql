-- Whether a changed context annotation ("@key": {"description"}) outdates its key's translations
-- (DESIGN §13); on by default, which is what every project made before this setting existed gets.
ALTER TABLE projects ADD COLUMN IF NOT EXISTS outdate_on_context_change boolean NOT NULL DEFAULT true;
