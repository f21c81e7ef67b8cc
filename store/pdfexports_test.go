package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestPDFExports: requests for one PDF join one export, whatever their
// number; a worker's claim ends it once, and a claim whose lease ran out is
// claimed by another worker, the first then writing nothing; old exports
// are purged.
func TestPDFExports(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	sp, _ := docsSpace(t, db)
	key := store.PDFExportKey{SpaceID: sp.ID, RevisionID: sp.RevisionID, Title: "Docs"}

	// Eight requests at once make one export.
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			x, err := db.EnsurePDFExport(ctx, key)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = x.ID
		})
	}
	wg.Wait()
	for _, id := range ids[1:] {
		if id != ids[0] {
			t.Fatalf("concurrent requests made exports %v, want one", ids)
		}
	}
	// What it prints tells exports apart: a page alone, another title.
	other := key
	other.PageID, other.Only = "p1", true
	retitled := key
	retitled.Title = "Docs, renamed"
	for _, k := range []store.PDFExportKey{other, retitled} {
		if x, err := db.EnsurePDFExport(ctx, k); err != nil || x.ID == ids[0] || x.State != store.PDFPending {
			t.Fatalf("export of %+v: %+v, %v", k, x, err)
		}
	}

	// A worker claims the oldest; the lease runs out and another claims it.
	first, err := db.ClaimPDFExport(ctx, time.Minute)
	if err != nil || first == nil || first.ID != ids[0] || first.State != store.PDFPrinting || first.Attempts != 1 {
		t.Fatalf("claim: %+v, %v", first, err)
	}
	x, _ := db.PDFExport(ctx, first.ID)
	if db.PDFExportDue(x) {
		t.Fatal("an export held under a lease is due")
	}
	db.Now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	if x, _ := db.PDFExport(ctx, first.ID); !db.PDFExportDue(x) {
		t.Fatal("an export whose lease ran out is not due")
	}
	second, err := db.ClaimPDFExport(ctx, time.Minute)
	if err != nil || second == nil || second.ID != first.ID || second.Attempts != 2 {
		t.Fatalf("claim after the lease ran out: %+v, %v", second, err)
	}
	if err := db.CompletePDFExport(ctx, first, "0123", 10); !errors.Is(err, store.ErrPDFExportLost) {
		t.Fatalf("the first worker completed a lost claim: %v", err)
	}
	if held, err := db.PDFExportHeld(ctx, first); held || err != nil {
		t.Fatalf("the first claim holds: %v, %v", held, err)
	}
	if err := db.CompletePDFExport(ctx, second, "abcd", 1234); err != nil {
		t.Fatal(err)
	}
	done, err := db.EnsurePDFExport(ctx, key)
	if err != nil || done.ID != first.ID || done.State != store.PDFDone || done.Blob != "abcd" || done.Size != 1234 || done.Claim != "" {
		t.Fatalf("done: %+v, %v", done, err)
	}

	// A failure is kept, with its code, and answered as it is.
	third, err := db.ClaimPDFExport(ctx, time.Minute)
	if err != nil || third == nil {
		t.Fatalf("claim: %+v, %v", third, err)
	}
	if err := db.FailPDFExport(ctx, third, quire.CodeTooLarge, `page "Big": too many cells`); err != nil {
		t.Fatal(err)
	}
	if x, err := db.PDFExport(ctx, third.ID); err != nil || x.State != store.PDFFailed || x.ErrorCode != string(quire.CodeTooLarge) || x.Error != `page "Big": too many cells` {
		t.Fatalf("failed: %+v, %v", x, err)
	}

	// Done and failed exports go once old; the pending one stays.
	n, err := db.PurgePDFExports(ctx, db.Now().Add(time.Second), db.Now().Add(time.Second))
	if err != nil || n != 2 {
		t.Fatalf("purged %d, %v; want the done and the failed export", n, err)
	}
	if _, err := db.PDFExport(ctx, first.ID); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Fatalf("purged export: %v", err)
	}
	if due, err := db.PDFExportsDue(ctx); !due || err != nil {
		t.Fatalf("due: %v, %v; the pending export is", due, err)
	}
}
