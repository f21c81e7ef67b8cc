package store

import (
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/quiredocs/quire"
)

// dialect holds the few real differences between SQLite and PostgreSQL.
type dialect interface {
	name() string
	rebind(query string) string
	// translate turns constraint violations into domain errors, by result
	// code or SQLSTATE, never by message text.
	translate(err error) error
	retryable(err error) bool
}

type sqliteDialect struct{}

func (sqliteDialect) name() string             { return "sqlite" }
func (sqliteDialect) rebind(q string) string   { return q }
func (sqliteDialect) retryable(err error) bool { return false }

func (sqliteDialect) translate(err error) error {
	if e, ok := errors.AsType[*sqlite.Error](err); ok {
		switch e.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return &quire.Error{Code: quire.CodeConflict, Message: "already exists", Err: err}
		}
	}
	return err
}

type postgresDialect struct{}

func (postgresDialect) name() string { return "postgres" }

// rebind rewrites ? placeholders to $1, $2, … outside quoted strings.
func (postgresDialect) rebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	n, inQuote := 0, false
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'':
			inQuote = !inQuote
		case c == '?' && !inQuote:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func (postgresDialect) translate(err error) error {
	if e, ok := errors.AsType[*pgconn.PgError](err); ok && e.Code == "23505" {
		return &quire.Error{Code: quire.CodeConflict, Message: "already exists", Err: err}
	}
	return err
}

func (postgresDialect) retryable(err error) bool {
	e, ok := errors.AsType[*pgconn.PgError](err)
	return ok && (e.Code == "40001" || e.Code == "40P01")
}
