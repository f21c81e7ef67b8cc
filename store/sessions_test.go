package store_test

import (
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestSessions: a session's last use is written at most once per
// store.SessionTouch, it ends when idle or at its absolute end, and the
// store keeps only its hash.
func TestSessions(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	db.Now = func() time.Time { return now }
	ctx := t.Context()
	b, err := db.InitIfEmpty(ctx, "Acme", "owner@acme.example", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	id, sess, err := db.CreateSession(ctx, b.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sess.Hash == id || len(id) < 40 || !sess.ExpiresAt.Equal(now.Add(store.SessionLifetime)) {
		t.Fatalf("session %+v for id of %d characters", sess, len(id))
	}
	now = now.Add(store.SessionTouch / 2)
	got, u, err := db.SessionUser(ctx, id)
	if err != nil || u.ID != b.User.ID || !got.LastSeen.Equal(sess.LastSeen) {
		t.Fatalf("within a minute: %+v, %v, %v (last use written too soon?)", got, u, err)
	}
	now = now.Add(store.SessionTouch)
	if got, _, err = db.SessionUser(ctx, id); err != nil || !got.LastSeen.Equal(now) {
		t.Fatalf("after a minute: last seen %v, want %v (%v)", got.LastSeen, now, err)
	}
	now = now.Add(store.SessionIdle)
	if _, _, err := db.SessionUser(ctx, id); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("idle session: %v, want unauthorized", err)
	}
	for range 3 {
		if _, _, err := db.CreateSession(ctx, b.User.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := db.CountUserSessions(ctx, b.User.ID, now); err != nil || n != 3 {
		t.Errorf("live sessions: %d, %v; want 3", n, err)
	}
	if n, err := db.DeleteUserSessions(ctx, b.User.ID); err != nil || n != 3 {
		t.Errorf("signed out everywhere: %d, %v; want 3 (the idle one went when the others came)", n, err)
	}
	if _, _, err := db.SessionUser(ctx, ""); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("no id: %v", err)
	}
}
