package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"sort"

	"github.com/quiredocs/quire"
)

// Kinds of the items placed in a site's orders (quire.Sibling.Kind).
const (
	kindSection   = "site-section"
	kindGroup     = "site-section-group"
	kindSiteSpace = "site-space"
	kindLink      = "site-external-link"
)

// SiteStructure loads everything a site publishes, in order, with the
// spaces of its site spaces: three queries whatever its size, and a fourth
// for the external links of a site with sections.
func (r reader) SiteStructure(ctx context.Context, siteID string) (*quire.SiteStructure, error) {
	sections, err := r.siteSections(ctx, siteID)
	if err != nil {
		return nil, err
	}
	groups, err := r.siteSectionGroups(ctx, siteID)
	if err != nil {
		return nil, err
	}
	st := &quire.SiteStructure{SiteSpaces: []*quire.SiteSpace{}, Items: []quire.SiteItem{}}
	if err := r.placeSiteSpaces(ctx, siteID, sections, st); err != nil {
		return nil, err
	}
	placeSections(st, sections, groups)
	if len(sections) > 0 {
		if st.ExternalLinks, err = r.ListSiteExternalLinks(ctx, siteID); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// siteSections loads a site's sections by id, without their site spaces.
func (r reader) siteSections(ctx context.Context, siteID string) (map[string]*quire.SiteSection, error) {
	sections := map[string]*quire.SiteSection{}
	rows, err := r.q.query(ctx, `SELECT id, group_id, title, description, path, cond, icon, is_default, position
		FROM site_sections WHERE site_id = ?`, siteID)
	if err != nil {
		return nil, err
	}
	err = eachRow(rows, func(rows *sql.Rows) error {
		sec := &quire.SiteSection{SiteID: siteID, SiteSpaces: []*quire.SiteSpace{}}
		var group, desc, cond, icon sql.NullString
		if err := rows.Scan(&sec.ID, &group, &sec.Title, &desc, &sec.Path, &cond, &icon, &sec.Default, &sec.Position); err != nil {
			return err
		}
		sec.GroupID, sec.Description, sec.Condition, sec.Icon = group.String, desc.String, cond.String, icon.String
		sections[sec.ID] = sec
		return nil
	})
	return sections, err
}

// siteSectionGroups loads a site's section groups, without their sections.
func (r reader) siteSectionGroups(ctx context.Context, siteID string) ([]*quire.SiteSectionGroup, error) {
	var groups []*quire.SiteSectionGroup
	rows, err := r.q.query(ctx, "SELECT id, title, icon, position FROM site_section_groups WHERE site_id = ?", siteID)
	if err != nil {
		return nil, err
	}
	err = eachRow(rows, func(rows *sql.Rows) error {
		g := &quire.SiteSectionGroup{SiteID: siteID, Sections: []*quire.SiteSection{}}
		var icon sql.NullString
		if err := rows.Scan(&g.ID, &g.Title, &icon, &g.Position); err != nil {
			return err
		}
		g.Icon = icon.String
		groups = append(groups, g)
		return nil
	})
	return groups, err
}

// placeSiteSpaces loads a site's site spaces, in order, with their spaces,
// into their sections or, outside any, into st.
func (r reader) placeSiteSpaces(ctx context.Context, siteID string, sections map[string]*quire.SiteSection, st *quire.SiteStructure) error {
	rows, err := r.q.query(ctx, `SELECT ss.id, ss.section_id, ss.path, ss.cond, ss.is_default, ss.position, ss.customization, `+spaceColumns+`
		FROM site_spaces ss JOIN spaces s ON s.id = ss.space_id WHERE ss.site_id = ? ORDER BY ss.position, ss.id`, siteID)
	if err != nil {
		return err
	}
	return eachRow(rows, func(rows *sql.Rows) error {
		ss := &quire.SiteSpace{SiteID: siteID}
		var section, cond, custom sql.NullString
		var sp spaceRow
		if err := rows.Scan(append([]any{&ss.ID, &section, &ss.Path, &cond, &ss.Default, &ss.Position, &custom}, sp.dest()...)...); err != nil {
			return err
		}
		if custom.Valid {
			ss.Customization = json.RawMessage(custom.String)
		}
		ss.SectionID, ss.Condition, ss.Space = section.String, cond.String, sp.value()
		if sec := sections[ss.SectionID]; sec != nil {
			ss.Section = sec
			sec.SiteSpaces = append(sec.SiteSpaces, ss)
		} else {
			st.SiteSpaces = append(st.SiteSpaces, ss)
		}
		return nil
	})
}

// placeSections puts each section in its group, or in st.Items when it has
// none, and the groups in st.Items, all in order.
func placeSections(st *quire.SiteStructure, sections map[string]*quire.SiteSection, groupList []*quire.SiteSectionGroup) {
	groups := make(map[string]*quire.SiteSectionGroup, len(groupList))
	for _, g := range groupList {
		groups[g.ID] = g
	}
	var ungrouped []*quire.SiteSection
	for _, sec := range sections {
		if g := groups[sec.GroupID]; g != nil {
			g.Sections = append(g.Sections, sec)
		} else {
			sec.GroupID = ""
			ungrouped = append(ungrouped, sec)
		}
	}
	for _, sec := range ungrouped {
		st.Items = append(st.Items, quire.SiteItem{Section: sec})
	}
	for _, g := range groupList {
		sortSections(g.Sections)
		st.Items = append(st.Items, quire.SiteItem{Group: g})
	}
	// The order of siteItems: position, then id.
	sort.Slice(st.Items, func(i, j int) bool {
		pi, idi := itemKey(st.Items[i])
		pj, idj := itemKey(st.Items[j])
		if pi != pj {
			return pi < pj
		}
		return idi < idj
	})
}

func itemKey(it quire.SiteItem) (int64, string) {
	if it.Section != nil {
		return it.Section.Position, it.Section.ID
	}
	return it.Group.Position, it.Group.ID
}

func sortSections(list []*quire.SiteSection) {
	sort.Slice(list, func(i, j int) bool {
		if list[i].Position != list[j].Position {
			return list[i].Position < list[j].Position
		}
		return list[i].ID < list[j].ID
	})
}

// eachRow calls fn for each row and closes rows.
func eachRow(rows *sql.Rows, fn func(*sql.Rows) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// siteItems lists the items of one container of a site in order: the top
// level (groupID "") holds the ungrouped sections, the groups and the
// external links outside groups; a group holds its sections and links.
func (r reader) siteItems(ctx context.Context, siteID, groupID string) ([]quire.Sibling, []int64, error) {
	query, args := `SELECT '`+kindSection+`', id, position FROM site_sections WHERE site_id = ? AND group_id IS NULL
		UNION ALL SELECT '`+kindGroup+`', id, position FROM site_section_groups WHERE site_id = ?
		UNION ALL SELECT '`+kindLink+`', id, position FROM site_external_links WHERE site_id = ? AND group_id IS NULL
		ORDER BY 3, 2`, []any{siteID, siteID, siteID}
	if groupID != "" {
		query, args = `SELECT '`+kindSection+`', id, position FROM site_sections WHERE group_id = ?
		UNION ALL SELECT '`+kindLink+`', id, position FROM site_external_links WHERE group_id = ?
		ORDER BY 3, 2`, []any{groupID, groupID}
	}
	return r.orderedItems(ctx, query, args...)
}

// siteSpaceItems lists the site spaces of a section ("" for the root of the site) in order.
func (r reader) siteSpaceItems(ctx context.Context, siteID, sectionID string) ([]quire.Sibling, []int64, error) {
	if sectionID == "" {
		return r.orderedItems(ctx, `SELECT '`+kindSiteSpace+`', id, position FROM site_spaces
			WHERE site_id = ? AND section_id IS NULL ORDER BY 3, 2`, siteID)
	}
	return r.orderedItems(ctx, `SELECT '`+kindSiteSpace+`', id, position FROM site_spaces
		WHERE section_id = ? ORDER BY 3, 2`, sectionID)
}

func (r reader) orderedItems(ctx context.Context, query string, args ...any) ([]quire.Sibling, []int64, error) {
	rows, err := r.q.query(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	var sibs []quire.Sibling
	var positions []int64
	err = eachRow(rows, func(rows *sql.Rows) error {
		var s quire.Sibling
		var pos int64
		if err := rows.Scan(&s.Kind, &s.ID, &pos); err != nil {
			return err
		}
		sibs, positions = append(sibs, s), append(positions, pos)
		return nil
	})
	return sibs, positions, err
}

func siteTableOf(kind string) string {
	switch kind {
	case kindGroup:
		return "site_section_groups"
	case kindSiteSpace:
		return "site_spaces"
	case kindLink:
		return "site_external_links"
	}
	return "site_sections"
}

// place puts item among the items of a container at pos, numbering them
// 1, 2, … and writing only the positions that change (quire.Renumber).
// setParent writes the item's new container with its position.
func (tx *Tx) place(ctx context.Context, sibs []quire.Sibling, positions []int64, item quire.Sibling, pos quire.Position,
	setParent string, parent any) error {
	placements, err := quire.Renumber(sibs, positions, item, pos)
	if err != nil {
		return err
	}
	for _, p := range placements {
		query, args := "UPDATE "+siteTableOf(p.Kind)+" SET position = ?", []any{p.Position}
		if p.Sibling == item && setParent != "" {
			query, args = query+", "+setParent+" = ?", append(args, parent)
		}
		if _, err := tx.q.exec(ctx, query+" WHERE id = ?", append(args, p.ID)...); err != nil {
			return err
		}
	}
	return nil
}

// placeSiteItem puts a section, group or external link in a container of
// the site (the top level for groupID "", else that group) at pos.
func (tx *Tx) placeSiteItem(ctx context.Context, siteID, groupID string, item quire.Sibling, pos quire.Position) error {
	sibs, positions, err := tx.siteItems(ctx, siteID, groupID)
	if err != nil {
		return err
	}
	if item.Kind == kindSection || item.Kind == kindLink {
		return tx.place(ctx, sibs, positions, item, pos, "group_id", nullString(groupID))
	}
	return tx.place(ctx, sibs, positions, item, pos, "", nil)
}

// placeSiteSpace puts a site space in a section ("" for the root) at pos.
func (tx *Tx) placeSiteSpace(ctx context.Context, siteID, sectionID, id string, pos quire.Position) error {
	sibs, positions, err := tx.siteSpaceItems(ctx, siteID, sectionID)
	if err != nil {
		return err
	}
	return tx.place(ctx, sibs, positions, quire.Sibling{Kind: kindSiteSpace, ID: id}, pos, "section_id", nullString(sectionID))
}

// freePath returns base, or base-2, base-3, … : the first not taken by
// another row of a container (the query counts rows with a path).
func (tx *Tx) freePath(ctx context.Context, base, countQuery string, args ...any) (string, error) {
	for i := 1; ; i++ {
		// Not cut, as ever: base comes from quire.Slugify, which leaves room.
		path := quire.NumberedSlug(base, i, 0)
		var n int
		if err := tx.q.queryRow(ctx, countQuery, append(append([]any{}, args...), path)...).Scan(&n); err != nil {
			return "", err
		}
		if n == 0 {
			return path, nil
		}
	}
}

// siteSection returns the id-named section of a site with its group.
func (r reader) siteSection(ctx context.Context, siteID, id string) (groupID string, isDefault bool, err error) {
	var group sql.NullString
	err = r.q.queryRow(ctx, "SELECT group_id, is_default FROM site_sections WHERE id = ? AND site_id = ?", id, siteID).Scan(&group, &isDefault)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, quire.Errorf(quire.CodeNotFound, "site section not found")
	}
	return group.String, isDefault, err
}

// setDefaultSection makes a section of the site its default one; a section
// of another site is CodeInvalid naming field.
func (tx *Tx) setDefaultSection(ctx context.Context, siteID, id, field string) error {
	if _, _, err := tx.siteSection(ctx, siteID, id); err != nil {
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return quire.Errorf(quire.CodeInvalid, "%s: no section %q in the site", field, id)
		}
		return err
	}
	_, err := tx.q.exec(ctx, "UPDATE site_sections SET is_default = (id = ?) WHERE site_id = ?", id, siteID)
	return err
}

// ensureDefaultSection makes the first section in structure order the
// default when the site has sections but none is the default.
func (tx *Tx) ensureDefaultSection(ctx context.Context, siteID string) error {
	var n int
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_sections WHERE site_id = ? AND is_default", siteID).Scan(&n); err != nil || n > 0 {
		return err
	}
	st, err := tx.SiteStructure(ctx, siteID)
	if err != nil {
		return err
	}
	if secs := st.Sections(); len(secs) > 0 {
		_, err = tx.q.exec(ctx, "UPDATE site_sections SET is_default = ? WHERE id = ?", true, secs[0].ID)
	}
	return err
}

// setDefaultSiteSpace makes a site space the default of its section ("" for
// the root); one elsewhere is CodeInvalid naming field.
func (tx *Tx) setDefaultSiteSpace(ctx context.Context, siteID, sectionID, id, field, where string) error {
	cond, args := siteSpacesIn(siteID, sectionID)
	var n int
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_spaces WHERE id = ? AND "+cond, append([]any{id}, args...)...).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return quire.Errorf(quire.CodeInvalid, "%s: no site space %q in %s", field, id, where)
	}
	_, err := tx.q.exec(ctx, "UPDATE site_spaces SET is_default = (id = ?) WHERE "+cond, append([]any{id}, args...)...)
	return err
}

// siteSpacesIn is the condition on site_spaces for those of a section ("" for the root).
func siteSpacesIn(siteID, sectionID string) (string, []any) {
	if sectionID == "" {
		return "site_id = ? AND section_id IS NULL", []any{siteID}
	}
	return "site_id = ? AND section_id = ?", []any{siteID, sectionID}
}

// ensureDefaultSiteSpace makes the first site space of a section ("" for the
// root) its default when it has site spaces but no default.
func (tx *Tx) ensureDefaultSiteSpace(ctx context.Context, siteID, sectionID string) error {
	cond, args := siteSpacesIn(siteID, sectionID)
	var n int
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_spaces WHERE is_default AND "+cond, args...).Scan(&n); err != nil || n > 0 {
		return err
	}
	var first string
	err := tx.q.queryRow(ctx, "SELECT id FROM site_spaces WHERE "+cond+" ORDER BY position, id LIMIT 1", args...).Scan(&first)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = tx.q.exec(ctx, "UPDATE site_spaces SET is_default = ? WHERE id = ?", true, first)
	return err
}
