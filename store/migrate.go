package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLockKey is the PostgreSQL advisory lock that lets several servers
// start at once: one migrates, the others wait and then find nothing to do.
const migrationLockKey = 7468041

type migration struct {
	version int
	name    string
	sql     string
	// specific is set for a file written for one dialect only.
	specific bool
}

// migrations lists the embedded files for this dialect in order. A file
// NNNN_name.sql serves both dialects unless NNNN_name.sqlite.sql or
// NNNN_name.postgres.sql exists for the dialect at hand.
func (db *DB) migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	byVersion := map[int]migration{}
	for _, e := range entries {
		name := e.Name()
		base := strings.TrimSuffix(name, ".sql")
		specific := false
		for _, d := range []string{"sqlite", "postgres"} {
			if strings.HasSuffix(base, "."+d) {
				if d != db.dialect.name() {
					base = ""
				} else {
					base, specific = strings.TrimSuffix(base, "."+d), true
				}
			}
		}
		if base == "" {
			continue
		}
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", name)
		}
		if prev, taken := byVersion[v]; taken {
			if prev.specific == specific {
				return nil, fmt.Errorf("migrations %s and %s share number %d", prev.name, name, v)
			}
			if !specific {
				continue // the dialect's own file wins
			}
		}
		body, err := migrationFiles.ReadFile("migrations/" + name)
		if err != nil {
			return nil, err
		}
		byVersion[v] = migration{version: v, name: base, sql: string(body), specific: specific}
	}
	list := make([]migration, 0, len(byVersion))
	for _, m := range byVersion {
		list = append(list, m)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].version < list[j].version })
	return list, nil
}

func (db *DB) lockMigrations(ctx context.Context, tx *Tx) error {
	if db.dialect.name() != "postgres" {
		return nil // SQLite transactions are already exclusive (BEGIN IMMEDIATE)
	}
	_, err := tx.q.exec(ctx, "SELECT pg_advisory_xact_lock(?)", migrationLockKey)
	return err
}

// migrate applies each pending migration in its own transaction and records it.
func (db *DB) migrate(ctx context.Context) error {
	list, err := db.migrations()
	if err != nil {
		return err
	}
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := db.lockMigrations(ctx, tx); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	for _, m := range list {
		err := db.Tx(ctx, func(tx *Tx) error {
			if err := db.lockMigrations(ctx, tx); err != nil {
				return err
			}
			var n int
			if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE version = ?", m.version).Scan(&n); err != nil || n > 0 {
				return err
			}
			if _, err := tx.q.ex.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.q.exec(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
				m.version, m.name, tx.Now.UnixMicro())
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}
