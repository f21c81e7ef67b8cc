package app

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
)

// Search over everything the user reads in an organization: each space
// they see is searched as GET S/search searches it, and the pages found
// are ranked together.

const (
	maxSearchSpaces  = 100 // spaces searched, in tree order
	maxSearchResults = 50
	searchSnippet    = 200
)

type searchHit struct {
	Title, Space, URL, Snippet string
	Score                      float64
}

type searchData struct {
	*orgData
	Hits      []searchHit
	Truncated bool // more spaces than were searched
}

func (s *Server) searchPage(w http.ResponseWriter, r *http.Request) error {
	d, err := s.orgData(r, r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	d.Query = r.URL.Query().Get("q")
	sd := searchData{orgData: d}
	if d.Query != "" {
		if err := revision.CheckQuery("q", d.Query); err != nil {
			return err
		}
		if sd.Hits, sd.Truncated, err = s.search(r, d.Org.ID, d.Query); err != nil {
			return err
		}
	}
	return s.render(w, r, http.StatusOK, "search", "Search · "+d.Org.Title, sd)
}

// search ranks the pages holding every word of query in the spaces of the
// organization the user sees.
func (s *Server) search(r *http.Request, orgID, query string) ([]searchHit, bool, error) {
	ctx := r.Context()
	v, err := s.viewer(ctx, orgID)
	if err != nil {
		return nil, false, err
	}
	spaces, err := s.db.ListSpaces(ctx, orgID, store.SpaceFilter{VisibleTo: v}, store.Page{Limit: maxSearchSpaces})
	if err != nil {
		return nil, false, err
	}
	terms := revision.Terms(query)
	// Results are shown of the best pages only: ranked first, then shown.
	ranked, err := s.cfg.Reader.SearchSpaces(ctx, spaces.Items, terms, revision.SearchLimits{})
	if err != nil {
		return nil, false, err
	}
	var hits []searchHit
	for _, f := range ranked[:min(len(ranked), maxSearchResults)] {
		sp := f.View.Space
		res := f.View.Result(f.Ranked, terms, 1, searchSnippet)
		hit := searchHit{Title: revision.PageTitle(res.Page), Space: sp.Title, Score: res.Score,
			URL: quire.AppPageURL("", sp.ID, res.Path, "")}
		if len(res.Sections) > 0 {
			hit.Snippet = res.Sections[0].Snippet
			hit.URL = quire.AppPageURL("", sp.ID, res.Path, res.Sections[0].ID)
		}
		hits = append(hits, hit)
	}
	return hits, spaces.Next != nil, nil
}
