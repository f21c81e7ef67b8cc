package site

import (
	"context"
	"slices"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
)

// spaceNav is a site space's pages as one visitor finds them: visible and
// listed by the rule of published.Pages (hidden pages are still served at
// their paths, as the contract's hidden means "not in navigation").
type spaceNav struct {
	s     *Server
	rq    *request
	sec   *quire.SiteSection // nil on a site without sections
	ss    *quire.SiteSpace
	v     *revision.View
	pages published.Pages // the revision's pages as rq's visitor sees them
	first string          // the first listed document, served at the space's root
}

// nav opens the current revision of ss for rq.
func (s *Server) nav(ctx context.Context, rq *request, sec *quire.SiteSection, ss *quire.SiteSpace) (*spaceNav, error) {
	v, err := s.cfg.Reader.Open(ctx, ss.Space, ss.Space.RevisionID, nil)
	if err != nil {
		return nil, err
	}
	n := &spaceNav{s: s, rq: rq, sec: sec, ss: ss, v: v, pages: published.Pages{Tree: v.Tree, Parent: v.Index().Parent, Sees: rq.sees}}
	if docs := n.documents(1); len(docs) > 0 {
		n.first = docs[0]
	}
	return n, nil
}

// visible reports whether the visitor sees page id and its ancestors.
func (n *spaceNav) visible(id string) bool { return n.pages.Visible(id) }

// shown is whether a page is shown in navigation, its ancestors being so.
func (n *spaceNav) shown(p *content.Page) bool { return n.pages.Shows(p) }

// documents lists up to max (0: all) listed document pages in tree order.
func (n *spaceNav) documents(max int) []string {
	var out []string
	var walk func(ids []string) bool
	walk = func(ids []string) bool {
		for _, id := range ids {
			p := n.v.Page(id)
			if !n.shown(p) {
				continue
			}
			if p.Kind != content.KindGroup {
				if out = append(out, id); max > 0 && len(out) >= max {
					return true
				}
			}
			if walk(p.Children) {
				return true
			}
		}
		return false
	}
	walk(n.v.Tree.Root)
	return out
}

// url is the path of page id as the visitor reaches it; the space's first
// page is at the space's root.
func (n *spaceNav) url(id string) string {
	if id == n.first {
		return n.rq.url(n.sec, n.ss, "")
	}
	return n.rq.url(n.sec, n.ss, n.v.Path(id))
}

// mdURL is the path of page id's markdown.
func (n *spaceNav) mdURL(id string) string { return n.rq.url(n.sec, n.ss, n.v.Path(id)) + ".md" }

// conditions are the distinct page conditions of the space's revision,
// sorted; computed once per tree.
func (n *spaceNav) conditions() []string {
	root := n.v.Revision.Root
	if c, ok := n.s.conds.Get(root); ok {
		return c
	}
	var out []string
	for _, p := range n.v.Tree.Pages {
		if p.Condition != "" && !slices.Contains(out, p.Condition) {
			out = append(out, p.Condition)
		}
	}
	slices.Sort(out)
	n.s.conds.Add(root, out, 64+len(root)+16*len(out))
	return out
}

// sidebar is the page tree around current: top-level pages, groups with
// their pages, and the children of current and its ancestors.
func (n *spaceNav) sidebar(current string) []navItem {
	open := map[string]bool{current: true}
	for _, a := range n.v.Index().Ancestors(current) {
		open[a] = true
	}
	return n.items(n.v.Tree.Root, current, open)
}

func (n *spaceNav) items(ids []string, current string, open map[string]bool) []navItem {
	var out []navItem
	for _, id := range ids {
		p := n.v.Page(id)
		if !n.shown(p) {
			continue
		}
		it := navItem{link: link{Title: p.Title}, Emoji: render.EmojiText(p.Emoji), Group: p.Kind == content.KindGroup, Open: open[id]}
		if !it.Group {
			it.URL, it.Current = n.url(id), id == current
		}
		if it.Group || it.Open {
			it.Children = n.items(p.Children, current, open)
		} else {
			it.Expandable = slices.ContainsFunc(p.Children, func(c string) bool { return n.shown(n.v.Page(c)) })
		}
		if it.Group && len(it.Children) == 0 {
			continue
		}
		out = append(out, it)
	}
	return out
}

// breadcrumbs lead from the section and the site space to page id.
func (n *spaceNav) breadcrumbs(id string) []link {
	var out []link
	if n.sec != nil && len(n.rq.visibleSections()) > 1 {
		out = append(out, link{Title: n.sec.Title, URL: n.rq.url(n.sec, nil, "")})
	}
	if spaces := n.siteSpaces(); len(spaces) > 1 {
		out = append(out, link{Title: n.ss.Space.Title, URL: n.rq.url(n.sec, n.ss, "")})
	}
	for _, a := range n.v.Index().Ancestors(id) {
		p := n.v.Page(a)
		l := link{Title: p.Title}
		if p.Kind != content.KindGroup {
			l.URL = n.url(a)
		}
		out = append(out, l)
	}
	return append(out, link{Title: n.v.Page(id).Title, Current: true})
}

// siteSpaces are the visible site spaces beside n's: its section's, or
// the site's root ones.
func (n *spaceNav) siteSpaces() []*quire.SiteSpace {
	if n.sec != nil {
		return n.rq.visibleSiteSpaces(n.sec.SiteSpaces)
	}
	return n.rq.visibleSiteSpaces(n.rq.st.SiteSpaces)
}

// neighbours are the listed documents before and after id.
func (n *spaceNav) neighbours(id string) (prev, next *link) {
	docs := n.documents(0)
	i := slices.Index(docs, id)
	if i < 0 {
		return nil, nil
	}
	if i > 0 {
		prev = &link{Title: n.v.Page(docs[i-1]).Title, URL: n.url(docs[i-1])}
	}
	if i+1 < len(docs) {
		next = &link{Title: n.v.Page(docs[i+1]).Title, URL: n.url(docs[i+1])}
	}
	return prev, next
}
