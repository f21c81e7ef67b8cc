package blob_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiredocs/quire/blob"
)

// TestDirModes: the blob folders and files are owner-only, like the rest of
// the data folder.
func TestDirModes(t *testing.T) {
	t.Parallel()
	d := blob.Dir{Path: filepath.Join(t.TempDir(), "blobs")}
	key, err := d.Put(context.Background(), []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		d.Path:                              0o700,
		filepath.Join(d.Path, key[:2]):      0o700,
		filepath.Join(d.Path, key[:2], key): 0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s has mode %v, want %v", path, got, want)
		}
	}
}
