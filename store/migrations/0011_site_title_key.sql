-- Sites' titles lowered by Go, for the title filter: SQLite's LOWER folds
-- only ASCII, so "évènement" must be matched against a key Go lowered.
-- Existing rows are keyed by SQL LOWER here, and again by Go on their next
-- rename.
ALTER TABLE sites ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
UPDATE sites SET title_key = LOWER(title);
