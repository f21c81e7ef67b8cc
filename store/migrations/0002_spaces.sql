-- Spaces, collections, grants and the first piece of the content model.
-- Spaces and collections that share a parent (or the top level, parent NULL)
-- are siblings in one explicit order, by position. path lists the ancestor
-- collection ids, outermost first, each followed by '/', so a grant on any
-- ancestor is found without walking the tree.

CREATE TABLE collections (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id     TEXT REFERENCES collections (id) ON DELETE CASCADE,
    path          TEXT NOT NULL,
    title         TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    default_level TEXT,          -- 'inherit', a role, or NULL for nothing by default
    position      BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    deleted_at    BIGINT
);
CREATE INDEX collections_org ON collections (org_id, path, position, id);
CREATE INDEX collections_parent ON collections (parent_id);

CREATE TABLE spaces (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id     TEXT REFERENCES collections (id) ON DELETE CASCADE,
    path          TEXT NOT NULL,
    title         TEXT NOT NULL,
    emoji         TEXT NOT NULL DEFAULT '',
    visibility    TEXT NOT NULL,
    edit_mode     TEXT NOT NULL,
    default_level TEXT,
    share_key     TEXT NOT NULL,
    revision_id   TEXT NOT NULL,
    position      BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    deleted_at    BIGINT
);
CREATE INDEX spaces_org ON spaces (org_id, path, position, id);
CREATE INDEX spaces_parent ON spaces (parent_id, position, id);
CREATE INDEX spaces_deleted ON spaces (deleted_at);

-- A revision is an immutable state of a space's content.
CREATE TABLE revisions (
    id         TEXT PRIMARY KEY,
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    parents    TEXT NOT NULL DEFAULT '[]', -- JSON array of revision ids
    type       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX revisions_space ON revisions (space_id);

-- Roles granted on a space or collection to a user or a team.
CREATE TABLE content_grants (
    org_id         TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    content_id     TEXT NOT NULL,
    content_kind   TEXT NOT NULL, -- 'space' or 'collection'
    principal_kind TEXT NOT NULL, -- 'user' or 'team'
    principal_id   TEXT NOT NULL,
    role           TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    PRIMARY KEY (content_id, principal_kind, principal_id)
);
CREATE INDEX content_grants_principal ON content_grants (org_id, principal_kind, principal_id);
