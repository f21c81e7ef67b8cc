package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/quiredocs/quire"
)

// siteColumns read a site with true counts of its site spaces and sections;
// siteHeaderColumns leave the counts out (-1), which cost half of reading a
// site, for callers that count from its structure.
const (
	siteBaseColumns = `t.id, t.org_id, t.type, t.title, t.hostname, t.basename, t.proxy, t.visibility, t.published,
	t.adaptive_content, t.visitor_key, t.visitor_fallback_url, t.visitor_logout_url, t.visitor_issuer,
	t.version, t.created_at, t.updated_at, t.customization, `
	siteColumns = siteBaseColumns + `(SELECT COUNT(*) FROM site_spaces x WHERE x.site_id = t.id),
	(SELECT COUNT(*) FROM site_sections x WHERE x.site_id = t.id)`
	siteHeaderColumns = siteBaseColumns + "-1, -1"
)

func scanSite(row interface{ Scan(...any) error }) (*quire.Site, error) {
	var s quire.Site
	var hostname, basename, proxy, key, fallback, logout, issuer, custom sql.NullString
	var created, updated int64
	if err := row.Scan(&s.ID, &s.OrgID, &s.Type, &s.Title, &hostname, &basename, &proxy, &s.Visibility, &s.Published,
		&s.AdaptiveContent, &key, &fallback, &logout, &issuer,
		&s.Version, &created, &updated, &custom, &s.SiteSpaces, &s.Sections); err != nil {
		return nil, err
	}
	s.Hostname, s.Basename, s.Proxy = hostname.String, basename.String, proxy.String
	s.PublishingAuth = quire.SitePublishingAuth{Key: key.String, FallbackURL: fallback.String, LogoutURL: logout.String, Issuer: issuer.String}
	s.CreatedAt, s.UpdatedAt = fromMicros(created), fromMicros(updated)
	if custom.Valid {
		s.Customization = json.RawMessage(custom.String)
	}
	return &s, nil
}

// Site returns a site by id.
func (r reader) Site(ctx context.Context, id string) (*quire.Site, error) {
	s, err := scanSite(r.q.queryRow(ctx, "SELECT "+siteColumns+" FROM sites t WHERE t.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "site not found")
	}
	if err != nil {
		return nil, err
	}
	return s, r.loadShareKeys(ctx, s)
}

// SiteHeader returns a site without its counts (SiteSpaces and Sections are
// -1), for callers that count from its structure.
func (r reader) SiteHeader(ctx context.Context, id string) (*quire.Site, error) {
	s, err := scanSite(r.q.queryRow(ctx, "SELECT "+siteHeaderColumns+" FROM sites t WHERE t.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "site not found")
	}
	if err != nil {
		return nil, err
	}
	return s, r.loadShareKeys(ctx, s)
}

// SiteFilter narrows a site list; zero fields do not filter.
type SiteFilter struct {
	SpaceID   string           // sites publishing this space
	Title     string           // sites whose title contains this, in any case
	Published *bool            // published or not
	Types     []quire.SiteType // sites of one of these types
	// Only, when not nil, keeps the sites of these ids (none when empty):
	// a guest's list is of the sites granted to them.
	Only []string
}

// ListSites lists the sites of an organization, oldest first.
func (r reader) ListSites(ctx context.Context, orgID string, f SiteFilter, p Page) (*List[*quire.Site], error) {
	where, args := " WHERE t.org_id = ?", []any{orgID}
	if f.SpaceID != "" {
		where += " AND EXISTS (SELECT 1 FROM site_spaces x WHERE x.site_id = t.id AND x.space_id = ?)"
		args = append(args, f.SpaceID)
	}
	if f.Title != "" {
		where += ` AND t.title_key LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscaper.Replace(strings.ToLower(f.Title))+"%")
	}
	if f.Published != nil {
		where += " AND t.published = ?"
		args = append(args, *f.Published)
	}
	if len(f.Types) > 0 {
		where += " AND t.type IN (" + placeholders(len(f.Types)) + ")"
		for _, typ := range f.Types {
			args = append(args, string(typ))
		}
	}
	if f.Only != nil {
		if len(f.Only) == 0 {
			where += " AND 1 = 0"
		} else {
			where += " AND t.id IN (" + placeholders(len(f.Only)) + ")"
			for _, id := range f.Only {
				args = append(args, id)
			}
		}
	}
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM sites t", "SELECT "+siteColumns+" FROM sites t", where, args,
		keysetOrder{key: "t.created_at", id: "t.id", numeric: true}, p,
		scanWithCursor(scanSite, func(s *quire.Site) Cursor { return Cursor{Num: micros(s.CreatedAt), ID: s.ID} }))
}

// NewSite is what creating a site takes.
type NewSite struct {
	Type       quire.SiteType
	Title      string
	Visibility quire.Visibility
	// SpaceIDs are published at the root of the site, in order; the first
	// is the default. Or NewSpace, when not nil, creates a space to publish.
	SpaceIDs []string
	NewSpace *NewSpace
}

// CreateSite creates an unpublished site with its first site spaces.
func (db *DB) CreateSite(ctx context.Context, orgID string, n NewSite) (site *quire.Site, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		id, key := newID(), newShareKey()
		if _, err := tx.q.exec(ctx, `INSERT INTO sites (id, org_id, type, title, title_key, visibility, published, share_key,
			adaptive_content, visitor_key, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
			id, orgID, string(n.Type), n.Title, strings.ToLower(n.Title), string(n.Visibility), false, key, false,
			newVisitorKey(), micros(tx.Now), micros(tx.Now)); err != nil {
			return err
		}
		// Every site starts with one share link, as sites made before share
		// links were had (migration 0027), so a share-link site is reachable.
		if err := tx.insertShareLink(ctx, id, id, "Share link", key); err != nil {
			return err
		}
		if n.NewSpace != nil {
			if _, err := tx.addSiteSpace(ctx, orgID, id, "", "", n.NewSpace); err != nil {
				return err
			}
		}
		for i, spaceID := range n.SpaceIDs {
			if _, err := tx.addSiteSpace(ctx, orgID, id, "", spaceID, nil); err != nil {
				if quire.ErrorCode(err) == quire.CodeConflict {
					return quire.Errorf(quire.CodeInvalid, "spaces[%d]: space %q is listed twice", i, spaceID)
				}
				return err
			}
		}
		site, err = tx.Site(ctx, id)
		return err
	})
	return site, err
}

// touchSite records a change of a site: a new version for caches, a new
// updated_at, a call to its renderer's revalidation endpoint if it has one
// (siterevalidation.go). Writing the site's row first also serializes the
// writes to one site on PostgreSQL. A site that does not exist is not found.
func (tx *Tx) touchSite(ctx context.Context, siteID string) error {
	res, err := tx.q.exec(ctx, "UPDATE sites SET version = version + 1, updated_at = ? WHERE id = ?", micros(tx.Now), siteID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quire.Errorf(quire.CodeNotFound, "site not found")
	}
	return tx.revalidateSite(ctx, siteID)
}

// SiteUpdate is a partial update; nil fields stay as they are. An empty
// Hostname, Basename or Proxy removes it.
type SiteUpdate struct {
	Title              *string
	Visibility         *quire.Visibility
	Hostname           *string
	Basename           *string
	Proxy              *string
	AdaptiveContent    *bool
	Published          *bool
	DefaultSiteSpace   *string // a site space at the root, or in the default section
	DefaultSiteSection *string
	Actor              string // user id of who changes it, for webhooks
	// TakeHostname says the site's organization proved Hostname its own
	// just now: another site's claim of it, not proved, gives way.
	TakeHostname bool
}

// UpdateSite applies u to a site.
func (db *DB) UpdateSite(ctx context.Context, id string, u SiteUpdate) (*quire.Site, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, id); err != nil {
			return err
		}
		set := map[string]any{}
		if u.Title != nil {
			set["title"], set["title_key"] = *u.Title, strings.ToLower(*u.Title)
		}
		if u.Visibility != nil {
			set["visibility"] = string(*u.Visibility)
		}
		for _, f := range []struct {
			field, col string
			v          *string
		}{{"hostname", "hostname", u.Hostname}, {"basename", "basename", u.Basename}, {"proxy", "proxy", u.Proxy}} {
			if f.v == nil {
				continue
			}
			if f.col == "hostname" {
				if err := tx.hostnameChanging(ctx, id, *f.v, set); err != nil {
					return err
				}
				if u.TakeHostname {
					if err := tx.takeHostname(ctx, id, *f.v); err != nil {
						return err
					}
				}
			}
			if *f.v != "" {
				var n int
				if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM sites WHERE "+f.col+" = ? AND id <> ?", *f.v, id).Scan(&n); err != nil {
					return err
				}
				if n > 0 {
					return quire.Errorf(quire.CodeConflict, "%s: %q is already used by another site", f.field, *f.v)
				}
			}
			set[f.col] = nullString(*f.v)
		}
		if u.AdaptiveContent != nil {
			set["adaptive_content"] = *u.AdaptiveContent
		}
		if u.Published != nil {
			set["published"] = *u.Published
			if err := tx.emitPublished(ctx, id, *u.Published, u.Actor); err != nil {
				return err
			}
		}
		if err := tx.update(ctx, "sites", "id", id, set); err != nil {
			return err
		}
		if u.DefaultSiteSection != nil {
			if err := tx.setDefaultSection(ctx, id, *u.DefaultSiteSection, "defaultSiteSection"); err != nil {
				return err
			}
		}
		if u.DefaultSiteSpace != nil {
			if err := tx.setSiteDefaultSiteSpace(ctx, id, *u.DefaultSiteSpace); err != nil {
				return err
			}
		}
		return nil
	}, func(tx *Tx) (*quire.Site, error) { return tx.Site(ctx, id) })
}

// setSiteDefaultSiteSpace makes a site space the default of the site's root,
// or of its default section when it has sections.
func (tx *Tx) setSiteDefaultSiteSpace(ctx context.Context, siteID, siteSpaceID string) error {
	var section sql.NullString
	err := tx.q.queryRow(ctx, "SELECT id FROM site_sections WHERE site_id = ? AND is_default", siteID).Scan(&section)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	where := "the root of the site"
	if section.Valid {
		where = "the site's default section"
	}
	return tx.setDefaultSiteSpace(ctx, siteID, section.String, siteSpaceID, "defaultSiteSpace", where)
}

// DeleteSite removes a site and everything in it; the spaces stay.
func (db *DB) DeleteSite(ctx context.Context, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		res, err := tx.q.exec(ctx, "DELETE FROM sites WHERE id = ?", id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return quire.Errorf(quire.CodeNotFound, "site not found")
		}
		_, err = tx.q.exec(ctx, "DELETE FROM content_grants WHERE content_id = ?", id)
		return err
	})
}

// AdaptiveSchema returns the JSON schema of a site's visitor attributes and
// when it was set; CodeNotFound until one is set.
func (r reader) AdaptiveSchema(ctx context.Context, siteID string) (json.RawMessage, time.Time, error) {
	var schema sql.NullString
	var updated sql.NullInt64
	err := r.q.queryRow(ctx, "SELECT adaptive_schema, adaptive_schema_updated_at FROM sites WHERE id = ?", siteID).Scan(&schema, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, quire.Errorf(quire.CodeNotFound, "site not found")
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	if !schema.Valid {
		return nil, time.Time{}, quire.Errorf(quire.CodeNotFound, "the site has no adaptive schema")
	}
	return json.RawMessage(schema.String), fromMicros(updated.Int64), nil
}

// SetAdaptiveSchema replaces a site's adaptive schema (validated by the
// caller) and returns when it was set.
func (db *DB) SetAdaptiveSchema(ctx context.Context, siteID string, schema json.RawMessage) (updated time.Time, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		updated = tx.Now
		_, err := tx.q.exec(ctx, "UPDATE sites SET adaptive_schema = ?, adaptive_schema_updated_at = ? WHERE id = ?",
			string(schema), micros(tx.Now), siteID)
		return err
	})
	return updated, err
}

// SiteIDByHostname returns the id of the site served at hostname: the
// site whose hostname it is, once its DNS proved it the site's own
// (customhostnames.go).
func (r reader) SiteIDByHostname(ctx context.Context, hostname string) (string, error) {
	return r.siteIDWithHostname(ctx, hostname, " AND hostname_verified_at IS NOT NULL")
}

// SiteIDWithHostname returns the id of the site whose hostname it is,
// proved or not.
func (r reader) SiteIDWithHostname(ctx context.Context, hostname string) (string, error) {
	return r.siteIDWithHostname(ctx, hostname, "")
}

func (r reader) siteIDWithHostname(ctx context.Context, hostname, and string) (string, error) {
	var id string
	err := r.q.queryRow(ctx, "SELECT id FROM sites WHERE hostname = ?"+and, hostname).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", quire.Errorf(quire.CodeNotFound, "site not found")
	}
	return id, err
}

// hostnameChanging unproves a site's hostname that changes: the new one
// is served once its DNS proves it (customhostnames.go), and the old one's
// last check goes.
func (tx *Tx) hostnameChanging(ctx context.Context, id, hostname string, set map[string]any) error {
	var old sql.NullString
	if err := tx.q.queryRow(ctx, "SELECT hostname FROM sites WHERE id = ?", id).Scan(&old); err != nil {
		return err
	}
	if old.String == hostname {
		return nil
	}
	set["hostname_verified_at"] = nil
	_, err := tx.q.exec(ctx, "DELETE FROM custom_hostname_checks WHERE hostname = ?", old.String)
	return err
}

// takeHostname takes hostname off any other site that has not proved it,
// for site id, whose organization has: claiming a name first does not make
// it one's own.
func (tx *Tx) takeHostname(ctx context.Context, id, hostname string) error {
	n, err := tx.q.affected(ctx, `UPDATE sites SET hostname = NULL, hostname_verified_at = NULL, version = version + 1, updated_at = ?
		WHERE hostname = ? AND id <> ? AND hostname_verified_at IS NULL`, micros(tx.Now), hostname, id)
	if err != nil || n == 0 {
		return err
	}
	_, err = tx.q.exec(ctx, "DELETE FROM custom_hostname_checks WHERE hostname = ?", hostname)
	return err
}
