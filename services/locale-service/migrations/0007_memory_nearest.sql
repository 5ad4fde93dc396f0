-- Near matches by nearest-neighbour search (DESIGN §13): a GiST trigram index walks texts in order
-- of similarity and stops at the few asked for, where the GIN index made every text sharing a
-- trigram a candidate to rank: seconds a text on a memory of common UI phrases. A signature of
-- 256 bytes keeps short texts' searches few milliseconds; it costs more on insert than GIN.
DROP INDEX IF EXISTS memory_source_text_trgm_idx;
CREATE INDEX IF NOT EXISTS memory_source_text_nearest_idx
  ON memory USING gist (source_text public.gist_trgm_ops (siglen = 256));
