package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// Invites: e-mail invites (org_invites) and link invites (link_invites).
// Both are joined with the secret key of their link, of which only the
// SHA-256 is stored; the key is returned once, when the invite is made.

func newInviteKey() (key, hash string) {
	key = quire.InviteKeyPrefix + rand.Text()
	return key, hashToken(key)
}

// NewInvite is one address to invite and the role it joins with.
type NewInvite struct {
	Email string
	Role  quire.Role
}

// CreateInvites invites each address to organization orgID on behalf of
// invitedBy, valid for quire.InviteTTL, and returns the invites made, with
// their keys. Addresses of current members are passed over, as are repeats.
func (db *DB) CreateInvites(ctx context.Context, orgID, invitedBy string, invites []NewInvite, sso bool) (out []*quire.Invite, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		out = nil
		seen := map[string]bool{}
		for _, in := range invites {
			email := quire.NormalizeEmail(in.Email)
			if seen[email] {
				continue
			}
			seen[email] = true
			var n int
			if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM members m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND u.email = ?",
				orgID, email).Scan(&n); err != nil || n > 0 {
				if err != nil {
					return err
				}
				continue
			}
			inv := &quire.Invite{OrgID: orgID, Email: email, Role: in.Role, SSO: sso, CreatedAt: tx.Now, ExpiresAt: tx.Now.Add(quire.InviteTTL)}
			var hash string
			inv.Key, hash = newInviteKey()
			if _, err := tx.q.exec(ctx, `INSERT INTO org_invites (hash, org_id, email, role, sso, invited_by, created_at, expires_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, hash, orgID, email, nullRole(in.Role), sso, invitedBy, micros(tx.Now), micros(inv.ExpiresAt)); err != nil {
				return err
			}
			out = append(out, inv)
		}
		return nil
	})
	return out, err
}

// JoinWithInvite lets user join organization orgID with the invite whose
// key they hold: an e-mail invite addressed to them, unused and unexpired,
// or a link invite of an organization whose invite links are enabled. An
// account another organization manages cannot join (CodeConflict), as with
// AddUser. A member keeps their membership; an invite's stronger role
// raises theirs. An unknown key is CodeNotFound.
func (db *DB) JoinWithInvite(ctx context.Context, orgID, key string, user *quire.User) error {
	hash := hashToken(key)
	return db.Tx(ctx, func(tx *Tx) error {
		inv, err := tx.emailInvite(ctx, orgID, hash)
		switch {
		case err == nil:
			return tx.joinByEmail(ctx, inv, hash, user)
		case quire.ErrorCode(err) != quire.CodeNotFound:
			return err
		}
		li, err := scanOne[linkInviteRow, *quire.LinkInvite](ctx, tx.q, "invite", "SELECT "+linkInviteColumns+" FROM link_invites li WHERE li.org_id = ? AND li.hash = ?", orgID, hash)
		if err != nil {
			return err
		}
		return tx.joinByLink(ctx, li, user.ID)
	})
}

// emailInvite reads an unused e-mail invite by the hash of its key; a used
// one is CodeConflict.
func (tx *Tx) emailInvite(ctx context.Context, orgID, hash string) (*quire.Invite, error) {
	inv := &quire.Invite{OrgID: orgID}
	var role sql.NullString
	var created, expires int64
	var used *int64
	err := tx.q.queryRow(ctx, "SELECT email, role, sso, created_at, expires_at, used_at FROM org_invites WHERE org_id = ? AND hash = ?", orgID, hash).
		Scan(&inv.Email, &role, &inv.SSO, &created, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "invite not found")
	}
	if err != nil {
		return nil, err
	}
	inv.Role, inv.CreatedAt, inv.ExpiresAt = quire.Role(role.String), fromMicros(created), fromMicros(expires)
	if used != nil {
		return nil, quire.Errorf(quire.CodeConflict, "this invite has already been used")
	}
	return inv, nil
}

func (tx *Tx) joinByEmail(ctx context.Context, inv *quire.Invite, hash string, user *quire.User) error {
	if quire.NormalizeEmail(user.Email) != inv.Email {
		return quire.Errorf(quire.CodeForbidden, "this invite is for another e-mail address: sign in as the person invited")
	}
	if !tx.Now.Before(inv.ExpiresAt) {
		return quire.Errorf(quire.CodeConflict, "this invite has expired: ask for a new one")
	}
	// Marking it used first, only while unused, makes it one use even when
	// two joins race on PostgreSQL.
	n, err := tx.q.affected(ctx, "UPDATE org_invites SET used_at = ?, used_by = ? WHERE hash = ? AND used_at IS NULL", micros(tx.Now), user.ID, hash)
	if err != nil {
		return err
	}
	if n == 0 {
		return quire.Errorf(quire.CodeConflict, "this invite has already been used")
	}
	if err := tx.joinOrg(ctx, inv.OrgID, user.ID, inv.Role); err != nil {
		return err
	}
	if inv.SSO {
		_, err = tx.q.exec(ctx, "UPDATE members SET sso = TRUE WHERE org_id = ? AND user_id = ?", inv.OrgID, user.ID)
	}
	return err
}

// joinOrg makes userID a member of orgID with role, unless another
// organization manages the account; a member keeps their membership, their
// role raised to role if that is stronger.
func (tx *Tx) joinOrg(ctx context.Context, orgID, userID string, role quire.Role) error {
	a, err := tx.lockAccount(ctx, orgID, userID)
	if err != nil {
		return err
	}
	if a.managedBy != "" && a.managedBy != orgID {
		u, err := tx.User(ctx, userID)
		if err != nil {
			return err
		}
		return errManagedElsewhere(u.Email)
	}
	m, err := tx.Membership(ctx, orgID, userID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return tx.AddMember(ctx, orgID, userID, role)
	}
	if err != nil || m.Role.AtLeast(role) {
		return err
	}
	return tx.setMemberRole(ctx, orgID, userID, role)
}

// joinByLink joins through a link invite: the organization with its role,
// or, for a space or collection, the organization (as a guest unless
// already a member) and the content with the invite's level.
func (tx *Tx) joinByLink(ctx context.Context, li *quire.LinkInvite, userID string) error {
	org, err := tx.Organization(ctx, li.OrgID)
	if err != nil {
		return err
	}
	if !org.InviteLinks {
		return quire.Errorf(quire.CodeForbidden, "invite links are disabled in this organization")
	}
	if li.Target == quire.TargetOrganization {
		return tx.joinOrg(ctx, li.OrgID, userID, li.Role)
	}
	c, err := tx.inviteContent(ctx, li)
	if err != nil {
		return err
	}
	if err := tx.joinOrg(ctx, li.OrgID, userID, quire.RoleGuest); err != nil {
		return err
	}
	var current sql.NullString
	err = tx.q.queryRow(ctx, "SELECT role FROM content_grants WHERE content_id = ? AND principal_kind = 'user' AND principal_id = ?", c.ID, userID).Scan(&current)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if quire.Role(current.String).AtLeast(li.Role) {
		return nil
	}
	return tx.setGrant(ctx, c, "user", userID, li.Role)
}

// inviteContent is the live space or collection of a link invite, in the
// invite's organization.
func (tx *Tx) inviteContent(ctx context.Context, li *quire.LinkInvite) (Content, error) {
	c := Content{Kind: string(li.Target), ID: li.TargetID, OrgID: li.OrgID}
	var orgID string
	var deleted bool
	var err error
	if li.Target == quire.TargetSpace {
		var sp *quire.Space
		if sp, err = tx.Space(ctx, li.TargetID); err == nil {
			orgID, deleted = sp.OrgID, !sp.DeletedAt.IsZero()
		}
	} else {
		var col *quire.Collection
		if col, err = tx.Collection(ctx, li.TargetID); err == nil {
			orgID, deleted = col.OrgID, !col.DeletedAt.IsZero()
		}
	}
	if err != nil {
		return c, err
	}
	if orgID != li.OrgID || deleted {
		return c, quire.Errorf(quire.CodeNotFound, "%s not found", li.Target)
	}
	return c, nil
}

// InviteOffer is what an invite key offers, read without using it: the
// join page shows it before its holder joins.
type InviteOffer struct {
	Invite *quire.Invite     // an e-mail invite; nil for a link invite
	Used   bool              // the e-mail invite has been used
	Link   *quire.LinkInvite // a link invite; nil for an e-mail invite
}

// InviteOffer returns what the invite of key to organization orgID offers;
// an unknown key is CodeNotFound.
func (r reader) InviteOffer(ctx context.Context, orgID, key string) (*InviteOffer, error) {
	hash := hashToken(key)
	inv := &quire.Invite{OrgID: orgID}
	var role sql.NullString
	var created, expires int64
	var used *int64
	err := r.q.queryRow(ctx, "SELECT email, role, sso, created_at, expires_at, used_at FROM org_invites WHERE org_id = ? AND hash = ?", orgID, hash).
		Scan(&inv.Email, &role, &inv.SSO, &created, &expires, &used)
	if err == nil {
		inv.Role, inv.CreatedAt, inv.ExpiresAt = quire.Role(role.String), fromMicros(created), fromMicros(expires)
		return &InviteOffer{Invite: inv, Used: used != nil}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	li, err := scanOne[linkInviteRow, *quire.LinkInvite](ctx, r.q, "invite", "SELECT "+linkInviteColumns+" FROM link_invites li WHERE li.org_id = ? AND li.hash = ?"+linkInviteLive, orgID, hash)
	if err != nil {
		return nil, err
	}
	return &InviteOffer{Link: li}, nil
}

// Refusal is why JoinWithInvite would refuse user the offer at now in org,
// with the same errors, nil when it would not say so before trying: a used
// or expired e-mail invite (CodeConflict), another address's (CodeForbidden),
// a link invite while the organization's invite links are off (CodeForbidden).
func (o *InviteOffer) Refusal(org *quire.Organization, user *quire.User, now time.Time) error {
	if o.Link != nil {
		if !org.InviteLinks {
			return quire.Errorf(quire.CodeForbidden, "invite links are disabled in this organization")
		}
		return nil
	}
	switch {
	case o.Used:
		return quire.Errorf(quire.CodeConflict, "this invite has already been used")
	case quire.NormalizeEmail(user.Email) != o.Invite.Email:
		return quire.Errorf(quire.CodeForbidden, "this invite is for another e-mail address: sign in as the person invited")
	case !now.Before(o.Invite.ExpiresAt):
		return quire.Errorf(quire.CodeConflict, "this invite has expired: ask for a new one")
	}
	return nil
}
