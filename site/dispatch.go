package site

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
)

// dispatch serves an admitted request by the shape of its path: special
// paths below the site's root begin with "~", which slugs never hold.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, rq *request) {
	special, isSpecial := strings.CutPrefix(rq.rest, "~")
	name, _, _ := strings.Cut(special, "/")
	if isSpecial && (name == "search" || name == "ask" || name == "mcp") {
		switch name {
		case "search":
			s.serveSearch(w, r, rq)
		case "ask":
			s.serveAsk(w, r, rq)
		default:
			s.serveMCP(w, r, rq)
		}
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch {
	case isSpecial && name == "files":
		s.serveFile(w, r, rq, strings.TrimPrefix(special, "files/"))
	case isSpecial:
		s.fail(w, r, rq, errNotFound)
	case rq.rest == "robots.txt":
		s.serveRobots(w, r, rq)
	case rq.rest == "sitemap.xml":
		s.serveSitemap(w, r, rq)
	case rq.rest == "llms.txt":
		s.serveLLMs(w, r, rq, false)
	case rq.rest == "llms-full.txt":
		s.serveLLMs(w, r, rq, true)
	case s.redirect(w, r, rq):
	default:
		s.servePath(w, r, rq)
	}
}

var errNotFound = quire.Errorf(quire.CodeNotFound, "page not found")

// servePath answers a page, or its markdown for a path ending in .md.
func (s *Server) servePath(w http.ResponseWriter, r *http.Request, rq *request) {
	path, asMarkdown := strings.CutSuffix(rq.rest, ".md")
	loc, ok := rq.locate(path)
	if !ok {
		s.countEvent(r, rq, "page_view", "site", loc, "", "")
		s.fail(w, r, rq, errNotFound)
		return
	}
	n, err := s.nav(r.Context(), rq, loc.section, loc.siteSpace)
	if err != nil {
		s.fail(w, r, rq, err)
		return
	}
	id := n.first
	if loc.pagePath != "" {
		id, _ = n.v.PageAt(loc.pagePath)
	}
	if id == "" && loc.pagePath != "" && (s.spaceRedirect(w, r, n, loc.pagePath, asMarkdown) || s.movedPage(w, r, n, loc.pagePath, asMarkdown)) {
		return // a redirect of the space's, or a page that moved or was renamed from there
	}
	if id == "" || !n.visible(id) {
		s.countEvent(r, rq, "page_view", "site", loc, "", "")
		s.fail(w, r, rq, errNotFound)
		return
	}
	if p := n.v.Page(id); p.Kind == content.KindGroup {
		// A group is a heading, not a page: lead to its first page.
		if first := n.firstBelow(p.Children); first != "" && !asMarkdown {
			http.Redirect(w, r, n.url(first), http.StatusFound)
			return
		}
		s.fail(w, r, rq, errNotFound)
		return
	}
	if asMarkdown {
		s.countEvent(r, rq, "page_markdown_request", "site", loc, id, "")
		s.serveMarkdown(w, r, rq, n, id)
		return
	}
	s.countEvent(r, rq, "page_view", "site", loc, id, "")
	s.servePage(w, r, rq, n, id)
}

// firstBelow is the first visible document among ids and their children.
func (n *spaceNav) firstBelow(ids []string) string {
	for _, id := range ids {
		p := n.v.Page(id)
		if p == nil || !n.rq.sees(p.Condition) {
			continue
		}
		if p.Kind != content.KindGroup {
			return id
		}
		if id := n.firstBelow(p.Children); id != "" {
			return id
		}
	}
	return ""
}
