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
	terms := search.Terms(query)
	hits, err := s.db.SearchSpace(r.Context(), v.sp.ID, terms)
	if err != nil {
		return err
	}
	ranked := rankPages(v, hits)
	from := 0
	if p.After != nil { // after the page it names, or its rank if it dropped out
		from = min(max(int(p.After.Num), 0), len(ranked))
		for i, pg := range ranked {
			if pg.id == p.After.ID {
				from = i + 1
			}
		}
	}
	to := min(from+p.Limit, len(ranked))
	list := &store.List[searchPageJSON]{Count: len(ranked)}
	for i := from; i < to; i++ {
		list.Items = append(list.Items, s.pageResultJSON(v, ranked[i], i+1, terms))
	}
	if to < len(ranked) {
		list.Next = &store.Cursor{Num: int64(to), ID: ranked[to-1].id}
	}
	return writeList(w, list, func(j searchPageJSON) searchPageJSON { return j })
}

// rankedPage is a page of the results and its hits, best first.
type rankedPage struct {
	id   string
	hits []store.SearchHit
}

// rankPages groups section hits (best first) by page, each page ranked by
// its best section. Hits on pages the view does not hold are dropped: the
// index may have moved on since the view was read.
func rankPages(v *view, hits []store.SearchHit) []rankedPage {
	byPage := map[string]int{}
	var out []rankedPage
	for _, h := range hits {
		if v.tree.Pages[h.PageID] == nil {
			continue
		}
		i, seen := byPage[h.PageID]
		if !seen {
			i = len(out)
			byPage[h.PageID] = i
			out = append(out, rankedPage{id: h.PageID})
		}
		out[i].hits = append(out[i].hits, h)
	}
	return out
}

// pageResultJSON shows a ranked page with up to sectionsPerPage of its
// sections: those that match by their own text, or else the best one,
// found by the page's title or description.
func (s *Server) pageResultJSON(v *view, rp rankedPage, rank int, terms []string) searchPageJSON {
	info, pg := v.info(), v.tree.Pages[rp.id]
	path := info.path[pg.ID]
	res := searchPageJSON{
		ID: pg.ID, Title: pageTitle(pg), Description: pg.Description, Path: path, Score: rp.hits[0].Score,
		Rank: rank, ResultType: "section", Sections: []searchSectionJSON{}, Ancestors: ancestors(v.tree, info, pg.ID),
		URLs: pageURLsJSON{App: s.pageAppURL(v, path, "")},
	}
	if search.MatchesAll(search.Words(pg.Title+" "+pg.Description), terms) {
		res.ResultType = "page"
	}
	sections := s.sections(pg)
	var byTitle *searchSectionJSON
	for _, h := range rp.hits {
		if h.Position >= len(sections) || len(res.Sections) == sectionsPerPage {
			continue
		}
		sec := sections[h.Position]
		switch own := search.MatchesAny(sec.words, terms); {
		case own:
			res.Sections = append(res.Sections, s.sectionJSON(v, &res, sec.Section, h.Score, own, terms))
		case byTitle == nil:
			j := s.sectionJSON(v, &res, sec.Section, h.Score, own, terms)
			byTitle = &j
		}
	}
	if len(res.Sections) == 0 && byTitle != nil {
		res.Sections = append(res.Sections, *byTitle)
	}
	return res
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

// pageAppURL is where the application shows a page, or a section of it.
func (s *Server) pageAppURL(v *view, path, anchor string) string {
	u := s.publicURL + "/s/" + v.sp.ID + "/" + path
	if anchor != "" {
		u += "#" + anchor
	}
	return u
}

// ancestors are the titles of the pages above id, from the top.
func ancestors(t *content.Tree, info *treeInfo, id string) []searchAncestorJSON {
	out := []searchAncestorJSON{}
	for p := info.parent[id]; p != ""; p = info.parent[p] {
		out = append([]searchAncestorJSON{{Title: pageTitle(t.Pages[p])}}, out...)
	}
	return out
}

// foundSection is a section of a page as the index holds it, with its
// title's and text's words.
type foundSection struct {
	search.Section
	words []string
}

// sections splits a page as the index did, cached by its text.
func (s *Server) sections(p *content.Page) []foundSection {
	sum := sha256.Sum256([]byte(p.Title + "\x00" + p.Description + "\x00" + p.Markdown))
	key := string(sum[:])
	if secs, ok := s.searchPages.Get(key); ok {
		return secs
	}
	var secs []foundSection
	for _, sec := range search.PageOf(p).Sections {
		secs = append(secs, foundSection{sec, search.Words(sec.Title + " " + sec.Body)})
	}
	s.searchPages.Add(key, secs, len(key)+2*len(p.Markdown)+64*len(secs))
	return secs
}
