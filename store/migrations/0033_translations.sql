-- Translations (issue 19, the reference's Translation): a source space
-- translated into another language, into a target space made with it, by
-- the configured language model. Running one is the row's state, a durable
-- job as import runs are (0032): a worker claims a queued translation, or a
-- running one whose lease ran out, translates with no transaction open and
-- writes the target's content in the transaction that ends the run.
CREATE TABLE translations (
    id                 TEXT PRIMARY KEY,
    org_id             TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    source_space_id    TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    source_language    TEXT NOT NULL,
    language           TEXT NOT NULL,
    instructions       TEXT NOT NULL,             -- JSON document
    target_space_id    TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    state              TEXT NOT NULL,             -- idle, queued, running
    rerun              BOOLEAN NOT NULL DEFAULT FALSE, -- run asked for while running: queued again when it ends
    run_by             TEXT REFERENCES users (id) ON DELETE SET NULL, -- who asked for the last run
    result_revision_id TEXT,                      -- the target's revision the last completed run wrote
    last_status        TEXT,                      -- completed or failed, once a run ended
    last_reason        TEXT,                      -- why it failed
    last_started_at    BIGINT,
    last_ended_at      BIGINT,
    runs               INTEGER NOT NULL DEFAULT 0, -- completed runs
    total_words        BIGINT NOT NULL DEFAULT 0,
    total_pages        BIGINT NOT NULL DEFAULT 0,
    total_duration     BIGINT NOT NULL DEFAULT 0, -- seconds
    latest_duration    BIGINT NOT NULL DEFAULT 0,
    latest_pages       INTEGER NOT NULL DEFAULT 0,
    latest_words       BIGINT NOT NULL DEFAULT 0,
    created_by         TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    claim              TEXT,                      -- the worker's claim while running
    claimed_until      BIGINT,
    attempts           INTEGER NOT NULL DEFAULT 0 -- claims of the current run
);
CREATE INDEX translations_org ON translations (org_id, created_at, id);
CREATE INDEX translations_due ON translations (state, claimed_until);

-- The organization's translation glossary: each entry is one term in
-- several languages (language code → term, JSON), which runs keep to.
CREATE TABLE glossary_entries (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    translations TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);
CREATE INDEX glossary_entries_org ON glossary_entries (org_id, created_at, id);
