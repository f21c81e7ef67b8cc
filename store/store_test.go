package store_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// openRaw opens a fresh store as storetest.Open does, and beside it a plain
// database/sql handle on the same database, to look at what the store wrote.
func openRaw(t *testing.T) (db *store.DB, raw *sql.DB, url, dir string) {
	t.Helper()
	url, dir = storetest.URL(t), t.TempDir()
	db, err := store.Open(t.Context(), url, dir)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db, rawDB(t, url, dir), url, dir
}

func rawDB(t *testing.T, url, dir string) *sql.DB {
	t.Helper()
	driver, dsn := "pgx", url
	if url == "" {
		driver, dsn = "sqlite", "file:"+filepath.Join(dir, "quire.db")+"?_pragma=busy_timeout(10000)"
	}
	raw, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatalf("open raw database: %v", err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// migrationCount is the number of distinct migration versions embedded.
func migrationCount(t *testing.T) int {
	t.Helper()
	entries, err := fs.ReadDir(os.DirFS("migrations"), ".")
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]bool{}
	for _, e := range entries {
		num, _, _ := strings.Cut(e.Name(), "_")
		versions[num] = true
	}
	return len(versions)
}

func wantCode(t *testing.T, err error, code quire.Code) {
	t.Helper()
	if got := quire.ErrorCode(err); got != code {
		t.Fatalf("error %v has code %q, want %q", err, got, code)
	}
}

func TestMigrationsIdempotent(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, raw, url, dir := openRaw(t)
	b, err := db.InitOrganization(ctx, "Acme", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for i := range 2 {
		again, err := store.Open(ctx, url, dir)
		if err != nil {
			t.Fatalf("open #%d on a migrated database: %v", i+2, err)
		}
		org, err := again.Organization(ctx, b.Organization.ID)
		if err != nil || org.Title != "Acme" {
			t.Fatalf("after reopening: organization %+v, %v", org, err)
		}
		if _, err := again.UserByToken(ctx, b.Token); err != nil {
			t.Fatalf("after reopening: token: %v", err)
		}
		again.Close()
	}
	var n int
	if err := raw.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if want := migrationCount(t); n != want {
		t.Errorf("schema_migrations has %d rows, want %d", n, want)
	}
}

func TestTxRollsBackOnError(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	boom := errors.New("boom")
	ran := false
	err := db.Tx(ctx, func(tx *store.Tx) error {
		tx.AfterCommit(func() { ran = true })
		if _, err := tx.EnsureUser(ctx, "rolled@example.com", "Rolled Back"); err != nil {
			return err
		}
		return fmt.Errorf("wrapped: %w", boom)
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Tx = %v, want the function's error", err)
	}
	if ran {
		t.Error("AfterCommit ran for a rolled-back transaction")
	}
	_, err = db.UserByEmail(ctx, "rolled@example.com")
	wantCode(t, err, quire.CodeNotFound)
	// The write connection went back to the pool in a usable state.
	if _, err := db.InitOrganization(ctx, "After", "after@example.com", "After"); err != nil {
		t.Fatalf("write after rollback: %v", err)
	}
}

func TestTxRollsBackOnPanic(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	ran := false
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Errorf("recovered %v, want the function's panic", p)
			}
		}()
		db.Tx(ctx, func(tx *store.Tx) error {
			tx.AfterCommit(func() { ran = true })
			if _, err := tx.EnsureUser(ctx, "panicked@example.com", "Panicked"); err != nil {
				return err
			}
			panic("boom")
		})
		t.Error("Tx returned instead of panicking")
	}()
	if ran {
		t.Error("AfterCommit ran for a panicked transaction")
	}
	_, err := db.UserByEmail(ctx, "panicked@example.com")
	wantCode(t, err, quire.CodeNotFound)
	if _, err := db.InitOrganization(ctx, "After", "after@example.com", "After"); err != nil {
		t.Fatalf("write after panic: %v", err)
	}
}

func TestAfterCommit(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	var order []string
	err := db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.EnsureUser(ctx, "committed@example.com", "Committed"); err != nil {
			return err
		}
		for _, name := range []string{"first", "second"} {
			tx.AfterCommit(func() {
				// Runs after the commit: other connections see the row.
				if _, err := db.UserByEmail(ctx, "committed@example.com"); err != nil {
					t.Errorf("AfterCommit %s: user not visible outside the transaction: %v", name, err)
				}
				order = append(order, name)
			})
		}
		if len(order) != 0 {
			t.Errorf("AfterCommit ran before the commit: %v", order)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(order, ",") != "first,second" {
		t.Errorf("AfterCommit functions ran as %v, want first,second", order)
	}
}

func TestTxSharesNow(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	now := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	db.Now = func() time.Time { return now }
	b, err := db.InitOrganization(ctx, "Clock", "clock@example.com", "Clock")
	if err != nil {
		t.Fatal(err)
	}
	want := now.Truncate(time.Microsecond)
	m, err := db.Member(ctx, b.Organization.ID, b.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	org, err := db.Organization(ctx, b.Organization.ID)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]time.Time{"user": m.User.CreatedAt, "joined": m.JoinedAt, "org": org.CreatedAt} {
		if !got.Equal(want) {
			t.Errorf("%s time %v, want %v", name, got, want)
		}
	}
}

func TestUniqueConflict(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	a, err := db.InitOrganization(ctx, "A", "a@example.com", "A")
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.InitOrganization(ctx, "B", "b@example.com", "B")
	if err != nil {
		t.Fatal(err)
	}
	host := "docs.example.com"
	if _, err := db.UpdateOrganization(ctx, a.Organization.ID, store.OrganizationUpdate{Hostname: &host}); err != nil {
		t.Fatal(err)
	}
	title := "B renamed"
	_, err = db.UpdateOrganization(ctx, b.Organization.ID, store.OrganizationUpdate{Hostname: &host, Title: &title})
	wantCode(t, err, quire.CodeConflict)
	if !strings.Contains(quire.ErrorMessage(err), "hostname") {
		t.Errorf("conflict message %q does not name the hostname", quire.ErrorMessage(err))
	}
	org, err := db.Organization(ctx, b.Organization.ID)
	if err != nil {
		t.Fatal(err)
	}
	if org.Title != "B" || org.Hostname != "" {
		t.Errorf("failed update left title %q, hostname %q", org.Title, org.Hostname)
	}
	// Removing a hostname frees it, and several organizations may have none.
	empty := ""
	if _, err := db.UpdateOrganization(ctx, a.Organization.ID, store.OrganizationUpdate{Hostname: &empty}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateOrganization(ctx, b.Organization.ID, store.OrganizationUpdate{Hostname: &empty}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateOrganization(ctx, b.Organization.ID, store.OrganizationUpdate{Hostname: &host}); err != nil {
		t.Fatalf("hostname freed by A: %v", err)
	}
}

func TestTokensStoredAsHashes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, raw, _, _ := openRaw(t)
	b, err := db.InitOrganization(ctx, "Acme", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	second, err := db.CreateTokenForEmail(ctx, "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	tokens := []string{b.Token, second}
	if b.Token == second || !strings.HasPrefix(b.Token, store.TokenPrefix) {
		t.Fatalf("tokens %q and %q", b.Token, second)
	}
	rows, err := raw.QueryContext(ctx, "SELECT hash, user_id, created_at FROM api_tokens")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	hashes := map[string]bool{}
	for rows.Next() {
		var hash, userID string
		var created int64
		if err := rows.Scan(&hash, &userID, &created); err != nil {
			t.Fatal(err)
		}
		for _, tok := range tokens {
			secret := strings.TrimPrefix(tok, store.TokenPrefix)
			if strings.Contains(hash, secret) || strings.Contains(userID, secret) {
				t.Errorf("api_tokens row (%q, %q) contains a token", hash, userID)
			}
		}
		if userID != b.User.ID {
			t.Errorf("token of user %q, want %q", userID, b.User.ID)
		}
		hashes[hash] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, tok := range tokens {
		sum := sha256.Sum256([]byte(tok))
		if !hashes[hex.EncodeToString(sum[:])] {
			t.Errorf("no row holds the SHA-256 of a token")
		}
	}
	if len(hashes) != len(tokens) {
		t.Errorf("%d token rows, want %d", len(hashes), len(tokens))
	}
}

func TestUserByToken(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	b, err := db.InitOrganization(ctx, "Acme", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByToken(ctx, b.Token)
	if err != nil || u.ID != b.User.ID {
		t.Fatalf("UserByToken(right token) = %+v, %v", u, err)
	}
	sum := sha256.Sum256([]byte(b.Token))
	for _, bad := range []string{"", "x", b.Token + "x", b.Token[:len(b.Token)-1], strings.ToUpper(b.Token),
		store.TokenPrefix, hex.EncodeToString(sum[:]), "' OR 1=1 --"} {
		u, err := db.UserByToken(ctx, bad)
		if u != nil {
			t.Errorf("UserByToken(%q) = %+v", bad, u)
		}
		wantCode(t, err, quire.CodeUnauthorized)
	}
}

// TestConcurrentWriters: writers never see "database is locked", both within
// one store (one write connection) and across two stores on the same SQLite
// file (busy_timeout, transactions begun IMMEDIATE).
func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	url, dir := storetest.URL(t), t.TempDir()
	var dbs []*store.DB
	for range 2 {
		db, err := store.Open(ctx, url, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs = append(dbs, db)
	}
	b, err := dbs[0].InitOrganization(ctx, "Acme", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	const writers = 20
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Go(func() {
			db := dbs[i%len(dbs)]
			if _, err := db.CreateTeam(ctx, b.Organization.ID, fmt.Sprintf("Team %d", i), []string{b.User.ID}); err != nil {
				errs <- fmt.Errorf("writer %d: %w", i, err)
			}
			// A read in between, through the read pool.
			if _, err := db.ListTeams(ctx, b.Organization.ID, store.TeamFilter{}, store.Page{Limit: 5}); err != nil {
				errs <- fmt.Errorf("reader %d: %w", i, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	list, err := dbs[1].ListTeams(ctx, b.Organization.ID, store.TeamFilter{}, store.Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if list.Count != writers || len(list.Items) != writers {
		t.Errorf("%d teams (%d listed), want %d", list.Count, len(list.Items), writers)
	}
	m, err := dbs[0].Member(ctx, b.Organization.ID, b.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m.Teams != writers {
		t.Errorf("member is in %d teams, want %d", m.Teams, writers)
	}
}

// TestConcurrentMigrationsPostgres: several servers starting at once on one
// fresh PostgreSQL schema all come up (migrations run under an advisory lock).
func TestConcurrentMigrationsPostgres(t *testing.T) {
	if os.Getenv("QUIRE_TEST_POSTGRES") == "" {
		t.Skip("QUIRE_TEST_POSTGRES is not set")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	url := storetest.URL(t)
	const servers = 4
	var wg sync.WaitGroup
	errs := make([]error, servers)
	dbs := make([]*store.DB, servers)
	start := make(chan struct{})
	for i := range servers {
		wg.Go(func() {
			<-start
			dbs[i], errs[i] = store.Open(ctx, url, "")
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("server %d: open: %v", i, err)
		} else {
			defer dbs[i].Close()
		}
	}
	if t.Failed() {
		return
	}
	// And one first organization among them, however many try.
	var made int
	var mu sync.Mutex
	for i, db := range dbs {
		wg.Go(func() {
			b, err := db.InitIfEmpty(ctx, "First", "first@example.com", "First")
			if err != nil {
				t.Errorf("server %d: InitIfEmpty: %v", i, err)
			}
			if b != nil {
				mu.Lock()
				made++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if made != 1 {
		t.Errorf("%d servers created the first organization, want 1", made)
	}
	var n int
	if err := rawDB(t, url, "").QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if want := migrationCount(t); n != want {
		t.Errorf("schema_migrations has %d rows, want %d", n, want)
	}
}
