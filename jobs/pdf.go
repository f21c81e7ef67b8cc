package jobs

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/jobs/lease"
	"github.com/quiredocs/quire/store"
)

// PDF exports (security finding 1): a PDF is printed by a durable job, a
// row of the store (store.ClaimPDFExport), at most PDFSlots at a time per
// server, once per what it prints. A worker prints into a temporary file
// and puts it in blob storage, so no PDF is ever whole in memory; a worker
// that dies leaves a lease that runs out, and another claims the export.

const (
	// PDFLease is how long a worker holds an export without renewing it;
	// it renews every PDFLease/3.
	PDFLease = time.Minute
	// PDFPollInterval is how often a busy worker checks its claim, and an
	// idle server looks for exports nobody prints.
	PDFPollInterval = time.Second
	// PDFSlots is how many PDFs a server prints at once: printing is all
	// CPU, and each takes up to some 150 MB (pdf.DefaultLimits).
	PDFSlots = 2
	// PDFTimeout bounds the printing of one PDF.
	PDFTimeout = 90 * time.Second
	// MaxPDFAttempts is how many times an export may be claimed before it
	// is given up as failed: a PDF that kills its printer must not do so
	// on every server.
	MaxPDFAttempts = 3
	// PDFKeep is how long a printed PDF is kept (Purge removes its row,
	// then garbage collection its blob); asked for later, it is printed
	// again. PDFFailedKeep is how long a failure is answered without
	// trying again.
	PDFKeep       = 7 * 24 * time.Hour
	PDFFailedKeep = time.Hour
)

// PDFPrinter prints the exports that are due, on this server.
type PDFPrinter struct {
	DB    *store.DB
	Blobs blob.Store
	// Print prints x's PDF to out.
	Print func(ctx context.Context, x *store.PDFExport, out io.Writer) error
	// Slots, Timeout and Poll are PDFSlots, PDFTimeout and PDFPollInterval
	// when 0.
	Slots   int
	Timeout time.Duration
	Poll    time.Duration
	// Wait bounds how long OpenPDF waits; PDFWait when 0.
	Wait time.Duration
	// TempDir holds the PDFs being printed; "" is os.TempDir().
	TempDir string
	Log     *slog.Logger

	once    sync.Once
	slots   chan struct{}
	mu      sync.Mutex
	changed chan struct{} // closed, and made anew, when an export ends here
	printed int           // exports this printer printed, done or failed (tests)

	keyMu sync.Mutex
	key   []byte // the key of PDF links, once read (pdflinks.go)
}

func (p *PDFPrinter) init() {
	p.once.Do(func() {
		p.slots = make(chan struct{}, cmp.Or(p.Slots, PDFSlots))
		p.changed = make(chan struct{})
		if p.Log == nil {
			p.Log = slog.New(slog.DiscardHandler)
		}
	})
}

// Ended is closed when the next export this printer works on ends: those
// waiting for one look again then, not at the next poll.
func (p *PDFPrinter) Ended() <-chan struct{} {
	p.init()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.changed
}

func (p *PDFPrinter) ended() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printed++
	close(p.changed)
	p.changed = make(chan struct{})
}

// Printed is how many exports this printer ended, done or failed.
func (p *PDFPrinter) Printed() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.printed
}

// Wake starts a worker in each free slot, to print the exports that are
// due until none is; it does not wait for them. A request that enqueued
// an export wakes the printer, so that it need not wait for a poll.
func (p *PDFPrinter) Wake() {
	p.init()
	for {
		select {
		case p.slots <- struct{}{}:
		default:
			return
		}
		go func() {
			defer func() { <-p.slots }()
			if _, err := p.ProcessPDFs(context.Background()); err != nil {
				p.Log.Error("print PDFs", "err", err)
			}
		}()
	}
}

// ProcessPDFs claims and prints due exports one after the other until none
// is left, and returns how many it ended. When ctx ends in the middle of
// one, that export is given back, not failed.
func (p *PDFPrinter) ProcessPDFs(ctx context.Context) (int, error) {
	p.init()
	return lease.Drain(ctx, func(ctx context.Context) (*store.PDFExport, error) { return p.DB.ClaimPDFExport(ctx, PDFLease) },
		func(ctx context.Context, x *store.PDFExport) (int, error) {
			err := p.process(ctx, x)
			p.ended()
			return lease.One(err)
		})
}

func (p *PDFPrinter) process(ctx context.Context, x *store.PDFExport) error {
	w := lease.Watch{DB: p.DB, Lease: PDFLease, Poll: cmp.Or(p.Poll, PDFPollInterval), Timeout: cmp.Or(p.Timeout, PDFTimeout),
		Max: MaxPDFAttempts, GiveUp: fmt.Sprintf("printing the PDF was interrupted %d times", MaxPDFAttempts)}
	var key string
	var size int64
	out, err := w.Run(ctx, x.Lease(), func(ctx context.Context) (err error) {
		key, size, err = p.print(ctx, x)
		return err
	})
	switch {
	case err != nil, out.GaveUp:
		return err
	case out.Err == nil:
		err = p.DB.CompletePDFExport(ctx, x, key, size)
		if errors.Is(err, store.ErrPDFExportLost) {
			return nil
		}
		return err
	case out.Lost:
		return nil
	case out.TimedOut:
		return p.fail(ctx, x, quire.CodeTooLarge, fmt.Sprintf("printing the PDF took longer than %s; print a page and its subpages (page) instead",
			w.Timeout))
	case quire.ErrorCode(out.Err) == quire.CodeInternal:
		// The store or blob storage failing: claimed again once the
		// lease runs out, up to MaxPDFAttempts times.
		return out.Err
	}
	return p.fail(ctx, x, quire.ErrorCode(out.Err), quire.ErrorMessage(out.Err))
}

// fail records that x cannot be printed, while the claim holds.
func (p *PDFPrinter) fail(ctx context.Context, x *store.PDFExport, code quire.Code, message string) error {
	err := p.DB.FailPDFExport(ctx, x, code, message)
	if errors.Is(err, store.ErrPDFExportLost) {
		return nil
	}
	return err
}

// print prints x into a temporary file and puts it in blob storage.
func (p *PDFPrinter) print(ctx context.Context, x *store.PDFExport) (key string, size int64, err error) {
	if p.Blobs == nil {
		return "", 0, errors.New("no blob store")
	}
	f, err := os.CreateTemp(p.TempDir, "quire-pdf-*")
	if err != nil {
		return "", 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	out := bufio.NewWriterSize(f, 64<<10)
	if err := p.Print(ctx, x, out); err != nil {
		return "", 0, err
	}
	if err := out.Flush(); err != nil {
		return "", 0, err
	}
	return blob.PutFile(ctx, p.Blobs, f)
}

// Run prints the exports due at start, then whenever the store has some
// (looking every interval) that no request woke a printer for, such as one
// whose printer died, until ctx ends.
func (p *PDFPrinter) Run(ctx context.Context, interval time.Duration) {
	p.init()
	every(ctx, interval, func() {
		due, err := p.DB.PDFExportsDue(ctx)
		if err == nil && due {
			p.Wake()
		}
		if err != nil && ctx.Err() == nil {
			p.Log.Error("look for PDFs to print", "err", err)
		}
	})
}
