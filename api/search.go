package api

import (
	"crypto/sha256"
	"net/http"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
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
func (s *Server) searchSpace(w http.ResponseWriter, r *http.Request, v *view) error {
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
	hits, err := s.db.SearchSpace(r.Context(), v.sp.ID, search.Terms(query))
	if err != nil {
		return err
	}
	results := s.rankPages(v, hits, search.Terms(query))
	start := 0
	if p.After != nil { // after the page it names, or its rank if it dropped out
		start = min(max(int(p.After.Num), 0), len(results))
		for i, res := range results {
			if res.ID == p.After.ID {
				start = i + 1
			}
		}
	}
	end := min(start+p.Limit, len(results))
	list := &store.List[searchPageJSON]{Items: results[start:end], Count: len(results)}
	if end < len(results) {
		list.Next = &store.Cursor{Num: int64(end), ID: results[end-1].ID}
	}
	return writeList(w, list, func(j searchPageJSON) searchPageJSON { return j })
}

// rankPages groups section hits (best first) into page results, each ranked
// by its best section. Hits on pages the view no longer holds are dropped.
func (s *Server) rankPages(v *view, hits []store.SearchHit, terms []string) []searchPageJSON {
	info, parents := v.info(), parentsOf(v.tree)
	byPage := map[string]int{}
	results := []searchPageJSON{}
	for _, h := range hits {
		pg := v.tree.Pages[h.PageID]
		if pg == nil {
			continue
		}
		sections := s.sections(pg)
		if h.Position >= len(sections) {
			continue
		}
		i, seen := byPage[h.PageID]
		if !seen {
			i = len(results)
			byPage[h.PageID] = i
			path := info.path[pg.ID]
			results = append(results, searchPageJSON{
				ID: pg.ID, Title: pageTitle(pg), Description: pg.Description, Path: path, Score: h.Score,
				Rank: i + 1, ResultType: "section", Sections: []searchSectionJSON{}, Ancestors: ancestors(v.tree, parents, pg.ID),
				URLs: pageURLsJSON{App: s.pageAppURL(v, path, "")},
			})
			if search.MatchesAll(pg.Title+" "+pg.Description, terms) {
				results[i].ResultType = "page"
			}
		}
		res := &results[i]
		sec := sections[h.Position]
		own := search.MatchesAny(sec.Title+" "+sec.Body, terms)
		switch {
		case len(res.Sections) == sectionsPerPage:
			continue
		case !own && len(res.Sections) > 0:
			continue // found by the page's title or description: one section stands for the page
		case own && len(res.Sections) == 1 && res.Sections[0].ResultType == "page":
			res.Sections = res.Sections[:0] // a section that matches itself stands instead
		}
		res.Sections = append(res.Sections, s.sectionJSON(v, res, sec, h.Score, own, terms))
	}
	return results
}

// sectionJSON shows a section of a page result; own tells whether the
// section matched by its own text, rather than by the page's title.
func (s *Server) sectionJSON(v *view, res *searchPageJSON, sec search.Section, score float64, own bool, terms []string) searchSectionJSON {
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
		Body: search.Snippet(sec.Body, terms, snippetRunes), URLs: pageURLsJSON{App: s.pageAppURL(v, res.Path, sec.ID)},
	}
}

// pageTitle is a page's title as pages show it.
func pageTitle(p *content.Page) string {
	if p.Title == "" {
		return "Untitled"
	}
	return p.Title
}

// pageAppURL is where the application shows a page, or a section of it.
func (s *Server) pageAppURL(v *view, path, anchor string) string {
	u := s.publicURL + "/s/" + v.sp.ID + "/" + path
	if anchor != "" {
		u += "#" + anchor
	}
	return u
}

// parentsOf maps each page of t to its parent's id.
func parentsOf(t *content.Tree) map[string]string {
	parent := map[string]string{}
	for pid, p := range t.Pages {
		for _, c := range p.Children {
			parent[c] = pid
		}
	}
	return parent
}

// ancestors are the titles of the pages above id, from the top.
func ancestors(t *content.Tree, parent map[string]string, id string) []searchAncestorJSON {
	out := []searchAncestorJSON{}
	for p := parent[id]; p != ""; p = parent[p] {
		out = append([]searchAncestorJSON{{Title: pageTitle(t.Pages[p])}}, out...)
	}
	return out
}

// sections splits a page as the index did, cached by its text.
func (s *Server) sections(p *content.Page) []search.Section {
	sum := sha256.Sum256([]byte(p.Title + "\x00" + p.Description + "\x00" + p.Markdown))
	key := string(sum[:])
	if secs, ok := s.searchPages.Get(key); ok {
		return secs
	}
	secs := search.PageOf(p).Sections
	s.searchPages.Add(key, secs, len(key)+len(p.Markdown)+64*len(secs))
	return secs
}
