-- What the published sites count (Insights): events per site, UTC hour and
-- what they concern, summed. No cookie, address, user agent or visitor id is
-- kept, so counts are all there is: a visitor cannot be told from another.
-- query is a search's text (lower case, bounded), '' for other events;
-- page '' is a page not found (at url_path) or an event of no page.
CREATE TABLE site_insight_counts (
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    hour            BIGINT NOT NULL,  -- Unix seconds of the UTC hour
    event_type      TEXT NOT NULL,    -- the reference's SiteInsightsEventType
    display_context TEXT NOT NULL,    -- site, server, embed or mcp
    site_section    TEXT NOT NULL,
    site_space      TEXT NOT NULL,
    space           TEXT NOT NULL,
    page            TEXT NOT NULL,
    url_path        TEXT NOT NULL,
    query           TEXT NOT NULL,
    authenticated   BOOLEAN NOT NULL, -- the visitor had a visitor-auth token
    events          BIGINT NOT NULL,
    PRIMARY KEY (site_id, hour, event_type, display_context, site_section, site_space, space, page, url_path, query, authenticated)
);
CREATE INDEX site_insight_counts_hour ON site_insight_counts (hour); -- pruning what is kept no longer

-- Links to other addresses shown beside a site's sections (the reference's
-- SiteExternalLink), at the root or in a section group, ordered with them.
CREATE TABLE site_external_links (
    id          TEXT PRIMARY KEY,
    site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    group_id    TEXT REFERENCES site_section_groups (id) ON DELETE SET NULL,
    title       TEXT NOT NULL,
    description TEXT,
    icon        TEXT,
    url         TEXT NOT NULL,
    draft       BOOLEAN NOT NULL,
    cond        TEXT,   -- condition expression, NULL when none
    position    BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX site_external_links_site ON site_external_links (site_id, position, id);

-- MCP servers configured on a site (the reference's SiteMcpServer). headers
-- (a JSON object) may hold credentials: only the site's managers read them.
CREATE TABLE site_mcp_servers (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    url        TEXT NOT NULL,
    transport  TEXT NOT NULL,
    headers    TEXT NOT NULL,
    cond       TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX site_mcp_servers_site ON site_mcp_servers (site_id, created_at, id);
