-- The last change request number of each space. Numbering locks this row,
-- not the space's: a merge holds the space's row until it commits, and on
-- PostgreSQL change requests being made waited for every merge into their
-- space. A space gets its row when its next change request is made, from
-- the highest number it has.
CREATE TABLE change_request_numbers (
    space_id TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    last     BIGINT NOT NULL
);
