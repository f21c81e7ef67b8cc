package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/quiredocs/quire"
)

const userColumns = "u.id, u.display_name, u.email, u.photo_url, u.created_at"

func scanUser(u *quire.User, createdAt *int64) []any {
	return []any{&u.ID, &u.DisplayName, &u.Email, &u.PhotoURL, createdAt}
}

// UserByToken returns the user an API token belongs to; an unknown token is
// CodeUnauthorized.
func (r reader) UserByToken(ctx context.Context, token string) (*quire.User, error) {
	var u quire.User
	var created int64
	err := r.q.queryRow(ctx, "SELECT "+userColumns+" FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = ?",
		hashToken(token)).Scan(scanUser(&u, &created)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeUnauthorized, "invalid API token")
	}
	if err != nil {
		return nil, err
	}
	u.CreatedAt = fromMicros(created)
	return &u, nil
}

// User returns a user by id.
func (r reader) User(ctx context.Context, id string) (*quire.User, error) {
	return r.findUser(ctx, "u.id = ?", id)
}

// UserByEmail returns a user by e-mail address, matched case-insensitively.
func (r reader) UserByEmail(ctx context.Context, email string) (*quire.User, error) {
	return r.findUser(ctx, "u.email = ?", quire.NormalizeEmail(email))
}

func (r reader) findUser(ctx context.Context, where string, arg any) (*quire.User, error) {
	var u quire.User
	var created int64
	err := r.q.queryRow(ctx, "SELECT "+userColumns+" FROM users u WHERE "+where, arg).Scan(scanUser(&u, &created)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "user not found")
	}
	if err != nil {
		return nil, err
	}
	u.CreatedAt = fromMicros(created)
	return &u, nil
}

// EnsureUser returns the user with this e-mail address, creating it,
// unmanaged, with displayName if there is none. It is for tests and seeding:
// taking an account into an organization goes through adminAccount or
// ssoAccount, which check who manages it.
func (tx *Tx) EnsureUser(ctx context.Context, email, displayName string) (*quire.User, error) {
	u, err := tx.UserByEmail(ctx, email)
	if quire.ErrorCode(err) != quire.CodeNotFound {
		return u, err
	}
	return tx.createUser(ctx, email, displayName, "")
}

// CreateToken issues a new API token for a user and returns it; only its hash
// is stored, so this is the one time it can be read.
func (tx *Tx) CreateToken(ctx context.Context, userID string) (string, error) {
	token, hash := newToken()
	_, err := tx.q.exec(ctx, "INSERT INTO api_tokens (hash, user_id, created_at) VALUES (?, ?, ?)", hash, userID, micros(tx.Now))
	return token, err
}

// CreateTokenForEmail issues a token for the user with this e-mail address.
func (db *DB) CreateTokenForEmail(ctx context.Context, email string) (token string, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		u, err := tx.UserByEmail(ctx, email)
		if err != nil {
			return err
		}
		token, err = tx.CreateToken(ctx, u.ID)
		return err
	})
	return token, err
}

// ShareOrganization reports whether two users are members of a common organization.
func (r reader) ShareOrganization(ctx context.Context, userA, userB string) (bool, error) {
	var n int
	err := r.q.queryRow(ctx, `SELECT COUNT(*) FROM members a JOIN members b ON b.org_id = a.org_id
		WHERE a.user_id = ? AND b.user_id = ?`, userA, userB).Scan(&n)
	return n > 0, err
}

// UserUpdate changes a user's own profile; nil fields stay as they are.
type UserUpdate struct {
	DisplayName *string
	PhotoURL    *string // "" removes the photo
}

// UpdateUser changes a user's display name and photo, and the name by
// which the member lists of their organizations sort them.
func (db *DB) UpdateUser(ctx context.Context, id string, up UserUpdate) (u *quire.User, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if up.DisplayName != nil {
			if _, err := tx.q.exec(ctx, "UPDATE users SET display_name = ? WHERE id = ?", *up.DisplayName, id); err != nil {
				return err
			}
			if _, err := tx.q.exec(ctx, "UPDATE members SET name_key = ? WHERE user_id = ?", strings.ToLower(*up.DisplayName), id); err != nil {
				return err
			}
		}
		if up.PhotoURL != nil {
			if _, err := tx.q.exec(ctx, "UPDATE users SET photo_url = ? WHERE id = ?", *up.PhotoURL, id); err != nil {
				return err
			}
		}
		u, err = tx.User(ctx, id)
		return err
	})
	return u, err
}
