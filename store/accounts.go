package store

import (
	"context"
	"database/sql"

	"github.com/quiredocs/quire"
)

// Accounts are global (one per e-mail address) while trust is per
// organization. The rule that keeps one organization from reaching another
// through an account: an account that an organization's single sign-on
// created, or signed in while it belonged to that organization alone, is
// managed by it (users.managed_by). A managed account belongs to its
// organization only: no other organization can add it, and no other
// organization's identity provider can sign it in. An identity provider
// never signs in an account it does not manage unless that account is a
// member of its organization and of no other. And it signs in only
// addresses at e-mail domains its organization proved it owns
// (verifieddomains.go). A managed mark counts only where the managing
// organization proved the domain: an account marked elsewhere (squatted
// before that rule, or whose domain's proof was removed) locks nobody out,
// and is freed of what that organization made of it when another takes it
// in (releaseUnprovedAccount). So whatever an organization's admins or
// identity provider control, the tokens it yields work in that
// organization alone.

// errManagedElsewhere refuses to add an account another organization manages.
func errManagedElsewhere(email string) error {
	return quire.Errorf(quire.CodeConflict,
		"email: the account of %s is managed by another organization's single sign-on and cannot join this one", email)
}

// account is an existing account's standing towards one organization.
type account struct {
	managedBy string // the managing organization, "" for none
	otherOrgs int    // organizations other than this one it belongs to
	released  bool   // freed just now from an unproved mark (releaseUnprovedAccount)
}

// lockAccount reads userID's standing towards orgID. It writes the user's
// row first, which holds its lock to the end of the transaction, so that on
// PostgreSQL a sign-in that adopts the account and an admin adding it to
// another organization cannot both pass their checks at once.
func (tx *Tx) lockAccount(ctx context.Context, orgID, userID string) (account, error) {
	var a account
	if _, err := tx.q.exec(ctx, "UPDATE users SET managed_by = managed_by WHERE id = ?", userID); err != nil {
		return a, err
	}
	var marked, managedBy sql.NullString
	if err := tx.q.queryRow(ctx, "SELECT u.managed_by, "+managedByVerified+" FROM users u WHERE u.id = ?", userID).Scan(&marked, &managedBy); err != nil {
		return a, err
	}
	a.managedBy = managedBy.String
	if marked.Valid && !managedBy.Valid {
		if err := tx.releaseUnprovedAccount(ctx, userID, marked.String); err != nil {
			return a, err
		}
		a.released = true
	}
	err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM members WHERE user_id = ? AND org_id <> ?", userID, orgID).Scan(&a.otherOrgs)
	return a, err
}

// adminAccount returns the account with this e-mail address for an admin of
// orgID ("" for an organization being created) to take in, creating it,
// unmanaged, when there is none. An account another organization manages is
// refused. mayIssueToken is false when the account belongs to other
// organizations too: a token for it would work there, so the admin gets none
// and its holder signs in with their own.
func (tx *Tx) adminAccount(ctx context.Context, orgID, email, name string) (u *quire.User, mayIssueToken bool, err error) {
	u, err = tx.UserByEmail(ctx, email)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		u, err = tx.createUser(ctx, email, name, "")
		return u, true, err
	}
	if err != nil {
		return nil, false, err
	}
	a, err := tx.lockAccount(ctx, orgID, u.ID)
	if err != nil {
		return nil, false, err
	}
	if a.managedBy != "" && a.managedBy != orgID {
		return nil, false, errManagedElsewhere(u.Email)
	}
	return u, a.otherOrgs == 0, nil
}

// ssoAccount returns the account that orgID's identity provider may sign in
// for this e-mail address: a new one, managed by orgID; one orgID manages
// (which may have created organizations of its own since); a member of
// orgID alone, or one just freed from an unproved mark and in no other
// organization, which orgID then manages. Any other account
// is refused, with one message whatever the reason, so that an identity
// provider learns nothing of accounts outside its organization.
func (tx *Tx) ssoAccount(ctx context.Context, orgID, email, name string) (*quire.User, error) {
	u, err := tx.UserByEmail(ctx, email)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return tx.createUser(ctx, email, name, orgID)
	}
	if err != nil {
		return nil, err
	}
	a, err := tx.lockAccount(ctx, orgID, u.ID)
	if err != nil {
		return nil, err
	}
	refused := quire.Errorf(quire.CodeForbidden,
		"%s cannot sign in through this organization's single sign-on: the account belongs to other organizations or is not a member of this one; sign in with an API token instead", u.Email)
	switch a.managedBy {
	case orgID:
		// Its other organizations, if any, are ones it created itself: no
		// admin elsewhere can add an account orgID manages.
	case "":
		if a.otherOrgs > 0 {
			return nil, refused
		}
		// An account just freed from an unproved mark is as good as new: the
		// provider of the organization that proved its domain takes it.
		if _, err := tx.Membership(ctx, orgID, u.ID); quire.ErrorCode(err) == quire.CodeNotFound && !a.released {
			return nil, refused
		} else if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
			return nil, err
		}
		if _, err := tx.q.exec(ctx, "UPDATE users SET managed_by = ? WHERE id = ?", orgID, u.ID); err != nil {
			return nil, err
		}
	default:
		return nil, refused
	}
	return u, nil
}

// releaseUnprovedAccount frees an account marked managed by markedBy, an
// organization that has not proved the domain of its address, as it is
// being taken into an organization. What markedBy's identity provider made
// of it goes, as it need not be its owner's doing: the mark, its membership
// of markedBy, and every way in to it (API tokens, app sessions, sign-in
// links).
func (tx *Tx) releaseUnprovedAccount(ctx context.Context, userID, markedBy string) error {
	if err := tx.removeMember(ctx, markedBy, userID, ""); err != nil {
		return err
	}
	for _, q := range []string{
		"UPDATE users SET managed_by = NULL WHERE id = ?",
		"DELETE FROM api_tokens WHERE user_id = ?",
		"DELETE FROM app_sessions WHERE user_id = ?",
		"DELETE FROM login_links WHERE user_id = ?",
	} {
		if _, err := tx.q.exec(ctx, q, userID); err != nil {
			return err
		}
	}
	return nil
}

// createUser inserts an account, managed by managedBy unless that is "".
func (tx *Tx) createUser(ctx context.Context, email, displayName, managedBy string) (*quire.User, error) {
	u := &quire.User{ID: newID(), DisplayName: displayName, Email: quire.NormalizeEmail(email), CreatedAt: tx.Now}
	_, err := tx.q.exec(ctx, "INSERT INTO users (id, display_name, email, photo_url, created_at, managed_by) VALUES (?, ?, ?, '', ?, ?)",
		u.ID, u.DisplayName, u.Email, micros(tx.Now), sql.NullString{String: managedBy, Valid: managedBy != ""})
	return u, err
}
