-- Git sync: a space's connection to one branch and folder of a Git
-- repository, and the queue of its operations (the reference's GitSyncState).
-- Credentials never reach a column in the clear: url is the address without
-- them, as shown; url_sealed the address as given, sealed (gitsync/seal.go).
CREATE TABLE git_syncs (
    space_id        TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    url             TEXT NOT NULL,
    url_sealed      TEXT NOT NULL,              -- base64 of the sealed URL
    ref             TEXT NOT NULL,              -- refs/heads/<branch>
    directory       TEXT NOT NULL DEFAULT '',   -- the project's folder in the repository
    sync            BOOLEAN NOT NULL DEFAULT FALSE, -- continuous two-way sync
    webhook_secret  TEXT,                       -- base64 of the sealed webhook secret
    created_by      TEXT NOT NULL REFERENCES users (id), -- who configured it; authors imports
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    -- The sync point, the merge base of both directions: the last commit
    -- both sides agree on and the Quire revision holding its content.
    synced_commit   TEXT,
    synced_revision TEXT,
    -- An import that did not merge cleanly waits in this change request;
    -- sync holds until it is merged or archived, then takes conflict_commit
    -- and conflict_revision (its content as imported) as the sync point.
    conflict_change_request TEXT,
    conflict_commit         TEXT,
    conflict_revision       TEXT,
    next_pull_at    BIGINT,                     -- when the branch is polled next (sync only)
    -- The worker running the space's operations holds a claim and a lease;
    -- when the lease runs out (the worker died), another claims the space.
    claim           TEXT,
    claimed_until   BIGINT
);

CREATE TABLE git_sync_operations (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    direction         TEXT NOT NULL,            -- import, export
    state             TEXT NOT NULL,            -- queued, running, success, failure, timeout
    stage             TEXT NOT NULL,            -- the reference's GitSyncOperationStage
    auto              BOOLEAN NOT NULL DEFAULT FALSE, -- queued by continuous sync
    ordered_at        BIGINT NOT NULL,          -- the request's timestamp, or when queued
    url_sealed        TEXT NOT NULL,
    ref               TEXT NOT NULL,
    directory         TEXT NOT NULL DEFAULT '',
    commit_message    TEXT NOT NULL DEFAULT '',
    standalone        BOOLEAN NOT NULL DEFAULT FALSE,
    user_id           TEXT REFERENCES users (id) ON DELETE SET NULL,
    attempts          INTEGER NOT NULL DEFAULT 0,
    created_at        BIGINT NOT NULL,
    started_at        BIGINT,
    updated_at        BIGINT NOT NULL,
    ended_at          BIGINT,
    commit_sha        TEXT,                     -- the commit imported or pushed
    change_request_id TEXT,                     -- the change request an import made
    error             TEXT
);
CREATE INDEX git_sync_operations_space ON git_sync_operations (space_id, state, ordered_at, created_at);
