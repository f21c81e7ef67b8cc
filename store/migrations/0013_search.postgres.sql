-- Full-text search (contract §4.5): one row per section of each searchable
-- page of a space's current content (search.Indexed, search.PageOf), its
-- text folded (search.Fold): results are shown from the page itself.
-- search_spaces records the tree root each space's rows hold; a search
-- brings them up to date first, rewriting only the pages that changed.
CREATE TABLE search_spaces (
    space_id TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    root     TEXT NOT NULL
);
-- document weighs the page's title and description (A) over the section's
-- title (B) and its text (D), with English stemming.
CREATE TABLE search_sections (
    id            BIGSERIAL PRIMARY KEY,
    space_id      TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    page_id       TEXT NOT NULL,
    position      INTEGER NOT NULL, -- the section's place in its page
    section_id    TEXT NOT NULL,    -- its heading's anchor, '' before any heading
    page_text     TEXT NOT NULL,    -- the page's title and description
    section_title TEXT NOT NULL,
    body          TEXT NOT NULL,
    document      tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', page_text), 'A') ||
        setweight(to_tsvector('english', section_title), 'B') ||
        setweight(to_tsvector('english', body), 'D')) STORED
);
CREATE INDEX search_sections_page ON search_sections (space_id, page_id);
CREATE INDEX search_sections_document ON search_sections USING GIN (document);
