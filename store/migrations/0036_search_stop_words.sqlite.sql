-- PostgreSQL's search now keeps stop words (see the .postgres.sql file);
-- SQLite's index never dropped them: nothing to change, but the version is
-- kept on both databases alike.
SELECT 1;
