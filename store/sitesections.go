package store

import (
	"context"
	"unicode/utf8"

	"github.com/quiredocs/quire"
)

// sectionOf finds a section in a site's structure.
func sectionOf(st *quire.SiteStructure, id string) *quire.SiteSection {
	for _, sec := range st.Sections() {
		if sec.ID == id {
			return sec
		}
	}
	return nil
}

// SiteSection returns a section of a site with its site spaces.
func (r reader) SiteSection(ctx context.Context, siteID, id string) (*quire.SiteSection, error) {
	return siteItem(ctx, r, siteID, "site section", func(st *quire.SiteStructure) *quire.SiteSection { return sectionOf(st, id) })
}

// siteItem is what find finds in the structure of a site; nil is a not
// found error naming what.
func siteItem[T comparable](ctx context.Context, r reader, siteID, what string, find func(*quire.SiteStructure) T) (T, error) {
	var none T
	st, err := r.SiteStructure(ctx, siteID)
	if err != nil {
		return none, err
	}
	if it := find(st); it != none {
		return it, nil
	}
	return none, quire.Errorf(quire.CodeNotFound, "%s not found", what)
}

// NewSiteSection is what creating a section takes: the space of its first
// site space (or NewSpace to create one) and an optional title.
type NewSiteSection struct {
	SpaceID  string
	NewSpace *NewSpace
	Title    string // "" for the space's title
	Icon     string
}

// sectionTitle fits a title to the 2 to 128 characters of a section's.
func sectionTitle(title string) string {
	title = truncateRunes(title, 128)
	if utf8.RuneCountInString(title) < 2 {
		return "Section"
	}
	return title
}

// CreateSiteSection adds a section at the end of the site's top level, with
// the space as its first site space. Creating the first section of a site
// whose site spaces are at its root first moves them, in order, into a
// default section titled after the site.
func (db *DB) CreateSiteSection(ctx context.Context, site *quire.Site, n NewSiteSection) (sec *quire.SiteSection, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, site.ID); err != nil {
			return err
		}
		var sections, root int
		if err := tx.q.queryRow(ctx, `SELECT (SELECT COUNT(*) FROM site_sections WHERE site_id = ?),
			(SELECT COUNT(*) FROM site_spaces WHERE site_id = ? AND section_id IS NULL)`, site.ID, site.ID).Scan(&sections, &root); err != nil {
			return err
		}
		sp, err := tx.siteSpaceSource(ctx, site.OrgID, n.SpaceID, n.NewSpace)
		if err != nil {
			return err
		}
		isDefault := sections == 0
		if sections == 0 && root > 0 {
			first, err := tx.insertSection(ctx, site.ID, sectionTitle(site.Title), "", true)
			if err != nil {
				return err
			}
			if _, err := tx.q.exec(ctx, "UPDATE site_spaces SET section_id = ? WHERE site_id = ? AND section_id IS NULL", first, site.ID); err != nil {
				return err
			}
			isDefault = false
		}
		title := n.Title
		if title == "" {
			title = sp.Title
		}
		id, err := tx.insertSection(ctx, site.ID, sectionTitle(title), n.Icon, isDefault)
		if err != nil {
			return err
		}
		if _, err := tx.addSiteSpace(ctx, site.OrgID, site.ID, id, sp.ID, nil); err != nil {
			return err
		}
		sec, err = tx.SiteSection(ctx, site.ID, id)
		return err
	})
	return sec, err
}

// insertSection adds a section at the end of the site's top level, at a path
// made from its title.
func (tx *Tx) insertSection(ctx context.Context, siteID, title, icon string, isDefault bool) (string, error) {
	path, err := tx.freePath(ctx, quire.Slugify(title, "section"), "SELECT COUNT(*) FROM site_sections WHERE site_id = ? AND path = ?", siteID)
	if err != nil {
		return "", err
	}
	var end int64
	if err := tx.q.queryRow(ctx, `SELECT COALESCE(MAX(p), 0) FROM (
		SELECT MAX(position) AS p FROM site_sections WHERE site_id = ? AND group_id IS NULL
		UNION ALL SELECT MAX(position) AS p FROM site_section_groups WHERE site_id = ?) m`, siteID, siteID).Scan(&end); err != nil {
		return "", err
	}
	id := newID()
	_, err = tx.q.exec(ctx, `INSERT INTO site_sections (id, site_id, title, path, icon, is_default, position, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, siteID, title, path, nullString(icon), isDefault, end+1, micros(tx.Now), micros(tx.Now))
	return id, err
}

// SiteSectionUpdate is a partial update; nil fields stay as they are. An
// empty Condition, Icon or Description removes it.
type SiteSectionUpdate struct {
	Title            *string
	Path             *string
	DefaultSiteSpace *string
	Condition        *string
	Icon             *string
	Description      *string
}

// UpdateSiteSection applies u to a section of a site.
func (db *DB) UpdateSiteSection(ctx context.Context, siteID, id string, u SiteSectionUpdate) (*quire.SiteSection, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if _, _, err := tx.siteSection(ctx, siteID, id); err != nil {
			return err
		}
		set := map[string]any{"updated_at": micros(tx.Now)}
		if u.Title != nil {
			set["title"] = *u.Title
		}
		if u.Path != nil {
			var n int
			if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_sections WHERE site_id = ? AND path = ? AND id <> ?", siteID, *u.Path, id).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return quire.Errorf(quire.CodeConflict, "path: %q is already the path of another section of the site", *u.Path)
			}
			set["path"] = *u.Path
		}
		if u.Condition != nil {
			set["cond"] = nullString(*u.Condition)
		}
		if u.Icon != nil {
			set["icon"] = nullString(*u.Icon)
		}
		if u.Description != nil {
			set["description"] = nullString(*u.Description)
		}
		if err := tx.update(ctx, "site_sections", "id", id, set); err != nil {
			return err
		}
		if u.DefaultSiteSpace != nil {
			if err := tx.setDefaultSiteSpace(ctx, siteID, id, *u.DefaultSiteSpace, "defaultSiteSpace", "the section"); err != nil {
				return err
			}
		}
		return nil
	}, func(tx *Tx) (*quire.SiteSection, error) { return tx.SiteSection(ctx, siteID, id) })
}

// DeleteSiteSection removes a section with its site spaces and the redirects
// to it; the spaces stay. When it was the default, the first section left
// becomes the default.
func (db *DB) DeleteSiteSection(ctx context.Context, siteID, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if _, _, err := tx.siteSection(ctx, siteID, id); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "DELETE FROM site_sections WHERE id = ?", id); err != nil {
			return err
		}
		return tx.ensureDefaultSection(ctx, siteID)
	})
}

// MoveSiteSection moves a section among the items of its container (its
// group, or the top level of the site) to pos.
func (db *DB) MoveSiteSection(ctx context.Context, siteID, id string, pos quire.Position) (*quire.SiteSection, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		group, _, err := tx.siteSection(ctx, siteID, id)
		if err != nil {
			return err
		}
		return tx.placeSiteItem(ctx, siteID, group, quire.Sibling{Kind: kindSection, ID: id}, pos)
	}, func(tx *Tx) (*quire.SiteSection, error) { return tx.SiteSection(ctx, siteID, id) })
}

// SiteSectionGroup returns a group of a site with its sections.
func (r reader) SiteSectionGroup(ctx context.Context, siteID, id string) (*quire.SiteSectionGroup, error) {
	return siteItem(ctx, r, siteID, "site section group", func(st *quire.SiteStructure) *quire.SiteSectionGroup {
		for _, it := range st.Items {
			if it.Group != nil && it.Group.ID == id {
				return it.Group
			}
		}
		return nil
	})
}

// ListSiteSectionGroups lists the groups of a site in their order.
func (r reader) ListSiteSectionGroups(ctx context.Context, siteID string, p Page) (*List[*quire.SiteSectionGroup], error) {
	st, err := r.SiteStructure(ctx, siteID)
	if err != nil {
		return nil, err
	}
	var all []*quire.SiteSectionGroup
	for _, it := range st.Items {
		if it.Group != nil {
			all = append(all, it.Group)
		}
	}
	list, _ := PageInOrder(all, p, func(g *quire.SiteSectionGroup) string { return g.ID })
	return list, nil
}

// ListSiteSections lists the sections of a site in structure order.
func (r reader) ListSiteSections(ctx context.Context, siteID string, p Page) (*List[*quire.SiteSection], error) {
	st, err := r.SiteStructure(ctx, siteID)
	if err != nil {
		return nil, err
	}
	list, _ := PageInOrder(st.Sections(), p, func(s *quire.SiteSection) string { return s.ID })
	return list, nil
}

// checkSections checks that every id names a section of the site.
func (tx *Tx) checkSections(ctx context.Context, siteID string, ids []string, field string) error {
	for i, id := range ids {
		if _, _, err := tx.siteSection(ctx, siteID, id); err != nil {
			if quire.ErrorCode(err) == quire.CodeNotFound {
				return quire.Errorf(quire.CodeInvalid, "%s[%d]: no section %q in the site", field, i, id)
			}
			return err
		}
	}
	return nil
}

// CreateSiteSectionGroup adds a group at the end of the site's top level and
// moves the sections into it, in order.
func (db *DB) CreateSiteSectionGroup(ctx context.Context, siteID, title, icon string, sections []string) (g *quire.SiteSectionGroup, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if err := tx.checkSections(ctx, siteID, sections, "sections"); err != nil {
			return err
		}
		id := newID()
		if _, err := tx.q.exec(ctx, `INSERT INTO site_section_groups (id, site_id, title, icon, position, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, siteID, title, nullString(icon), 0, micros(tx.Now), micros(tx.Now)); err != nil {
			return err
		}
		if err := tx.placeSiteItem(ctx, siteID, "", quire.Sibling{Kind: kindGroup, ID: id}, quire.Position{}); err != nil {
			return err
		}
		for _, sec := range sections {
			if err := tx.placeSiteItem(ctx, siteID, id, quire.Sibling{Kind: kindSection, ID: sec}, quire.Position{}); err != nil {
				return err
			}
		}
		g, err = tx.SiteSectionGroup(ctx, siteID, id)
		return err
	})
	return g, err
}

// groupExists checks that a group belongs to the site.
func (tx *Tx) groupExists(ctx context.Context, siteID, id string) error {
	var n int
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_section_groups WHERE id = ? AND site_id = ?", id, siteID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return quire.Errorf(quire.CodeNotFound, "site section group not found")
	}
	return nil
}

// UpdateSiteSectionGroup changes a group's title or icon (nil: unchanged; an
// empty icon removes it).
func (db *DB) UpdateSiteSectionGroup(ctx context.Context, siteID, id string, title, icon *string) (*quire.SiteSectionGroup, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if err := tx.groupExists(ctx, siteID, id); err != nil {
			return err
		}
		set := map[string]any{"updated_at": micros(tx.Now)}
		if title != nil {
			set["title"] = *title
		}
		if icon != nil {
			set["icon"] = nullString(*icon)
		}
		return tx.update(ctx, "site_section_groups", "id", id, set)
	}, func(tx *Tx) (*quire.SiteSectionGroup, error) { return tx.SiteSectionGroup(ctx, siteID, id) })
}

// AddSectionToGroup moves a section of the site to the end of a group; a
// section is in at most one group, so it leaves the one it was in.
func (db *DB) AddSectionToGroup(ctx context.Context, siteID, groupID, sectionID string) (*quire.SiteSectionGroup, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if err := tx.groupExists(ctx, siteID, groupID); err != nil {
			return err
		}
		if _, _, err := tx.siteSection(ctx, siteID, sectionID); err != nil {
			if quire.ErrorCode(err) == quire.CodeNotFound {
				return quire.Errorf(quire.CodeInvalid, "sectionId: no section %q in the site", sectionID)
			}
			return err
		}
		return tx.placeSiteItem(ctx, siteID, groupID, quire.Sibling{Kind: kindSection, ID: sectionID}, quire.Position{})
	}, func(tx *Tx) (*quire.SiteSectionGroup, error) { return tx.SiteSectionGroup(ctx, siteID, groupID) })
}

// RemoveSectionFromGroup takes a section out of its group, to the top level
// of the site right after the group.
func (db *DB) RemoveSectionFromGroup(ctx context.Context, siteID, groupID, sectionID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if err := tx.groupExists(ctx, siteID, groupID); err != nil {
			return err
		}
		group, _, err := tx.siteSection(ctx, siteID, sectionID)
		if err != nil {
			return err
		}
		if group != groupID {
			return quire.Errorf(quire.CodeNotFound, "the section is not in this group")
		}
		return tx.placeSiteItem(ctx, siteID, "", quire.Sibling{Kind: kindSection, ID: sectionID},
			quire.Position{After: &quire.Sibling{Kind: kindGroup, ID: groupID}})
	})
}

// MoveSiteSectionGroup moves a group among the top-level items of the site.
func (db *DB) MoveSiteSectionGroup(ctx context.Context, siteID, id string, pos quire.Position) (*quire.SiteSectionGroup, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if err := tx.groupExists(ctx, siteID, id); err != nil {
			return err
		}
		return tx.placeSiteItem(ctx, siteID, "", quire.Sibling{Kind: kindGroup, ID: id}, pos)
	}, func(tx *Tx) (*quire.SiteSectionGroup, error) { return tx.SiteSectionGroup(ctx, siteID, id) })
}

// DeleteSiteSectionGroup removes a group; its sections and external links
// stay, ungrouped, in its place at the top level.
func (db *DB) DeleteSiteSectionGroup(ctx context.Context, siteID, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if err := tx.groupExists(ctx, siteID, id); err != nil {
			return err
		}
		top, _, err := tx.siteItems(ctx, siteID, "")
		if err != nil {
			return err
		}
		inner, _, err := tx.siteItems(ctx, siteID, id)
		if err != nil {
			return err
		}
		var order []quire.Sibling
		for _, s := range top {
			if s.Kind == kindGroup && s.ID == id {
				order = append(order, inner...)
			} else {
				order = append(order, s)
			}
		}
		for i, s := range order {
			query := "UPDATE " + siteTableOf(s.Kind) + " SET position = ?"
			if s.Kind == kindSection || s.Kind == kindLink {
				query += ", group_id = NULL"
			}
			if _, err := tx.q.exec(ctx, query+" WHERE id = ?", int64(i+1), s.ID); err != nil {
				return err
			}
		}
		_, err = tx.q.exec(ctx, "DELETE FROM site_section_groups WHERE id = ?", id)
		return err
	})
}
