-- Import runs (issue 19, the reference's ContentImportRun): a website
-- imported into a space or a change request as a durable job. A worker
-- claims a pending run (or one whose worker's lease ran out) and writes the
-- pages in one transaction with the run's completion; a cancelled run is
-- never written.
CREATE TABLE import_runs (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    change_request_id TEXT,                      -- the target request, NULL for the space
    site_id           TEXT,                      -- the site the import is for, as given
    source_url        TEXT NOT NULL,
    status            TEXT NOT NULL,             -- pending, in-progress, completed, failed, cancelled
    reason            TEXT,                      -- why it failed
    pages             TEXT NOT NULL DEFAULT '[]', -- JSON: the pages imported (id, sourceURL)
    created_by        TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    started_at        BIGINT,
    completed_at      BIGINT,
    claim             TEXT,                      -- the worker's claim while in-progress
    claimed_until     BIGINT,
    attempts          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX import_runs_org ON import_runs (org_id, created_at, id);
CREATE INDEX import_runs_due ON import_runs (status, claimed_until);
