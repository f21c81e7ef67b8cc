package revision_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/search"
)

// TestSearchDerived holds searches of new revisions (after merges that
// edit, add, remove and hide pages), which on PostgreSQL are derived from
// the search before, to a search of the whole index at each revision.
func TestSearchDerived(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.merge(t, func(now time.Time, tr *content.Tree) (*content.Tree, error) {
		for i := range 100 {
			id := fmt.Sprintf("p%02d", i)
			body := fmt.Sprintf("Page %d is about beta.\n\n## Part\n\n%s\n", i, strings.Repeat("gamma delta ", i%7+1))
			if i%3 == 0 {
				body += fmt.Sprintf("\n## Alpha\n\n%s words\n", strings.Repeat("alpha ", i/3+1))
			}
			tr.Pages[id] = &content.Page{ID: id, Title: "Page " + id, Slug: id, Kind: content.KindDocument, Markdown: body}
			tr.Root = append(tr.Root, id)
		}
		return tr, nil
	})
	queries := [][]string{{"alpha"}, {"alpha", "gam"}, {"beta"}}
	check := func(step string) {
		t.Helper()
		v := f.open(t)
		for _, terms := range queries {
			got, err := v.Search(t.Context(), terms)
			if err != nil {
				t.Fatal(err)
			}
			hits, _, err := f.db.SearchSpaceRoot(t.Context(), f.space.ID, terms)
			if err != nil {
				t.Fatal(err)
			}
			want := search.RankPages(hits, func(id string) bool { return v.Tree.Pages[id] != nil })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %q: search (-whole +got):\n%s", step, terms, diff)
			}
		}
	}
	edit := func(fn func(tr *content.Tree)) {
		f.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) { fn(tr); return tr, nil })
	}

	check("first")
	edit(func(tr *content.Tree) { tr.Pages["p03"].Markdown = "No longer about that.\n" })
	check("a page loses the word")
	edit(func(tr *content.Tree) {
		tr.Pages["p04"].Markdown += "\n## More\n\nalpha alpha alpha alpha gamma beta\n"
	})
	check("a page gains it")
	edit(func(tr *content.Tree) {
		delete(tr.Pages, "p06")
		tr.Root = slicesWithout(tr.Root, "p06")
		tr.Pages["p09"].Hidden = true
		tr.Pages["p60"] = &content.Page{ID: "p60", Title: "Alpha gamma", Slug: "p60", Kind: content.KindDocument, Markdown: "beta\n"}
		tr.Root = append(tr.Root, "p60")
	})
	check("pages removed, hidden and added")
	edit(func(tr *content.Tree) { tr.Pages["p10"].Title = "Renamed" }) // no word searched
	check("a title that holds no term")

	want := int64(0) // SQLite's scores weigh the whole index: searches stay whole
	if f.db.ScoresStandAlone() {
		want = int64(4 * len(queries))
	}
	if got := f.reader.DerivedSearches(); got != want {
		t.Errorf("%d searches derived, want %d", got, want)
	}
}

func slicesWithout(ids []string, id string) []string {
	var out []string
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}
