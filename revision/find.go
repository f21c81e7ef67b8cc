package revision

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/search"
)

// Searching as the API, the app and the sites do it: a query is checked
// and split into terms here, each space's pages are ranked by View.Search,
// and the pages found in several spaces are ranked together by
// SearchSpaces. The ranking itself is search's, which callers never see.

// MaxQuery bounds a search query, in characters.
const MaxQuery = search.MaxQuery

// CheckQuery validates a search query given in the field field: not empty,
// and at most MaxQuery characters.
func CheckQuery(field, q string) error { return search.CheckQuery(field, q) }

// Terms are the words of a query that a search looks for: folded, each
// once, in order, at most search.MaxTerms of them.
func Terms(query string) []string { return search.Terms(query) }

// Ranked is a page a search of one space found, with the sections of it
// that matched.
type Ranked struct {
	PageID string
	Score  float64      // its best section's: higher is better, and scores of one index compare across spaces
	Hits   []search.Hit // its sections that matched, best first
}

// rankedOf is ranked pages as View.Search answers them.
func rankedOf(pages []search.RankedPage) []Ranked {
	out := make([]Ranked, len(pages))
	for i, rp := range pages {
		out[i] = Ranked{PageID: rp.PageID, Score: rp.Hits[0].Score, Hits: rp.Hits}
	}
	return out
}

// Found is a page a search of several spaces found, and the view of its
// space it was found in.
type Found struct {
	View *View
	Ranked
}

// Key names the page found across spaces: duplicated spaces share page
// ids.
func (f Found) Key() string { return f.View.Space.ID + "/" + f.PageID }

// SearchLimits bound what SearchSpaces keeps.
type SearchLimits struct {
	// PerSpace, when not 0, bounds the pages kept of one space: the rest
	// of it ranks below what is kept.
	PerSpace int
	// Keep, when not nil, tells which pages may be found (a published
	// site's visitor may not see every page); the others are passed over
	// without counting against PerSpace.
	Keep func(v *View, pageID string) bool
}

// SearchSpaces searches the current content of each space, in the order
// given, and ranks the pages found together, best first: pages of equal
// score keep the order of the spaces, and of each space's ranking. No
// terms find nothing.
func (r *Reader) SearchSpaces(ctx context.Context, spaces []*quire.Space, terms []string, lim SearchLimits) ([]Found, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	var out []Found
	for _, sp := range spaces {
		v, err := r.Open(ctx, sp, sp.RevisionID, nil)
		if err != nil {
			return nil, err
		}
		ranked, err := v.Search(ctx, terms)
		if err != nil {
			return nil, err
		}
		kept := 0
		for _, rp := range ranked {
			if lim.PerSpace != 0 && kept == lim.PerSpace {
				break
			}
			if lim.Keep == nil || lim.Keep(v, rp.PageID) {
				out = append(out, Found{View: v, Ranked: rp})
				kept++
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Found) int { return cmp.Compare(b.Score, a.Score) })
	return out, nil
}

// ShownSection is a section a result shows under its page.
type ShownSection struct {
	ID    string // the heading's anchor; "" for the text before any heading
	Title string // the heading's text; "" for the text before any heading
	Body  string // plain text, blocks separated by new lines
	Score float64
	Own   bool // matched by its own words, rather than by the page's title or description
}

// Shown picks up to n sections of ranked page rp to show, best first:
// those that match by their own words or, when none does, the best one,
// which matched by the page's title or description (search.ShowSections).
func (v *View) Shown(rp Ranked, terms []string, n int) []ShownSection {
	shown := search.ShowSections(rp.Hits, v.r.Sections(v.Tree.Pages[rp.PageID]), terms, n)
	out := make([]ShownSection, len(shown))
	for i, sec := range shown {
		out[i] = ShownSection{ID: sec.ID, Title: sec.Title, Body: sec.Body, Score: sec.Score, Own: sec.Own}
	}
	return out
}

// Snippet is up to runes characters of text around its first word that
// matches a term (search.Snippet), cached: a search after a merge shows
// mostly the same sections again.
func (r *Reader) Snippet(text string, terms []string, runes int) string {
	return r.snippet(text, terms, strings.Join(terms, "\x00"), runes)
}
