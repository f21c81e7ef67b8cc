package jobs

import (
	"cmp"
	"context"
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// A request for a PDF joins the export of what it prints (one row per
// store.PDFExportKey), wakes a printer and waits for the export to end. It
// lives beside the printer because waiting listens to the printer's ends
// (Ended) and wakes it (Wake): authoring, below jobs, could not.

const (
	// PDFWait bounds how long a request waits for its PDF: past it, the
	// printing goes on and OpenPDF answers ErrPDFWait. It is longer than
	// PDFTimeout, so that a PDF printed at once is waited for.
	PDFWait = PDFTimeout + 10*time.Second
	// PDFAwaitPoll is how often a waiting request looks whether its PDF,
	// being printed by another server, is done.
	PDFAwaitPoll = 500 * time.Millisecond
)

// ErrPDFWait says a PDF was not printed within the time a request waits.
var ErrPDFWait = errors.New("the PDF is still being printed")

// OpenPDF opens the PDF of k once it is printed (await). A PDF purged
// since its export was read (PDFKeep) answers ErrPDFWait, being printed
// anew at the next request.
func (p *PDFPrinter) OpenPDF(ctx context.Context, k store.PDFExportKey) (io.ReadSeekCloser, error) {
	x, err := p.await(ctx, k)
	if err != nil {
		return nil, err
	}
	doc, err := p.Blobs.Open(ctx, x.Blob)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrPDFWait
	}
	return doc, err
}

// await returns the export of k once it is done: enqueued when there is
// none, joined when there is, printed on this server when a slot is free
// (else by another's), waited for up to p.Wait (PDFWait when 0), then
// ErrPDFWait. A failed export answers its error (413 for a PDF over the
// bounds, naming the page), without printing again.
func (p *PDFPrinter) await(ctx context.Context, k store.PDFExportKey) (*store.PDFExport, error) {
	wait := time.NewTimer(cmp.Or(p.Wait, PDFWait))
	defer wait.Stop()
	poll := time.NewTicker(PDFAwaitPoll)
	defer poll.Stop()
	var x *store.PDFExport
	for {
		ended := p.Ended() // before reading, so that an end meanwhile is not missed
		var err error
		if x == nil {
			x, err = p.DB.EnsurePDFExport(ctx, k)
		} else if x, err = p.DB.PDFExport(ctx, x.ID); quire.ErrorCode(err) == quire.CodeNotFound {
			continue // purged meanwhile: enqueued again
		}
		if err != nil {
			return nil, err
		}
		switch {
		case x.State == store.PDFDone:
			return x, nil
		case x.State == store.PDFFailed:
			return nil, quire.Errorf(quire.Code(x.ErrorCode), "%s", x.Error)
		case p.DB.PDFExportDue(x):
			p.Wake()
		}
		select {
		case <-ended:
		case <-poll.C:
		case <-wait.C:
			return nil, ErrPDFWait
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
