-- Integrations published by organizations (contract §4.17). The JSON columns
-- hold what the publisher sent, once validated; the script and images live in
-- the blob store under the keys kept here.
CREATE TABLE integrations (
    name            TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    version         INTEGER NOT NULL,
    title           TEXT NOT NULL,
    title_key       TEXT NOT NULL,          -- title lowered by Go, for search
    description     TEXT NOT NULL,
    summary         TEXT NOT NULL,
    visibility      TEXT NOT NULL,          -- public, private or unlisted
    target          TEXT NOT NULL,
    runtime         TEXT NOT NULL,
    scopes          TEXT NOT NULL,          -- JSON array of enum values
    categories      TEXT NOT NULL,          -- JSON array of enum values
    blocks          TEXT NOT NULL,          -- JSON array, '[]' when none
    content_sources TEXT NOT NULL,          -- JSON array, '[]' when none
    configurations  TEXT,                   -- JSON object
    external_links  TEXT NOT NULL,          -- JSON array
    csp             TEXT,                   -- JSON string or object
    icon            TEXT,                   -- JSON {"blob","contentType"}
    preview_images  TEXT NOT NULL,          -- JSON array of {"blob","contentType"}
    script          TEXT NOT NULL,          -- blob key
    secrets         TEXT,                   -- base64 of the AES-256-GCM sealed JSON map; never shown
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX integrations_org ON integrations (org_id, name);

-- The hosts the blocks of an integration unfurl URLs of (blockDomain filter).
CREATE TABLE integration_block_domains (
    integration TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    domain      TEXT NOT NULL,
    PRIMARY KEY (integration, domain)
);
CREATE INDEX integration_block_domains_domain ON integration_block_domains (domain, integration);

-- Installations of an integration on an organization. Nothing installs yet;
-- the table makes GET /integrations/{name}/installations real.
CREATE TABLE integration_installations (
    id              TEXT PRIMARY KEY,
    integration     TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    org_id          TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    status          TEXT NOT NULL,
    space_selection TEXT NOT NULL,
    site_selection  TEXT NOT NULL,
    configuration   TEXT NOT NULL,          -- JSON object
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX integration_installations_order ON integration_installations (integration, created_at, id);

CREATE TABLE integration_installation_external_ids (
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    external_id     TEXT NOT NULL,
    PRIMARY KEY (installation_id, external_id)
);
CREATE INDEX integration_installation_external_ids_value ON integration_installation_external_ids (external_id);

-- Language settings of an organization's translation configurations
-- (contract §4.18). A settings id names one configuration; it exists while
-- it has languages.
CREATE TABLE translation_languages (
    org_id       TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    settings_id  TEXT NOT NULL,
    language     TEXT NOT NULL,
    instructions TEXT NOT NULL,              -- JSON document
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (org_id, settings_id, language)
);
