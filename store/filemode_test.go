package store_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiredocs/quire/store"
)

// TestSQLiteFileModes: the data folder, the database and its -wal and -shm
// files (which hold the integration-secret and visitor-claims keys) are
// owner-only, when made and when an older install made them readable by all.
func TestSQLiteFileModes(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")
	paths := map[string]fs.FileMode{
		data:                                0o700,
		filepath.Join(data, "quire.db"):     0o600,
		filepath.Join(data, "quire.db-wal"): 0o600,
		filepath.Join(data, "quire.db-shm"): 0o600,
	}
	check := func(when string) {
		t.Helper()
		for path, want := range paths {
			fi, err := os.Stat(path)
			if err != nil {
				t.Errorf("%s: %v", when, err)
				continue
			}
			if got := fi.Mode().Perm(); got != want {
				t.Errorf("%s: %s has mode %v, want %v", when, filepath.Base(path), got, want)
			}
		}
	}
	open := func() *store.DB {
		t.Helper()
		db, err := store.Open(context.Background(), "", data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.InitIfEmpty(context.Background(), "Org", "owner@example.com", "Owner"); err != nil {
			t.Fatal(err) // a write, so the -wal and -shm files exist
		}
		return db
	}

	db := open()
	check("new")
	// An install made before: everything readable by all.
	for path := range paths {
		mode := fs.FileMode(0o644)
		if path == data {
			mode = 0o755
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	db = open()
	defer db.Close()
	check("reopened")
}
