-- Docs sites. A site publishes spaces as site spaces, at its root or in
-- sections, which section groups may gather. The items of one container
-- share one explicit order by position: the ungrouped sections and the
-- groups at the top of a site, the sections of a group, the site spaces of
-- a section or of the site's root. A site's version counts its changes and
-- those of everything in it, so caches of its published profile can tell
-- when they are stale.
CREATE TABLE sites (
    id                         TEXT PRIMARY KEY,
    org_id                     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    type                       TEXT NOT NULL,
    title                      TEXT NOT NULL,
    hostname                   TEXT UNIQUE,
    basename                   TEXT UNIQUE,
    proxy                      TEXT UNIQUE,
    visibility                 TEXT NOT NULL,
    published                  BOOLEAN NOT NULL DEFAULT FALSE,
    share_key                  TEXT NOT NULL,
    adaptive_content           BOOLEAN NOT NULL DEFAULT FALSE,
    adaptive_schema            TEXT,   -- JSON Schema draft-07, NULL until set
    adaptive_schema_updated_at BIGINT,
    version                    BIGINT NOT NULL DEFAULT 1,
    created_at                 BIGINT NOT NULL,
    updated_at                 BIGINT NOT NULL
);
CREATE INDEX sites_org ON sites (org_id, created_at, id);

CREATE TABLE site_section_groups (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    icon       TEXT,
    position   BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX site_section_groups_site ON site_section_groups (site_id, position, id);

CREATE TABLE site_sections (
    id          TEXT PRIMARY KEY,
    site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    group_id    TEXT REFERENCES site_section_groups (id) ON DELETE SET NULL,
    title       TEXT NOT NULL,
    description TEXT,
    path        TEXT NOT NULL,
    cond        TEXT,   -- condition expression, NULL when none
    icon        TEXT,
    is_default  BOOLEAN NOT NULL DEFAULT FALSE,
    position    BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    UNIQUE (site_id, path)
);
CREATE INDEX site_sections_group ON site_sections (group_id);

CREATE TABLE site_spaces (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    section_id TEXT REFERENCES site_sections (id) ON DELETE CASCADE, -- NULL at the root
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    cond       TEXT,
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    position   BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX site_spaces_path ON site_spaces (site_id, (COALESCE(section_id, '')), path);
CREATE UNIQUE INDEX site_spaces_once ON site_spaces (site_id, (COALESCE(section_id, '')), space_id);
CREATE INDEX site_spaces_section ON site_spaces (section_id);
CREATE INDEX site_spaces_space ON site_spaces (space_id);

CREATE TABLE site_redirects (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    source     TEXT NOT NULL,
    section_id TEXT NOT NULL REFERENCES site_sections (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT, -- NULL until updated
    UNIQUE (site_id, source)
);
CREATE INDEX site_redirects_section ON site_redirects (section_id);
