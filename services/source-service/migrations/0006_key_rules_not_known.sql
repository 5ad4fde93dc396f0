-- The first text of 0005_key_rules.sql (on main for a few commits) made the column NOT NULL with
-- "no rules" as its default, and so recorded "no rules" for every project known before it, where
-- the rules are not known (NULL: asked of project-service at the project's next upload). Where a
-- database applied that text, the column is made as 0005 makes it now, and "no rules" becomes
-- "not known": a project that really has none is asked once more. Elsewhere nothing changes.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'projects' AND column_name = 'key_rules'
       AND is_nullable = 'NO'
  ) THEN
    ALTER TABLE projects ALTER COLUMN key_rules DROP NOT NULL, ALTER COLUMN key_rules DROP DEFAULT;
    UPDATE projects SET key_rules = NULL
     WHERE key_rules = '{"humanOnly": [], "neverTranslate": [], "exclude": []}'::jsonb;
  END IF;
END
$$;
