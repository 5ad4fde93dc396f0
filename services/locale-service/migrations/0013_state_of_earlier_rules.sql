-- What a locale stored under earlier rules holds, brought up to this release's: a database made
-- before i18next plural groups (0002), key rules (0004) or findings (0010) holds counts worked out
-- without them, and one made before the translation memory (0006) holds translations it never
-- learned. (Who wrote a translation stored before provenance was kept (0005) is shown as unknown:
-- a stored translation without provenance is exactly such a one.)

-- Counts: stale, as a change of the project's settings leaves them: recomputed against the head
-- before they are next shown (current ones come out the same).
UPDATE locales SET counts_version = -1;

-- The memory: the translations of a locale made before it are taught to it whole, by the source
-- texts of the version they were made from, at the time they were stored, at the project's next
-- refresh (or when the service starts); uploads since taught it only the values they changed.
ALTER TABLE locales ADD COLUMN IF NOT EXISTS memory_untaught boolean NOT NULL DEFAULT false;
UPDATE locales SET memory_untaught = true
 WHERE content IS NOT NULL
   AND created_at < (SELECT applied_at FROM schema_migrations WHERE name = '0006_translation_memory.sql');
