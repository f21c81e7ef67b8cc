package revision_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
)

// TestSearchKeepsScores holds searches of new revisions (after merges that
// edit, add, remove and hide pages), which keep the scores of the pages
// that did not change, to those of a reader that never searched before;
// and ranks pages by the scores of their sections.
func TestSearchKeepsScores(t *testing.T) {
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
		fresh, err := revision.New(f.db, "app.example").Open(t.Context(), v.Space, v.Revision.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, terms := range queries {
			got, err := v.Search(t.Context(), terms)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.Search(t.Context(), terms)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %q: search (-fresh +got):\n%s", step, terms, diff)
			}
			for i := 1; i < len(got); i++ {
				if got[i-1].Hits[0].Score < got[i].Hits[0].Score {
					t.Errorf("%s, %q: page %s ranked above %s, which scores higher", step, terms, got[i-1].PageID, got[i].PageID)
				}
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
	edit(func(tr *content.Tree) { tr.Pages["p12"].Markdown = "Gone.\n" })
	edit(func(tr *content.Tree) { tr.Pages["p20"].Markdown += "\nOne alpha.\n" })
	edit(func(tr *content.Tree) { tr.Pages["p12"].Markdown += "\nalpha beta gamma\n" })
	check("three merges, pages changed twice")
	edit(func(tr *content.Tree) { tr.Pages["p15"].Markdown += "\nalpha gamma\n" })
	before := f.open(t)
	edit(func(tr *content.Tree) { tr.Pages["p18"].Markdown = "alpha beta\n" })
	for _, terms := range queries { // the index is a merge ahead of the view
		if _, err := before.Search(t.Context(), terms); err != nil {
			t.Fatal(err)
		}
	}
	check("searched first through the revision before")

	// The page titled with the word ranks first; then the more mentions.
	ranked, err := f.open(t).Search(t.Context(), []string{"alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ranked) < 3 || ranked[0].PageID != "p60" || ranked[1].PageID != "p99" {
		t.Errorf("alpha ranks %v first, want p60 (its title) then p99 (33 mentions)", ranked[:min(3, len(ranked))])
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
