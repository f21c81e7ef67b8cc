-- PostgreSQL's 'english' configuration drops stop words ("the", "how",
-- "not"), so a search for one found nothing here while SQLite's index,
-- which has no stop words, found every page holding it. quire_english is
-- 'english' with its stemmer and no stop-word list: both databases now
-- find the same words. (Questions put to ask leave stop words out
-- themselves, search.QuestionTerms.)
CREATE TEXT SEARCH DICTIONARY quire_english_stem (TEMPLATE = snowball, LANGUAGE = english);
CREATE TEXT SEARCH CONFIGURATION quire_english (COPY = english);
ALTER TEXT SEARCH CONFIGURATION quire_english ALTER MAPPING REPLACE english_stem WITH quire_english_stem;
ALTER TABLE search_sections DROP COLUMN document;
ALTER TABLE search_sections ADD COLUMN document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('quire_english', page_text), 'A') ||
    setweight(to_tsvector('quire_english', section_title), 'B') ||
    setweight(to_tsvector('quire_english', body), 'D')) STORED;
CREATE INDEX search_sections_document ON search_sections USING GIN (document);
