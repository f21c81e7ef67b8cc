-- SAML identity providers of an organization (contract §4.15).
CREATE TABLE saml_providers (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    label        TEXT NOT NULL,
    entity_id    TEXT NOT NULL DEFAULT '',
    sso_url      TEXT NOT NULL DEFAULT '',
    certificate  TEXT NOT NULL DEFAULT '', -- PEM
    default_team TEXT REFERENCES teams (id) ON DELETE SET NULL,
    default_role TEXT,                     -- NULL: new members join as guests
    created_at   BIGINT NOT NULL
);
CREATE INDEX saml_providers_org ON saml_providers (org_id, created_at, id);
CREATE INDEX saml_providers_team ON saml_providers (default_team);

-- AuthnRequests sent to a provider and not yet answered. A response must
-- answer one of them, and each is answered once: the row goes when used.
CREATE TABLE saml_requests (
    id          TEXT PRIMARY KEY,
    provider_id TEXT NOT NULL REFERENCES saml_providers (id) ON DELETE CASCADE,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX saml_requests_expiry ON saml_requests (expires_at);

-- Assertions already used to sign in, kept until they expire, so that a
-- replayed one is refused by every server sharing the database.
CREATE TABLE saml_assertions (
    provider_id TEXT NOT NULL REFERENCES saml_providers (id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    expires_at  BIGINT NOT NULL,
    PRIMARY KEY (provider_id, id)
);
CREATE INDEX saml_assertions_expiry ON saml_assertions (expires_at);
