package store

import (
	"context"
	"time"
)

// SQLite writes commits to its write-ahead log and copies them into the
// database file at checkpoints. The automatic ones never wait for readers,
// so on a server that is always reading they never bring the log back to
// its start, and it grows without end (checkpoint starvation), and every
// read searches a longer log. So a background checkpoint truncates it
// now and then: it waits, at most walCheckpointWait, for the reads that
// began before it to end (reads are short) while holding the one write
// connection, so writes wait with it, and tries again next time if it
// could not.
const (
	walCheckpointEvery = 10 * time.Second
	walCheckpointWait  = time.Second
)

// checkpointWAL truncates the write-ahead log every walCheckpointEvery
// until ctx ends.
func (db *DB) checkpointWAL(ctx context.Context) {
	tick := time.NewTicker(walCheckpointEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		db.CheckpointWAL(ctx)
	}
}

// CheckpointWAL copies SQLite's write-ahead log into the database and
// empties it, waiting at most walCheckpointWait for reads under way;
// it reports whether the log is now empty. On PostgreSQL it does nothing.
func (db *DB) CheckpointWAL(ctx context.Context) bool {
	if db.dialect.name() != "sqlite" {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, walCheckpointWait)
	defer cancel()
	var busy, logged, copied int
	err := db.write.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logged, &copied)
	return err == nil && busy == 0
}
