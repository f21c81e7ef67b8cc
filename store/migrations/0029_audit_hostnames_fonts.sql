-- The audit log: one row for each write of the API or the app, in each
-- organization it concerns, written in the transaction of the write
-- (store/audit.go). Kept with the organization: deleting it deletes them.
CREATE TABLE audit_events (
    id           TEXT PRIMARY KEY,  -- a UUID
    org_id       TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    occurred_at  BIGINT NOT NULL,   -- microseconds
    action       TEXT NOT NULL,
    source       TEXT NOT NULL,
    actor_type   TEXT NOT NULL,
    actor_id     TEXT NOT NULL,
    actor_label  TEXT NOT NULL,
    target_type  TEXT NOT NULL,
    target_id    TEXT NOT NULL,
    target_label TEXT NOT NULL,
    ip           TEXT NOT NULL,
    request_id   TEXT NOT NULL,
    method       TEXT NOT NULL,
    path         TEXT NOT NULL
);
CREATE INDEX audit_events_by_time ON audit_events (org_id, occurred_at, id);

-- The last DNS check of a site's custom hostname (api/customhostnames.go):
-- what GET /v1/custom-hostnames/{hostname} shows until PATCH checks again.
CREATE TABLE custom_hostname_checks (
    hostname   TEXT PRIMARY KEY,
    status     TEXT NOT NULL,   -- dns_passed, dns_wrong_cname, dns_no_cname
    detail     TEXT NOT NULL,   -- what the operator should do, for people
    checked_at BIGINT NOT NULL  -- microseconds
);

-- An organization's custom fonts (api/fonts.go): a family and its faces,
-- one file (WOFF or WOFF2) a weight, kept in the blob store.
CREATE TABLE custom_fonts (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    family     TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX custom_fonts_by_org ON custom_fonts (org_id, family, id);
CREATE TABLE custom_font_faces (
    font_id TEXT NOT NULL REFERENCES custom_fonts (id) ON DELETE CASCADE,
    weight  INTEGER NOT NULL,
    blob    TEXT NOT NULL,
    format  TEXT NOT NULL,    -- woff2 or woff
    size    BIGINT NOT NULL,
    PRIMARY KEY (font_id, weight)
);
