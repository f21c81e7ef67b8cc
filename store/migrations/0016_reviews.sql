-- Reviews of change requests (the reference's ChangeRequestReview): a
-- reviewer's decision, approved or changes-requested, on the request's
-- revision at the time, with an optional comment posted in the request's
-- comments. A review is outdated once the same reviewer submits another or
-- is requested again; merge rules count only reviews that are not.
CREATE TABLE change_request_reviews (
    id                TEXT PRIMARY KEY,
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    reviewer_id       TEXT NOT NULL REFERENCES users (id),
    requested_by      TEXT REFERENCES users (id), -- NULL: reviewed without a request
    status            TEXT NOT NULL,              -- approved, changes-requested
    revision_id       TEXT NOT NULL,
    comment_id        TEXT REFERENCES comments (id) ON DELETE SET NULL,
    outdated          BOOLEAN NOT NULL DEFAULT FALSE,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE INDEX change_request_reviews_list ON change_request_reviews (change_request_id, created_at, id);

-- Users asked to review a change request (ChangeRequestRequestedReviewer).
CREATE TABLE change_request_reviewers (
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users (id),
    requested_by      TEXT NOT NULL REFERENCES users (id),
    revision_id       TEXT NOT NULL, -- the request's revision when asked
    created_at        BIGINT NOT NULL,
    PRIMARY KEY (change_request_id, user_id)
);

-- Contributors (ChangeRequestUserContributor): how many revisions each
-- wrote, and when last. Rows from before count none and date from the
-- request's creation.
ALTER TABLE change_request_contributors ADD COLUMN edits BIGINT NOT NULL DEFAULT 0;
ALTER TABLE change_request_contributors ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
UPDATE change_request_contributors SET updated_at =
    (SELECT c.created_at FROM change_requests c WHERE c.id = change_request_contributors.change_request_id);

-- A space's merge rules (MergeRulesSpaceConfiguration), as JSON: inherit
-- (the organization's), none, or its own rules.
ALTER TABLE spaces ADD COLUMN merge_rules TEXT NOT NULL DEFAULT '{"type":"inherit"}';
