package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestRunPurger: the purger removes, as soon as it starts, the spaces deleted
// more than seven days ago, keeps the recently deleted ones, and stops when
// its context ends.
func TestRunPurger(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	b, err := db.InitOrganization(ctx, "Org", "a@example.com", "A")
	if err != nil {
		t.Fatal(err)
	}
	old, err := db.CreateSpace(ctx, b.Organization.ID, store.NewSpace{Title: "Old"})
	if err != nil {
		t.Fatal(err)
	}
	recent, err := db.CreateSpace(ctx, b.Organization.ID, store.NewSpace{Title: "Recent"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSpace(ctx, old.ID); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * 24 * time.Hour)
	if err := db.DeleteSpace(ctx, recent.ID); err != nil {
		t.Fatal(err)
	}
	now = now.Add(6 * 24 * time.Hour) // old: 8 days ago; recent: 6 days ago

	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		jobs.RunPurger(runCtx, db, time.Hour, slog.New(slog.DiscardHandler))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := db.Space(ctx, old.ID)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the space deleted 8 days ago is still stored: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("RunPurger did not stop when its context ended")
	}
	if _, err := db.Space(ctx, recent.ID); err != nil {
		t.Errorf("the space deleted 6 days ago was purged: %v", err)
	}
}
