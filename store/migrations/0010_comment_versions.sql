-- A comment row's version: a random number every write of the row sets anew
-- (0 when new), so that a list reads ids and versions and decodes only the
-- rows its server has not already seen in that version (store/comments_cache.go).
ALTER TABLE comments ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
