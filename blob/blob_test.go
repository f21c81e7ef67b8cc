package blob

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestDirPutOpen(t *testing.T) {
	ctx := context.Background()
	d := Dir{Path: t.TempDir()}
	key, err := d.Put(ctx, []byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if key != Key([]byte("hello")) {
		t.Fatalf("key %s is not the content's hash", key)
	}
	again, err := d.Put(ctx, []byte("hello"))
	if err != nil || again != key {
		t.Fatalf("second put: %s, %v", again, err)
	}
	r, err := d.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, _ := io.ReadAll(r)
	if string(b) != "hello" {
		t.Fatalf("read %q", b)
	}
	entries, _ := os.ReadDir(filepath.Join(d.Path, key[:2]))
	if len(entries) != 1 {
		t.Errorf("%d files where one blob was stored twice", len(entries))
	}
}

func TestDirOpenRefusesBadKeys(t *testing.T) {
	d := Dir{Path: t.TempDir()}
	for _, key := range []string{"", "../../etc/passwd", Key([]byte("never stored")), "zz" + Key(nil)[2:]} {
		if _, err := d.Open(context.Background(), key); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q) = %v, want not exist", key, err)
		}
	}
}

func TestDirConcurrentPuts(t *testing.T) {
	d := Dir{Path: t.TempDir()}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if _, err := d.Put(context.Background(), []byte("same bytes")); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	r, err := d.Open(context.Background(), Key([]byte("same bytes")))
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
}
