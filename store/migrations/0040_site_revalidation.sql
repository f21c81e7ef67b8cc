-- Renderer revalidation (issue 30): a site's optional renderer endpoint
-- (GitBook's renderer's POST /~gitbook/revalidate) that Quire calls with
-- the cache tags of what changed. The secret signs the calls, so it is
-- sealed (AES-GCM under the server's secret key, as webhooks' are), not
-- hashed; the last call's outcome is kept for the site's admins.
CREATE TABLE site_revalidation (
    site_id         TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    url             TEXT NOT NULL,
    secret          TEXT NOT NULL,              -- sealed, base64
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    last_attempt_at BIGINT,                     -- the last call's outcome
    last_status     BIGINT NOT NULL DEFAULT 0,  -- the renderer's answer, 0 when none came
    last_error      TEXT NOT NULL DEFAULT ''
);

-- The calls to make: written in the transaction of the change they tell
-- of, so none is lost and none is made for a change rolled back. A call
-- not yet claimed takes the tags of later changes to its site rather than
-- a row of its own. A worker claims a due call with a lease; a call made
-- or given up is deleted, its outcome kept on the site's row.
CREATE TABLE site_revalidation_calls (
    id              TEXT PRIMARY KEY,
    site_id         TEXT NOT NULL REFERENCES site_revalidation (site_id) ON DELETE CASCADE,
    tags            TEXT NOT NULL,              -- JSON array of cache tags
    created_at      BIGINT NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    attempts        BIGINT NOT NULL DEFAULT 0,
    claim           TEXT,
    claimed_until   BIGINT
);
CREATE INDEX site_revalidation_calls_due ON site_revalidation_calls (next_attempt_at);
CREATE INDEX site_revalidation_calls_site ON site_revalidation_calls (site_id);
