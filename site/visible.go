package site

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
)

// What a visitor sees of a site, for those who read across it (search,
// ask, MCP): the site spaces of the sections they see, and the pages whose
// conditions they meet. Contract §2: what a condition hides is hidden
// everywhere.

// visibleSpace is a site space the visitor sees, with its section (nil on
// a site without sections).
type visibleSpace struct {
	section   *quire.SiteSection
	siteSpace *quire.SiteSpace
}

// visibleSpaces lists the site spaces the visitor sees, in structure order.
func (rq *request) visibleSpaces() []visibleSpace {
	var out []visibleSpace
	if len(rq.st.Items) == 0 {
		for _, ss := range rq.visibleSiteSpaces(rq.st.SiteSpaces) {
			out = append(out, visibleSpace{siteSpace: ss})
		}
		return out
	}
	for _, sec := range rq.visibleSections() {
		for _, ss := range rq.visibleSiteSpaces(sec.SiteSpaces) {
			out = append(out, visibleSpace{section: sec, siteSpace: ss})
		}
	}
	return out
}

// distinctSpaces are the visible site spaces of distinct spaces, each the
// first that publishes its space: a space published twice (in two
// sections) is searched once, and found where it is first published.
func (rq *request) distinctSpaces() []visibleSpace {
	seen := map[string]bool{}
	var out []visibleSpace
	for _, vs := range rq.visibleSpaces() {
		if id := vs.siteSpace.Space.ID; !seen[id] {
			seen[id] = true
			out = append(out, vs)
		}
	}
	return out
}

// seesPage reports whether the visitor sees page id of v: it and every
// page above it have conditions the visitor meets.
func (rq *request) seesPage(v *revision.View, id string) bool {
	p := v.Page(id)
	if p == nil || !rq.visitor.Sees(p.Condition) {
		return false
	}
	for _, a := range v.Index().Ancestors(id) {
		if ap := v.Page(a); ap == nil || !rq.visitor.Sees(ap.Condition) {
			return false
		}
	}
	return true
}

// pageURL is the path of page id of v as this request reaches it, in vs.
func (rq *request) pageURL(vs visibleSpace, v *revision.View, id string) string {
	return rq.url(vs.section, vs.siteSpace, v.Path(id))
}
