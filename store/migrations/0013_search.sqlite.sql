-- Full-text search (contract §4.5): one row per section of each searchable
-- page of a space's current content (search.Indexed, search.PageOf), its
-- text folded (search.Fold): results are shown from the page itself.
-- search_spaces records the tree root each space's rows hold; a search
-- brings them up to date first, rewriting only the pages that changed.
CREATE TABLE search_spaces (
    space_id TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    root     TEXT NOT NULL
);
CREATE TABLE search_sections (
    id            INTEGER PRIMARY KEY,
    space_id      TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    page_id       TEXT NOT NULL,
    position      INTEGER NOT NULL, -- the section's place in its page
    section_id    TEXT NOT NULL,    -- its heading's anchor, '' before any heading
    page_text     TEXT NOT NULL,    -- the page's title and description
    section_title TEXT NOT NULL,
    body          TEXT NOT NULL
);
CREATE INDEX search_sections_page ON search_sections (space_id, page_id);

-- The index itself, kept by triggers: English stemming (porter), case and
-- diacritics folded. The space's id is indexed too, so that a search
-- intersects its words with one space's rows inside the index.
CREATE VIRTUAL TABLE search_fts USING fts5(space_id, page_text, section_title, body,
    content = 'search_sections', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2');
CREATE TRIGGER search_sections_insert AFTER INSERT ON search_sections BEGIN
    INSERT INTO search_fts (rowid, space_id, page_text, section_title, body)
        VALUES (new.id, new.space_id, new.page_text, new.section_title, new.body);
END;
CREATE TRIGGER search_sections_delete AFTER DELETE ON search_sections BEGIN
    INSERT INTO search_fts (search_fts, rowid, space_id, page_text, section_title, body)
        VALUES ('delete', old.id, old.space_id, old.page_text, old.section_title, old.body);
END;
