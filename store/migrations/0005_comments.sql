-- Comments on a space or on one of its change requests, and their replies:
-- a reply is a row whose parent_id is the comment it answers (one level).
-- change_request_id is '' for comments on the space itself; it has no
-- foreign key, as change requests are only ever deleted with their space.
--
-- replies, repliers and reactions summarize, on each row, the replies and
-- the comment_reactions rows: every write of those rewrites them in the same
-- transaction, holding the row's lock, so that a page of comments is read
-- in one query (reading the rows behind them took milliseconds on SQLite).
-- Their text is one line per entry, fields separated by tabs:
--   repliers:  user id, replies, last reply time     (in order of first reply)
--   reactions: emoji, user id, reaction time         (in order of reaction)
CREATE TABLE comments (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    change_request_id TEXT NOT NULL DEFAULT '',
    parent_id         TEXT REFERENCES comments (id) ON DELETE CASCADE,
    posted_by         TEXT NOT NULL REFERENCES users (id),
    posted_at         BIGINT NOT NULL,
    edited_at         BIGINT,
    markdown          TEXT NOT NULL,
    page_id           TEXT NOT NULL DEFAULT '', -- '' when not on a page
    node_id           TEXT NOT NULL DEFAULT '',
    revision_id       TEXT NOT NULL DEFAULT '', -- the revision commented on ('' for replies)
    resolved_at       BIGINT,                   -- NULL while open
    resolved_by       TEXT REFERENCES users (id),
    replies           BIGINT NOT NULL DEFAULT 0,
    repliers          TEXT NOT NULL DEFAULT '',
    reactions         TEXT NOT NULL DEFAULT ''
);
-- Lists of a space's or a change request's comments, newest or oldest first.
CREATE INDEX comments_list ON comments (space_id, change_request_id, posted_at, id) WHERE parent_id IS NULL;
CREATE INDEX comments_page ON comments (space_id, change_request_id, page_id, posted_at, id) WHERE parent_id IS NULL;
CREATE INDEX comments_replies ON comments (parent_id, posted_at, id);

-- One row per user and emoji on a comment or reply: adding twice counts once.
CREATE TABLE comment_reactions (
    comment_id TEXT NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    emoji      TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id),
    reacted_at BIGINT NOT NULL,
    PRIMARY KEY (comment_id, emoji, user_id)
);

-- The number of comments (replies aside) on a space ('') or a change
-- request, and how many are open, kept by every write in the same
-- transaction: counting 10,000 rows on each read of a space took
-- milliseconds on SQLite.
CREATE TABLE comment_counts (
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    change_request_id TEXT NOT NULL,
    all_comments      BIGINT NOT NULL,
    open_comments     BIGINT NOT NULL,
    PRIMARY KEY (space_id, change_request_id)
);
