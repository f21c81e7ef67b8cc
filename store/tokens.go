package store

import (
	"context"
	"database/sql"
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

// OwnedToken is an API token with the account it belongs to.
type OwnedToken struct {
	Token
	User *quire.User
}

// tokenOrder pages tokens newest first, by hash among those made at once.
var tokenOrder = keysetOrder{key: "t.created_at", id: "t.hash", desc: true, numeric: true}

func scanOwnedToken(rows *sql.Rows) (OwnedToken, Cursor, error) {
	var t OwnedToken
	var made, userMade int64
	t.User = &quire.User{}
	err := rows.Scan(append([]any{&t.Hash, &t.Label, &made}, scanUser(t.User, &userMade)...)...)
	t.CreatedAt, t.User.CreatedAt = fromMicros(made), fromMicros(userMade)
	return t, Cursor{Num: made, ID: t.Hash}, err
}

const ownedTokenColumns = "SELECT t.hash, t.label, t.created_at, " + userColumns + " FROM api_tokens t JOIN users u ON u.id = t.user_id"

// ListUserTokens pages the user's API tokens, newest first.
func (r reader) ListUserTokens(ctx context.Context, userID string, p Page) (*List[OwnedToken], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM api_tokens t", ownedTokenColumns,
		" WHERE t.user_id = ?", []any{userID}, tokenOrder, p, scanOwnedToken)
}

// ListManagedTokens pages the API tokens of the accounts the organization
// manages (users.managed_by, where it proved the domain), newest first.
func (r reader) ListManagedTokens(ctx context.Context, orgID string, p Page) (*List[OwnedToken], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM api_tokens t JOIN users u ON u.id = t.user_id", ownedTokenColumns,
		" WHERE "+managedByVerified+" = ?", []any{orgID}, tokenOrder, p, scanOwnedToken)
}

// RevokeManagedToken deletes the API token of hash if it belongs to an
// account the organization manages; any other is CodeNotFound.
func (db *DB) RevokeManagedToken(ctx context.Context, orgID, hash string) error {
	deleted, err := db.deleteSome(ctx, "DELETE FROM api_tokens WHERE hash = ? AND user_id IN (SELECT u.id FROM users u WHERE "+managedByVerified+" = ?)", hash, orgID)
	if err != nil {
		return err
	}
	if !deleted {
		return quire.Errorf(quire.CodeNotFound, "token not found")
	}
	return nil
}
