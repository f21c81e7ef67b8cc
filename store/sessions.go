package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// How long an app session lasts: it ends after SessionIdle without a
// request, and SessionLifetime after sign-in in any case. Its last use is
// written at most once per SessionTouch, so reading pages costs no write.
const (
	SessionIdle     = 7 * 24 * time.Hour
	SessionLifetime = 30 * 24 * time.Hour
	SessionTouch    = time.Minute
)

// Session is a signed-in browser of the app.
type Session struct {
	Hash      string // SHA-256 of its id, hex: the id itself is kept only by the browser
	UserID    string
	CreatedAt time.Time
	LastSeen  time.Time
	ExpiresAt time.Time // the absolute end
}

var errNoSession = quire.Errorf(quire.CodeUnauthorized, "not signed in, or the session has ended")

// CreateSession starts a session of the user and returns its id, which
// only the browser keeps (a cookie), and the session.
func (db *DB) CreateSession(ctx context.Context, userID string) (id string, s *Session, err error) {
	id = rand.Text() + rand.Text()
	now := db.Now().UTC().Truncate(time.Microsecond)
	s = &Session{Hash: hashToken(id), UserID: userID, CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(SessionLifetime)}
	err = db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, "DELETE FROM app_sessions WHERE user_id = ? AND (expires_at <= ? OR last_seen_at <= ?)",
			userID, micros(now), micros(now.Add(-SessionIdle))); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "INSERT INTO app_sessions (hash, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)",
			s.Hash, userID, micros(now), micros(now), micros(s.ExpiresAt))
		return err
	})
	return id, s, err
}

// SessionUser returns the live session of id and its user, noting its use;
// a missing, idle or expired session is CodeUnauthorized.
func (db *DB) SessionUser(ctx context.Context, id string) (*Session, *quire.User, error) {
	if id == "" {
		return nil, nil, errNoSession
	}
	found, err := cached(db, &db.cache.sessions, maxCachedUsers, sha256.Sum256([]byte(id)), func() (*sessionUser, error) {
		return db.readSession(ctx, id)
	})
	if err != nil {
		return nil, nil, err
	}
	s, u := found.session, found.user // copies: the cached pair stays as read
	now := db.Now()
	if !now.Before(s.ExpiresAt) || !now.Before(s.LastSeen.Add(SessionIdle)) {
		return nil, nil, errNoSession
	}
	if now.Sub(s.LastSeen) >= SessionTouch {
		s.LastSeen = now.UTC().Truncate(time.Microsecond)
		if err := db.Tx(ctx, func(tx *Tx) error {
			_, err := tx.q.exec(ctx, "UPDATE app_sessions SET last_seen_at = ? WHERE hash = ?", micros(s.LastSeen), s.Hash)
			return err
		}); err != nil {
			return nil, nil, err
		}
	}
	return &s, &u, nil
}

// sessionUser is a session and its user, as read.
type sessionUser struct {
	session Session
	user    quire.User
}

func (r reader) readSession(ctx context.Context, id string) (*sessionUser, error) {
	var out sessionUser
	s, u := &out.session, &out.user
	var created, seen, expires, userCreated int64
	err := r.q.queryRow(ctx, "SELECT s.hash, s.created_at, s.last_seen_at, s.expires_at, "+userColumns+
		" FROM app_sessions s JOIN users u ON u.id = s.user_id WHERE s.hash = ?", hashToken(id)).
		Scan(append([]any{&s.Hash, &created, &seen, &expires}, scanUser(u, &userCreated)...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	s.UserID, u.CreatedAt = u.ID, fromMicros(userCreated)
	s.CreatedAt, s.LastSeen, s.ExpiresAt = fromMicros(created), fromMicros(seen), fromMicros(expires)
	return &out, nil
}

// DeleteSession ends the session of id (signing out); ending one already
// ended is no error.
func (db *DB) DeleteSession(ctx context.Context, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		_, err := tx.q.exec(ctx, "DELETE FROM app_sessions WHERE hash = ?", hashToken(id))
		return err
	})
}

// DeleteUserSessions ends every session of the user (signing out
// everywhere) and reports how many there were.
func (db *DB) DeleteUserSessions(ctx context.Context, userID string) (n int64, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err = tx.q.affected(ctx, "DELETE FROM app_sessions WHERE user_id = ?", userID)
		return err
	})
	return n, err
}

// CountUserSessions counts the user's sessions that have not ended.
func (r reader) CountUserSessions(ctx context.Context, userID string, now time.Time) (int, error) {
	var n int
	err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM app_sessions WHERE user_id = ? AND expires_at > ? AND last_seen_at > ?",
		userID, micros(now), micros(now.Add(-SessionIdle))).Scan(&n)
	return n, err
}
