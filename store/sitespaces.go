package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/quiredocs/quire"
)

// siteSpaceSource returns the space a new site space publishes: a live space
// of the organization, or a new one made from n (at the top level).
func (tx *Tx) siteSpaceSource(ctx context.Context, orgID, spaceID string, n *NewSpace) (*quire.Space, error) {
	if n != nil {
		return tx.createSpace(ctx, orgID, *n)
	}
	sp, err := tx.Space(ctx, spaceID)
	if err == nil && (sp.OrgID != orgID || !sp.DeletedAt.IsZero()) {
		err = quire.Errorf(quire.CodeNotFound, "space not found")
	}
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return nil, quire.Errorf(quire.CodeInvalid, "spaceId: no space %q in the organization", spaceID)
	}
	return sp, err
}

// addSiteSpace publishes a space (or a new one made from n) at the end of a
// section of a site ("" for its root), at a path made from the space's
// title. The first site space of a section is its default.
func (tx *Tx) addSiteSpace(ctx context.Context, orgID, siteID, sectionID, spaceID string, n *NewSpace) (string, error) {
	sp, err := tx.siteSpaceSource(ctx, orgID, spaceID, n)
	if err != nil {
		return "", err
	}
	cond, args := siteSpacesIn(siteID, sectionID)
	var taken, count int
	var end sql.NullInt64
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*), MAX(position) FROM site_spaces WHERE "+cond, args...).Scan(&count, &end); err != nil {
		return "", err
	}
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_spaces WHERE space_id = ? AND "+cond, append([]any{sp.ID}, args...)...).Scan(&taken); err != nil {
		return "", err
	}
	if taken > 0 {
		where := "at the root of the site"
		if sectionID != "" {
			where = "in this section"
		}
		return "", quire.Errorf(quire.CodeConflict, "spaceId: space %q is already published %s", sp.ID, where)
	}
	path, err := tx.freePath(ctx, quire.Slugify(sp.Title, "space"), "SELECT COUNT(*) FROM site_spaces WHERE "+cond+" AND path = ?", args...)
	if err != nil {
		return "", err
	}
	id := newID()
	_, err = tx.q.exec(ctx, `INSERT INTO site_spaces (id, site_id, section_id, space_id, path, is_default, position, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, siteID, nullString(sectionID), sp.ID, path, count == 0, end.Int64+1, micros(tx.Now), micros(tx.Now))
	return id, err
}

// siteSpaceOf finds a site space in a site's structure.
func siteSpaceOf(st *quire.SiteStructure, id string) *quire.SiteSpace {
	for _, ss := range st.AllSiteSpaces() {
		if ss.ID == id {
			return ss
		}
	}
	return nil
}

// SiteSpace returns a site space of a site, with its space.
func (r reader) SiteSpace(ctx context.Context, siteID, id string) (*quire.SiteSpace, error) {
	return siteItem(ctx, r, siteID, "site space", func(st *quire.SiteStructure) *quire.SiteSpace { return siteSpaceOf(st, id) })
}

// SiteSpaceFilter narrows a site space list.
type SiteSpaceFilter struct {
	Default *bool // only the default site spaces (of each section), or only the others
}

// ListSiteSpaces lists the site spaces of a site in structure order.
func (r reader) ListSiteSpaces(ctx context.Context, siteID string, f SiteSpaceFilter, p Page) (*List[*quire.SiteSpace], error) {
	st, err := r.SiteStructure(ctx, siteID)
	if err != nil {
		return nil, err
	}
	all := st.AllSiteSpaces()
	if f.Default != nil {
		kept := all[:0]
		for _, ss := range all {
			if ss.Default == *f.Default {
				kept = append(kept, ss)
			}
		}
		all = kept
	}
	list, _ := PageInOrder(all, p, func(ss *quire.SiteSpace) string { return ss.ID })
	return list, nil
}

// NewSiteSpace is what publishing a space in a site takes.
type NewSiteSpace struct {
	SpaceID  string
	NewSpace *NewSpace // when not nil, a new space is created and published
	// SectionID is where: "" for the default section, or the root of a
	// site without sections. Contract §4.11.
	SectionID string
}

// CreateSiteSpace publishes a space at the end of a section of the site.
func (db *DB) CreateSiteSpace(ctx context.Context, site *quire.Site, n NewSiteSpace) (ss *quire.SiteSpace, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, site.ID); err != nil {
			return err
		}
		section := n.SectionID
		if section != "" {
			if _, _, err := tx.siteSection(ctx, site.ID, section); err != nil {
				if quire.ErrorCode(err) == quire.CodeNotFound {
					return quire.Errorf(quire.CodeInvalid, "sectionId: no section %q in the site", section)
				}
				return err
			}
		} else {
			err := tx.q.queryRow(ctx, "SELECT id FROM site_sections WHERE site_id = ? AND is_default", site.ID).Scan(&section)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		id, err := tx.addSiteSpace(ctx, site.OrgID, site.ID, section, n.SpaceID, n.NewSpace)
		if err != nil {
			return err
		}
		ss, err = tx.SiteSpace(ctx, site.ID, id)
		return err
	})
	return ss, err
}

// siteSpaceSection returns the section of a site space ("" at the root).
func (r reader) siteSpaceSection(ctx context.Context, siteID, id string) (string, error) {
	var section sql.NullString
	err := r.q.queryRow(ctx, "SELECT section_id FROM site_spaces WHERE id = ? AND site_id = ?", id, siteID).Scan(&section)
	if errors.Is(err, sql.ErrNoRows) {
		return "", quire.Errorf(quire.CodeNotFound, "site space not found")
	}
	return section.String, err
}

// SiteSpaceUpdate is a partial update; nil fields stay as they are. An
// empty Condition removes it.
type SiteSpaceUpdate struct {
	Path      *string
	Condition *string
}

// UpdateSiteSpace applies u to a site space. Its path is unique in its section.
func (db *DB) UpdateSiteSpace(ctx context.Context, siteID, id string, u SiteSpaceUpdate) (*quire.SiteSpace, error) {
	return db.changeSiteSpace(ctx, siteID, id, func(tx *Tx, section string) error {
		set := map[string]any{"updated_at": micros(tx.Now)}
		if u.Path != nil {
			cond, args := siteSpacesIn(siteID, section)
			var n int
			if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_spaces WHERE "+cond+" AND path = ? AND id <> ?",
				append(args, *u.Path, id)...).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return quire.Errorf(quire.CodeConflict, "path: %q is already the path of another site space here", *u.Path)
			}
			set["path"] = *u.Path
		}
		if u.Condition != nil {
			set["cond"] = nullString(*u.Condition)
		}
		return tx.update(ctx, "site_spaces", "id", id, set)
	})
}

// MoveSiteSpace moves a site space among those of its section (or root).
func (db *DB) MoveSiteSpace(ctx context.Context, siteID, id string, pos quire.Position) (*quire.SiteSpace, error) {
	return db.changeSiteSpace(ctx, siteID, id, func(tx *Tx, section string) error {
		return tx.placeSiteSpace(ctx, siteID, section, id, pos)
	})
}

// changeSiteSpace runs change on a site space, given its section ("" for
// the root), in a transaction that marks the site changed, and returns the
// site space as it then is.
func (db *DB) changeSiteSpace(ctx context.Context, siteID, id string, change func(tx *Tx, section string) error) (*quire.SiteSpace, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		section, err := tx.siteSpaceSection(ctx, siteID, id)
		if err != nil {
			return err
		}
		return change(tx, section)
	}, func(tx *Tx) (*quire.SiteSpace, error) { return tx.SiteSpace(ctx, siteID, id) })
}

// DeleteSiteSpace removes a site space; its space stays.
func (db *DB) DeleteSiteSpace(ctx context.Context, siteID, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.siteSpaceSection(ctx, siteID, id); err != nil {
			return err
		}
		return tx.removeSiteSpaces(ctx, "id = ?", id)
	})
}

// removeSiteSpaces removes the site spaces matching where, then gives each
// section (or root) that lost its default a new one, and records the change
// of each site touched. Deleting, transferring or purging a space calls it
// for the space's site spaces.
func (tx *Tx) removeSiteSpaces(ctx context.Context, where string, args ...any) error {
	rows, err := tx.q.query(ctx, "SELECT site_id, section_id, is_default FROM site_spaces WHERE "+where, args...)
	if err != nil {
		return err
	}
	type container struct{ site, section string }
	touched := map[string]bool{}
	var lostDefault []container
	err = eachRow(rows, func(rows *sql.Rows) error {
		var site string
		var section sql.NullString
		var isDefault bool
		if err := rows.Scan(&site, &section, &isDefault); err != nil {
			return err
		}
		touched[site] = true
		if isDefault {
			lostDefault = append(lostDefault, container{site, section.String})
		}
		return nil
	})
	if err != nil || len(touched) == 0 {
		return err
	}
	if _, err := tx.q.exec(ctx, "DELETE FROM site_spaces WHERE "+where, args...); err != nil {
		return err
	}
	for _, c := range lostDefault {
		if err := tx.ensureDefaultSiteSpace(ctx, c.site, c.section); err != nil {
			return err
		}
	}
	for site := range touched {
		if err := tx.touchSite(ctx, site); err != nil {
			return err
		}
	}
	return nil
}

// unpublishSpaces removes the site spaces of spaces matching a condition on
// spaces (alias s), when they are deleted or leave their organization: a
// restored space is not published again. Contract §3, docs/publishing/docs-sites.md.
func (tx *Tx) unpublishSpaces(ctx context.Context, cond string, args ...any) error {
	return tx.removeSiteSpaces(ctx, "space_id IN (SELECT s.id FROM spaces s WHERE "+cond+")", args...)
}

// DuplicateSiteSpace copies the space a site space publishes (DuplicateSpace)
// and publishes the copy right after it, in the same section, in one
// transaction. It returns the new site space and the space it copied.
func (db *DB) DuplicateSiteSpace(ctx context.Context, site *quire.Site, id string) (ss *quire.SiteSpace, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, site.ID); err != nil {
			return err
		}
		section, err := tx.siteSpaceSection(ctx, site.ID, id)
		if err != nil {
			return err
		}
		var spaceID string
		if err := tx.q.queryRow(ctx, "SELECT space_id FROM site_spaces WHERE site_id = ? AND id = ?", site.ID, id).Scan(&spaceID); err != nil {
			return err
		}
		dup, err := tx.duplicateSpace(ctx, spaceID)
		if err != nil {
			return err
		}
		newID, err := tx.addSiteSpace(ctx, site.OrgID, site.ID, section, dup.ID, nil)
		if err != nil {
			return err
		}
		if err := tx.placeSiteSpace(ctx, site.ID, section, newID, quire.Position{After: &quire.Sibling{Kind: "site-space", ID: id}}); err != nil {
			return err
		}
		ss, err = tx.SiteSpace(ctx, site.ID, newID)
		return err
	})
	return ss, err
}
