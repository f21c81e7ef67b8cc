package store_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
)

// searchSpace is the sections of the space's current content that hold
// the terms, by page and position.
func searchSpace(ctx context.Context, db *store.DB, spaceID string, terms []string) ([]store.SearchHit, error) {
	hits, _, err := db.MatchSpaceRoot(ctx, spaceID, terms)
	sortHits(hits)
	return hits, err
}

// sortHits sorts hits by page and position.
func sortHits(hits []store.SearchHit) {
	slices.SortFunc(hits, func(a, b store.SearchHit) int {
		return cmp.Or(strings.Compare(a.PageID, b.PageID), cmp.Compare(a.Position, b.Position))
	})
}

// currentRoot is the tree root of the space's current revision.
func currentRoot(t *testing.T, db *store.DB, spaceID string) string {
	t.Helper()
	sp, err := db.Space(t.Context(), spaceID)
	if err != nil {
		t.Fatal(err)
	}
	rev, _, err := db.RevisionTree(t.Context(), spaceID, sp.RevisionID)
	if err != nil {
		t.Fatal(err)
	}
	return rev.Root
}

// hitPages lists the pages of hits, each once, in order.
func hitPages(hits []store.SearchHit) []string {
	var out []string
	for _, h := range hits {
		if !slices.Contains(out, h.PageID) {
			out = append(out, h.PageID)
		}
	}
	return out
}

// findPages searches the space's current content for q: the pages found.
func findPages(t *testing.T, db *store.DB, spaceID, q string) []string {
	t.Helper()
	hits, err := searchSpace(t.Context(), db, spaceID, search.Terms(q))
	if err != nil {
		t.Fatal(err)
	}
	return hitPages(hits)
}

// mergeEdit merges edit into the space through a change request of its own.
func mergeEdit(t testing.TB, db *store.DB, spaceID, userID string, edit store.EditFunc) {
	t.Helper()
	ctx := t.Context()
	cr, err := db.CreateChangeRequest(ctx, spaceID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EditChangeRequest(ctx, spaceID, cr.ID, userID, edit); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, spaceID, cr.ID, userID); err != nil {
		t.Fatal(err)
	}
}

// TestSearchFollowsContent: a search finds what the space's current content
// says, after every merge, with stemming, prefixes and diacritics folded,
// and never a hidden page or one kept out of indexing.
func TestSearchFollowsContent(t *testing.T) {
	t.Parallel()
	db, spaceID, userID, _ := contentSpace(t)
	find := func(q string) []string { t.Helper(); return findPages(t, db, spaceID, q) }
	merge := func(edit store.EditFunc) { t.Helper(); mergeEdit(t, db, spaceID, userID, edit) }
	if got := find("install"); len(got) != 0 {
		t.Errorf("empty space found %v", got)
	}
	merge(addPages(map[string]string{
		"a": "Intro.\n\n## Installing\n\nRun the installer on your café machine.\n",
		"b": "Nothing about that here.\n\n## Configure\n\nSet the port.\n",
	}))
	if got := find("install"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("install: %v, want [a] (stemmed)", got)
	}
	if got := find("cafe machine"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("cafe machine: %v, want [a] (diacritics folded)", got)
	}
	if got := find("conf"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("conf: %v, want [b] (prefix)", got)
	}
	if got := find("T b"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("title: %v, want [b]", got)
	}
	if got := find("port installer"); len(got) != 0 {
		t.Errorf("terms of two pages: %v, want none", got)
	}
	// Common words are words too, on both databases (PostgreSQL's English
	// configuration would drop them).
	if got := find("the"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("the: %v, want [a b]", got)
	}
	if got := find("about that"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("about that: %v, want [b]", got)
	}
	merge(func(now time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["a"].Markdown = "Now about uninstalling only.\n"
		tr.Pages["b"].Hidden = true
		tr.Pages["c"] = &content.Page{ID: "c", Title: "Ports", Slug: "c", Kind: content.KindDocument, NoIndex: true, Markdown: "port"}
		tr.Root = append(tr.Root, "c")
		return tr, nil
	})
	if got := find("installer"); len(got) != 0 {
		t.Errorf("installer after the edit: %v", got)
	}
	if got := find("uninstalling"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("uninstalling: %v, want [a]", got)
	}
	if got := find("port"); len(got) != 0 {
		t.Errorf("port: %v, want nothing (hidden and noIndex pages)", got)
	}
}

// TestSearchKeepsSpacesApart: the same words in two spaces are found only
// in the space searched.
func TestSearchKeepsSpacesApart(t *testing.T) {
	t.Parallel()
	db, spaceID, userID, c := contentSpace(t)
	ctx := t.Context()
	sp, err := db.Space(ctx, spaceID)
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.CreateSpace(ctx, sp.OrgID, store.NewSpace{Title: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	oc, err := db.CreateChangeRequest(ctx, other.ID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct{ space, cr, page string }{{spaceID, c.ID, "mine"}, {other.ID, oc.ID, "theirs"}} {
		if _, err := db.EditChangeRequest(ctx, s.space, s.cr, userID, addPages(map[string]string{s.page: "Shared words about webhooks.\n"})); err != nil {
			t.Fatal(err)
		}
		if _, err := db.MergeChangeRequest(ctx, s.space, s.cr, userID); err != nil {
			t.Fatal(err)
		}
	}
	for space, want := range map[string]string{spaceID: "mine", other.ID: "theirs"} {
		hits, err := searchSpace(ctx, db, space, search.Terms("webhooks"))
		if err != nil {
			t.Fatal(err)
		}
		if got := hitPages(hits); !slices.Equal(got, []string{want}) {
			t.Errorf("space %s found %v, want [%s]", space, got, want)
		}
		hits, err = db.SearchSpacesAny(ctx, []string{space}, search.Terms("webhooks unrelated"), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || hits[0].SpaceID != space || hits[0].PageID != want {
			t.Errorf("any words in space %s: %+v", space, hits)
		}
	}
	hits, err := db.SearchSpacesAny(ctx, []string{spaceID, other.ID}, search.Terms("webhooks"), 10)
	if err != nil || len(hits) != 2 {
		t.Errorf("both spaces: %+v, %v", hits, err)
	}
}

// TestSearchIndexedOnce: searches that find the index out of date at the
// same time take turns; the rows are written once.
func TestSearchIndexedOnce(t *testing.T) {
	t.Parallel()
	db, raw, _, _ := openRaw(t)
	ctx := t.Context()
	sp, userID := docsSpace(t, db)
	cr, err := db.CreateChangeRequest(ctx, sp.ID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for i := range 20 {
		pages[fmt.Sprintf("p%02d", i)] = "Intro.\n\n## Webhooks\n\nSent on change.\n"
	}
	if _, err := db.EditChangeRequest(ctx, sp.ID, cr.ID, userID, addPages(pages)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, sp.ID, cr.ID, userID); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			hits, err := searchSpace(ctx, db, sp.ID, search.Terms("webhooks"))
			if err != nil {
				t.Error(err)
			} else if len(hitPages(hits)) != 20 {
				t.Errorf("found %d pages, want 20", len(hitPages(hits)))
			}
		})
	}
	wg.Wait()
	var rows int
	if err := raw.QueryRowContext(ctx, rebind(db, "SELECT COUNT(*) FROM search_sections WHERE space_id = ?"), sp.ID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 40 {
		t.Errorf("%d search rows, want 40 (two sections of 20 pages)", rows)
	}
}

// TestMatchSpaceRoot: a search tells the root of the content it found its
// hits in, the space's current one, also when it found nothing, so that
// what it found may be kept by that root.
func TestMatchSpaceRoot(t *testing.T) {
	t.Parallel()
	db, spaceID, userID, c := contentSpace(t)
	ctx := t.Context()
	_, err := db.EditChangeRequest(ctx, spaceID, c.ID, userID, func(now time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["a"] = &content.Page{ID: "a", Title: "Webhooks", Slug: "webhooks", Kind: content.KindDocument, Markdown: "Events.\n"}
		tr.Root = append(tr.Root, "a")
		return tr, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, spaceID, c.ID, userID); err != nil {
		t.Fatal(err)
	}
	root := currentRoot(t, db, spaceID)
	// The space's own id is no word of its content.
	for q, want := range map[string]int{"webhooks": 1, "absent": 0, spaceID: 0} {
		hits, got, err := db.MatchSpaceRoot(ctx, spaceID, search.Terms(q))
		if err != nil {
			t.Fatal(err)
		}
		if got != root || len(hits) != want || (want > 0 && (hits[0].SpaceID != spaceID || hits[0].PageID != "a")) {
			t.Errorf("%s: %+v at %q, want %d hits at %q", q, hits, got, want, root)
		}
	}
}

// TestMatchSpacePages: a search of some pages finds in them what a search
// of the whole space finds, at the same root, however far apart their rows
// were written.
func TestMatchSpacePages(t *testing.T) {
	t.Parallel()
	db, spaceID, userID, _ := contentSpace(t)
	ctx := t.Context()
	merge := func(pages map[string]string) { t.Helper(); mergeEdit(t, db, spaceID, userID, addPages(pages)) }
	merge(map[string]string{"a": "Replication guide.\n\n## Setup\n\nReplicas and more.\n", "b": "Nothing here.\n", "c": "Two replicas.\n"})
	findPages(t, db, spaceID, "replica") // indexes the space
	merge(map[string]string{"d": "Replicas.\n\n## Again\n\nreplica\n"})
	merge(map[string]string{"e": "Other.\n"})
	terms := search.Terms("replica")
	all, err := searchSpace(ctx, db, spaceID, terms)
	if err != nil {
		t.Fatal(err)
	}
	if got := hitPages(all); !slices.Equal(got, []string{"a", "c", "d"}) {
		t.Fatalf("replica in the space: %v, want [a c d]", got)
	}
	root := currentRoot(t, db, spaceID)
	for _, pages := range [][]string{{"a", "d"}, {"b", "e"}, {"c"}, {}, {"a", "b", "c", "d", "e", "missing"}} {
		var want []store.SearchHit
		for _, h := range all {
			if slices.Contains(pages, h.PageID) {
				want = append(want, h)
			}
		}
		got, at, err := db.MatchSpacePages(ctx, spaceID, terms, pages)
		if err != nil {
			t.Fatal(err)
		}
		sortHits(got)
		if at != root || len(got) != len(want) || len(want) > 0 && !slices.Equal(got, want) {
			t.Errorf("replica in %v: %+v at %q, want %+v at %q", pages, got, at, want, root)
		}
	}
}

// TestMergeKeepsIndexCurrent: a merge into a space whose search rows are up
// to date brings them to the merged content itself, so that the searches
// after it find the new text without writing.
func TestMergeKeepsIndexCurrent(t *testing.T) {
	t.Parallel()
	db, spaceID, userID, _ := contentSpace(t)
	ctx := t.Context()
	find := func(q string) []string { t.Helper(); return findPages(t, db, spaceID, q) }
	merge := func(pages map[string]string) { t.Helper(); mergeEdit(t, db, spaceID, userID, addPages(pages)) }
	merge(map[string]string{"a": "About webhooks.\n"})
	if got := find("webhooks"); !slices.Equal(got, []string{"a"}) { // indexes the space
		t.Fatalf("webhooks: %v, want [a]", got)
	}
	merge(map[string]string{"b": "Webhooks and quotas.\n"})
	writes := db.Writes()
	if got := find("webhooks"); !slices.Equal(got, []string{"a", "b"}) && !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("webhooks after the merge: %v, want a and b", got)
	}
	if got := find("quota"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("quota after the merge: %v, want [b]", got)
	}
	if n := db.Writes() - writes; n != 0 {
		t.Errorf("searches after the merge wrote %d times, want 0", n)
	}
	if n, err := db.IndexStaleSpaces(ctx, 10); n != 0 || err != nil {
		t.Errorf("stale spaces after the merge: %d, %v; want none", n, err)
	}
}
