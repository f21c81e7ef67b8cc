-- Files uploaded to a signed URL (POST /orgs/{id}/storage/upload), then
-- named by their key in an import. Only the SHA-256 of the URL's token is
-- kept. blob is set once the bytes have arrived; a key is usable by its
-- organization only, until expires_at.
CREATE TABLE storage_uploads (
    key          TEXT PRIMARY KEY,
    token_hash   TEXT NOT NULL,
    org_id       TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    created_by   TEXT NOT NULL,
    kind         TEXT NOT NULL,
    name         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size         BIGINT NOT NULL,
    blob         TEXT,
    created_at   BIGINT NOT NULL,
    url_expires_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX storage_uploads_expiry ON storage_uploads (expires_at);
