-- Change requests: named lines of revisions forked from a space's revision.
CREATE TABLE change_requests (
    id                       TEXT PRIMARY KEY,
    space_id                 TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    number                   BIGINT NOT NULL, -- counts up per space from 1
    status                   TEXT NOT NULL,   -- draft, open, archived, merged
    subject                  TEXT NOT NULL DEFAULT '',
    created_by               TEXT NOT NULL REFERENCES users (id),
    created_at               BIGINT NOT NULL,
    updated_at               BIGINT NOT NULL,
    revision_id              TEXT NOT NULL,
    revision_initial         TEXT NOT NULL,
    revision_merged_ancestor TEXT,
    revision_merged          TEXT,
    UNIQUE (space_id, number)
);
CREATE INDEX change_requests_status ON change_requests (space_id, status, number);

-- Who contributed to a change request: its creator, then its authors.
CREATE TABLE change_request_contributors (
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users (id),
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_contributors_user ON change_request_contributors (user_id);
