package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// PDF exports (security finding 1): a PDF is printed by a durable job, once
// per what it prints, and kept in blob storage; see migration 0038. The row
// is the job, claimed from the leased queue (queue.go).

// The states of a PDF export.
const (
	PDFPending  = "pending"  // waits for a worker
	PDFPrinting = "printing" // a worker holds it
	PDFDone     = "done"     // printed: Blob holds it
	PDFFailed   = "failed"   // could not be printed: ErrorCode and Error say why
)

// PDFExportKey is what a PDF prints, and so what tells exports apart.
type PDFExportKey struct {
	SpaceID, RevisionID string
	ChangeRequestID     string // "" for the space's own content
	PageID              string // "" for all pages
	Only                bool   // PageID without its subpages
	Title, Subtitle     string // on the title page
}

// PDFExport is one PDF export.
type PDFExport struct {
	PDFExportKey
	ID               string
	State            string
	Blob             string // once done
	Size             int64
	ErrorCode, Error string // once failed
	CreatedAt        time.Time
	UpdatedAt        time.Time
	Claim            string
	ClaimedUntil     time.Time // while printing
	Attempts         int
}

const pdfExportColumns = `id, space_id, revision_id, change_request_id, page_id, only_page, title, subtitle, state, blob, size,
	error_code, error, created_at, updated_at, claim, claimed_until, attempts`

func scanPDFExport(row interface{ Scan(...any) error }) (*PDFExport, error) {
	var x PDFExport
	var blob, code, msg, claim sql.NullString
	var created, updated int64
	var until sql.NullInt64
	if err := row.Scan(&x.ID, &x.SpaceID, &x.RevisionID, &x.ChangeRequestID, &x.PageID, &x.Only, &x.Title, &x.Subtitle,
		&x.State, &blob, &x.Size, &code, &msg, &created, &updated, &claim, &until, &x.Attempts); err != nil {
		return nil, err
	}
	if until.Valid {
		x.ClaimedUntil = fromMicros(until.Int64)
	}
	x.Blob, x.ErrorCode, x.Error, x.Claim = blob.String, code.String, msg.String, claim.String
	x.CreatedAt, x.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &x, nil
}

// pdfExportByKey is the query of the export of a key.
const pdfExportByKey = "SELECT " + pdfExportColumns + ` FROM pdf_exports WHERE space_id = ? AND revision_id = ?
	AND change_request_id = ? AND page_id = ? AND only_page = ? AND title = ? AND subtitle = ?`

func (k PDFExportKey) args() []any {
	return []any{k.SpaceID, k.RevisionID, k.ChangeRequestID, k.PageID, k.Only, k.Title, k.Subtitle}
}

// EnsurePDFExport returns the export of k, enqueueing it when there is
// none: requests for the same PDF, on any server, join one export. One
// there already is read without a write transaction.
func (db *DB) EnsurePDFExport(ctx context.Context, k PDFExportKey) (x *PDFExport, err error) {
	x, err = scanPDFExport(db.q.queryRow(ctx, pdfExportByKey, k.args()...))
	if !errors.Is(err, sql.ErrNoRows) {
		return x, err
	}
	err = db.Tx(ctx, func(tx *Tx) error {
		now := micros(tx.Now)
		if _, err := tx.q.exec(ctx, `INSERT INTO pdf_exports (id, space_id, revision_id, change_request_id, page_id, only_page, title,
			subtitle, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			newID(), k.SpaceID, k.RevisionID, k.ChangeRequestID, k.PageID, k.Only, k.Title, k.Subtitle, PDFPending, now, now); err != nil {
			return err
		}
		x, err = scanPDFExport(tx.q.queryRow(ctx, pdfExportByKey, k.args()...))
		return err
	})
	return x, err
}

// PDFExport is the export id.
func (r reader) PDFExport(ctx context.Context, id string) (*PDFExport, error) {
	return scanRow(ctx, r.q, "PDF export", scanPDFExport, "SELECT "+pdfExportColumns+" FROM pdf_exports WHERE id = ?", id)
}

// pdfQueue is the queue of PDF exports: an export waits pending, and is
// printing while a worker holds it.
var pdfQueue = &queue{
	kind: "PDF export", table: "pdf_exports", alias: "x", key: "id",
	claim: "claim", until: "claimed_until", attempts: "attempts",
	ready: "x.state IN ('pending', 'printing')", order: "x.updated_at, x.id",
	take:     "state = 'printing'",
	giveBack: "state = 'pending', updated_at = ?",
	lost:     ErrPDFExportLost,
	fail: func(ctx context.Context, tx *Tx, l Lease, reason string) error {
		return tx.endPDFExport(ctx, l, "state = ?, error_code = ?, error = ?", PDFFailed, string(quire.CodeInternal), reason)
	},
}

// PDFExportsDue reports, with a plain read, whether an export waits to be
// claimed: pending, or printing under a lease that ran out.
func (db *DB) PDFExportsDue(ctx context.Context) (bool, error) {
	return pdfQueue.anyDue(ctx, db)
}

// PDFExportDue reports whether x, as read, waits to be claimed.
func (db *DB) PDFExportDue(x *PDFExport) bool {
	return x.State == PDFPending || x.State == PDFPrinting && !x.ClaimedUntil.After(db.Now())
}

// ClaimPDFExport claims, for lease, the export due longest; nil when none
// is.
func (db *DB) ClaimPDFExport(ctx context.Context, lease time.Duration) (*PDFExport, error) {
	return claimRow(ctx, db, pdfQueue, lease, pdfExportColumns, scanPDFExport)
}

// Lease is the worker's claim of x.
func (x *PDFExport) Lease() Lease {
	return Lease{q: pdfQueue, ID: x.ID, Claim: x.Claim, Attempts: x.Attempts}
}

// ErrPDFExportLost reports a claimed export whose lease ran out and was
// claimed by another worker, or that was removed: its worker stops.
var ErrPDFExportLost = errors.New("the PDF export was removed or taken by another worker")

// PDFExportHeld reports, with a plain read, whether x's claim holds.
func (db *DB) PDFExportHeld(ctx context.Context, x *PDFExport) (bool, error) {
	return db.LeaseHeld(ctx, x.Lease())
}

// endPDFExport ends l's claim with set (and its arguments);
// ErrPDFExportLost when the claim no longer holds.
func (tx *Tx) endPDFExport(ctx context.Context, l Lease, set string, args ...any) error {
	args = append(append([]any{micros(tx.Now)}, args...), l.ID, l.Claim)
	n, err := tx.q.affected(ctx, "UPDATE pdf_exports SET claim = NULL, claimed_until = NULL, updated_at = ?, "+set+
		" WHERE "+l.q.held(), args...)
	if err == nil && n == 0 {
		return ErrPDFExportLost
	}
	return err
}

// CompletePDFExport records x printed into blob, of size bytes.
func (db *DB) CompletePDFExport(ctx context.Context, x *PDFExport, blob string, size int64) error {
	return db.Tx(ctx, func(tx *Tx) error {
		return tx.endPDFExport(ctx, x.Lease(), "state = ?, blob = ?, size = ?", PDFDone, blob, size)
	})
}

// FailPDFExport records that x cannot be printed, for the reason code and
// message say; requests are answered with them.
func (db *DB) FailPDFExport(ctx context.Context, x *PDFExport, code quire.Code, message string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		return tx.endPDFExport(ctx, x.Lease(), "state = ?, error_code = ?, error = ?", PDFFailed, string(code), message)
	})
}

// PurgePDFExports removes the exports done before done and those failed
// before failed, and reports how many; garbage collection then removes
// their PDFs. An export asked for again is printed again.
func (db *DB) PurgePDFExports(ctx context.Context, done, failed time.Time) (n int64, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err = tx.q.affected(ctx, "DELETE FROM pdf_exports WHERE state = ? AND updated_at < ? OR state = ? AND updated_at < ?",
			PDFDone, micros(done), PDFFailed, micros(failed))
		return err
	})
	return n, err
}

// markPDFExports notes the blobs of the PDFs exports keep.
func (r *Reachable) markPDFExports(ctx context.Context, q querier) error {
	blobs, err := columnStrings(ctx, q, "SELECT blob FROM pdf_exports WHERE blob IS NOT NULL")
	for _, b := range blobs {
		r.Blobs[b] = true
	}
	return err
}
