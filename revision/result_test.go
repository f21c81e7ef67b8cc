package revision_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/search"
)

// TestResult: a ranked page shows with its path, the titles above it, and
// its matching sections, each with its anchor and the text around its match.
func TestResult(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := f.open(t)
	terms := search.Terms("installer")
	ranked, err := v.Search(t.Context(), terms)
	if err != nil || len(ranked) == 0 {
		t.Fatalf("Search: %v, %v", ranked, err)
	}
	res := v.Result(ranked[0], terms, 3, 240)
	res.Page, res.Score = nil, 0
	for i := range res.Sections {
		res.Sections[i].Score = 0
	}
	want := revision.PageResult{Path: "guides/install", ByTitle: true, Ancestors: []string{"Guides"}, Sections: []revision.SectionResult{
		{ID: "installing", Title: "Installing", Path: "guides/install#installing", Own: true, Snippet: "Run the installer. logo back"},
	}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("Result (-want +got):\n%s", diff)
	}
}
