-- SQLite's search index drops the space's id here (see the .sqlite.sql
-- file). PostgreSQL's index is a tsvector column of search_sections, which
-- never held the space's id: nothing to change, but the version is kept on
-- both databases alike.
SELECT 1;
