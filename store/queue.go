package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// The leased queue. Seven kinds of background work are rows that workers
// claim with a lease: git sync (a space with operations waiting), import
// runs, API specification processing, translation runs, webhook deliveries,
// renderer revalidation calls and PDF exports. Each kind is a queue value below, its table and columns
// described once; claiming, renewing, giving back, recovering from a dead
// worker and giving up are the same code for all. A claim is a fresh random
// id written with a time (claimed_until) after which any worker may claim
// the row again: a worker that died loses nothing but time. On PostgreSQL,
// several servers' workers each skip the rows another is claiming (FOR
// UPDATE SKIP LOCKED); SQLite has one writer at a time.
//
// A new kind joins with a table holding a key, a claim, a claimed_until
// and (usually) an attempts column, and a queue value: when a row is ready,
// what a claim, a release and giving up write, and what its lost claim
// says. Its worker in jobs runs each claimed item under jobs/lease's
// Watch.Run. docs/architecture/jobs.md tells it step by step.

// queue describes one kind of leased work.
type queue struct {
	kind         string // names the kind
	table, alias string // alias qualifies the columns of ready and order
	join         string // more of the claim's FROM clause, if any
	key          string // the item's id column
	// claim, until and attempts are the lease's columns; attempts is ""
	// when the kind counts attempts elsewhere (git sync, per operation).
	claim, until, attempts string
	// ready is the condition on a row with work waiting, its lease aside;
	// each ? in it is the time now.
	ready string
	order string
	// take and giveBack are further assignments of a claim and of a
	// release ("col = …, …"); each ? in them is the time now.
	take, giveBack string
	// lost is what renewing or ending a claim that no longer holds says.
	lost error
	// fail ends a held item as failed for reason, writing nothing when
	// the claim no longer holds.
	fail func(ctx context.Context, tx *Tx, l Lease, reason string) error
}

// Lease is a worker's claim of one item of a queue. Only the store makes
// them: a claimed item's Lease method gives its own.
type Lease struct {
	q     *queue
	ID    string // the item's key
	Claim string // this claim
	// Attempts counts the claims of the item, this one included; more
	// than one means a worker died holding it (one that stops gives its
	// claim back uncounted). 0 for git sync, whose operations count theirs.
	Attempts int
}

// Kind names the queue of the item.
func (l Lease) Kind() string { return l.q.kind }

// Lost is what the store says of this claim once it no longer holds.
func (l Lease) Lost() error { return l.q.lost }

// nows is now once for each ? of sql.
func nows(sql string, now time.Time) []any {
	args := make([]any, strings.Count(sql, "?"))
	for i := range args {
		args[i] = micros(now)
	}
	return args
}

// due is the condition on a row that may be claimed at now: ready, and
// not held (or held under a lease that ran out).
func (q *queue) due(now time.Time) (string, []any) {
	until := q.alias + "." + q.until
	return "(" + q.ready + ") AND (" + until + " IS NULL OR " + until + " <= ?)", append(nows(q.ready, now), micros(now))
}

// anyDue reports, with a plain read, whether an item waits to be claimed,
// so idle workers do not take the write lock to find nothing.
func (q *queue) anyDue(ctx context.Context, db *DB) (bool, error) {
	cond, args := q.due(db.Now())
	var n int
	err := db.q.queryRow(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM "+q.table+" "+q.alias+" WHERE "+cond+" LIMIT 1) d", args...).Scan(&n)
	return n > 0, err
}

// claimNext claims the first due item in order, for lease, in a
// transaction of its own, and calls read with it in that transaction to
// read what the worker needs; a zero Lease when no item is due.
func (q *queue) claimNext(ctx context.Context, db *DB, lease time.Duration, read func(tx *Tx, l Lease) error) (l Lease, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		l = Lease{}
		cond, args := q.due(tx.Now)
		attempts := "0"
		if q.attempts != "" {
			attempts = q.alias + "." + q.attempts
		}
		query := "SELECT " + q.alias + "." + q.key + ", " + attempts + " FROM " + q.table + " " + q.alias + q.join +
			" WHERE " + cond + " ORDER BY " + q.order + " LIMIT 1"
		if tx.q.d.name() == "postgres" {
			query += " FOR UPDATE OF " + q.alias + " SKIP LOCKED"
		}
		c := Lease{q: q, Claim: newID()}
		err := tx.q.queryRow(ctx, query, args...).Scan(&c.ID, &c.Attempts)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		set, setArgs := q.claim+" = ?, "+q.until+" = ?", []any{c.Claim, micros(tx.Now.Add(lease))}
		if q.attempts != "" {
			c.Attempts++
			set, setArgs = set+", "+q.attempts+" = ?", append(setArgs, c.Attempts)
		}
		if q.take != "" {
			set, setArgs = set+", "+q.take, append(setArgs, nows(q.take, tx.Now)...)
		}
		if _, err := tx.q.exec(ctx, "UPDATE "+q.table+" SET "+set+" WHERE "+q.key+" = ?", append(setArgs, c.ID)...); err != nil {
			return err
		}
		if err := read(tx, c); err != nil {
			return err
		}
		l = c
		return nil
	})
	return l, err
}

// claimRow claims the next due item of q for lease and reads its row
// (columns of q's table) with scan, in the claim's transaction; nil when
// none is due.
func claimRow[T any](ctx context.Context, db *DB, q *queue, lease time.Duration, columns string,
	scan func(row interface{ Scan(...any) error }) (*T, error)) (*T, error) {
	var item *T
	l, err := q.claimNext(ctx, db, lease, func(tx *Tx, l Lease) (err error) {
		item, err = scan(tx.q.queryRow(ctx, "SELECT "+columns+" FROM "+q.table+" WHERE "+q.key+" = ?", l.ID))
		return err
	})
	if err != nil || l.ID == "" {
		return nil, err // none due, or a retried transaction found none
	}
	return item, nil
}

// held is the condition on a row (by key and claim, its two arguments)
// that a claim still holds.
func (q *queue) held() string { return q.key + " = ? AND " + q.claim + " = ?" }

// hold fails with l.Lost() unless l still holds, locking the item's row
// until the transaction ends.
func (tx *Tx) hold(ctx context.Context, l Lease) error {
	n, err := tx.q.affected(ctx, "UPDATE "+l.q.table+" SET "+l.q.claim+" = "+l.q.claim+" WHERE "+l.q.held(), l.ID, l.Claim)
	if err == nil && n == 0 {
		return l.q.lost
	}
	return err
}

// LeaseHeld reports, with a plain read, whether l still holds: it was not
// cancelled, removed, ended or taken over by another worker.
func (db *DB) LeaseHeld(ctx context.Context, l Lease) (bool, error) {
	var n int
	err := db.q.queryRow(ctx, "SELECT COUNT(*) FROM "+l.q.table+" WHERE "+l.q.held(), l.ID, l.Claim).Scan(&n)
	return n == 1, err
}

// RenewLease extends l to lease from now; l.Lost() when it no longer
// holds.
func (db *DB) RenewLease(ctx context.Context, l Lease, lease time.Duration) error {
	return db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "UPDATE "+l.q.table+" SET "+l.q.until+" = ? WHERE "+l.q.held(), micros(tx.Now.Add(lease)), l.ID, l.Claim)
		if err == nil && n == 0 {
			return l.q.lost
		}
		return err
	})
}

// GiveBack gives a claimed item back unfinished, as a worker that stops
// does: it is due again at once, and this claim does not count as an
// attempt. It does nothing when l no longer holds.
func (db *DB) GiveBack(ctx context.Context, l Lease) error {
	return db.Tx(ctx, func(tx *Tx) error {
		q := l.q
		set, args := q.claim+" = NULL, "+q.until+" = NULL", []any{}
		if q.attempts != "" {
			set, args = set+", "+q.attempts+" = ?", append(args, l.Attempts-1)
		}
		if q.giveBack != "" {
			set, args = set+", "+q.giveBack, append(args, nows(q.giveBack, tx.Now)...)
		}
		_, err := tx.q.exec(ctx, "UPDATE "+q.table+" SET "+set+" WHERE "+q.held(), append(args, l.ID, l.Claim)...)
		return err
	})
}

// GiveUp ends a claimed item as failed for reason, as a worker does with
// one whose work failed for good or that was claimed too often: it is not
// claimed again. It does nothing when l no longer holds.
func (db *DB) GiveUp(ctx context.Context, l Lease, reason string) error {
	err := db.Tx(ctx, func(tx *Tx) error { return l.q.fail(ctx, tx, l, reason) })
	if errors.Is(err, l.q.lost) {
		return nil
	}
	return err
}
