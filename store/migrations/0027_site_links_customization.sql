-- A site's share links: each has its own key, which share-link visitors
-- show (?share= or ?shareKey=, then a cookie); revoking a link (active
-- false) or deleting it shuts out whoever holds its key and no one else.
-- Keys are stored as is, as sites.share_key was: their admins read them back
-- in urls.published. Every site made before this migration keeps its key as
-- one link, whose id is the site's, so visitors keep their access;
-- sites.share_key is no longer read.
CREATE TABLE site_share_links (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    share_key  TEXT NOT NULL UNIQUE,
    active     BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL
);
CREATE INDEX site_share_links_site ON site_share_links (site_id, created_at, id);
INSERT INTO site_share_links (id, site_id, name, share_key, active, created_at)
    SELECT id, id, 'Share link', share_key, TRUE, created_at FROM sites;

-- A site's customization (the reference's SiteCustomizationSettings, JSON
-- as given, NULL until set: the defaults apply) and its site spaces'
-- overrides of it (a JSON object merged onto the site's).
ALTER TABLE sites ADD COLUMN customization TEXT;
ALTER TABLE sites ADD COLUMN customization_updated_at BIGINT;
ALTER TABLE site_spaces ADD COLUMN customization TEXT;
ALTER TABLE site_spaces ADD COLUMN customization_updated_at BIGINT;
