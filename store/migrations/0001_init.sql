-- Times are microseconds since the Unix epoch (BIGINT) in both dialects, so
-- they sort and compare the same everywhere.

CREATE TABLE users (
    id           TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    email        TEXT NOT NULL UNIQUE, -- stored lower case
    photo_url    TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL
);

-- Only the SHA-256 of each API token is kept.
CREATE TABLE api_tokens (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE organizations (
    id            TEXT PRIMARY KEY,
    title         TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    email_domains TEXT NOT NULL DEFAULT '[]', -- JSON array
    hostname      TEXT UNIQUE,
    default_role  TEXT,                       -- NULL: new members join as guests
    sso           BOOLEAN NOT NULL DEFAULT FALSE,
    ai            BOOLEAN NOT NULL DEFAULT TRUE,
    invite_links  BOOLEAN NOT NULL DEFAULT FALSE,
    merge_rules   TEXT NOT NULL DEFAULT '{"type":"none"}'
);

CREATE TABLE members (
    org_id       TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT,                       -- NULL for guests
    disabled     BOOLEAN NOT NULL DEFAULT FALSE,
    joined_at    BIGINT NOT NULL,
    last_seen_at BIGINT,
    sso          BOOLEAN NOT NULL DEFAULT FALSE,
    name_key     TEXT NOT NULL,              -- lower(display_name), the "name" sort key
    PRIMARY KEY (org_id, user_id)
);
CREATE INDEX members_user ON members (user_id);
CREATE INDEX members_joined ON members (org_id, joined_at, user_id);
CREATE INDEX members_seen ON members (org_id, last_seen_at, user_id);
CREATE INDEX members_name ON members (org_id, name_key, user_id);

CREATE TABLE teams (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    title_key  TEXT NOT NULL,              -- title lowered by Go: SQLite's LOWER folds only ASCII
    created_at BIGINT NOT NULL
);
CREATE INDEX teams_org ON teams (org_id, created_at, id);

CREATE TABLE team_members (
    team_id  TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role     TEXT NOT NULL,
    added_at BIGINT NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id, team_id);
CREATE INDEX team_members_order ON team_members (team_id, added_at, user_id);

-- Keys the server signs with (e.g. visitor claims), made on first use.
CREATE TABLE server_keys (
    name       TEXT PRIMARY KEY,
    secret     TEXT NOT NULL, -- hex
    created_at BIGINT NOT NULL
);
