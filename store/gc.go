package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/quiredocs/quire/content"
)

// Garbage collection is mark and sweep. Marking walks, without locks, the
// trees of every revision (spaces deleted but not yet purged, change
// requests of every state, the whole history) and notes the blobs their
// files and the integrations name. Sweeping removes, in small
// transactions, the objects nothing marked and that are older than a
// cutoff.
//
// Writers never wait for marking, but a sweep step must not remove an
// object a revision written since marking uses: a writer may find an
// unmarked object already stored and refer to it without writing it. So
// every content write takes the content lock shared (putTree), and each
// sweep step takes it alone, then first marks what the revisions written
// since the last step reach. On SQLite write transactions are exclusive, so
// the lock is the transaction itself.

// contentLockKey is the PostgreSQL advisory lock (with the schema's hash)
// that orders content writes against sweep steps.
const contentLockKey = 7468042

// lockContent takes the content lock until the transaction ends: shared by
// writers, held alone by a sweep step.
func (tx *Tx) lockContent(ctx context.Context, alone bool) error {
	if tx.q.d.name() != "postgres" {
		return nil // SQLite write transactions are exclusive already
	}
	fn := "pg_advisory_xact_lock_shared"
	if alone {
		fn = "pg_advisory_xact_lock"
	}
	_, err := tx.q.exec(ctx, fmt.Sprintf("SELECT %s(%d, hashtext(current_schema()))", fn, contentLockKey))
	return err
}

// clockMargin is how far back a SQLite collection looks for revisions
// written since it marked: their times come from the clock of a machine
// whose writers take turns, so only a clock set back could hide one.
const clockMargin = time.Minute

// Reachable is what a collection marked: the objects and blobs some
// revision or integration uses.
type Reachable struct {
	content.Reached
	// watermark tells revisions already marked from newer ones: on
	// PostgreSQL the highest seq marked, on SQLite a time in microseconds
	// before which every revision was marked.
	watermark int64
}

// Blob reports whether the blob key is used.
func (r *Reachable) Blob(key string) bool { return r.Blobs[key] }

// Mark walks every revision's tree and notes what it reaches. With
// fetchBodies it also reads and checks every page body (a backup's check);
// a collection needs only their hashes.
func (db *DB) Mark(ctx context.Context, fetchBodies bool) (*Reachable, error) {
	r := &Reachable{Reached: *content.NewReached()}
	r.FetchBodies = fetchBodies
	// The watermark is read while no content write is in flight, so that
	// every revision past it is one catchUp will find.
	err := db.Tx(ctx, func(tx *Tx) error {
		if err := tx.lockContent(ctx, true); err != nil {
			return err
		}
		var err error
		r.watermark, err = tx.watermarkNow(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	roots, err := columnStrings(ctx, db.q, "SELECT DISTINCT root FROM revisions UNION SELECT root FROM search_spaces")
	if err != nil {
		return nil, err
	}
	if err := r.Walk(roots, fetchUncached(ctx, db.q)); err != nil {
		return nil, err
	}
	if err := r.markIntegrations(ctx, db.q); err != nil {
		return nil, err
	}
	return r, nil
}

// watermarkNow is the watermark that separates the revisions committed so
// far from those to come; call it holding the content lock alone.
func (tx *Tx) watermarkNow(ctx context.Context) (int64, error) {
	if tx.q.d.name() == "postgres" {
		var seq int64
		err := tx.q.queryRow(ctx, "SELECT COALESCE(MAX(seq), 0) FROM revisions").Scan(&seq)
		return seq, err
	}
	return micros(tx.Now.Add(-clockMargin)), nil
}

// catchUp marks what the revisions written since the watermark reach, and
// the blobs of integrations, fonts and PDF exports; call it holding the content lock alone.
func (r *Reachable) catchUp(ctx context.Context, tx *Tx) error {
	query := "SELECT DISTINCT root FROM revisions WHERE created_at >= ?"
	if tx.q.d.name() == "postgres" {
		query = "SELECT DISTINCT root FROM revisions WHERE seq > ?"
	}
	next, err := tx.watermarkNow(ctx)
	if err != nil {
		return err
	}
	roots, err := columnStrings(ctx, tx.q, query, r.watermark)
	if err != nil {
		return err
	}
	if err := r.Walk(roots, fetchUncached(ctx, tx.q)); err != nil {
		return err
	}
	r.watermark = next
	if err := r.markFonts(ctx, tx.q); err != nil {
		return err
	}
	if err := r.markPDFExports(ctx, tx.q); err != nil {
		return err
	}
	return r.markIntegrations(ctx, tx.q)
}

// markFonts notes the blobs of organizations' custom fonts.
func (r *Reachable) markFonts(ctx context.Context, q querier) error {
	blobs, err := columnStrings(ctx, q, "SELECT blob FROM custom_font_faces")
	for _, b := range blobs {
		r.Blobs[b] = true
	}
	return err
}

// markIntegrations notes the blobs integrations keep: scripts and images.
func (r *Reachable) markIntegrations(ctx context.Context, q querier) error {
	rows, err := q.query(ctx, "SELECT COALESCE(icon, ''), preview_images, script FROM integrations")
	if err != nil {
		return err
	}
	defer rows.Close()
	type asset struct {
		Blob string `json:"blob"`
	}
	for rows.Next() {
		var icon, previews, script string
		if err := rows.Scan(&icon, &previews, &script); err != nil {
			return err
		}
		r.Blobs[script] = true
		var a asset
		if icon != "" && json.Unmarshal([]byte(icon), &a) == nil {
			r.Blobs[a.Blob] = true
		}
		var as []asset
		if json.Unmarshal([]byte(previews), &as) == nil {
			for _, a := range as {
				r.Blobs[a.Blob] = true
			}
		}
	}
	return rows.Err()
}

// columnStrings returns the one text column query selects.
func columnStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// fetchUncached reads objects past the cache, and leaves it as it was: a
// collection reads every object once.
func fetchUncached(ctx context.Context, q querier) content.Fetch {
	return func(hashes []string) (content.Objects, error) {
		out := make(content.Objects, len(hashes))
		for i := 0; i < len(hashes); i += objectBatch {
			batch := hashes[i:min(i+objectBatch, len(hashes))]
			rows, err := q.query(ctx, "SELECT hash, data FROM objects WHERE hash IN ("+placeholders(len(batch))+")", anys(batch)...)
			if err != nil {
				return nil, err
			}
			for rows.Next() {
				var h string
				var b []byte
				if err := rows.Scan(&h, &b); err != nil {
					rows.Close()
					return nil, err
				}
				out[h] = b
			}
			if err := rows.Close(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// SweepStep runs fn in a transaction that holds the content lock alone,
// once r has marked what was written since it last looked: within fn,
// what r does not hold is used by no revision and no integration.
func (db *DB) SweepStep(ctx context.Context, r *Reachable, fn func() error) error {
	return db.sweepStep(ctx, r, func(*Tx) error { return fn() })
}

func (db *DB) sweepStep(ctx context.Context, r *Reachable, fn func(tx *Tx) error) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if err := tx.lockContent(ctx, true); err != nil {
			return err
		}
		if err := r.catchUp(ctx, tx); err != nil {
			return err
		}
		return fn(tx)
	})
}

// SweepObjects removes the objects r does not hold that were stored before
// cutoff, reading batch objects at a time and removing each batch's in a
// sweep step of its own. It reports how many it removed.
func (db *DB) SweepObjects(ctx context.Context, r *Reachable, cutoff time.Time, batch int) (removed int, err error) {
	after := ""
	for {
		rows, err := db.q.query(ctx, "SELECT hash, created_at FROM objects WHERE hash > ? ORDER BY hash LIMIT ?", after, batch)
		if err != nil {
			return removed, err
		}
		var candidates []string
		n := 0
		for rows.Next() {
			var h string
			var created int64
			if err := rows.Scan(&h, &created); err != nil {
				rows.Close()
				return removed, err
			}
			n, after = n+1, h
			if created < micros(cutoff) && !r.Has(h) {
				candidates = append(candidates, h)
			}
		}
		if err := rows.Close(); err != nil {
			return removed, err
		}
		if n == 0 {
			return removed, nil
		}
		if len(candidates) == 0 {
			continue
		}
		var step int
		err = db.sweepStep(ctx, r, func(tx *Tx) error {
			var gone []any
			for _, h := range candidates {
				if !r.Has(h) {
					gone = append(gone, h)
				}
			}
			if len(gone) == 0 {
				return nil
			}
			k, err := tx.q.affected(ctx, "DELETE FROM objects WHERE created_at < ? AND hash IN ("+placeholders(len(gone))+")",
				append([]any{micros(cutoff)}, gone...)...)
			step = int(k)
			return err
		})
		if err != nil {
			return removed, err
		}
		removed += step
	}
}

// RevisionRoot is one revision and the root of its tree.
type RevisionRoot struct {
	ID, SpaceID, Root string
}

// RevisionRoots lists every revision of every space, deleted or not, in
// id order: what a backup must hold.
func (r reader) RevisionRoots(ctx context.Context) ([]RevisionRoot, error) {
	rows, err := r.q.query(ctx, "SELECT id, space_id, root FROM revisions ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RevisionRoot
	for rows.Next() {
		var rr RevisionRoot
		if err := rows.Scan(&rr.ID, &rr.SpaceID, &rr.Root); err != nil {
			return nil, err
		}
		out = append(out, rr)
	}
	return out, rows.Err()
}

// AcquireLease takes, or renews, the lease name for holder until ttl from
// now; it reports false while another holder's lease runs.
func (db *DB) AcquireLease(ctx context.Context, name, holder string, ttl time.Duration) (held bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
			WHERE leases.holder = excluded.holder OR leases.expires_at < ?`,
			name, holder, micros(tx.Now.Add(ttl)), micros(tx.Now))
		held = n > 0
		return err
	})
	return held, err
}

// ReleaseLease ends holder's lease name, if it holds it.
func (db *DB) ReleaseLease(ctx context.Context, name, holder string) error {
	_, err := db.deleteSome(ctx, "DELETE FROM leases WHERE name = ? AND holder = ?", name, holder)
	return err
}
