package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// Import runs (issue 19): a website imported into a space or a change
// request as a durable job, the reference's ContentImportRun. The job is the
// row's state: a worker claims a pending run, or an in-progress one whose
// lease ran out (its worker died), crawls with no transaction open, and
// writes the pages in the transaction that completes the run
// (Tx.CompleteImportRun), so a cancelled or lost run writes nothing.

// The reference's statuses of an import run.
const (
	ImportPending    = "pending"
	ImportInProgress = "in-progress"
	ImportCompleted  = "completed"
	ImportFailed     = "failed"
	ImportCancelled  = "cancelled"
)

// keepImportRuns is how many finished runs an organization keeps: the
// oldest beyond are deleted when a run starts, which bounds the list.
const keepImportRuns = 500

// ImportRun is one import run.
type ImportRun struct {
	ID, OrgID, SpaceID      string
	ChangeRequestID, SiteID string // "" when none
	SourceURL               string
	Status, Reason          string
	Pages                   []ImportedPage
	CreatedBy               string
	CreatedAt, UpdatedAt    time.Time
	StartedAt, CompletedAt  time.Time // zero until then
	// Claim identifies the worker's claim of an in-progress run; Attempts
	// counts the claims, this one included.
	Claim    string
	Attempts int
}

// ImportedPage is a page an import run wrote.
type ImportedPage struct {
	ID        string `json:"id"`
	SourceURL string `json:"sourceURL"`
}

// NewImportRun is what starting a run records.
type NewImportRun struct {
	OrgID, SpaceID, ChangeRequestID, SiteID, SourceURL, UserID string
}

const importRunColumns = `id, org_id, space_id, change_request_id, site_id, source_url, status, reason, pages, created_by,
	created_at, updated_at, started_at, completed_at, claim, attempts`

func scanImportRun(row interface{ Scan(...any) error }) (*ImportRun, error) {
	var r ImportRun
	var cr, site, reason, by, claim sql.NullString
	var pages string
	var created, updated int64
	var started, completed sql.NullInt64
	if err := row.Scan(&r.ID, &r.OrgID, &r.SpaceID, &cr, &site, &r.SourceURL, &r.Status, &reason, &pages, &by,
		&created, &updated, &started, &completed, &claim, &r.Attempts); err != nil {
		return nil, err
	}
	r.ChangeRequestID, r.SiteID, r.Reason, r.CreatedBy, r.Claim = cr.String, site.String, reason.String, by.String, claim.String
	r.CreatedAt, r.UpdatedAt = fromMicros(created), fromMicros(updated)
	if started.Valid {
		r.StartedAt = fromMicros(started.Int64)
	}
	if completed.Valid {
		r.CompletedAt = fromMicros(completed.Int64)
	}
	if err := json.Unmarshal([]byte(pages), &r.Pages); err != nil {
		return nil, err
	}
	return &r, nil
}

// StartImportRun records a pending run for a worker to take.
func (db *DB) StartImportRun(ctx context.Context, in NewImportRun) (run *ImportRun, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		id, now := newID(), micros(tx.Now)
		if _, err := tx.q.exec(ctx, `INSERT INTO import_runs (id, org_id, space_id, change_request_id, site_id, source_url, status, created_by,
			created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, in.OrgID, in.SpaceID, nullString(in.ChangeRequestID),
			nullString(in.SiteID), in.SourceURL, ImportPending, nullString(in.UserID), now, now); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, `DELETE FROM import_runs WHERE org_id = ? AND status IN ('completed', 'failed', 'cancelled') AND id NOT IN
			(SELECT id FROM import_runs WHERE org_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`, in.OrgID, in.OrgID, keepImportRuns); err != nil {
			return err
		}
		run, err = scanImportRun(tx.q.queryRow(ctx, "SELECT "+importRunColumns+" FROM import_runs WHERE id = ?", id))
		return err
	})
	return run, err
}

// ImportRun is one run of an organization.
func (r reader) ImportRun(ctx context.Context, orgID, id string) (*ImportRun, error) {
	return scanRow(ctx, r.q, "import run", scanImportRun, "SELECT "+importRunColumns+" FROM import_runs WHERE org_id = ? AND id = ?", orgID, id)
}

// ImportRunFilter narrows a list of runs; "" matches all. Status "active"
// is pending or in-progress.
type ImportRunFilter struct {
	SpaceID, ChangeRequestID, SiteID, Status string
}

// ImportRuns are an organization's runs matching f, most recent first (at
// most keepImportRuns finished ones are kept, so they are read whole),
// ties by id.
func (r reader) ImportRuns(ctx context.Context, orgID string, f ImportRunFilter) ([]*ImportRun, error) {
	where, args := " WHERE org_id = ?", []any{orgID}
	for col, v := range map[string]string{"space_id": f.SpaceID, "change_request_id": f.ChangeRequestID, "site_id": f.SiteID} {
		if v != "" {
			where, args = where+" AND "+col+" = ?", append(args, v)
		}
	}
	switch f.Status {
	case "":
	case "active":
		where += " AND status IN ('pending', 'in-progress')"
	default:
		where, args = where+" AND status = ?", append(args, f.Status)
	}
	return scanRows(ctx, r.q, scanImportRun, "SELECT "+importRunColumns+" FROM import_runs"+where+" ORDER BY created_at DESC, id", args...)
}

// CancelImportRun cancels a pending or in-progress run; a run that has
// ended is a 400 saying how. The worker of an in-progress run sees it at
// its next look (DB.LeaseHeld) and stops without writing.
func (db *DB) CancelImportRun(ctx context.Context, orgID, id string) (run *ImportRun, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, `UPDATE import_runs SET status = ?, updated_at = ?, claim = NULL, claimed_until = NULL
			WHERE org_id = ? AND id = ? AND status IN ('pending', 'in-progress')`, ImportCancelled, micros(tx.Now), orgID, id)
		if err != nil {
			return err
		}
		if run, err = tx.ImportRun(ctx, orgID, id); err != nil {
			return err
		}
		if n == 0 {
			return quire.Errorf(quire.CodeInvalid, "importRunId: the import run is %s already and cannot be cancelled", run.Status)
		}
		return nil
	})
	return run, err
}

// importQueue is the queue of import runs: a run waits pending, and is
// in-progress while a worker holds it.
var importQueue = &queue{
	kind: "import run", table: "import_runs", alias: "r", key: "id",
	claim: "claim", until: "claimed_until", attempts: "attempts",
	ready: "r.status IN ('pending', 'in-progress')", order: "r.created_at, r.id",
	take:     "status = 'in-progress', started_at = COALESCE(started_at, ?), updated_at = ?",
	giveBack: "status = 'pending', updated_at = ?",
	lost:     ErrImportRunLost,
	fail: func(ctx context.Context, tx *Tx, l Lease, reason string) error {
		_, err := tx.q.exec(ctx, `UPDATE import_runs SET status = ?, reason = ?, updated_at = ?, claim = NULL, claimed_until = NULL
			WHERE `+l.q.held(), ImportFailed, reason, micros(tx.Now), l.ID, l.Claim)
		return err
	},
}

// ImportRunsDue reports, with a plain read, whether a run waits to be
// claimed.
func (db *DB) ImportRunsDue(ctx context.Context) (bool, error) { return importQueue.anyDue(ctx, db) }

// ClaimImportRun claims, for lease, the oldest pending run or in-progress
// run whose lease ran out; nil when there is none. The run is in-progress.
func (db *DB) ClaimImportRun(ctx context.Context, lease time.Duration) (*ImportRun, error) {
	return claimRow(ctx, db, importQueue, lease, importRunColumns, scanImportRun)
}

// Lease is the worker's claim of run.
func (r *ImportRun) Lease() Lease {
	return Lease{q: importQueue, ID: r.ID, Claim: r.Claim, Attempts: r.Attempts}
}

// ErrImportRunLost reports a claimed run that was cancelled, deleted, or
// whose lease ran out and was claimed by another worker: its worker stops
// and writes nothing.
var ErrImportRunLost = errors.New("the import run was cancelled or taken by another worker")

// CompleteImportRun marks a claimed run completed with the pages it wrote,
// within the transaction that wrote them; ErrImportRunLost, which rolls the
// pages back, when the claim no longer holds (the run was cancelled). The
// row stays locked until the commit, so a cancel waits and then finds the
// run completed.
func (tx *Tx) CompleteImportRun(ctx context.Context, run *ImportRun, pages []ImportedPage) error {
	if pages == nil {
		pages = []ImportedPage{}
	}
	b, err := json.Marshal(pages)
	if err != nil {
		return err
	}
	now := micros(tx.Now)
	n, err := tx.q.affected(ctx, `UPDATE import_runs SET status = ?, pages = ?, completed_at = ?, updated_at = ?, claim = NULL, claimed_until = NULL
		WHERE `+importQueue.held(), ImportCompleted, string(b), now, now, run.ID, run.Claim)
	if err == nil && n == 0 {
		return ErrImportRunLost
	}
	return err
}
