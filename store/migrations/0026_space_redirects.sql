-- A space's redirects, as .gitbook.yaml's "redirects" holds them: a former
-- path of the space (relative to its root, without slashes around) to the
-- page now there. An import of a folder into the space replaces them, an
-- export writes them back, and the space's published site follows them.
CREATE TABLE space_redirects (
    space_id TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    source   TEXT NOT NULL,
    page_id  TEXT NOT NULL,
    PRIMARY KEY (space_id, source)
);
