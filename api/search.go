package api

import (
	"net/http"

	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Full-text search of a space's current content (contract §4.5): the store
// ranks sections, and pages are ranked by their best section. What results
// show (titles, text, paths) is read from the content, as the index holds
// folded text.

const (
	sectionsPerPage = 3   // matching sections shown under each page
	snippetRunes    = 240 // text shown of each section, around the first match
)

type searchSectionJSON struct {
	ID         string        `json:"id"`
	Title      string        `json:"title"`
	Path       string        `json:"path"`
	Score      float64       `json:"score"`
	ResultType string        `json:"resultType"`
	Body       string        `json:"body"`
	URLs       wire.PageURLs `json:"urls"`
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
	URLs        wire.PageURLs        `json:"urls"`
}

// searchSpace answers GET S/search: pages of the space's current content
// holding every word of query, best first, each with its best sections.
func (s *Server) searchSpace(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	q := query(r)
	text := q.Get("query")
	if err := search.CheckQuery("query", text); err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	// The answer depends on the content and the query, not on the caller
	// (already allowed to read the space): encoded once, like page reads.
	key := revisionKey(v, format{}, "search\x00"+text+"\x00"+q.Get("limit")+"\x00"+q.Get("page"))
	return serveAnswer(w, r, s.reader.Answers(), key, encoded(func() ([]byte, error) {
		terms := search.Terms(text)
		ranked, err := v.Search(r.Context(), terms)
		if err != nil {
			return nil, err
		}
		list, rank := store.PageInOrder(ranked, p, func(rp search.RankedPage) string { return rp.PageID })
		return encodeJSON(listOf(list, func(rp search.RankedPage) searchPageJSON {
			rank++
			return s.pageResultJSON(v, rp, rank, terms)
		}))
	}))
}

// pageResultJSON shows a ranked page with up to sectionsPerPage of its
// sections (revision.View.Result).
func (s *Server) pageResultJSON(v *revision.View, rp search.RankedPage, rank int, terms []string) searchPageJSON {
	res := v.Result(rp, terms, sectionsPerPage, snippetRunes)
	out := searchPageJSON{
		ID: res.Page.ID, Title: pageTitle(res.Page), Description: res.Page.Description, Path: res.Path, Score: res.Score,
		Rank: rank, ResultType: "section", Sections: []searchSectionJSON{}, Ancestors: []searchAncestorJSON{},
		URLs: wire.PageURLs{App: v.Space.PageAppURL(s.publicURL, res.Path, "")},
	}
	if res.ByTitle {
		out.ResultType = "page"
	}
	for _, title := range res.Ancestors {
		out.Ancestors = append(out.Ancestors, searchAncestorJSON{Title: title})
	}
	for _, sec := range res.Sections {
		kind := "section"
		if !sec.Own {
			kind = "page"
		}
		out.Sections = append(out.Sections, searchSectionJSON{ID: sec.ID, Title: sec.Title, Path: sec.Path, Score: sec.Score,
			ResultType: kind, Body: sec.Snippet, URLs: wire.PageURLs{App: v.Space.PageAppURL(s.publicURL, res.Path, sec.ID)}})
	}
	return out
}
