-- What a locale stored under earlier rules holds, brought up to this release's: a database made
-- before i18next plural groups (0002), key rules (0004) or findings (0010) holds counts worked out
-- without them, one made before the translation memory (0006) translations it never learned, and
-- one made before findings translations never judged. (Who wrote a translation stored before
-- provenance was kept (0005) is shown as unknown: a stored translation without provenance is
-- exactly such a one.)

-- Counts: stale, as a change of the project's settings leaves them: recomputed against the head
-- before they are next shown (current ones come out the same).
UPDATE locales SET counts_version = -1;

-- The stored translations of a locale that may hold some stored before the findings (and so before
-- the memory, older still) are judged and taught to the memory whole, as an upload of them made
-- from the same version is, at the project's next refresh or when the service starts. Uploads
-- since were judged whole, but taught the memory only the values they changed.
ALTER TABLE locales ADD COLUMN IF NOT EXISTS stored_behind boolean NOT NULL DEFAULT false;
UPDATE locales SET stored_behind = true
 WHERE content IS NOT NULL
   AND created_at < (SELECT applied_at FROM schema_migrations WHERE name = '0010_findings.sql');
