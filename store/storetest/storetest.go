// Package storetest opens fresh, migrated stores for tests: SQLite in a
// temporary folder, or a fresh PostgreSQL schema when QUIRE_TEST_POSTGRES
// holds a connection URL.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"net/url"
	"os"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/quiredocs/quire/store"
)

// Open returns a fresh store that is closed (and, on PostgreSQL, dropped)
// when the test ends.
func Open(tb testing.TB) *store.DB {
	tb.Helper()
	url := URL(tb)
	db, err := store.Open(context.Background(), url, tb.TempDir())
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// URL returns a database URL for a fresh database: "" (SQLite in the data
// folder) or, when QUIRE_TEST_POSTGRES is set, a PostgreSQL URL whose
// search_path is a new schema dropped at cleanup.
func URL(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv("QUIRE_TEST_POSTGRES")
	if base == "" {
		return ""
	}
	schema := "t_" + strings.ToLower(rand.Text()[:16])
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("connect to QUIRE_TEST_POSTGRES: %v", err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		tb.Fatalf("create schema: %v", err)
	}
	tb.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	return withSearchPath(tb, base, schema)
}

func withSearchPath(tb testing.TB, base, schema string) string {
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("QUIRE_TEST_POSTGRES: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
