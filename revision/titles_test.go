package revision

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestReadingTitles: titles and headings of searchable pages, in reading
// order, up to n; groups, hidden and unindexed pages give none of their own.
func TestReadingTitles(t *testing.T) {
	tree := &content.Tree{Root: []string{"guide", "group", "hidden", "noindex"}, Pages: map[string]*content.Page{
		"guide":   {ID: "guide", Title: "Guide", Kind: content.KindDocument, Markdown: "Intro.\n\n## Install\n\nRun it.\n\n## Can I retry?\n\nYes.\n", Children: []string{"blank", "gone"}},
		"blank":   {ID: "blank", Kind: content.KindDocument, Markdown: "No title."},
		"group":   {ID: "group", Title: "Group", Kind: content.KindGroup, Children: []string{"inner"}},
		"inner":   {ID: "inner", Title: "Inner", Kind: content.KindDocument},
		"hidden":  {ID: "hidden", Title: "Hidden", Kind: content.KindDocument, Hidden: true},
		"noindex": {ID: "noindex", Title: "No index", Kind: content.KindDocument, NoIndex: true},
	}}
	v := &View{Tree: tree, Revision: &store.Revision{}, r: New(storetest.Open(t), "")}
	for _, tc := range []struct {
		n    int
		want []string
	}{
		{n: 200, want: []string{"Guide", "Install", "Can I retry?", "Untitled", "Inner"}},
		{n: 2, want: []string{"Guide", "Install"}},
		{n: 4, want: []string{"Guide", "Install", "Can I retry?", "Untitled"}},
		{n: 0},
	} {
		if diff := cmp.Diff(tc.want, v.readingTitles(tc.n)); diff != "" {
			t.Errorf("readingTitles(%d) (-want +got):\n%s", tc.n, diff)
		}
	}
	// A page kept out takes its headings and children with it.
	notGuide := func(_ *View, id string) bool { return id != "guide" }
	if diff := cmp.Diff([]string{"Inner"}, v.keptTitles(200, notGuide)); diff != "" {
		t.Errorf("keptTitles without guide (-want +got):\n%s", diff)
	}
}

func TestPageTitle(t *testing.T) {
	for title, want := range map[string]string{"": "Untitled", "Install": "Install"} {
		if got := PageTitle(&content.Page{Title: title}); got != want {
			t.Errorf("PageTitle(%q) = %q, want %q", title, got, want)
		}
	}
}
