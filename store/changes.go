package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// The change count (Commits) tells caches of the store, and of the servers
// above it, that the database may have changed. It moves with every commit
// through this DB and with every change made elsewhere that this DB hears
// of: on PostgreSQL, each write transaction announces itself with NOTIFY on
// a channel of its schema and every server LISTENs there; on SQLite, a
// background check of PRAGMA data_version notices writes of other
// processes (quire admin). While PostgreSQL cannot be heard, the count is
// not trusted and the caches are passed by.

// changes is a DB's change count and what keeps it honest.
type changes struct {
	count  atomic.Uint64
	writes atomic.Uint64 // the write transactions committed through this DB
	// committing counts the commits under way through this DB: from just
	// before COMMIT until the count has moved.
	committing atomic.Int64
	// heard is false while changes made elsewhere might go unnoticed (the
	// PostgreSQL listener is down or not started).
	heard   atomic.Bool
	id      string // this DB's name in its announcements, to skip its own
	channel string // on PostgreSQL, where changes are announced
	cancel  context.CancelFunc
	done    sync.WaitGroup
}

// ChangeCount returns the change count (Commits), and whether a cache may
// trust it: not while changes made elsewhere might go unheard, nor while a
// commit through this DB is under way (between its commit and the move of
// the count, what was cached before it would still be served).
func (db *DB) ChangeCount() (uint64, bool) {
	return db.changes.count.Load(), db.changes.heard.Load() && db.changes.committing.Load() == 0
}

// Commits reports the change count: it moves with every write transaction
// that commits through this DB, before its caller hears of success, and
// with every change this DB hears was made elsewhere. Caches of derived data
// compare it to notice writes.
func (db *DB) Commits() uint64 { return db.changes.count.Load() }

// changed moves the change count.
func (db *DB) changed() { db.changes.count.Add(1) }

// Writes reports how many write transactions have committed through this
// DB: unlike Commits, none made elsewhere.
func (db *DB) Writes() uint64 { return db.changes.writes.Load() }

// sqliteDataVersionEvery is how often SQLite is asked whether another
// process wrote to it.
const sqliteDataVersionEvery = 250 * time.Millisecond

// listenerRetry is how long a lost PostgreSQL listener waits to reconnect.
const listenerRetry = time.Second

// watchChanges starts hearing of changes made elsewhere. On PostgreSQL the
// first LISTEN is made before it returns, so that a store that opens is one
// whose caches work.
func (db *DB) watchChanges(ctx context.Context, dsn string) error {
	db.changes.id = rand.Text()
	bg, cancel := context.WithCancel(context.Background())
	db.changes.cancel = cancel
	if db.dialect.name() != "postgres" {
		conn, err := sql.Open("sqlite", dsn)
		if err != nil {
			cancel()
			return err
		}
		conn.SetMaxOpenConns(1)
		// The first look is made now, so that every change after Open is
		// one the watcher sees.
		var version int64
		if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&version); err != nil {
			conn.Close()
			cancel()
			return err
		}
		db.changes.heard.Store(true)
		db.changes.done.Go(func() { db.pollDataVersion(bg, conn, version) })
		db.changes.done.Go(func() { db.checkpointWAL(bg) }) // checkpoint.go
		return nil
	}
	channel, err := db.changeChannel(ctx)
	if err != nil {
		cancel()
		return err
	}
	conn, err := listen(ctx, dsn, channel)
	if err != nil {
		cancel()
		return fmt.Errorf("listen for changes: %w", err)
	}
	db.changes.channel = channel
	db.changes.heard.Store(true)
	db.changes.done.Go(func() { db.hearChanges(bg, dsn, channel, conn) })
	return nil
}

// stopWatching stops the watcher and waits for it.
func (db *DB) stopWatching() {
	if db.changes.cancel != nil {
		db.changes.cancel()
		db.changes.done.Wait()
	}
}

// changeChannel names the channel of this store's schema, so that stores in
// other schemas of the database (tests, other installs) are not heard.
func (db *DB) changeChannel(ctx context.Context) (string, error) {
	var schema string
	err := db.write.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema)
	return "quire_changes:" + schema, err
}

// announce tells the other servers on PostgreSQL that tx changed the
// database; they hear it once tx commits.
func (db *DB) announce(ctx context.Context, tx *Tx) error {
	if db.changes.channel == "" {
		return nil
	}
	_, err := tx.q.exec(ctx, "SELECT pg_notify(?, ?)", db.changes.channel, db.changes.id)
	return err
}

func listen(ctx context.Context, dsn, channel string) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return conn, nil
}

// hearChanges moves the change count for each change another server
// announces. When the connection is lost, the caches are passed by until it
// is back, and emptied then: what was missed meanwhile is unknown.
func (db *DB) hearChanges(ctx context.Context, dsn, channel string, conn *pgx.Conn) {
	for {
		for conn != nil {
			n, err := conn.WaitForNotification(ctx)
			if err != nil {
				db.changes.heard.Store(false)
				conn.Close(context.Background())
				conn = nil
				if ctx.Err() == nil {
					slog.Warn("store: lost the PostgreSQL change listener; caches are off until it is back", "error", err)
				}
				break
			}
			if n.Payload != db.changes.id {
				db.changed()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(listenerRetry):
		}
		c, err := listen(ctx, dsn, channel)
		if err != nil {
			continue
		}
		conn = c
		db.changed()
		db.changes.heard.Store(true)
	}
}

// pollDataVersion moves the change count when SQLite's data_version moves,
// which any commit does (other processes' too). Own commits move it twice:
// harmless.
func (db *DB) pollDataVersion(ctx context.Context, conn *sql.DB, last int64) {
	defer conn.Close()
	tick := time.NewTicker(sqliteDataVersionEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		var v int64
		if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err == nil && v != last {
			db.changed()
			last = v
		}
	}
}
