-- API specifications (contract §4.16): an organization's OpenAPI documents,
-- each given as text or a URL and processed by a background job.
CREATE TABLE openapi_specs (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    slug              TEXT NOT NULL,
    source_url        TEXT,              -- set for a URL source
    source_text       TEXT,              -- set for a text source
    state             TEXT NOT NULL,     -- pending, progress, complete
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    last_version      TEXT,              -- newest openapi_spec_versions.id
    last_processed_at BIGINT,
    last_error_code   TEXT,              -- NULL when the last processing succeeded
    last_errors       TEXT NOT NULL DEFAULT '[]', -- JSON array of the first messages
    last_error_count  INTEGER NOT NULL DEFAULT 0,
    -- The processing job, durable on the row: job_due is set while processing
    -- is owed. A worker claims it by writing a fresh job_claim and a lease,
    -- job_claimed_until; when the lease runs out without the job finishing
    -- (the worker died), another worker claims it again. A new source clears
    -- the claim, so a worker still busy with the old one finishes for nothing.
    job_due           BIGINT,
    job_claim         TEXT,
    job_claimed_until BIGINT,
    job_attempts      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (org_id, slug)
);
CREATE INDEX openapi_specs_org ON openapi_specs (org_id, created_at, id);
CREATE INDEX openapi_specs_job ON openapi_specs (job_due, id) WHERE job_due IS NOT NULL;

-- Every successful processing records a version: the document as processed.
CREATE TABLE openapi_spec_versions (
    id         TEXT PRIMARY KEY,
    spec_id    TEXT NOT NULL REFERENCES openapi_specs (id) ON DELETE CASCADE,
    hash       TEXT NOT NULL, -- hex SHA-256 of document
    format     TEXT NOT NULL, -- "2.0" (Swagger) or the openapi field, e.g. "3.1.0"
    document   TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX openapi_spec_versions_spec ON openapi_spec_versions (spec_id, created_at, id);
