package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
)

// addPageWithFile is an edit adding a page and a file whose bytes are
// written to the blob store first, as authoring batches do.
func addPageWithFile(blobs blob.Store, id string) store.EditFunc {
	return func(now time.Time, t *content.Tree) (*content.Tree, error) {
		data := []byte("bytes of " + id)
		key, err := blobs.Put(context.Background(), data)
		if err != nil {
			return nil, err
		}
		t.Pages[id] = &content.Page{ID: id, Title: "Page " + id, Slug: id, Kind: content.KindDocument, Markdown: "# " + id + "\n\nBody of " + id + ".\n"}
		t.Root = append(t.Root, id)
		t.Files["f"+id] = &content.File{ID: "f" + id, Name: id + ".txt", ContentType: "text/plain", Size: int64(len(data)), Blob: key}
		return t, nil
	}
}

// TestBackupRestoreUnderLoad takes a backup while change requests are
// edited (pages with files) and comments posted, restores it into an empty
// folder and compares every space, revision, page and file with the source,
// then serves the restored store.
func TestBackupRestoreUnderLoad(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := t.Context()
	var boot initOut
	s.admin(t, &boot, "init", "--org", "Acme", "--email", "ada@example.com", "--name", "Ada")
	db := s.open(t)
	blobs := blob.Dir{Path: filepath.Join(s.data, "blobs")}
	me, err := db.UserByEmail(ctx, "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	var spaces []string
	for i := range 2 {
		sp, err := db.CreateSpace(ctx, boot.Organization.ID, store.NewSpace{Title: fmt.Sprintf("Space %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		c, err := db.CreateChangeRequest(ctx, sp.ID, "Seed", me.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.EditChangeRequest(ctx, sp.ID, c.ID, me.ID, addPageWithFile(blobs, fmt.Sprintf("seed%d", i))); err != nil {
			t.Fatal(err)
		}
		if _, err := db.MergeChangeRequest(ctx, sp.ID, c.ID, me.ID); err != nil {
			t.Fatal(err)
		}
		spaces = append(spaces, sp.ID)
	}

	// Load: each writer edits and merges change requests with files, and
	// posts comments, until stopped.
	stop := make(chan struct{})
	var writers sync.WaitGroup
	var writes atomic.Int64
	for w, spaceID := range spaces {
		writers.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				c, err := db.CreateChangeRequest(ctx, spaceID, fmt.Sprintf("Load %d", n), me.ID)
				if err == nil {
					_, err = db.EditChangeRequest(ctx, spaceID, c.ID, me.ID, addPageWithFile(blobs, fmt.Sprintf("w%dn%d", w, n)))
				}
				if err == nil && n%2 == 0 {
					_, err = db.MergeChangeRequest(ctx, spaceID, c.ID, me.ID)
				}
				if err == nil {
					_, err = db.CreateComment(ctx, store.NewComment{CommentScope: store.CommentScope{SpaceID: spaceID}, UserID: me.ID, Markdown: fmt.Sprintf("Comment %d", n)})
				}
				if err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				writes.Add(1)
			}
		})
	}
	for writes.Load() < 4 { // the backup starts with the load under way
		time.Sleep(5 * time.Millisecond)
	}
	if s.db != "" {
		// PostgreSQL: the backup holds the files, the database is pg_dump's;
		// the files are restored beside the same database, so its content
		// must stand still for the comparison.
		close(stop)
		writers.Wait()
	}
	before, err := db.RevisionRoots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "quire-backup.tar.gz")
	stdout, stderr, err := runCLI(t, s.args("admin", "backup", file)...)
	if s.db == "" {
		close(stop)
		writers.Wait()
	}
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, stderr)
	}
	var rep backupReport
	decodeStrict(t, stdout, &rep)
	after, err := db.RevisionRoots(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// A backup never overwrites.
	if _, _, err := runCLI(t, s.args("admin", "backup", file)...); err == nil {
		t.Error("a second backup to the same file succeeded")
	}

	t.Logf("backup: %+v; %d revisions when it started, %d once the load stopped", rep, len(before), len(after))
	restored := testStore{data: filepath.Join(t.TempDir(), "restored"), db: s.db}
	if s.db != "" {
		if !strings.Contains(stderr, "pg_dump") {
			t.Errorf("a PostgreSQL backup does not point to pg_dump: %q", stderr)
		}
	}
	stdout, stderr, err = runCLI(t, restored.args("admin", "restore", file)...)
	if err != nil {
		t.Fatalf("restore: %v\n%s", err, stderr)
	}
	var got backupReport
	decodeStrict(t, stdout, &got)
	if got.Missing != 0 || got.Blobs != rep.Blobs || got.Revisions != rep.Revisions {
		t.Errorf("restore report %+v", got)
	}
	// Restoring over it again is refused without --force.
	if _, _, err := runCLI(t, restored.args("admin", "restore", file)...); err == nil {
		t.Error("restore into a folder that is not empty succeeded")
	}

	rdb := restored.open(t)
	compareRestored(t, db, rdb, restored, before, after)
	serveRestored(t, restored, boot.Token, spaces)
}

// compareRestored checks that the restored store holds every revision the
// source held when the backup started, only revisions the source holds, and
// that each reads the same in full, files included.
func compareRestored(t *testing.T, src, dst *store.DB, restored testStore, before, after []store.RevisionRoot) {
	t.Helper()
	ctx := t.Context()
	got, err := dst.RevisionRoots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srcRoots := map[string]store.RevisionRoot{}
	for _, rr := range after {
		srcRoots[rr.ID] = rr
	}
	gotIDs := map[string]bool{}
	dstBlobs := blob.Dir{Path: filepath.Join(restored.data, "blobs")}
	for _, rr := range got {
		gotIDs[rr.ID] = true
		if srcRoots[rr.ID] != rr {
			t.Fatalf("restored revision %+v, the source has %+v", rr, srcRoots[rr.ID])
		}
		want, err := src.Tree(ctx, rr.Root)
		if err != nil {
			t.Fatal(err)
		}
		have, err := dst.Tree(ctx, rr.Root)
		if err != nil {
			t.Fatalf("restored revision %s: %v", rr.ID, err)
		}
		if len(have.Pages) != len(want.Pages) || len(have.Files) != len(want.Files) {
			t.Fatalf("revision %s: %d pages and %d files, want %d and %d", rr.ID, len(have.Pages), len(have.Files), len(want.Pages), len(want.Files))
		}
		for id, p := range want.Pages {
			if q := have.Pages[id]; q == nil || q.Markdown != p.Markdown || q.Title != p.Title {
				t.Fatalf("revision %s page %s differs", rr.ID, id)
			}
		}
		for id, f := range want.Files {
			if have.Files[id] == nil || *have.Files[id] != *f {
				t.Fatalf("revision %s file %s differs", rr.ID, id)
			}
			rc, err := dstBlobs.Open(ctx, f.Blob)
			if err != nil {
				t.Fatalf("revision %s file %s: %v", rr.ID, f.Name, err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil || blob.Key(b) != f.Blob {
				t.Fatalf("revision %s file %s: bytes differ", rr.ID, f.Name)
			}
		}
	}
	for _, rr := range before {
		if !gotIDs[rr.ID] {
			t.Fatalf("revision %s, stored before the backup started, is not restored", rr.ID)
		}
	}
}

// serveRestored serves the restored store and reads its spaces with the
// token issued before the backup.
func serveRestored(t *testing.T, restored testStore, token string, spaces []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr logBuffer
	var serveErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		serveErr = run(ctx, restored.args("serve", "--addr", "127.0.0.1:0"), &stdout, &stderr)
	}()
	serving := stderr.waitJSON(t, done, func(m map[string]any) bool { return m["msg"] == "quire serving" })
	base := "http://" + serving["addr"].(string)
	for _, id := range spaces {
		sp := get(t, base+"/v1/spaces/"+id, token)
		if sp["id"] != id {
			t.Errorf("GET the restored space %s = %v", id, sp)
		}
		pages := get(t, base+"/v1/spaces/"+id+"/content/pages", token)
		if items, _ := pages["pages"].([]any); len(items) == 0 {
			t.Errorf("restored space %s has no pages: %v", id, pages)
		}
	}
	if _, err := os.Stat(filepath.Join(restored.data, "initial-token")); err == nil {
		t.Error("the restored server ran its first start: its store looked empty")
	}
	cancel()
	<-done
	if serveErr != nil {
		t.Errorf("serve: %v", serveErr)
	}
}

// TestRestoreRefusesForeignEntries: an archive with anything but a
// manifest, a database and files' bytes under their hash is refused.
func TestRestoreRefusesForeignEntries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "evil.tar.gz")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	for name, body := range map[string]string{manifestName: `{"format":1,"database":"sqlite"}`} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(body))})
		tw.Write([]byte(body))
	}
	evil := "pwned"
	tw.WriteHeader(&tar.Header{Name: "blobs/../../outside", Mode: 0o600, Size: int64(len(evil))})
	tw.Write([]byte(evil))
	tw.Close()
	zw.Close()
	f.Close()
	data := filepath.Join(dir, "data")
	if _, _, err := runCLI(t, "admin", "restore", file, "--data", data, "--db="); err == nil || !strings.Contains(err.Error(), "blobs/../../outside") {
		t.Fatalf("restore of a foreign entry: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "outside")); err == nil {
		t.Fatal("the entry was written outside the data folder")
	}
}

// TestAdminGC: quire admin gc collects and prints what it removed.
func TestAdminGC(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	var boot initOut
	s.admin(t, &boot, "init", "--org", "Acme", "--email", "ada@example.com", "--name", "Ada")
	orphan, err := blob.Dir{Path: filepath.Join(s.data, "blobs")}.Put(t.Context(), []byte("nobody uses this"))
	if err != nil {
		t.Fatal(err)
	}
	var kept jobs.GCResult
	s.admin(t, &kept, "gc")
	if kept.Blobs != 0 {
		t.Errorf("within the default grace period of a day: %+v", kept)
	}
	var res jobs.GCResult
	s.admin(t, &res, "gc", "--gc-grace", "0s")
	if res.Blobs != 1 {
		t.Errorf("gc --gc-grace 0s: %+v, want the orphan removed", res)
	}
	if _, err := os.Stat(filepath.Join(s.data, "blobs", orphan[:2], orphan)); err == nil {
		t.Error("the orphan is still there")
	}
	if _, stderr, err := runCLI(t, s.args("admin", "gc", "--gc-grace", "-1h")...); err != errUsage || !strings.Contains(stderr, "--gc-grace") {
		t.Errorf("a negative grace: %v %q", err, stderr)
	}
}
