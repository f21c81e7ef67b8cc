-- Installing integrations (issue 19): who installed (installation tokens
-- act with that admin's rights, narrowed to the installation's scopes and
-- targets), one installation per integration and organization, the spaces
-- and sites an installation was set up on, its temporary tokens, and the
-- integration's events (installs, uninstalls, configuration changes; Quire
-- runs no scripts, so these are what it has to tell).
ALTER TABLE integration_installations ADD COLUMN installed_by TEXT REFERENCES users (id) ON DELETE SET NULL;
CREATE UNIQUE INDEX integration_installations_org ON integration_installations (org_id, integration);

CREATE TABLE integration_space_installations (
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    space_id        TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    status          TEXT NOT NULL,
    configuration   TEXT NOT NULL,          -- JSON object
    external_ids    TEXT NOT NULL,          -- JSON array of strings
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (installation_id, space_id)
);
CREATE INDEX integration_space_installations_space ON integration_space_installations (space_id);

CREATE TABLE integration_site_installations (
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    status          TEXT NOT NULL,
    configuration   TEXT NOT NULL,          -- JSON object
    external_ids    TEXT NOT NULL,          -- JSON array of strings
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (installation_id, site_id)
);
CREATE INDEX integration_site_installations_site ON integration_site_installations (site_id);

-- Temporary tokens of an installation, by the SHA-256 of the secret (hex).
CREATE TABLE integration_installation_tokens (
    hash            TEXT PRIMARY KEY,
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX integration_installation_tokens_installation ON integration_installation_tokens (installation_id);

-- Events outlive the installation they are about, not the integration.
CREATE TABLE integration_events (
    id              TEXT PRIMARY KEY,
    integration     TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    installation_id TEXT NOT NULL,
    payload         TEXT NOT NULL,          -- JSON: the reference's Event
    created_at      BIGINT NOT NULL
);
CREATE INDEX integration_events_order ON integration_events (integration, created_at, id);
