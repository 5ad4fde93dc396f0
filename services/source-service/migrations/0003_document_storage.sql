-- Versions are now kept as the uploaded document itself (format 2: the gzip-compressed JSON text)
-- with each key's revision in a column of its own (gzip-compressed 32-bit integers), so an upload
-- stores what it received instead of serialising the parsed form. Rows of format 1 (the parsed
-- form as gzip JSON) stay readable and are rewritten when locale-service first asks for them.
ALTER TABLE version_contents ADD COLUMN IF NOT EXISTS format smallint NOT NULL DEFAULT 1;
ALTER TABLE version_contents ADD COLUMN IF NOT EXISTS revisions bytea;
-- Both are compressed already: Postgres need not try again.
ALTER TABLE version_contents ALTER COLUMN content SET STORAGE EXTERNAL;
ALTER TABLE version_contents ALTER COLUMN revisions SET STORAGE EXTERNAL;
