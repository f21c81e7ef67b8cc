-- The search index holds the sections' words only, no longer the space's
-- id: narrowing a match to a space inside the index cost more than the
-- match itself (a space's id is in every one of its rows). Searches now
-- narrow by joining search_sections, which they join anyway, and need no
-- column filter to keep words from matching a space's id.
DROP TRIGGER search_sections_insert;
DROP TRIGGER search_sections_delete;
DROP TABLE search_fts;
CREATE VIRTUAL TABLE search_fts USING fts5(page_text, section_title, body,
    content = 'search_sections', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO search_fts (search_fts) VALUES ('rebuild');
CREATE TRIGGER search_sections_insert AFTER INSERT ON search_sections BEGIN
    INSERT INTO search_fts (rowid, page_text, section_title, body)
        VALUES (new.id, new.page_text, new.section_title, new.body);
END;
CREATE TRIGGER search_sections_delete AFTER DELETE ON search_sections BEGIN
    INSERT INTO search_fts (search_fts, rowid, page_text, section_title, body)
        VALUES ('delete', old.id, old.page_text, old.section_title, old.body);
END;
