package store_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/quiredocs/quire/store"
)

// TestCheckpointWAL: while reads never stop, writes grow SQLite's
// write-ahead log, and a checkpoint still empties it, with every write
// kept.
func TestCheckpointWAL(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	boot, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	orgID := boot.Organization.ID

	stop := make(chan struct{})
	var readers sync.WaitGroup
	stopReaders := sync.OnceFunc(func() { close(stop); readers.Wait() })
	defer stopReaders() // also when the test fails early: no reader outlives it
	for range 4 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := db.ListSpaces(ctx, orgID, store.SpaceFilter{}, store.Page{Limit: 50}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for i := range 300 {
		if _, err := db.CreateSpace(ctx, orgID, store.NewSpace{Title: "Space " + string(rune('A'+i%26))}); err != nil {
			t.Fatal(err)
		}
	}
	wal := filepath.Join(dir, "quire.db-wal")
	before, err := os.Stat(wal)
	if err != nil || before.Size() == 0 {
		t.Fatalf("the log before the checkpoint: %v, %v", before, err)
	}
	// A checkpoint waits a second at most for reads under way, and the
	// server tries again later: on a busy machine it may take a few.
	emptied := false
	for range 10 {
		if emptied = db.CheckpointWAL(ctx); emptied {
			break
		}
	}
	if !emptied {
		t.Fatal("ten checkpoints did not empty the log while reads went on")
	}
	stopReaders()
	if after, err := os.Stat(wal); err != nil || after.Size() != 0 {
		t.Errorf("the log after the checkpoint: %v bytes (%d before), %v", after.Size(), before.Size(), err)
	}
	list, err := db.ListSpaces(ctx, orgID, store.SpaceFilter{}, store.Page{Limit: 1000})
	if err != nil || list.Count != 300 {
		t.Errorf("spaces after the checkpoint: %v, %v", list, err)
	}
}
