package site

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/published"
)

// request is one request to a published site, resolved and admitted.
type request struct {
	site    *quire.Site
	st      *quire.SiteStructure // shared: never modify
	commits uint64               // the store's commit count when the site was read
	base    string               // the site's root path as reached: "/sites/{id}", "/{basename}" or ""
	rest    string               // the path below base, without its leading slash
	address string               // the site's canonical root URL, ending with a slash
	visitor *Visitor

	seen        map[string]bool // outcomes of the conditions asked so far
	conditional bool            // whether what is served depends on a condition
}

// serveSite serves a request to site id, reached under prefix ("" when
// reached at its hostname): the sites' handler adapter, which answers the
// error of any step with the error page.
func (s *Server) serveSite(w http.ResponseWriter, r *http.Request, id, prefix string) {
	rq, err := s.open(w, r, id, prefix)
	if err == nil && rq != nil {
		err = s.dispatch(w, r, rq)
	}
	if err != nil {
		s.fail(w, r, rq, err)
	}
}

// open reads site id and admits the request to it. A nil request without
// error means open answered it itself: a redirect, an asset, a sign-out.
// With an error, the request is what the error page may show of the site:
// nil for nothing, when the site is unknown or refuses this visitor with
// a 404.
func (s *Server) open(w http.ResponseWriter, r *http.Request, id, prefix string) (*request, error) {
	ctx := r.Context()
	commits := s.db.Commits()
	site, err := s.cfg.Reader.PublishedSite(ctx, id, commits)
	if err != nil {
		return nil, err
	}
	if !site.Published {
		return nil, errNotFound
	}
	if prefix == "" && site.Basename != "" {
		prefix = "/" + site.Basename
		if r.URL.Path == "/" {
			http.Redirect(w, r, prefix+"/", http.StatusFound)
			return nil, nil
		}
	}
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	if !ok || (rest != "" && rest[0] != '/') {
		return nil, errNotFound
	}
	if rest == "" { // the site's root always ends with a slash
		http.Redirect(w, r, prefix+"/", http.StatusMovedPermanently)
		return nil, nil
	}
	if asset, ok := strings.CutPrefix(rest, "/~assets/"); ok && s.assets.Serve(w, r, asset) {
		return nil, nil // the same for every site and visitor: error pages need them too
	}
	rq := &request{site: site, commits: commits, base: prefix, rest: rest[1:], address: site.Address(s.cfg.PublicURL)}
	if rest == logoutPath {
		return nil, s.serveLogout(w, r, rq)
	}
	if rq.visitor, err = s.access.admit(w, r, site); err != nil {
		if to := redirectURL(err); to != "" { // a key or token taken from the URL
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, to, http.StatusFound)
			return nil, nil
		}
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return nil, err // the plain 404 of no site: not even the site's title
		}
		return rq, err
	}
	if rq.st, err = s.cfg.Reader.PublishedStructure(ctx, site, commits); err != nil {
		return rq, err
	}
	return rq, nil
}

// location is where a page path of a site leads.
type location struct {
	section   *quire.SiteSection // nil on a site without sections
	siteSpace *quire.SiteSpace
	pagePath  string // the page's slug path in its space; "" for the space's first page
}

// locate resolves path (below the site's root, without the leading slash)
// to a section, a site space and a page path, among what the visitor sees,
// by the one rule of published.Locate, which the API's URL lookups share.
func (rq *request) locate(path string) (location, bool) {
	loc, ok := published.Locate(rq.st, path, rq.sees)
	return location{section: loc.Section, siteSpace: loc.SiteSpace, pagePath: loc.PagePath}, ok
}

// visibleSections lists the sections the visitor sees, in order.
func (rq *request) visibleSections() []*quire.SiteSection {
	return published.Sections(rq.st, rq.sees)
}

// visibleSiteSpaces filters spaces to those the visitor sees.
func (rq *request) visibleSiteSpaces(spaces []*quire.SiteSpace) []*quire.SiteSpace {
	return published.SiteSpaces(spaces, rq.sees)
}

// url is the path of a location's page from the site's root as reached:
// the default section and site space left out.
func (rq *request) url(sec *quire.SiteSection, ss *quire.SiteSpace, pagePath string) string {
	return rq.base + "/" + published.BasePath(sec, ss) + pagePath
}

// sees reports whether the visitor sees what condition guards, asking the
// visitor once per condition and request.
func (rq *request) sees(condition string) bool {
	if condition == "" {
		return true
	}
	rq.conditional = true // what is answered depends on who asks
	if ok, asked := rq.seen[condition]; asked {
		return ok
	}
	if rq.seen == nil {
		rq.seen = map[string]bool{}
	}
	ok := rq.visitor.Sees(condition)
	rq.seen[condition] = ok
	return ok
}

// visKey is the outcomes, for this visitor, of the conditions of the
// site's sections, site spaces and external links and of the page
// conditions given, in a
// fixed order: what is rendered from them depends on no more. It is ""
// when none has a condition.
func (rq *request) visKey(pageConditions []string) string {
	var b []byte
	bit := func(cond string) {
		if cond != "" {
			b = append(b, "01"[boolInt(rq.sees(cond))])
		}
	}
	for _, sec := range rq.st.Sections() {
		bit(sec.Condition)
	}
	for _, ss := range rq.st.AllSiteSpaces() {
		bit(ss.Condition)
	}
	for _, l := range rq.st.ExternalLinks {
		bit(l.Condition)
	}
	for _, c := range pageConditions {
		bit(c)
	}
	return string(b)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// absolute is the canonical URL of path, a path below rq.base.
func (rq *request) absolute(path string) string {
	return rq.address + strings.TrimPrefix(path, rq.base+"/")
}
