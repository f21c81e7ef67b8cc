// Package store is Quire's one storage API over database/sql, for SQLite (the
// embedded default) and PostgreSQL.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

	"github.com/quiredocs/quire"
)

// DB is the store. Reads go through a pool; on SQLite, writes go through a
// single connection so that transactions never fight over the write lock.
type DB struct {
	reader
	write   *sql.DB
	dialect dialect
	// Now is the store's clock; tests replace it.
	Now func() time.Time
	// changes counts the changes made through this DB and elsewhere
	// (changes.go); cache holds the rows most requests read (cache.go).
	changes changes
	cache   readCaches
}

// Open opens the database named by url: a postgres:// URL, or "" for SQLite in
// dataDir/quire.db. It runs the migrations before returning.
func Open(ctx context.Context, url, dataDir string) (*DB, error) {
	var db *DB
	var err error
	dsn := url
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		db, err = openPostgres(url)
	} else if url == "" || strings.HasPrefix(url, "sqlite:") {
		path := strings.TrimPrefix(url, "sqlite:")
		if path == "" {
			if err := ownerOnlyDir(dataDir); err != nil {
				return nil, fmt.Errorf("create data folder: %w", err)
			}
			path = filepath.Join(dataDir, "quire.db")
		}
		if err := ownerOnlyFiles(path); err != nil {
			return nil, fmt.Errorf("create database: %w", err)
		}
		db, err = openSQLite(path)
		dsn = sqliteDSN(path)
	} else {
		return nil, fmt.Errorf("database URL %q: want postgres://… or sqlite:PATH", url)
	}
	if err != nil {
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.watchChanges(ctx, dsn); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// ownerOnlyDir makes the data folder, or takes away the access of others
// to one made before: it holds the database and its keys.
func ownerOnlyDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return chmodOwn(dir, fi.Mode().Perm()&^0o077)
	}
	return nil
}

// ownerOnlyFiles makes the SQLite database file owner-only (0600) before
// SQLite opens it: SQLite gives the -wal, -shm and -journal files it makes
// the mode of the database. Those files of an install made before are
// tightened too.
func ownerOnlyFiles(path string) error {
	if strings.HasPrefix(path, ":memory:") || strings.ContainsAny(path, "?#") {
		return nil // not a plain file name
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := chmodOwn(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// chmodOwn sets the mode of a file of ours; one owned by another user is
// left as it is, theirs to protect.
func chmodOwn(path string, mode fs.FileMode) error {
	if err := os.Chmod(path, mode); err != nil && !errors.Is(err, fs.ErrPermission) {
		return err
	}
	return nil
}

func sqliteDSN(path string) string {
	return "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
}

func openSQLite(path string) (*DB, error) {
	dsn := sqliteDSN(path)
	read, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(8)
	write, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		read.Close()
		return nil, err
	}
	write.SetMaxOpenConns(1)
	d := sqliteDialect{}
	return &DB{reader: reader{q: querier{read, d, &stmtCache{db: read}}, content: newContentCache()}, write: write, dialect: d, Now: time.Now}, nil
}

// PostgreSQL connections of one server: reads and write transactions have
// pools of their own, so that writers queued on a row lock (change
// requests of one space are numbered in turn) never hold every connection
// while reads wait; idle ones are kept, as a new connection starts a
// PostgreSQL process.
const (
	postgresReadConns  = 12
	postgresWriteConns = 4
)

func openPostgres(url string) (*DB, error) {
	read, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	read.SetMaxOpenConns(postgresReadConns)
	read.SetMaxIdleConns(postgresReadConns)
	write, err := sql.Open("pgx", url)
	if err != nil {
		read.Close()
		return nil, err
	}
	write.SetMaxOpenConns(postgresWriteConns)
	write.SetMaxIdleConns(postgresWriteConns)
	d := postgresDialect{}
	return &DB{reader: reader{q: querier{read, d, nil}, content: newContentCache()}, write: write, dialect: d, Now: time.Now}, nil
}

// Close closes both pools.
func (db *DB) Close() error {
	db.stopWatching()
	db.reader.q.stmts.close()
	err := db.write.Close()
	if r := db.reader.q.ex.(*sql.DB); r != db.write {
		err = errors.Join(err, r.Close())
	}
	return err
}

// Ping reports whether the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.write.PingContext(ctx) }

// Dialect names the database behind the store: "sqlite" or "postgres".
func (db *DB) Dialect() string { return db.dialect.name() }

// execer is what *sql.DB and *sql.Tx have in common.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// querier runs SQL written once with ? placeholders on either dialect, and
// turns driver errors into domain codes.
type querier struct {
	ex    execer
	d     dialect
	stmts *stmtCache // nil but for the SQLite read pool
}

func (q querier) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := q.ex.ExecContext(ctx, q.d.rebind(query), args...)
	return res, q.d.translate(err)
}

// scannedRow is a row type R as a pointer: where a row of a table is scanned to,
// and the T it holds.
type scannedRow[R, T any] interface {
	*R
	dest() []any
	value() T
}

// scanOne returns the T held by the one row that query selects, as row type
// R; no row is a not found error naming what.
func scanOne[R, T any, P scannedRow[R, T]](ctx context.Context, q querier, what, query string, args ...any) (T, error) {
	var r R
	if err := scanFound(ctx, q, what, P(&r).dest(), query, args...); err != nil {
		var zero T
		return zero, err
	}
	return P(&r).value(), nil
}

// checkedRow is scannedRow for a row type whose value can fail to decode.
type checkedRow[R, T any] interface {
	*R
	dest() []any
	value() (T, error)
}

// scanOneChecked is scanOne for a row type whose value can fail to decode.
func scanOneChecked[R, T any, P checkedRow[R, T]](ctx context.Context, q querier, what, query string, args ...any) (T, error) {
	var r R
	if err := scanFound(ctx, q, what, P(&r).dest(), query, args...); err != nil {
		var zero T
		return zero, err
	}
	return P(&r).value()
}

// scanFound scans the one row that query selects into dest; no row is a not
// found error naming what.
func scanFound(ctx context.Context, q querier, what string, dest []any, query string, args ...any) error {
	err := q.queryRow(ctx, query, args...).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return quire.Errorf(quire.CodeNotFound, "%s not found", what)
	}
	return err
}

// scanRow returns what scan reads from the one row that query selects; no
// row is a not found error naming what.
func scanRow[T any](ctx context.Context, q querier, what string, scan func(interface{ Scan(...any) error }) (T, error), query string, args ...any) (T, error) {
	v, err := scan(q.queryRow(ctx, query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		var zero T
		return zero, quire.Errorf(quire.CodeNotFound, "%s not found", what)
	}
	return v, err
}

// scanRows returns what scan reads from each row that query selects, in
// order.
func scanRows[T any](ctx context.Context, q querier, scan func(interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// affected runs a write and reports how many rows it changed.
func (q querier) affected(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := q.exec(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// deleteSome runs a DELETE in a transaction of its own and reports whether
// it removed any row.
func (db *DB) deleteSome(ctx context.Context, query string, args ...any) (deleted bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, query, args...)
		deleted = n > 0
		return err
	})
	return deleted, err
}

func (q querier) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	query = q.d.rebind(query)
	if st := q.stmts.get(ctx, query); st != nil {
		rows, err := st.QueryContext(ctx, args...)
		return rows, q.d.translate(err)
	}
	rows, err := q.ex.QueryContext(ctx, query, args...)
	return rows, q.d.translate(err)
}

func (q querier) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	query = q.d.rebind(query)
	if st := q.stmts.get(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return q.ex.QueryRowContext(ctx, query, args...)
}

// stmtCache keeps the prepared statements of the SQLite read pool: the
// driver parses SQL anew for every unprepared query, and parsing was half the
// cost of a small read (BenchmarkGetMember). pgx caches statements itself.
// Queries are built from our code, so there are few; the cap is a safeguard.
type stmtCache struct {
	db *sql.DB
	mu sync.RWMutex
	m  map[string]*sql.Stmt
}

const maxCachedStmts = 512

// get returns the prepared statement for query, or nil to run it unprepared
// (no cache, cache full, or a query that does not prepare: its error then
// comes from running it).
func (c *stmtCache) get(ctx context.Context, query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	st, ok := c.m[query]
	full := len(c.m) >= maxCachedStmts
	c.mu.RUnlock()
	if ok || full {
		return st
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.m[query]; ok {
		st.Close()
		return prev
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st
}

func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}

// reader holds the read methods; DB and Tx both embed it, so a Tx reads what
// it has written.
type reader struct {
	q       querier
	content *contentCache // decoded trees and known objects, shared by DB and its Txs
}

// Tx is a write transaction. It carries one Now, so rows written together
// share a timestamp.
type Tx struct {
	reader
	Now         time.Time
	afterCommit []func()
	events      int // webhook deliveries queued, which orders them (webhook_outbox.go)
}

// AfterCommit registers fn to run once the transaction has committed.
func (tx *Tx) AfterCommit(fn func()) { tx.afterCommit = append(tx.afterCommit, fn) }

// Tx runs fn in a transaction: it commits when fn returns nil and rolls back
// on an error or a panic. On a PostgreSQL serialization failure fn is run
// again, so it must have no side effects outside tx.
func (db *DB) Tx(ctx context.Context, fn func(tx *Tx) error) error {
	for attempt := 0; ; attempt++ {
		err := db.tryTx(ctx, fn)
		if err != nil && attempt < 3 && db.dialect.retryable(err) {
			continue
		}
		return err
	}
}

func (db *DB) tryTx(ctx context.Context, fn func(tx *Tx) error) (err error) {
	sqlTx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", db.dialect.translate(err))
	}
	tx := &Tx{reader: reader{q: querier{sqlTx, db.dialect, nil}, content: db.content}, Now: db.Now().UTC().Truncate(time.Microsecond)}
	defer func() {
		if p := recover(); p != nil {
			sqlTx.Rollback()
			panic(p)
		}
		if err != nil {
			sqlTx.Rollback()
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	if err = tx.recordAudit(ctx); err != nil {
		return err
	}
	if err = db.announce(ctx, tx); err != nil {
		return err
	}
	db.changes.committing.Add(1)
	err = sqlTx.Commit()
	// The count moves even when COMMIT reports failure: a context cancelled
	// while COMMIT was on its way (as an import's lease watcher does when it
	// sees the run completed) fails the call, yet the database may have
	// committed, and caches must not keep what came before.
	db.changed()
	if err == nil {
		db.changes.writes.Add(1)
	}
	db.changes.committing.Add(-1)
	if err != nil {
		return fmt.Errorf("commit: %w", db.dialect.translate(err))
	}
	for _, f := range tx.afterCommit {
		f()
	}
	return nil
}

// writeThenRead runs write in a transaction of its own and, when it
// succeeds, read in the same transaction: what it wrote, as it now is.
func writeThenRead[T any](ctx context.Context, db *DB, write func(tx *Tx) error, read func(tx *Tx) (T, error)) (out T, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := write(tx); err != nil {
			return err
		}
		out, err = read(tx)
		return err
	})
	return out, err
}
