package store_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// BenchmarkMatchSpacePages: what a search after merges asks the index,
// the words' matches in the pages the merges changed (2 or 20), in a space
// of 1,000 pages where the common word is on every page.
func BenchmarkMatchSpacePages(b *testing.B) {
	db := storetest.Open(b)
	ctx := b.Context()
	sp, userID := docsSpace(b, db)
	words := []string{"cluster", "replica", "network", "storage", "schema", "lease", "quorum", "vacuum"}
	r := rand.New(rand.NewPCG(1, 2))
	body := func(i, version int) string {
		var s strings.Builder
		for sec := range 4 {
			fmt.Fprintf(&s, "## Part %d\n\n", sec)
			for range 100 {
				s.WriteString(words[r.IntN(len(words))] + " ")
			}
			fmt.Fprintf(&s, "server rare%dx%d.\n\n", i, version)
		}
		return s.String()
	}
	merge := func(edit store.EditFunc) { mergeEdit(b, db, sp.ID, userID, edit) }
	merge(func(_ time.Time, t *content.Tree) (*content.Tree, error) {
		for i := range 1000 {
			id := fmt.Sprintf("p%04d", i)
			t.Pages[id] = &content.Page{ID: id, Title: "Page " + id, Slug: id, Kind: content.KindDocument, Markdown: body(i, 0)}
			t.Root = append(t.Root, id)
		}
		return t, nil
	})
	if _, _, err := db.MatchSpaceRoot(ctx, sp.ID, search.Terms("server")); err != nil { // indexes the space
		b.Fatal(err)
	}
	var changed []string
	for i := range 20 {
		changed = append(changed, fmt.Sprintf("p%04d", 37*i+5))
	}
	merge(func(_ time.Time, t *content.Tree) (*content.Tree, error) {
		for _, id := range changed {
			t.Pages[id].Markdown = body(0, 1)
		}
		return t, nil
	})
	for _, n := range []int{2, 20} {
		for _, q := range []string{"server", "rare0x1"} {
			b.Run(fmt.Sprintf("%s/%d", q, n), func(b *testing.B) {
				terms := search.Terms(q)
				for b.Loop() {
					hits, _, err := db.MatchSpacePages(ctx, sp.ID, terms, changed[:n])
					if err != nil || len(hits) != 4*n {
						b.Fatalf("%d hits, %v; want %d", len(hits), err, 4*n)
					}
				}
			})
		}
	}
}
