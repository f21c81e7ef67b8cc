package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/quiredocs/quire/internal/ratelimit"
)

// Rate limit counts are written outside Tx: they change nothing any cache
// holds, so they neither move the change count nor announce themselves,
// which would empty every server's caches each second.

// AddRateCounts adds each count's N (reads it, when 0) to the stored count of its key and
// window and returns the sums, in order (ratelimit.Shared).
func (db *DB) AddRateCounts(ctx context.Context, counts []ratelimit.Count) ([]int64, error) {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	q := querier{tx, db.dialect, nil}
	sums := make([]int64, len(counts))
	for i, c := range counts {
		if c.N == 0 { // read only: an update would leave a dead row behind on PostgreSQL
			err := q.queryRow(ctx, "SELECT count FROM rate_limit_counts WHERE key = ? AND window_start = ?", c.Key, c.Window).Scan(&sums[i])
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return nil, db.dialect.translate(err)
			}
			continue
		}
		err := q.queryRow(ctx, "INSERT INTO rate_limit_counts (key, window_start, count, expires_at) VALUES (?, ?, ?, ?)"+
			" ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counts.count + excluded.count RETURNING count",
			c.Key, c.Window, c.N, c.Expires).Scan(&sums[i])
		if err != nil {
			return nil, db.dialect.translate(err)
		}
	}
	return sums, db.dialect.translate(tx.Commit())
}

// DeleteRateCounts deletes the counts of windows that ended before now
// (Unix seconds).
func (db *DB) DeleteRateCounts(ctx context.Context, now int64) error {
	_, err := querier{db.write, db.dialect, nil}.exec(ctx, "DELETE FROM rate_limit_counts WHERE expires_at < ?", now)
	return err
}

var _ ratelimit.Shared = (*DB)(nil)
