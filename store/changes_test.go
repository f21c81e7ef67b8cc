package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/quiredocs/quire/store"
)

// eventually waits up to 5 s for the name of token's user to be want, as
// the store's cache answers it.
func eventuallyNamed(t *testing.T, db *store.DB, token, want string) {
	t.Helper()
	var got string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		u, err := db.UserByToken(t.Context(), token)
		if err != nil {
			t.Fatal(err)
		}
		if got = u.DisplayName; got == want {
			return
		}
	}
	t.Fatalf("the store still answers the name %q, want %q", got, want)
}

// TestCachesHearChangesMadeElsewhere: a store's caches notice writes it did
// not make — another process's on SQLite (data_version), another server's
// on PostgreSQL (NOTIFY) — and, on PostgreSQL, a lost listener does not
// leave them stale: changes made while it was down are seen once it is
// back, or sooner.
func TestCachesHearChangesMadeElsewhere(t *testing.T) {
	t.Parallel()
	db, raw, url, dir := openRaw(t)
	b, err := db.InitOrganization(t.Context(), "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	rename := func(name string) {
		t.Helper()
		q := "UPDATE users SET display_name = ? WHERE id = ?"
		if url != "" {
			q = "UPDATE users SET display_name = $1 WHERE id = $2"
		}
		if _, err := raw.Exec(q, name, b.User.ID); err != nil {
			t.Fatal(err)
		}
	}
	eventuallyNamed(t, db, b.Token, "Ada") // cached now

	if url == "" {
		rename("Ada by another process")
		eventuallyNamed(t, db, b.Token, "Ada by another process")
		return
	}
	other, err := store.Open(t.Context(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.UpdateUser(t.Context(), b.User.ID, store.UserUpdate{DisplayName: new("Ada by another server")}); err != nil {
		t.Fatal(err)
	}
	eventuallyNamed(t, db, b.Token, "Ada by another server")

	// Cut the listeners of this schema; a change nobody announces, made
	// meanwhile, must still show.
	var schema string
	if err := raw.QueryRow("SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1", `LISTEN "quire_changes:`+schema+`"`); err != nil {
		t.Fatal(err)
	}
	rename("Ada while nobody listened")
	eventuallyNamed(t, db, b.Token, "Ada while nobody listened")
}

// TestFailedCommitMovesChangeCount: a commit that reports failure may have
// committed all the same (its context was cancelled while COMMIT was on its
// way), so the change count moves and the caches read again. SQLite only:
// it reaches COMMIT with a cancelled context, where PostgreSQL fails sooner,
// at the transaction's NOTIFY; the code after COMMIT is the same for both.
func TestFailedCommitMovesChangeCount(t *testing.T) {
	t.Parallel()
	db, err := store.Open(t.Context(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before := db.Commits()
	ctx, cancel := context.WithCancel(t.Context())
	if err := db.Tx(ctx, func(*store.Tx) error { cancel(); return nil }); err == nil {
		t.Fatal("a transaction whose context was cancelled before COMMIT succeeded")
	}
	if db.Commits() == before {
		t.Error("the change count did not move after a failed COMMIT")
	}
}
