package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestRunSearchIndexer: the indexer indexes every space whose content
// changed, live ones only, and again after each merge; then nothing is
// left for a search to do.
func TestRunSearchIndexer(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	b, err := db.InitOrganization(ctx, "Org", "a@example.com", "A")
	if err != nil {
		t.Fatal(err)
	}
	var spaces []string
	for _, title := range []string{"One", "Two", "Gone"} {
		sp, err := db.CreateSpace(ctx, b.Organization.ID, store.NewSpace{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		spaces = append(spaces, sp.ID)
	}
	merge := func(spaceID, body string) {
		t.Helper()
		cr, err := db.CreateChangeRequest(ctx, spaceID, "", b.User.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.EditChangeRequest(ctx, spaceID, cr.ID, b.User.ID, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
			tr.Pages["p"] = &content.Page{ID: "p", Title: "Page", Slug: "page", Kind: content.KindDocument, Markdown: body}
			tr.Root = []string{"p"}
			return tr, nil
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.MergeChangeRequest(ctx, spaceID, cr.ID, b.User.ID); err != nil {
			t.Fatal(err)
		}
	}
	merge(spaces[0], "Webhooks.\n")
	merge(spaces[2], "Gone.\n")
	if err := db.DeleteSpace(ctx, spaces[2]); err != nil {
		t.Fatal(err)
	}

	// Empty spaces have nothing to index; deleted ones are left alone.
	if n, err := db.IndexStaleSpaces(ctx, 10); n != 1 || err != nil {
		t.Errorf("first round: %d, %v; want the one live space with content", n, err)
	}
	if n, err := db.IndexStaleSpaces(ctx, 10); n != 0 || err != nil {
		t.Errorf("second round: %d, %v; want nothing left", n, err)
	}

	// Running, it indexes a merge within an interval.
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		jobs.RunSearchIndexer(runCtx, db, 10*time.Millisecond, slog.New(slog.DiscardHandler))
	}()
	merge(spaces[1], "Retries.\n")
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, err := db.IndexStaleSpaces(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the indexer left the merge unindexed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	<-done
	hits, _, err := db.MatchSpaceRoot(ctx, spaces[1], []string{"retries"})
	if err != nil || len(hits) != 1 {
		t.Errorf("search after indexing: %v, %v", hits, err)
	}
}
