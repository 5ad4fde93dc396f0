-- Stored contents now carry each key's revision (the version in which its value last changed),
-- which locale-service reads to tell outdated translations. Contents stored before this lack
-- them; they are derived and written back the first time they are asked for.
ALTER TABLE version_contents ADD COLUMN IF NOT EXISTS has_revisions boolean NOT NULL DEFAULT false;
