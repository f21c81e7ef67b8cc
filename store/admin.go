package store

import (
	"context"

	"github.com/quiredocs/quire"
)

// Bootstrap is what the admin commands create: an organization or user and
// a freshly issued API token. Token is empty when the account belongs to
// other organizations too (see adminAccount): its holder uses their own.
type Bootstrap struct {
	Organization *quire.Organization
	User         *quire.User
	Token        string
}

// InitOrganization creates an organization whose owner, found or created by
// e-mail, is its admin, and issues the owner a token. An account another
// organization manages cannot own it.
func (db *DB) InitOrganization(ctx context.Context, title, email, name string) (b *Bootstrap, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		b, err = tx.initOrganization(ctx, title, email, name)
		return err
	})
	return b, err
}

func (tx *Tx) initOrganization(ctx context.Context, title, email, name string) (*Bootstrap, error) {
	u, mayIssueToken, err := tx.adminAccount(ctx, "", email, name)
	if err != nil {
		return nil, err
	}
	org, err := tx.createOrganization(ctx, title, nil, u.ID)
	if err != nil {
		return nil, err
	}
	b := &Bootstrap{Organization: org, User: u}
	if mayIssueToken {
		b.Token, err = tx.CreateToken(ctx, u.ID)
	}
	return b, err
}

// InitIfEmpty creates the first organization, owner and token when the store
// has no organization yet; it returns nil when there was one already. Safe
// when several servers start at once on one PostgreSQL database.
func (db *DB) InitIfEmpty(ctx context.Context, title, email, name string) (b *Bootstrap, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := db.lockMigrations(ctx, tx); err != nil {
			return err
		}
		var n int
		if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM organizations").Scan(&n); err != nil || n > 0 {
			return err
		}
		b, err = tx.initOrganization(ctx, title, email, name)
		return err
	})
	return b, err
}

// AddUser adds the user with this e-mail address (created if new) to an
// organization with role and issues them a token, unless the account belongs
// to other organizations too. An account another organization manages is
// refused (CodeConflict). An existing member keeps their membership but has
// their role set to role (the last admin stays admin).
func (db *DB) AddUser(ctx context.Context, orgID, email, name string, role quire.Role) (b *Bootstrap, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		org, err := tx.Organization(ctx, orgID)
		if err != nil {
			return err
		}
		u, mayIssueToken, err := tx.adminAccount(ctx, orgID, email, name)
		if err != nil {
			return err
		}
		if err := tx.AddMember(ctx, orgID, u.ID, role); err != nil {
			return err
		}
		if err := tx.setMemberRole(ctx, orgID, u.ID, role); err != nil {
			return err
		}
		b = &Bootstrap{Organization: org, User: u}
		if mayIssueToken {
			b.Token, err = tx.CreateToken(ctx, u.ID)
		}
		return err
	})
	return b, err
}
