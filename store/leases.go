package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// leasedRuns describes a table of durable runs that workers claim with a
// lease (import runs, translations, PDF exports): a row waits in one state, is held in
// another under a claim id until claimed_until, and is claimed again by
// any worker once that time has passed.
type leasedRuns struct {
	table, state     string // the table and the column of a row's state
	waiting, running string // its values while a run waits and while it is held
	lost             error  // what renewing a claim that no longer holds returns
}

var (
	importLeases      = leasedRuns{"import_runs", "status", ImportPending, ImportInProgress, ErrImportRunLost}
	translationLeases = leasedRuns{"translations", "state", TranslationQueued, TranslationRunning, ErrTranslationRunLost}
	pdfLeases         = leasedRuns{"pdf_exports", "state", PDFPending, PDFPrinting, ErrPDFExportLost}
)

// due is what a run due to be claimed satisfies, with now as its one
// argument.
func (l leasedRuns) due() string {
	return l.state + " = '" + l.waiting + "' OR (" + l.state + " = '" + l.running + "' AND claimed_until <= ?)"
}

// anyDue reports, with a plain read, whether a run waits to be claimed, so
// idle workers do not take the write lock to find nothing.
func (l leasedRuns) anyDue(ctx context.Context, db *DB) (bool, error) {
	var n int
	err := db.q.queryRow(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM "+l.table+" WHERE "+l.due()+" LIMIT 1) d", micros(db.Now())).Scan(&n)
	return n > 0, err
}

// claimQuery selects columns of the first due run in order, locked so that
// several servers' workers each skip the rows another is claiming.
func (l leasedRuns) claimQuery(tx *Tx, columns, order string) string {
	query := "SELECT " + columns + " FROM " + l.table + " WHERE " + l.due() + " ORDER BY " + order + " LIMIT 1"
	if tx.q.d.name() == "postgres" {
		query += " FOR UPDATE SKIP LOCKED"
	}
	return query
}

// claimNext claims the first due run in order, in a transaction of its
// own: scan reads the columns of the run, and take marks it claimed and
// writes that (with l.take); nil when no run is due.
func claimNext[R any](ctx context.Context, db *DB, l leasedRuns, columns, order string,
	scan func(interface{ Scan(...any) error }) (*R, error), take func(tx *Tx, run *R) error) (run *R, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		run = nil
		r, err := scan(tx.q.queryRow(ctx, l.claimQuery(tx, columns, order), micros(tx.Now)))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := take(tx, r); err != nil {
			return err
		}
		run = r
		return nil
	})
	return run, err
}

// take writes run id held under claim until until, for its attempts-th
// time, with the further columns set ("col = ?, …") to args.
func (l leasedRuns) take(ctx context.Context, tx *Tx, id, claim string, attempts int, until time.Time, set string, args ...any) error {
	query := "UPDATE " + l.table + " SET " + l.state + " = ?, claim = ?, claimed_until = ?, attempts = ?"
	if set != "" {
		query += ", " + set
	}
	_, err := tx.q.exec(ctx, query+" WHERE id = ?", append(append([]any{l.running, claim, micros(until), attempts}, args...), id)...)
	return err
}

// held is the condition on a row (by id and claim, its two arguments) that
// a claim still holds.
func (l leasedRuns) held() string {
	return "id = ? AND claim = ? AND " + l.state + " = '" + l.running + "'"
}

// isHeld reports, with a plain read, whether the claim on run id still
// holds.
func (l leasedRuns) isHeld(ctx context.Context, db *DB, id, claim string) (bool, error) {
	var n int
	err := db.q.queryRow(ctx, "SELECT COUNT(*) FROM "+l.table+" WHERE "+l.held(), id, claim).Scan(&n)
	return n == 1, err
}

// renew extends the lease of a claim; l.lost when it no longer holds.
func (l leasedRuns) renew(ctx context.Context, db *DB, id, claim string, lease time.Duration) error {
	return db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "UPDATE "+l.table+" SET claimed_until = ? WHERE "+l.held(), micros(tx.Now.Add(lease)), id, claim)
		if err == nil && n == 0 {
			return l.lost
		}
		return err
	})
}
