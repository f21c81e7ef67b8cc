package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// gcWorld is a store with content of every kind a collection must keep or
// remove, written through the store as the API writes it.
type gcWorld struct {
	t               *testing.T
	db              *store.DB
	url, data       string
	blobs           blob.Dir
	org, user       string
	live            string // a space with a merged and an open change request
	openCR          *quire.ChangeRequest
	soft            string            // deleted two days ago: within the restore window
	goneRoot        string            // the tree of a purged space
	goneBlob        string            // a file only the purged space held
	orphanOld       string            // a blob no revision names, written long ago
	orphanYoung     string            // one written just now
	bodies          map[string]string // page id → body, of every page that must stay
	reusedGoneBodys []string          // bodies of the purged space written again while collecting
}

// edit returns an edit adding a page with the body, and a file with data
// (written to the blob store first, as authoring does) when data is not nil.
func (w *gcWorld) edit(pageID, body string, data []byte) store.EditFunc {
	return func(now time.Time, t *content.Tree) (*content.Tree, error) {
		t.Pages[pageID] = &content.Page{ID: pageID, Title: "T " + pageID, Slug: pageID, Kind: content.KindDocument, Markdown: body}
		t.Root = append(t.Root, pageID)
		if data != nil {
			key, err := w.blobs.Put(context.Background(), data)
			if err != nil {
				return nil, err
			}
			t.Files["f-"+pageID] = &content.File{ID: "f-" + pageID, Name: pageID + ".txt", ContentType: "text/plain", Size: int64(len(data)), Blob: key}
		}
		return t, nil
	}
}

// spaceWith makes a space whose content is one merged change request
// holding the given pages (id → body), with a file of fileData.
func (w *gcWorld) spaceWith(title string, pages map[string]string, fileData []byte) (*quire.Space, *quire.ChangeRequest) {
	w.t.Helper()
	ctx := w.t.Context()
	sp, err := w.db.CreateSpace(ctx, w.org, store.NewSpace{Title: title})
	if err != nil {
		w.t.Fatal(err)
	}
	c, err := w.db.CreateChangeRequest(ctx, sp.ID, "", w.user)
	if err != nil {
		w.t.Fatal(err)
	}
	first := true
	for id, body := range pages {
		var data []byte
		if first {
			data, first = fileData, false
		}
		if c, err = w.db.EditChangeRequest(ctx, sp.ID, c.ID, w.user, w.edit(id, body, data)); err != nil {
			w.t.Fatal(err)
		}
	}
	if c, err = w.db.MergeChangeRequest(ctx, sp.ID, c.ID, w.user); err != nil {
		w.t.Fatal(err)
	}
	return sp, c
}

// newGCWorld builds the store: everything old is written ten days ago.
func newGCWorld(t *testing.T) *gcWorld {
	ctx := t.Context()
	w := &gcWorld{t: t, url: storetest.URL(t), data: t.TempDir(), bodies: map[string]string{}}
	w.blobs = blob.Dir{Path: filepath.Join(w.data, "blobs")}
	db, err := store.Open(ctx, w.url, w.data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w.db = db
	real := time.Now()
	tenDaysAgo := real.Add(-10 * 24 * time.Hour)
	db.Now = func() time.Time { return tenDaysAgo }
	b, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	w.org, w.user = b.Organization.ID, b.User.ID

	live, _ := w.spaceWith("Live", map[string]string{"l1": "Shared body\n", "l2": "Live body\n"}, []byte("live file"))
	w.live = live.ID
	w.bodies["l1"], w.bodies["l2"] = "Shared body\n", "Live body\n"
	if w.openCR, err = db.CreateChangeRequest(ctx, live.ID, "Draft", w.user); err != nil {
		t.Fatal(err)
	}
	if w.openCR, err = db.EditChangeRequest(ctx, live.ID, w.openCR.ID, w.user, w.edit("d1", "Draft body\n", []byte("draft file"))); err != nil {
		t.Fatal(err)
	}
	w.bodies["d1"] = "Draft body\n"
	// An archived request keeps its revisions too.
	arch, err := db.CreateChangeRequest(ctx, live.ID, "Archived", w.user)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = db.EditChangeRequest(ctx, live.ID, arch.ID, w.user, w.edit("a1", "Archived body\n", []byte("archived file"))); err != nil {
		t.Fatal(err)
	}
	archived := quire.ChangeRequestStatus("archived")
	if _, err := db.UpdateChangeRequest(ctx, live.ID, arch.ID, store.ChangeRequestUpdate{Status: &archived}); err != nil {
		t.Fatal(err)
	}

	gonePages := map[string]string{"g1": "Shared body\n"}
	for i := range 6 {
		gonePages[fmt.Sprintf("g%d", i+2)] = fmt.Sprintf("Gone body %d\n", i)
	}
	gone, goneCR := w.spaceWith("Gone", gonePages, []byte("gone file"))
	rev, err := db.Revision(ctx, gone.ID, goneCR.RevisionMerged)
	if err != nil {
		t.Fatal(err)
	}
	w.goneRoot, w.goneBlob = rev.Root, blob.Key([]byte("gone file"))
	if err := db.DeleteSpace(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // written again while collecting: must survive
		w.reusedGoneBodys = append(w.reusedGoneBodys, fmt.Sprintf("Gone body %d\n", i))
	}

	db.Now = func() time.Time { return real.Add(-2 * 24 * time.Hour) }
	soft, _ := w.spaceWith("Soft", map[string]string{"s1": "Soft body\n"}, []byte("soft file"))
	w.soft = soft.ID
	w.bodies["s1"] = "Soft body\n"
	if err := db.DeleteSpace(ctx, soft.ID); err != nil {
		t.Fatal(err)
	}

	db.Now = time.Now
	if n, err := jobs.Purge(ctx, db); err != nil || n != 1 {
		t.Fatalf("purge: %d spaces, %v", n, err)
	}
	// Bytes a failed batch or an abandoned upload left: one long ago, one now.
	if w.orphanOld, err = w.blobs.Put(ctx, []byte("abandoned long ago")); err != nil {
		t.Fatal(err)
	}
	old := real.Add(-48 * time.Hour)
	if err := os.Chtimes(filepath.Join(w.blobs.Path, w.orphanOld[:2], w.orphanOld), old, old); err != nil {
		t.Fatal(err)
	}
	// Every blob written so far is old too (so only being used keeps it).
	w.ageBlobs(old)
	if w.orphanYoung, err = w.blobs.Put(ctx, []byte("abandoned just now")); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *gcWorld) ageBlobs(when time.Time) {
	w.t.Helper()
	err := w.blobs.Walk(time.Time{}, func(key string, _ time.Time) error {
		return os.Chtimes(filepath.Join(w.blobs.Path, key[:2], key), when, when)
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

// checkIntact opens the store afresh (no cache) and reads every revision of
// every space in full, every page body and every file's bytes, and the
// pages that must stay.
func (w *gcWorld) checkIntact() {
	w.t.Helper()
	ctx := w.t.Context()
	fresh, err := store.Open(ctx, w.url, w.data)
	if err != nil {
		w.t.Fatal(err)
	}
	defer fresh.Close()
	revs, err := fresh.RevisionRoots(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	seen := map[string]string{}
	for _, rr := range revs {
		tree, err := fresh.Tree(ctx, rr.Root)
		if err != nil {
			w.t.Fatalf("revision %s of space %s no longer reads: %v", rr.ID, rr.SpaceID, err)
		}
		for id, p := range tree.Pages {
			seen[id] = p.Markdown
		}
		for _, f := range tree.Files {
			rc, err := w.blobs.Open(ctx, f.Blob)
			if err != nil {
				w.t.Fatalf("file %s of revision %s: %v", f.Name, rr.ID, err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil || blob.Key(b) != f.Blob {
				w.t.Fatalf("file %s of revision %s: bytes differ (%v)", f.Name, rr.ID, err)
			}
		}
	}
	for id, body := range w.bodies {
		if seen[id] != body {
			w.t.Errorf("page %s reads %q, want %q", id, seen[id], body)
		}
	}
	if _, err := fresh.Mark(ctx, true); err != nil {
		w.t.Errorf("a full check of the store fails: %v", err)
	}
}

// TestCollectKeepsWhatIsUsed: a collection removes the objects and file
// bytes of a purged space and old abandoned bytes, and nothing any revision
// uses (soft-deleted spaces, open, merged and archived change requests),
// even while change requests are edited and merged during the collection
// with objects of the purged space written again.
func TestCollectKeepsWhatIsUsed(t *testing.T) {
	t.Parallel()
	w := newGCWorld(t)
	ctx := t.Context()
	before, _, err := w.db.ContentStats(ctx)
	if err != nil {
		t.Fatal(err)
	}

	var writers sync.WaitGroup
	var writeErr error
	var errMu sync.Mutex
	fail := func(err error) {
		errMu.Lock()
		defer errMu.Unlock()
		writeErr = errors.Join(writeErr, err)
	}
	c := &jobs.Collector{DB: w.db, Blobs: w.blobs, Grace: time.Hour, Batch: 2}
	c.AfterMark = func() {
		// Between mark and sweep: a page whose body is an old object only the
		// purged space used, so the mark did not keep it, is written first
		// (the sweep must see it), then more are written and a request is
		// merged while the sweep runs.
		first, err := w.db.CreateChangeRequest(ctx, w.live, "Written after the mark", w.user)
		if err != nil {
			fail(err)
			return
		}
		if _, err := w.db.EditChangeRequest(ctx, w.live, first.ID, w.user, w.edit("r0", w.reusedGoneBodys[0], nil)); err != nil {
			fail(err)
		}
		w.bodies["r0"] = w.reusedGoneBodys[0]
		cr, err := w.db.CreateChangeRequest(ctx, w.live, "Written while sweeping", w.user)
		if err != nil {
			fail(err)
			return
		}
		for i, body := range w.reusedGoneBodys[1:] {
			id := fmt.Sprintf("r%d", i+1)
			w.bodies[id] = body
		}
		writers.Go(func() {
			for i, body := range w.reusedGoneBodys[1:] {
				if _, err := w.db.EditChangeRequest(ctx, w.live, cr.ID, w.user, w.edit(fmt.Sprintf("r%d", i+1), body, nil)); err != nil {
					fail(err)
				}
			}
			if _, err := w.db.MergeChangeRequest(ctx, w.live, cr.ID, w.user); err != nil {
				fail(err)
			}
		})
		writers.Go(func() {
			if _, err := w.db.MergeChangeRequest(ctx, w.live, w.openCR.ID, w.user); err != nil {
				fail(err)
			}
		})
	}
	res, err := c.Collect(ctx)
	writers.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if writeErr != nil {
		t.Fatalf("writes during the collection: %v", writeErr)
	}
	w.checkIntact()

	// The purged space's tree is gone, but for what others use.
	if res.Objects == 0 || res.Blobs != 2 {
		t.Errorf("removed %d objects and %d blobs, want some objects and 2 blobs (the purged space's file, the old orphan)", res.Objects, res.Blobs)
	}
	fresh, err := store.Open(ctx, w.url, w.data)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.Tree(ctx, w.goneRoot); err == nil {
		t.Error("the purged space's tree still reads")
	}
	after, _, err := fresh.ContentStats(ctx)
	if err != nil || after >= before {
		t.Errorf("objects: %d before, %d after (%v)", before, after, err)
	}
	for key, want := range map[string]bool{w.goneBlob: false, w.orphanOld: false, w.orphanYoung: true} {
		rc, err := w.blobs.Open(ctx, key)
		if err == nil {
			rc.Close()
		}
		if got := err == nil; got != want {
			t.Errorf("blob %s present: %v, want %v (%v)", key[:8], got, want, err)
		}
	}

	// A second collection finds nothing more to remove.
	c.AfterMark = nil
	res, err = c.Collect(ctx)
	if err != nil || res.Objects != 0 || res.Blobs != 0 {
		t.Errorf("second collection: %+v, %v", res, err)
	}
	w.checkIntact()
}

// TestCollectGrace: nothing younger than the grace period is removed, even
// what nothing uses.
func TestCollectGrace(t *testing.T) {
	t.Parallel()
	w := newGCWorld(t)
	ctx := t.Context()
	w.ageBlobs(time.Now())
	before, _, err := w.db.ContentStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&jobs.Collector{DB: w.db, Blobs: w.blobs, Grace: 30 * 24 * time.Hour}).Collect(ctx)
	if err != nil || res.Objects != 0 || res.Blobs != 0 {
		t.Fatalf("collection within the grace period: %+v, %v", res, err)
	}
	if after, _, _ := w.db.ContentStats(ctx); after != before {
		t.Errorf("objects: %d before, %d after", before, after)
	}
	if _, err := w.db.Tree(ctx, w.goneRoot); err != nil {
		t.Errorf("the purged space's tree, younger than the grace period, no longer reads: %v", err)
	}
}

// TestCollectOnceTakesTurns: while one server holds the collection's lease,
// another does not collect.
func TestCollectOnceTakesTurns(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	held, err := db.AcquireLease(ctx, "gc", "other-server", time.Hour)
	if err != nil || !held {
		t.Fatalf("lease: %v %v", held, err)
	}
	c := &jobs.Collector{DB: db, Grace: time.Hour}
	if _, err := c.CollectOnce(ctx); !jobs.IsLeaseHeld(err) {
		t.Fatalf("collect while another holds the lease: %v", err)
	}
	if err := db.ReleaseLease(ctx, "gc", "other-server"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CollectOnce(ctx); err != nil {
		t.Fatalf("collect once the lease is free: %v", err)
	}
	// An expired lease is taken over.
	if held, err := db.AcquireLease(ctx, "gc", "stale", -time.Second); err != nil || !held {
		t.Fatalf("lease: %v %v", held, err)
	}
	if _, err := c.CollectOnce(ctx); err != nil {
		t.Fatalf("collect over an expired lease: %v", err)
	}
}
