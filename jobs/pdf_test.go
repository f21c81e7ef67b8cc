package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestPDFPrinter: each due export ends as its printing does: done with
// its PDF in blob storage, failed with the printing's error (a timeout
// too), or left to its lease when the store or blob storage fail; an
// export claimed too often fails.
func TestPDFPrinter(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	boot, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, boot.Organization.ID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	blobs := blob.Dir{Path: t.TempDir()}
	outcomes := map[string]func(ctx context.Context, out io.Writer) error{
		"done": func(_ context.Context, out io.Writer) error { _, err := io.WriteString(out, "%PDF-done"); return err },
		"big": func(context.Context, io.Writer) error {
			return quire.Errorf(quire.CodeTooLarge, `page "Big": too many cells`)
		},
		"slow":     func(ctx context.Context, _ io.Writer) error { <-ctx.Done(); return ctx.Err() },
		"internal": func(context.Context, io.Writer) error { return errors.New("disk on fire") },
	}
	p := &jobs.PDFPrinter{DB: db, Blobs: blobs, Timeout: 100 * time.Millisecond, Poll: 10 * time.Millisecond,
		Print: func(ctx context.Context, x *store.PDFExport, out io.Writer) error { return outcomes[x.Title](ctx, out) }}
	ids := map[string]string{}
	for _, title := range []string{"done", "big", "slow", "internal"} {
		x, err := db.EnsurePDFExport(ctx, store.PDFExportKey{SpaceID: sp.ID, RevisionID: sp.RevisionID, Title: title})
		if err != nil {
			t.Fatal(err)
		}
		ids[title] = x.ID
	}
	if _, err := p.ProcessPDFs(ctx); err == nil || err.Error() != "disk on fire" {
		t.Fatalf("ProcessPDFs = %v, want the internal error", err)
	}
	want := map[string]string{"done": store.PDFDone, "big": store.PDFFailed, "slow": store.PDFFailed, "internal": store.PDFPrinting}
	for title, id := range ids {
		x, err := db.PDFExport(ctx, id)
		if err != nil || x.State != want[title] {
			t.Fatalf("%s: %+v, %v; want %s", title, x, err, want[title])
		}
		switch title {
		case "done":
			r, err := blobs.Open(ctx, x.Blob)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(r)
			r.Close()
			if string(got) != "%PDF-done" || x.Size != int64(len(got)) {
				t.Errorf("the PDF kept is %q (%d bytes said)", got, x.Size)
			}
		case "big":
			if x.ErrorCode != string(quire.CodeTooLarge) || x.Error != `page "Big": too many cells` {
				t.Errorf("big: %s %q", x.ErrorCode, x.Error)
			}
		case "slow":
			if x.ErrorCode != string(quire.CodeTooLarge) || x.Error == "" {
				t.Errorf("slow: %s %q", x.ErrorCode, x.Error)
			}
		}
	}

	// The failing export is claimed again as its lease runs out, until it
	// has been claimed more than MaxPDFAttempts times.
	start := time.Now()
	for i := range jobs.MaxPDFAttempts {
		later := start.Add(time.Duration(i+1) * 2 * jobs.PDFLease)
		db.Now = func() time.Time { return later }
		_, _ = p.ProcessPDFs(ctx)
	}
	x, err := db.PDFExport(ctx, ids["internal"])
	if err != nil || x.State != store.PDFFailed || x.Error != fmt.Sprintf("printing the PDF was interrupted %d times", jobs.MaxPDFAttempts) {
		t.Fatalf("internal: %+v, %v; want failed after %d attempts", x, err, jobs.MaxPDFAttempts)
	}
	if p.Printed() != 4+jobs.MaxPDFAttempts {
		t.Errorf("printed %d", p.Printed())
	}
}
