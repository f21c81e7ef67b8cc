package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// LoginLinkTTL is how long a one-time sign-in link may wait to be used.
const LoginLinkTTL = 15 * time.Minute

// CreateLoginLink makes a one-time sign-in link for the user with this
// e-mail address and returns its token, which only the link holds, and
// when it expires.
func (db *DB) CreateLoginLink(ctx context.Context, email string) (token string, expires time.Time, err error) {
	token = rand.Text() + rand.Text()
	err = db.Tx(ctx, func(tx *Tx) error {
		u, err := tx.UserByEmail(ctx, email)
		if err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "DELETE FROM login_links WHERE expires_at <= ?", micros(tx.Now)); err != nil {
			return err
		}
		expires = tx.Now.Add(LoginLinkTTL)
		_, err = tx.q.exec(ctx, "INSERT INTO login_links (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
			hashToken(token), u.ID, micros(tx.Now), micros(expires))
		return err
	})
	return token, expires, err
}

var errLoginLink = quire.Errorf(quire.CodeUnauthorized, "this sign-in link is not valid: it was already used, has expired, or was never made")

// UseLoginLink uses up the one-time link of token and returns the user it
// signs in. A used, expired or unknown link is CodeUnauthorized, alike.
func (db *DB) UseLoginLink(ctx context.Context, token string) (userID string, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		var expires int64
		var used *int64
		err := tx.q.queryRow(ctx, "SELECT user_id, expires_at, used_at FROM login_links WHERE hash = ?", hashToken(token)).
			Scan(&userID, &expires, &used)
		if errors.Is(err, sql.ErrNoRows) {
			return errLoginLink
		}
		if err != nil {
			return err
		}
		if used != nil || !tx.Now.Before(fromMicros(expires)) {
			return errLoginLink
		}
		// The row is spent only if no one spent it first, on any server.
		n, err := tx.q.affected(ctx, "UPDATE login_links SET used_at = ? WHERE hash = ? AND used_at IS NULL", micros(tx.Now), hashToken(token))
		if err == nil && n == 0 {
			err = errLoginLink
		}
		return err
	})
	return userID, err
}
