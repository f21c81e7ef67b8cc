package api

import (
	"net/http"

	"github.com/quiredocs/quire/revision"
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

// searchSpaceJSON is the reference's SearchSpaceResult: pages found in one
// space, among those of several.
type searchSpaceJSON struct {
	Type  string           `json:"type"`
	ID    string           `json:"id"`
	Title string           `json:"title"`
	Score float64          `json:"score"`
	Pages []searchPageJSON `json:"pages"`
}

// spaceResultsJSON shows a page of the pages found across spaces, the
// first of them ranked start+1: grouped by space, in the order of their
// best page, each page keeping its rank in the whole ranking.
func (s *Server) spaceResultsJSON(list *store.List[revision.Found], start int, terms []string) listJSON[*searchSpaceJSON] {
	out := listJSON[*searchSpaceJSON]{Items: []*searchSpaceJSON{}, Count: list.Count}
	if list.Next != nil {
		out.Next = &nextJSON{Page: list.Next.Encode()}
	}
	bySpace := map[string]*searchSpaceJSON{}
	for i, f := range list.Items {
		sp := f.View.Space
		group := bySpace[sp.ID]
		if group == nil {
			group = &searchSpaceJSON{Type: "space", ID: sp.ID, Title: sp.Title, Score: f.Score, Pages: []searchPageJSON{}}
			bySpace[sp.ID] = group
			out.Items = append(out.Items, group)
		}
		group.Pages = append(group.Pages, s.pageResultJSON(f.View, f.Ranked, start+i+1, terms))
	}
	return out
}

// searchSpace answers GET S/search: pages of the space's current content
// holding every word of query, best first, each with its best sections.
func (s *Server) searchSpace(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	q := query(r)
	text := q.Get("query")
	if err := revision.CheckQuery("query", text); err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	// The answer depends on the content and the query, not on the caller
	// (already allowed to read the space): encoded once, like page reads.
	key := v.AnswerKey(revision.Format{}, "search\x00"+text+"\x00"+q.Get("limit")+"\x00"+q.Get("page"))
	return serveAnswer(w, r, s.reader.Answers(), key, encoded(func() ([]byte, error) {
		terms := revision.Terms(text)
		ranked, err := v.Search(r.Context(), terms)
		if err != nil {
			return nil, err
		}
		list, rank := store.PageInOrder(ranked, p, func(rp revision.Ranked) string { return rp.PageID })
		return encodeJSON(listOf(list, func(rp revision.Ranked) searchPageJSON {
			rank++
			return s.pageResultJSON(v, rp, rank, terms)
		}))
	}))
}

// pageResultJSON shows a ranked page with up to sectionsPerPage of its
// sections (revision.View.Result).
func (s *Server) pageResultJSON(v *revision.View, rp revision.Ranked, rank int, terms []string) searchPageJSON {
	res := v.Result(rp, terms, sectionsPerPage, snippetRunes)
	out := searchPageJSON{
		ID: res.Page.ID, Title: revision.PageTitle(res.Page), Description: res.Page.Description, Path: res.Path, Score: res.Score,
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
