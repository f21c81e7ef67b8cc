// Package published holds the rules of what a visitor sees of a published
// site, for every reader of one: which section, site space and page path a
// path of the site leads to (Locate), which sections and site spaces the
// visitor sees (Sections, SiteSpaces, Locations), and which pages they see
// and find listed (Pages). The sites serve by these rules, the API's URL
// lookups, search, llms.txt, sitemaps and MCP answer by them, so that what a
// condition hides stays hidden everywhere (contract §2).
//
// It does no I/O and evaluates no condition itself: a visitor is a Sees
// function, which package site builds from a visitor's claims with package
// condition, so that it may remember the outcomes and the API may judge
// claims it was given.
package published

import "github.com/quiredocs/quire"

// Sees reports whether a visitor sees what a condition guards; "" guards
// nothing.
type Sees func(condition string) bool

// IgnoreConditions sees everything: for what is decided before any visitor
// asks (as the search index, whose results are judged per visitor later).
func IgnoreConditions(string) bool { return true }

// Location is where a path of a site leads.
type Location struct {
	Section   *quire.SiteSection // nil on a site without sections
	SiteSpace *quire.SiteSpace
	// PagePath is the rest of the path: a page path in the site space's
	// space, "" for its first page.
	PagePath string
	// Complete tells that no further segment of the path could lead to
	// another section or site space (Locate): what the reference's
	// PublishedSiteContent.complete says.
	Complete bool
}

// BasePath is the path of the location's site space below the site's
// root, ending with a slash unless empty: the path of its section and its
// own, the default ones left out.
func (l Location) BasePath() string { return BasePath(l.Section, l.SiteSpace) }

// BasePath is the path of a site space of a section (nil on a site without
// sections) below the site's root, ending with a slash unless empty: the
// default section and site space are reached without their path.
func BasePath(sec *quire.SiteSection, ss *quire.SiteSpace) string {
	var out string
	if sec != nil && !sec.Default {
		out += sec.Path + "/"
	}
	if ss != nil && !ss.Default {
		out += ss.Path + "/"
	}
	return out
}
