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
// before that rule, or whose domain's proof was removed) locks nobody out:
// another organization may take it in, which ends the sign-ins the marking
// one's provider made (revokeAccess), and the provider of the organization
// that proved the domain takes it over (ssoAccount). So whatever an organization's admins or
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
	// unprovedBy is the organization that marked it managed without having
	// proved the domain of its address (so managedBy is ""), if another.
	unprovedBy string
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
	if marked.Valid && !managedBy.Valid && marked.String != orgID {
		a.unprovedBy = marked.String
		if err := tx.revokeAccess(ctx, userID); err != nil {
			return a, err
		}
	}
	return a, tx.countOtherOrgs(ctx, orgID, userID, &a)
}

func (tx *Tx) countOtherOrgs(ctx context.Context, orgID, userID string, a *account) error {
	return tx.q.queryRow(ctx, "SELECT COUNT(*) FROM members WHERE user_id = ? AND org_id <> ?", userID, orgID).Scan(&a.otherOrgs)
}

// revokeAccess ends every way in to an account taken into an organization
// while marked managed by one that did not prove the domain of its address
// (API tokens, app sessions, sign-in links): that organization's identity
// provider may have made them for someone other than the address's owner,
// and they would work in the organization taking it in. Its owner signs in
// again.
func (tx *Tx) revokeAccess(ctx context.Context, userID string) error {
	for _, table := range []string{"api_tokens", "app_sessions", "login_links"} {
		if _, err := tx.q.exec(ctx, "DELETE FROM "+table+" WHERE user_id = ?", userID); err != nil {
			return err
		}
	}
	return nil
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
// orgID alone, or one squatted by an organization that did not prove its
// domain and in no other, which orgID then manages. Any other account
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
		if a.unprovedBy != "" {
			// orgID proved the domain (checkSSODomain) and the marking
			// organization did not: the account, squatted, leaves it and
			// is orgID's as a new one would be.
			if err := tx.removeMember(ctx, a.unprovedBy, u.ID, ""); err != nil {
				return nil, err
			}
			if err := tx.countOtherOrgs(ctx, orgID, u.ID, &a); err != nil {
				return nil, err
			}
		}
		if a.otherOrgs > 0 {
			return nil, refused
		}
		if _, err := tx.Membership(ctx, orgID, u.ID); quire.ErrorCode(err) == quire.CodeNotFound && a.unprovedBy == "" {
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

// createUser inserts an account, managed by managedBy unless that is "".
func (tx *Tx) createUser(ctx context.Context, email, displayName, managedBy string) (*quire.User, error) {
	u := &quire.User{ID: newID(), DisplayName: displayName, Email: quire.NormalizeEmail(email), CreatedAt: tx.Now}
	_, err := tx.q.exec(ctx, "INSERT INTO users (id, display_name, email, photo_url, created_at, managed_by) VALUES (?, ?, ?, '', ?, ?)",
		u.ID, u.DisplayName, u.Email, micros(tx.Now), sql.NullString{String: managedBy, Valid: managedBy != ""})
	return u, err
}
