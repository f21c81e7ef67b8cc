package site

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire/content"
)

// dispatch serves an admitted request by the shape of its path: special
// paths below the site's root begin with "~", which slugs never hold.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, rq *request) error {
	special, isSpecial := strings.CutPrefix(rq.rest, "~")
	name, _, _ := strings.Cut(special, "/")
	switch {
	case isSpecial && name == "search":
		return s.serveJSON(w, r, rq, s.serveSearch)
	case isSpecial && name == "ask":
		return s.serveJSON(w, r, rq, s.serveAsk)
	case isSpecial && name == "mcp":
		return s.serveMCP(w, r, rq)
	}
	if err := allowMethods(w, r, http.MethodGet, http.MethodHead); err != nil {
		return err
	}
	switch {
	case isSpecial && name == "files":
		return s.serveFile(w, r, rq, strings.TrimPrefix(special, "files/"))
	case isSpecial:
		return errNotFound
	case rq.rest == "robots.txt":
		return s.serveRobots(w, r, rq)
	case rq.rest == "sitemap.xml":
		return s.serveSitemap(w, r, rq)
	case rq.rest == "llms.txt":
		return s.serveLLMs(w, r, rq, false)
	case rq.rest == "llms-full.txt":
		return s.serveLLMs(w, r, rq, true)
	case s.redirect(w, r, rq):
		return nil
	}
	return s.servePath(w, r, rq)
}

// serveJSON serves a JSON endpoint of the site (search, ask), whose errors
// are answered in the API's error shape (failJSON) rather than as pages.
func (s *Server) serveJSON(w http.ResponseWriter, r *http.Request, rq *request, serve func(http.ResponseWriter, *http.Request, *request) error) error {
	if err := serve(w, r, rq); err != nil {
		s.failJSON(w, r, err)
	}
	return nil
}

// servePath answers a page, or its markdown for a path ending in .md.
func (s *Server) servePath(w http.ResponseWriter, r *http.Request, rq *request) error {
	path, asMarkdown := strings.CutSuffix(rq.rest, ".md")
	loc, ok := rq.locate(path)
	if !ok {
		s.countEvent(r, rq, "page_view", "site", loc, "", "")
		return errNotFound
	}
	n, err := s.nav(r.Context(), rq, loc.section, loc.siteSpace)
	if err != nil {
		return err
	}
	id := n.first
	if loc.pagePath != "" {
		id, _ = n.v.PageAt(loc.pagePath)
	}
	if id == "" && loc.pagePath != "" && (s.spaceRedirect(w, r, n, loc.pagePath, asMarkdown) || s.movedPage(w, r, n, loc.pagePath, asMarkdown)) {
		return nil // a redirect of the space's, or a page that moved or was renamed from there
	}
	if id == "" || !n.visible(id) {
		s.countEvent(r, rq, "page_view", "site", loc, "", "")
		return errNotFound
	}
	if p := n.v.Page(id); p.Kind == content.KindGroup {
		// A group is a heading, not a page: lead to its first page.
		if first := n.firstBelow(p.Children); first != "" && !asMarkdown {
			http.Redirect(w, r, n.url(first), http.StatusFound)
			return nil
		}
		return errNotFound
	}
	if asMarkdown {
		s.countEvent(r, rq, "page_markdown_request", "site", loc, id, "")
		return s.serveMarkdown(w, r, rq, n, id)
	}
	s.countEvent(r, rq, "page_view", "site", loc, id, "")
	return s.servePage(w, r, rq, n, id)
}

// firstBelow is the first visible document among ids and their children.
func (n *spaceNav) firstBelow(ids []string) string {
	for _, id := range ids {
		p := n.v.Page(id)
		if !n.pages.Meets(p) {
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
