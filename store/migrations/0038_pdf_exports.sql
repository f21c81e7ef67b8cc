-- PDF exports (security finding 1): the PDF of a space's or change
-- request's content at a revision, printed once by a durable job
-- (jobs/pdf.go) and kept in blob storage. A row per what a PDF prints: a
-- link's request enqueues it, or joins the row already there, and waits.
-- A worker claims a pending row, or a printing one whose lease ran out,
-- prints it into a temporary file, puts it in blob storage and marks it
-- done; a PDF over the bounds fails, keeping its error, so it is answered
-- without printing again. Rows are removed some time after (jobs/purge.go);
-- garbage collection keeps the blobs of those still there.
CREATE TABLE pdf_exports (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    revision_id       TEXT NOT NULL,
    change_request_id TEXT NOT NULL,              -- '' for the space's own content
    page_id           TEXT NOT NULL,              -- the page printed, '' for all
    only_page         BOOLEAN NOT NULL,           -- that page without its subpages
    title             TEXT NOT NULL,              -- the title page's title and subtitle: they
    subtitle          TEXT NOT NULL,              -- may change while the revision does not
    state             TEXT NOT NULL,              -- pending, printing, done, failed
    blob              TEXT,                       -- the PDF's blob, once done
    size              BIGINT NOT NULL DEFAULT 0,  -- its bytes
    error_code        TEXT,                       -- why it failed: a quire.Code
    error             TEXT,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,            -- when its state last changed
    claim             TEXT,                       -- the worker's claim while printing
    claimed_until     BIGINT,
    attempts          INTEGER NOT NULL DEFAULT 0, -- claims so far
    UNIQUE (space_id, revision_id, change_request_id, page_id, only_page, title, subtitle)
);
CREATE INDEX pdf_exports_due ON pdf_exports (state, claimed_until);
CREATE INDEX pdf_exports_updated ON pdf_exports (updated_at);
