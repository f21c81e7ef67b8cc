package site

import (
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/revision"
)

// What a visitor sees of a site, for those who read across it (search,
// ask, MCP): the site spaces of the sections they see, and the pages whose
// conditions they meet. Contract §2: what a condition hides is hidden
// everywhere.

// distinctSpaces are the visible site spaces of distinct spaces, each the
// first that publishes its space: a space published twice (in two
// sections) is searched once, and found where it is first published.
func (rq *request) distinctSpaces() []location {
	seen := map[string]bool{}
	var out []location
	for _, vs := range rq.visibleLocations() {
		if id := vs.siteSpace.Space.ID; !seen[id] {
			seen[id] = true
			out = append(out, vs)
		}
	}
	return out
}

// seesPage reports whether the visitor sees page id of v: it and every
// page above it have conditions the visitor meets (published.Pages).
func (rq *request) seesPage(v *revision.View, id string) bool {
	return published.Pages{Tree: v.Tree, Parent: v.Index().Parent, Sees: rq.visitor.Sees}.Visible(id)
}

// pageURL is the path of page id of v as this request reaches it, in vs.
func (rq *request) pageURL(vs location, v *revision.View, id string) string {
	return rq.url(vs.section, vs.siteSpace, v.Path(id))
}
