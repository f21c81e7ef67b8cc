package published

import "github.com/quiredocs/quire/content"

// Pages is a revision's page tree as one visitor finds it. A page is
// visible when the visitor meets its condition and its ancestors'; listed
// (in the sidebar, previous/next, sitemaps, llms.txt, MCP's list, the
// search index) when it is visible and neither it nor an ancestor is
// hidden. Hidden pages are still served at their paths, as the contract's
// hidden means "not in navigation".
type Pages struct {
	Tree   *content.Tree
	Parent map[string]string // page id → its parent's, as content.Index has it
	Sees   Sees
}

// Visible reports whether page id is there and the visitor sees it and
// every page above it.
func (ps Pages) Visible(id string) bool {
	for ; id != ""; id = ps.Parent[id] {
		if !ps.Meets(ps.Tree.Pages[id]) {
			return false
		}
	}
	return true
}

// Meets reports whether p is there and the visitor meets its condition:
// the step of Visible for walks down the tree from its root.
func (ps Pages) Meets(p *content.Page) bool { return p != nil && ps.Sees(p.Condition) }

// Listed reports whether page id is visible and neither it nor a page
// above it is hidden.
func (ps Pages) Listed(id string) bool {
	for a := id; a != ""; a = ps.Parent[a] {
		if p := ps.Tree.Pages[a]; p == nil || p.Hidden {
			return false
		}
	}
	return ps.Visible(id)
}

// Shows reports whether p is listed given that its parent is: the step of
// Listed for walks down the tree from its root, which leave out a page's
// children with it.
func (ps Pages) Shows(p *content.Page) bool {
	return p != nil && !p.Hidden && ps.Sees(p.Condition)
}

// First is the first listed document page in tree order ("" for none):
// the page a site serves at its site space's root, and whose canonical URL
// is that root.
func (ps Pages) First() string {
	var walk func(ids []string) string
	walk = func(ids []string) string {
		for _, id := range ids {
			p := ps.Tree.Pages[id]
			if !ps.Shows(p) {
				continue
			}
			if p.Kind != content.KindGroup {
				return id
			}
			if first := walk(p.Children); first != "" {
				return first
			}
		}
		return ""
	}
	return walk(ps.Tree.Root)
}
