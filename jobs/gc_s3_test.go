package jobs_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"time"

	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/internal/s3test"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestCollectS3: with file bytes in an S3 bucket (a real versitygw), a
// collection removes the object no revision names and keeps the one a
// merged page's file uses.
func TestCollectS3(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	blobs, err := blob.OpenStore(ctx, srv.URL("quire-gc", "files"))
	if err != nil {
		t.Fatal(err)
	}
	db := storetest.Open(t)
	b, err := db.InitOrganization(ctx, "GC Org", "gc-s3@example.com", "Gina")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, b.Organization.ID, store.NewSpace{Title: "Kept"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.CreateChangeRequest(ctx, sp.ID, "", b.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	used := []byte("a file a page uses")
	if c, err = db.EditChangeRequest(ctx, sp.ID, c.ID, b.User.ID, func(now time.Time, tr *content.Tree) (*content.Tree, error) {
		key, err := blobs.Put(context.Background(), used)
		if err != nil {
			return nil, err
		}
		tr.Pages["p"] = &content.Page{ID: "p", Title: "P", Slug: "p", Kind: content.KindDocument, Markdown: "body"}
		tr.Root = append(tr.Root, "p")
		tr.Files["f"] = &content.File{ID: "f", Name: "f.txt", ContentType: "text/plain", Size: int64(len(used)), Blob: key}
		return tr, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err = db.MergeChangeRequest(ctx, sp.ID, c.ID, b.User.ID); err != nil {
		t.Fatal(err)
	}
	orphan, err := blobs.Put(ctx, []byte("nobody uses this"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // S3 dates objects by the second

	res, err := (&jobs.Collector{DB: db, Blobs: blobs, Grace: 0}).Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Blobs != 1 {
		t.Errorf("removed %d blobs, want the orphan", res.Blobs)
	}
	if _, err := blobs.Open(ctx, orphan); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the orphan is still there: %v", err)
	}
	r, err := blobs.Open(ctx, blob.Key(used))
	if err != nil {
		t.Fatalf("the used file is gone: %v", err)
	}
	r.Close()
}
