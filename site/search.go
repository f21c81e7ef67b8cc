package site

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
)

// Site search: GET {site}/~search?q= finds the pages of the site spaces the
// visitor sees through the real index (the one the API's space search
// reads), best first, each shown by its best section. Pages the index
// leaves out (hidden, noIndex and those below them) are never found;
// pages whose condition (or an ancestor's) the visitor does not meet are
// dropped.

const (
	maxSiteQuery   = 256             // characters of q
	searchResults  = 20              // results answered
	searchSnippet  = 200             // characters of a result's snippet
	lookupTimeout  = 5 * time.Second // what a search, or finding an answer's sources, may take
	maxSearchSpace = 50              // site spaces searched, in structure order
)

// searchResult is a page found by a site search.
type searchResult struct {
	Title   string `json:"title"`             // the page's title
	URL     string `json:"url"`               // the page's path as reached, with #anchor for a heading's section
	Snippet string `json:"snippet"`           // text of the section around the first match
	Space   string `json:"space"`             // the title of the page's space
	Section string `json:"section"`           // the title of the page's site section; "" on a site without sections
	Heading string `json:"heading,omitempty"` // the heading of the section shown, when it matched by its own text
}

// serveSearch answers GET {site}/~search?q=: JSON {"results": [...]}.
func (s *Server) serveSearch(w http.ResponseWriter, r *http.Request, rq *request) error {
	if err := allowMethods(w, r, http.MethodGet, http.MethodHead); err != nil {
		return err
	}
	q, err := requiredParam(r, "q", maxSiteQuery)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), lookupTimeout)
	defer cancel()
	s.countEvent(r, rq, "search_type_query", "site", location{}, "", q)
	results, err := s.search(ctx, rq, q, searchResults)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "private, no-cache")
	answerJSON(w, http.StatusOK, map[string]any{"results": results})
	return nil
}

// search finds up to limit pages of the visible site spaces that hold every
// word of query, best first (revision.Reader.SearchSpaces).
func (s *Server) search(ctx context.Context, rq *request, query string, limit int) ([]searchResult, error) {
	out := []searchResult{}
	terms := revision.Terms(query)
	spaces := rq.distinctSpaces()
	spaces = spaces[:min(len(spaces), maxSearchSpace)]
	at := make(map[string]location, len(spaces))
	list := make([]*quire.Space, len(spaces))
	for i, vs := range spaces {
		at[vs.siteSpace.Space.ID] = vs
		list[i] = vs.siteSpace.Space
	}
	found, err := s.cfg.Reader.SearchSpaces(ctx, list, terms, revision.SearchLimits{PerSpace: limit, Keep: rq.seesPage})
	if err != nil {
		return nil, err
	}
	for _, f := range found[:min(len(found), limit)] {
		out = append(out, s.searchResult(rq, at[f.View.Space.ID], f, terms))
	}
	return out, nil
}

// searchResult shows a page found by its best section: one that matches
// by its own words, or else the one the page's title found.
func (s *Server) searchResult(rq *request, vs location, f revision.Found, terms []string) searchResult {
	v, reader := f.View, s.cfg.Reader
	pg := v.Page(f.PageID)
	res := searchResult{
		Title: revision.PageTitle(pg), URL: rq.pageURL(vs, v, pg.ID), Space: vs.siteSpace.Space.Title,
		Snippet: reader.Snippet(pg.Description, terms, searchSnippet),
	}
	if vs.section != nil {
		res.Section = vs.section.Title
	}
	shown := v.Shown(f.Ranked, terms, 1)
	if len(shown) == 0 {
		return res
	}
	sec := shown[0]
	if sec.Body != "" {
		res.Snippet = reader.Snippet(sec.Body, terms, searchSnippet)
	}
	if sec.Own && sec.ID != "" {
		res.URL += "#" + sec.ID
		res.Heading = sec.Title
	}
	return res
}

// requiredParam reads the required query parameter name, at most max
// characters.
func requiredParam(r *http.Request, name string, max int) (string, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return "", quire.Errorf(quire.CodeInvalid, "%s: is required", name)
	}
	if utf8.RuneCountInString(v) > max {
		return "", quire.Errorf(quire.CodeInvalid, "%s: must be at most %d characters", name, max)
	}
	return v, nil
}

// answerJSON answers v as JSON with status.
func answerJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil { // only our own types are written: a bug
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":500,"message":"internal error"}}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
