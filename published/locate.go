package published

import (
	"strings"

	"github.com/quiredocs/quire"
)

// Locate resolves path, below the site's root, to a section, a site space
// and a page path among what the visitor sees: a first segment naming a
// visible section's path selects it (else the default section), then one
// naming a visible site space's path in it (else its default). A default
// the visitor does not see gives way to the first visible item. Slashes
// around path do not matter. It is false when the visitor sees no section
// or no site space there.
//
// The location is Complete when more segments could not change its section
// or site space: path has a page path (its first segment named neither), a
// site space was named, or the visitor sees no other section or site space
// that a further segment could name.
func Locate(st *quire.SiteStructure, path string, sees Sees) (Location, bool) {
	path = strings.Trim(path, "/")
	var loc Location
	spaces := st.SiteSpaces
	// open: a further segment could still name another section.
	open := false
	if len(st.Items) > 0 {
		sections := Sections(st, sees)
		loc.Section = defaultOf(sections, func(sec *quire.SiteSection) bool { return sec.Default })
		first, after, _ := strings.Cut(path, "/")
		named := false
		for _, sec := range sections {
			if !sec.Default && sec.Path == first {
				loc.Section, path, named = sec, after, true
			}
		}
		if loc.Section == nil {
			return Location{}, false
		}
		open = !named && len(sections) > 1
		spaces = loc.Section.SiteSpaces
	}
	spaces = SiteSpaces(spaces, sees)
	first, after, _ := strings.Cut(path, "/")
	loc.SiteSpace = defaultOf(spaces, func(ss *quire.SiteSpace) bool { return ss.Default })
	named := false
	for _, ss := range spaces {
		if !ss.Default && ss.Path == first {
			loc.SiteSpace, path, named = ss, after, true
		}
	}
	if loc.SiteSpace == nil {
		return Location{}, false
	}
	loc.PagePath = path
	loc.Complete = path != "" || named || (!open && len(spaces) <= 1)
	return loc, true
}

// Sections lists the sections of st the visitor sees, in structure order:
// those whose condition they meet with a site space they see.
func Sections(st *quire.SiteStructure, sees Sees) []*quire.SiteSection {
	var out []*quire.SiteSection
	for _, sec := range st.Sections() {
		if SeesSection(sec, sees) {
			out = append(out, sec)
		}
	}
	return out
}

// SeesSection reports whether the visitor sees sec: they meet its
// condition, and see one of its site spaces.
func SeesSection(sec *quire.SiteSection, sees Sees) bool {
	return sees(sec.Condition) && len(SiteSpaces(sec.SiteSpaces, sees)) > 0
}

// SiteSpaces filters spaces to those whose condition the visitor meets.
func SiteSpaces(spaces []*quire.SiteSpace, sees Sees) []*quire.SiteSpace {
	var out []*quire.SiteSpace
	for _, ss := range spaces {
		if sees(ss.Condition) {
			out = append(out, ss)
		}
	}
	return out
}

// Locations are the site spaces of st the visitor sees, each with its
// section (nil on a site without sections) and no page path, in structure
// order.
func Locations(st *quire.SiteStructure, sees Sees) []Location {
	var out []Location
	for _, ss := range SiteSpaces(st.SiteSpaces, sees) {
		out = append(out, Location{SiteSpace: ss})
	}
	for _, sec := range Sections(st, sees) {
		for _, ss := range SiteSpaces(sec.SiteSpaces, sees) {
			out = append(out, Location{Section: sec, SiteSpace: ss})
		}
	}
	return out
}

// defaultOf is the default item of items, or the first when the default is
// not among them (a condition hides it from this visitor); nil for none.
func defaultOf[T any](items []*T, isDefault func(*T) bool) *T {
	for _, it := range items {
		if isDefault(it) {
			return it
		}
	}
	if len(items) > 0 {
		return items[0]
	}
	return nil
}
