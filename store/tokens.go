package store

import (
	"context"
	"time"

	"github.com/quiredocs/quire"
)

// Token is an API token as its owner sees it in the app: never the token
// itself, which is shown once, at creation.
type Token struct {
	Hash      string // SHA-256 of the token, hex: names it for revocation
	Label     string
	CreatedAt time.Time
}

// ListTokens returns the user's API tokens, newest first.
func (r reader) ListTokens(ctx context.Context, userID string) ([]Token, error) {
	rows, err := r.q.query(ctx, "SELECT hash, label, created_at FROM api_tokens WHERE user_id = ? ORDER BY created_at DESC, hash", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		var t Token
		var created int64
		if err := rows.Scan(&t.Hash, &t.Label, &created); err != nil {
			return nil, err
		}
		t.CreatedAt = fromMicros(created)
		out = append(out, t)
	}
	return out, rows.Err()
}

// CreateLabeledToken issues the user a new API token called label and
// returns it: the one time it can be read.
func (db *DB) CreateLabeledToken(ctx context.Context, userID, label string) (token string, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		var hash string
		token, hash = newToken()
		_, err := tx.q.exec(ctx, "INSERT INTO api_tokens (hash, user_id, created_at, label) VALUES (?, ?, ?, ?)",
			hash, userID, micros(tx.Now), label)
		return err
	})
	return token, err
}

// RevokeToken deletes the user's API token of hash; another user's, or a
// missing one, is CodeNotFound.
func (db *DB) RevokeToken(ctx context.Context, userID, hash string) error {
	deleted, err := db.deleteSome(ctx, "DELETE FROM api_tokens WHERE hash = ? AND user_id = ?", hash, userID)
	if err != nil {
		return err
	}
	if !deleted {
		return quire.Errorf(quire.CodeNotFound, "token not found")
	}
	return nil
}
