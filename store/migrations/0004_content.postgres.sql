-- Content-addressed objects: page records, bodies and lists of a revision's
-- tree (see content.Encode). Shared by every revision that holds them.
CREATE TABLE objects (
    hash TEXT PRIMARY KEY,
    data BYTEA NOT NULL
);

-- The root object of each revision's tree ('' for the empty tree), the
-- change request a merge revision came from, and who made the revision.
ALTER TABLE revisions ADD COLUMN root TEXT NOT NULL DEFAULT '';
ALTER TABLE revisions ADD COLUMN merged_from TEXT;
ALTER TABLE revisions ADD COLUMN created_by TEXT;
