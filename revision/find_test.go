package revision_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
)

// TestSearchSpaces: pages found in several spaces are ranked together,
// best first; pages of equal score keep the order of the spaces given; a
// space's bound and the pages kept out are applied before the ranking.
func TestSearchSpaces(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	other, err := f.db.CreateSpace(ctx, f.space.OrgID, store.NewSpace{Title: "Copy"})
	if err != nil {
		t.Fatal(err)
	}
	// The copy holds the fixture's install page, which scores the same, and
	// a page that says installer in its text only, which scores below.
	g := &fixture{db: f.db, reader: f.reader, space: other, userID: f.userID}
	g.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["install"] = &content.Page{ID: "install", Title: "Install", Slug: "install", Kind: content.KindDocument,
			Markdown: "Intro.\n\n## Installing\n\nRun the installer. ![logo](logo.png) [back](/pages/guides)\n"}
		tr.Pages["setup"] = &content.Page{ID: "setup", Title: "Setup", Slug: "setup", Kind: content.KindDocument,
			Markdown: "The installer. Installer installer installer.\n"}
		tr.Root = append(tr.Root, "install", "setup")
		return tr, nil
	})
	a, b := f.space.ID, g.space.ID
	noInstallOfB := func(v *revision.View, id string) bool { return v.Space.ID != b || id != "install" }
	tests := []struct {
		name   string
		spaces []*quire.Space
		query  string
		lim    revision.SearchLimits
		want   []string // keys, best first
	}{
		{"ties in the order of the spaces", []*quire.Space{f.space, g.space}, "installer", revision.SearchLimits{},
			[]string{a + "/install", b + "/install", b + "/setup", a + "/guides"}},
		{"the other order", []*quire.Space{g.space, f.space}, "installer", revision.SearchLimits{},
			[]string{b + "/install", a + "/install", b + "/setup", a + "/guides"}},
		{"a bound per space", []*quire.Space{f.space, g.space}, "installer", revision.SearchLimits{PerSpace: 1},
			[]string{a + "/install", b + "/install"}},
		{"pages kept out", []*quire.Space{f.space, g.space}, "installer", revision.SearchLimits{Keep: noInstallOfB},
			[]string{a + "/install", b + "/setup", a + "/guides"}},
		{"no terms", []*quire.Space{f.space, g.space}, "?!", revision.SearchLimits{}, nil},
		{"no spaces", nil, "installer", revision.SearchLimits{}, nil},
	}
	for _, tt := range tests {
		found, err := f.reader.SearchSpaces(ctx, tt.spaces, revision.Terms(tt.query), tt.lim)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, fd := range found {
			keys = append(keys, fd.Key())
		}
		if diff := cmp.Diff(tt.want, keys); diff != "" {
			t.Errorf("%s: SearchSpaces (-want +got):\n%s", tt.name, diff)
		}
		if !slices.IsSortedFunc(found, func(x, y revision.Found) int { return -cmpFloat(x.Score, y.Score) }) {
			t.Errorf("%s: not best first: %+v", tt.name, found)
		}
	}
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// TestShown: a result's sections, with their own headings and text, and
// snippets cut from it.
func TestShown(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := f.open(t)
	terms := revision.Terms("installer")
	ranked, err := v.Search(t.Context(), terms)
	if err != nil || len(ranked) == 0 {
		t.Fatalf("Search: %v, %v", ranked, err)
	}
	shown := v.Shown(ranked[0], terms, 1)
	if len(shown) != 1 || shown[0].ID != "installing" || shown[0].Title != "Installing" || !shown[0].Own || shown[0].Body == "" {
		t.Fatalf("Shown = %+v", shown)
	}
	for range 2 { // the second from the cache
		if got := f.reader.Snippet(shown[0].Body, terms, 240); got != "Run the installer. logo back" {
			t.Errorf("Snippet = %q", got)
		}
	}
}
