package api

import (
	"net/http"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
)

// Full-text search of a space's current content (contract §4.5): the store
// ranks sections, and pages are ranked by their best section. What results
// show (titles, text, paths) is read from the content, as the index holds
// folded text.

const (
	maxQueryLength  = 512 // characters
	sectionsPerPage = 3   // matching sections shown under each page
	snippetRunes    = 240 // text shown of each section, around the first match
)

type searchSectionJSON struct {
	ID         string       `json:"id"`
	Title      string       `json:"title"`
	Path       string       `json:"path"`
	Score      float64      `json:"score"`
	ResultType string       `json:"resultType"`
	Body       string       `json:"body"`
	URLs       pageURLsJSON `json:"urls"`
}

type searchAncestorJSON struct {
	Title string `json:"title"`
}

type searchPageJSON struct {
	ID          string               `json:"id"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	Path        string               `json:"path"`
	Score       float64              `json:"score"`
	Rank        int                  `json:"rank"`
	ResultType  string               `json:"resultType"`
	Sections    []searchSectionJSON  `json:"sections"`
	Ancestors   []searchAncestorJSON `json:"ancestors"`
	URLs        pageURLsJSON         `json:"urls"`
}

// searchSpace answers GET S/search: pages of the space's current content
// holding every word of query, best first, each with its best sections.
func (s *Server) searchSpace(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	query := r.URL.Query().Get("query")
	if query == "" {
		return errorf(quire.CodeInvalid, "query: is required")
	}
	if utf8.RuneCountInString(query) > maxQueryLength {
		return errorf(quire.CodeInvalid, "query: must be at most %d characters", maxQueryLength)
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	terms := search.Terms(query)
	ranked, err := v.Search(r.Context(), terms)
	if err != nil {
		return err
	}
	list, rank := store.PageByRank(ranked, p, func(rp search.RankedPage) string { return rp.PageID })
	return writeList(w, list, func(rp search.RankedPage) searchPageJSON {
		rank++
		return s.pageResultJSON(v, rp, rank, terms)
	})
}

// pageResultJSON shows a ranked page with up to sectionsPerPage of its
// sections: those that match by their own text, or else the best one,
// found by the page's title or description.
func (s *Server) pageResultJSON(v *revision.View, rp search.RankedPage, rank int, terms []string) searchPageJSON {
	pg := v.Tree.Pages[rp.PageID]
	path := v.Path(pg.ID)
	res := searchPageJSON{
		ID: pg.ID, Title: pageTitle(pg), Description: pg.Description, Path: path, Score: rp.Hits[0].Score,
		Rank: rank, ResultType: "section", Sections: []searchSectionJSON{}, Ancestors: ancestors(v, pg.ID),
		URLs: pageURLsJSON{App: v.Space.PageAppURL(s.publicURL, path, "")},
	}
	if search.MatchesAll(search.Words(pg.Title+" "+pg.Description), terms) {
		res.ResultType = "page"
	}
	for _, sec := range search.ShowSections(rp.Hits, s.reader.Sections(pg), terms, sectionsPerPage) {
		res.Sections = append(res.Sections, s.sectionJSON(v, &res, sec.Section, sec.Score, sec.Own, terms))
	}
	return res
}

// sectionJSON shows a section of a page result; own tells whether the
// section matched by its own text, rather than by the page's title.
func (s *Server) sectionJSON(v *revision.View, res *searchPageJSON, sec search.Section, score float64, own bool, terms []string) searchSectionJSON {
	title, path, kind := sec.Title, res.Path, "section"
	if title == "" {
		title = res.Title
	}
	if sec.ID != "" {
		path += "#" + sec.ID
	}
	if !own {
		kind = "page"
	}
	return searchSectionJSON{
		ID: sec.ID, Title: title, Path: path, Score: score, ResultType: kind,
		Body: search.Snippet(sec.Body, terms, snippetRunes), URLs: pageURLsJSON{App: v.Space.PageAppURL(s.publicURL, res.Path, sec.ID)},
	}
}

// ancestors are the titles of the pages above id, from the top.
func ancestors(v *revision.View, id string) []searchAncestorJSON {
	out := []searchAncestorJSON{}
	for _, p := range v.Index().Ancestors(id) {
		out = append(out, searchAncestorJSON{Title: pageTitle(v.Tree.Pages[p])})
	}
	return out
}
