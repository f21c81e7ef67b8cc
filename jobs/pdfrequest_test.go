package jobs_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestOpenPDF: a request for a PDF enqueues its export, wakes the printer
// and opens the PDF once printed; a failed export answers its error; one
// that another server holds is waited for only up to the bound.
func TestOpenPDF(t *testing.T) {
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
	key := func(title string) store.PDFExportKey {
		return store.PDFExportKey{SpaceID: sp.ID, RevisionID: sp.RevisionID, Title: title}
	}
	// Held by another server, before any printer here wakes.
	if _, err := db.EnsurePDFExport(ctx, key("held")); err != nil {
		t.Fatal(err)
	}
	if x, err := db.ClaimPDFExport(ctx, time.Minute); err != nil || x == nil {
		t.Fatalf("claim: %+v, %v", x, err)
	}
	p := &jobs.PDFPrinter{DB: db, Blobs: blob.Dir{Path: t.TempDir()}, Wait: 100 * time.Millisecond,
		Print: func(_ context.Context, x *store.PDFExport, out io.Writer) error {
			if x.Title == "big" {
				return quire.Errorf(quire.CodeTooLarge, `page "Big": too many cells`)
			}
			_, err := io.WriteString(out, "%PDF-"+x.Title)
			return err
		}}

	tests := []struct {
		title string
		want  string     // the PDF's bytes, when printed
		code  quire.Code // the error's code, when failed
		wait  bool       // ErrPDFWait
	}{
		{title: "held", wait: true},
		{title: "a", want: "%PDF-a"},
		{title: "a", want: "%PDF-a"}, // printed, opened again
		{title: "big", code: quire.CodeTooLarge},
	}
	for _, tt := range tests {
		doc, err := p.OpenPDF(ctx, key(tt.title))
		switch {
		case tt.wait:
			if !errors.Is(err, jobs.ErrPDFWait) {
				t.Errorf("%s: %v, want ErrPDFWait", tt.title, err)
			}
		case tt.code != "":
			if quire.ErrorCode(err) != tt.code {
				t.Errorf("%s: %v, want code %s", tt.title, err, tt.code)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.title, err)
		default:
			b, err := io.ReadAll(doc)
			doc.Close()
			if err != nil || string(b) != tt.want {
				t.Errorf("%s: %q, %v; want %q", tt.title, b, err, tt.want)
			}
		}
	}
}
