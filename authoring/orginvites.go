package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Invitee is an address invited to an organization by e-mail, with the
// role it was given, if any (nil: the request's or the organization's).
type Invitee struct {
	Email string
	Role  *quire.Role
}

// InviteMembers invites addresses to organization orgID on behalf of
// inviter, each with a role (InviteRoles): its own, else role when not nil,
// else the organization's default role. Members already in it are skipped
// (store.DB.CreateInvites).
func (a *Author) InviteMembers(ctx context.Context, orgID, inviterID string, invitees []Invitee, role *quire.Role, sso bool) ([]*quire.Invite, error) {
	org, err := a.DB.Organization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return a.DB.CreateInvites(ctx, org.ID, inviterID, InviteRoles(invitees, role, org.DefaultRole), sso)
}

// InviteRoles gives each invitee its role: its own, else role when not
// nil, else def, the organization's default role.
func InviteRoles(invitees []Invitee, role *quire.Role, def quire.Role) []store.NewInvite {
	if role != nil {
		def = *role
	}
	out := make([]store.NewInvite, 0, len(invitees))
	for _, in := range invitees {
		r := def
		if in.Role != nil {
			r = *in.Role
		}
		out = append(out, store.NewInvite{Email: in.Email, Role: r})
	}
	return out
}
