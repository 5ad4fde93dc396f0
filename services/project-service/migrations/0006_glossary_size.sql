-- A glossary's size is bounded in entries and in bytes of text (MAX_GLOSSARY_BYTES in
-- @tolk/contracts). Each entry keeps what it counts (glossaryEntryBytes: the UTF-8 bytes of its
-- term, note, locale codes and renderings), so a write under the project's lock sums a column
-- rather than reading every entry's text. Entries stored before get the same sum here.
ALTER TABLE glossary_entries ADD COLUMN IF NOT EXISTS size_bytes integer;
UPDATE glossary_entries
   SET size_bytes = octet_length(term) + coalesce(octet_length(note), 0) +
       coalesce((SELECT sum(octet_length(t.key) + octet_length(t.value))
                   FROM jsonb_each_text(translations) AS t), 0)
 WHERE size_bytes IS NULL;
ALTER TABLE glossary_entries ALTER COLUMN size_bytes SET NOT NULL;
