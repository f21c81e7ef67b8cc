package store

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotSQLite is returned by what only a SQLite store can do.
var ErrNotSQLite = errors.New("the store is not SQLite")

// SnapshotTo writes a consistent copy of a SQLite database to path (which
// must not exist) while others read and write it: VACUUM INTO reads one
// snapshot, on a read connection, so writers do not wait for it.
func (db *DB) SnapshotTo(ctx context.Context, path string) error {
	if db.dialect.name() != "sqlite" {
		return ErrNotSQLite
	}
	_, err := db.q.ex.ExecContext(ctx, "VACUUM INTO ?", path)
	return err
}

// CheckIntegrity runs SQLite's integrity check and reports what it finds;
// PostgreSQL keeps its own (nil).
func (db *DB) CheckIntegrity(ctx context.Context) error {
	if db.dialect.name() != "sqlite" {
		return nil
	}
	rows, err := db.q.ex.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("integrity check: %v", problems)
	}
	return nil
}
