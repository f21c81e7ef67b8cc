package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/quiredocs/quire"
)

// A site's external links and MCP servers (the reference's
// SiteExternalLink and SiteMcpServer). Writes touch the site, as every
// change of its structure does, so that caches of the site move on.

const externalLinkColumns = "id, site_id, group_id, title, description, icon, url, draft, cond, position, created_at, updated_at"

func scanExternalLink(row interface{ Scan(...any) error }) (*quire.SiteExternalLink, error) {
	var l quire.SiteExternalLink
	var group, desc, icon, cond sql.NullString
	var created, updated int64
	if err := row.Scan(&l.ID, &l.SiteID, &group, &l.Title, &desc, &icon, &l.URL, &l.Draft, &cond, &l.Position, &created, &updated); err != nil {
		return nil, err
	}
	l.GroupID, l.Description, l.Icon, l.Condition = group.String, desc.String, icon.String, cond.String
	l.CreatedAt, l.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &l, nil
}

// SiteExternalLink returns an external link of a site by id.
func (r reader) SiteExternalLink(ctx context.Context, siteID, id string) (*quire.SiteExternalLink, error) {
	l, err := scanExternalLink(r.q.queryRow(ctx, "SELECT "+externalLinkColumns+" FROM site_external_links WHERE id = ? AND site_id = ?", id, siteID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "site external link not found")
	}
	return l, err
}

// ListSiteExternalLinks lists the external links of a site in order.
func (r reader) ListSiteExternalLinks(ctx context.Context, siteID string) ([]*quire.SiteExternalLink, error) {
	rows, err := r.q.query(ctx, "SELECT "+externalLinkColumns+" FROM site_external_links WHERE site_id = ? ORDER BY position, id", siteID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*quire.SiteExternalLink
	for rows.Next() {
		l, err := scanExternalLink(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// checkLinkParent checks that groupID ("" for the root) is a section group
// of a site with sections.
func (tx *Tx) checkLinkParent(ctx context.Context, siteID, groupID string) error {
	var sections int
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_sections WHERE site_id = ?", siteID).Scan(&sections); err != nil {
		return err
	}
	if sections == 0 {
		return quire.Errorf(quire.CodeInvalid, "the site has no sections: external links go beside sections")
	}
	if groupID == "" {
		return nil
	}
	var n int
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_section_groups WHERE id = ? AND site_id = ?", groupID, siteID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return quire.Errorf(quire.CodeInvalid, "parent: no section group %q in the site", groupID)
	}
	return nil
}

// linkEndPosition is a position after every item of a site's level groupID
// ("" for the root).
func (tx *Tx) linkEndPosition(ctx context.Context, siteID, groupID string) (int64, error) {
	var end int64
	var err error
	if groupID == "" {
		err = tx.q.queryRow(ctx, `SELECT COALESCE(MAX(p), 0) FROM (
			SELECT MAX(position) AS p FROM site_sections WHERE site_id = ? AND group_id IS NULL
			UNION ALL SELECT MAX(position) AS p FROM site_section_groups WHERE site_id = ?
			UNION ALL SELECT MAX(position) AS p FROM site_external_links WHERE site_id = ? AND group_id IS NULL) m`, siteID, siteID, siteID).Scan(&end)
	} else {
		err = tx.q.queryRow(ctx, `SELECT COALESCE(MAX(p), 0) FROM (
			SELECT MAX(position) AS p FROM site_sections WHERE site_id = ? AND group_id = ?
			UNION ALL SELECT MAX(position) AS p FROM site_external_links WHERE site_id = ? AND group_id = ?) m`, siteID, groupID, siteID, groupID).Scan(&end)
	}
	return end + 1, err
}

// CreateSiteExternalLink adds an external link at the end of its level.
func (db *DB) CreateSiteExternalLink(ctx context.Context, l quire.SiteExternalLink) (*quire.SiteExternalLink, error) {
	id := newID()
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, l.SiteID); err != nil {
			return err
		}
		if err := tx.checkLinkParent(ctx, l.SiteID, l.GroupID); err != nil {
			return err
		}
		pos, err := tx.linkEndPosition(ctx, l.SiteID, l.GroupID)
		if err != nil {
			return err
		}
		_, err = tx.q.exec(ctx, "INSERT INTO site_external_links ("+externalLinkColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			id, l.SiteID, nullString(l.GroupID), l.Title, nullString(l.Description), nullString(l.Icon), l.URL, l.Draft,
			nullString(l.Condition), pos, micros(tx.Now), micros(tx.Now))
		return err
	}, func(tx *Tx) (*quire.SiteExternalLink, error) { return tx.SiteExternalLink(ctx, l.SiteID, id) })
}

// SiteExternalLinkUpdate is a partial update; nil fields stay as they are.
// An empty Description, Icon, Condition or GroupID removes it (GroupID:
// moves the link to the root).
type SiteExternalLinkUpdate struct {
	Title, Description, Icon, URL, GroupID, Condition *string
	Draft                                             *bool
}

// UpdateSiteExternalLink changes an external link; moved to another level,
// it goes to its end.
func (db *DB) UpdateSiteExternalLink(ctx context.Context, siteID, id string, u SiteExternalLinkUpdate) (*quire.SiteExternalLink, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		l, err := tx.SiteExternalLink(ctx, siteID, id)
		if err != nil {
			return err
		}
		set := map[string]any{"updated_at": micros(tx.Now)}
		if u.GroupID != nil && *u.GroupID != l.GroupID {
			if err := tx.checkLinkParent(ctx, siteID, *u.GroupID); err != nil {
				return err
			}
			pos, err := tx.linkEndPosition(ctx, siteID, *u.GroupID)
			if err != nil {
				return err
			}
			set["group_id"], set["position"] = nullString(*u.GroupID), pos
		}
		for col, v := range map[string]*string{"title": u.Title, "url": u.URL} {
			if v != nil {
				set[col] = *v
			}
		}
		for col, v := range map[string]*string{"description": u.Description, "icon": u.Icon, "cond": u.Condition} {
			if v != nil {
				set[col] = nullString(*v)
			}
		}
		if u.Draft != nil {
			set["draft"] = *u.Draft
		}
		return tx.update(ctx, "site_external_links", "id", id, set)
	}, func(tx *Tx) (*quire.SiteExternalLink, error) { return tx.SiteExternalLink(ctx, siteID, id) })
}

// MoveSiteExternalLink moves an external link among the sections, groups
// and links of its level (the top, or its group), as pos says.
func (db *DB) MoveSiteExternalLink(ctx context.Context, siteID, id string, pos quire.Position) (*quire.SiteExternalLink, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		l, err := tx.SiteExternalLink(ctx, siteID, id)
		if err != nil {
			return err
		}
		return tx.placeSiteItem(ctx, siteID, l.GroupID, quire.Sibling{Kind: kindLink, ID: id}, pos)
	}, func(tx *Tx) (*quire.SiteExternalLink, error) { return tx.SiteExternalLink(ctx, siteID, id) })
}

// DeleteSiteExternalLink removes an external link and reports whether it
// existed.
func (db *DB) DeleteSiteExternalLink(ctx context.Context, siteID, id string) (existed bool, err error) {
	return db.deleteSiteItem(ctx, siteID, "DELETE FROM site_external_links WHERE id = ? AND site_id = ?", id)
}

func (db *DB) deleteSiteItem(ctx context.Context, siteID, query, id string) (existed bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		res, err := tx.q.exec(ctx, query, id, siteID)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		existed = n > 0
		return nil
	})
	return existed, err
}

const mcpServerColumns = "id, site_id, name, url, transport, headers, cond, created_at, updated_at"

func scanMCPServer(row interface{ Scan(...any) error }) (*quire.SiteMCPServer, error) {
	var m quire.SiteMCPServer
	var headers string
	var cond sql.NullString
	var created, updated int64
	if err := row.Scan(&m.ID, &m.SiteID, &m.Name, &m.URL, &m.Transport, &headers, &cond, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(headers), &m.Headers); err != nil {
		return nil, err
	}
	m.Condition, m.CreatedAt, m.UpdatedAt = cond.String, fromMicros(created), fromMicros(updated)
	return &m, nil
}

// SiteMCPServer returns an MCP server of a site by id.
func (r reader) SiteMCPServer(ctx context.Context, siteID, id string) (*quire.SiteMCPServer, error) {
	m, err := scanMCPServer(r.q.queryRow(ctx, "SELECT "+mcpServerColumns+" FROM site_mcp_servers WHERE id = ? AND site_id = ?", id, siteID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "site MCP server not found")
	}
	return m, err
}

// ListSiteMCPServers lists the MCP servers of a site, oldest first.
func (r reader) ListSiteMCPServers(ctx context.Context, siteID string, p Page) (*List[*quire.SiteMCPServer], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM site_mcp_servers", "SELECT "+mcpServerColumns+" FROM site_mcp_servers", " WHERE site_id = ?", []any{siteID},
		keysetOrder{key: "created_at", id: "id", numeric: true}, p,
		scanWithCursor(scanMCPServer, func(m *quire.SiteMCPServer) Cursor { return Cursor{Num: micros(m.CreatedAt), ID: m.ID} }))
}

// CreateSiteMCPServer adds an MCP server to a site.
func (db *DB) CreateSiteMCPServer(ctx context.Context, m quire.SiteMCPServer) (*quire.SiteMCPServer, error) {
	id := newID()
	headers, err := json.Marshal(m.Headers)
	if err != nil {
		return nil, err
	}
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, m.SiteID); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "INSERT INTO site_mcp_servers ("+mcpServerColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			id, m.SiteID, m.Name, m.URL, m.Transport, string(headers), nullString(m.Condition), micros(tx.Now), micros(tx.Now))
		return err
	}, func(tx *Tx) (*quire.SiteMCPServer, error) { return tx.SiteMCPServer(ctx, m.SiteID, id) })
}

// SiteMCPServerUpdate is a partial update; nil fields stay as they are. An
// empty Condition removes it.
type SiteMCPServerUpdate struct {
	Name, URL, Transport, Condition *string
	Headers                         map[string]string // nil: unchanged
}

// UpdateSiteMCPServer changes an MCP server of a site.
func (db *DB) UpdateSiteMCPServer(ctx context.Context, siteID, id string, u SiteMCPServerUpdate) (*quire.SiteMCPServer, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if _, err := tx.SiteMCPServer(ctx, siteID, id); err != nil {
			return err
		}
		set := map[string]any{"updated_at": micros(tx.Now)}
		for col, v := range map[string]*string{"name": u.Name, "url": u.URL, "transport": u.Transport} {
			if v != nil {
				set[col] = *v
			}
		}
		if u.Condition != nil {
			set["cond"] = nullString(*u.Condition)
		}
		if u.Headers != nil {
			b, err := json.Marshal(u.Headers)
			if err != nil {
				return err
			}
			set["headers"] = string(b)
		}
		return tx.update(ctx, "site_mcp_servers", "id", id, set)
	}, func(tx *Tx) (*quire.SiteMCPServer, error) { return tx.SiteMCPServer(ctx, siteID, id) })
}

// DeleteSiteMCPServer removes an MCP server and reports whether it existed.
func (db *DB) DeleteSiteMCPServer(ctx context.Context, siteID, id string) (existed bool, err error) {
	return db.deleteSiteItem(ctx, siteID, "DELETE FROM site_mcp_servers WHERE id = ? AND site_id = ?", id)
}

// MaxSiteIntegrations bounds the integrations listed on a site.
const MaxSiteIntegrations = 1000

// SiteIntegrations lists, by name, the integrations enabled on a site of
// an organization: those that target sites (target all or site) with an
// active installation on the organization for all its sites, or set up on
// this site.
func (r reader) SiteIntegrations(ctx context.Context, orgID, siteID string) ([]*quire.Integration, error) {
	rows, err := r.q.query(ctx, `SELECT DISTINCT n.integration FROM integration_installations n JOIN integrations i ON i.name = n.integration
		WHERE n.org_id = ? AND n.status = 'active' AND i.target IN ('all', 'site') AND (n.site_selection = 'all'
			OR EXISTS (SELECT 1 FROM integration_site_installations c WHERE c.installation_id = n.id AND c.site_id = ?))
		ORDER BY n.integration LIMIT ?`, orgID, siteID, MaxSiteIntegrations)
	if err != nil {
		return nil, err
	}
	var names []string
	err = eachRow(rows, func(rows *sql.Rows) error {
		var name string
		err := rows.Scan(&name)
		names = append(names, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]*quire.Integration, 0, len(names))
	for _, name := range names {
		in, err := r.Integration(ctx, name)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}
