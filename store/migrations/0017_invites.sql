-- Invites to an organization (the reference's inviteUsersToOrganization,
-- joinOrganizationWithInvite and link invites). Quire sends no mail: the
-- inviter is given the link and passes it on. Only the SHA-256 of each
-- link's secret key is kept.

-- E-mail invites: one address, one role, used once before it expires.
CREATE TABLE org_invites (
    hash       TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email      TEXT NOT NULL, -- stored lower case
    role       TEXT,          -- NULL: joins as a guest
    sso        BOOLEAN NOT NULL DEFAULT FALSE,
    invited_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT,
    used_by    TEXT REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX org_invites_org ON org_invites (org_id, email);

-- Link invites: shareable, for the organization or one of its spaces or
-- collections (at most one of space_id and collection_id), until deleted.
CREATE TABLE link_invites (
    id            TEXT PRIMARY KEY,
    hash          TEXT NOT NULL UNIQUE,
    org_id        TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id      TEXT REFERENCES spaces (id) ON DELETE CASCADE,
    collection_id TEXT REFERENCES collections (id) ON DELETE CASCADE,
    role          TEXT, -- the organization role or the level on the content; NULL: guest
    created_by    TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX link_invites_org ON link_invites (org_id, created_at, id);
