package authoring

import (
	"context"

	"github.com/quiredocs/quire"
)

// InviteTarget is what a link invite invites to as a member sees it: the
// organization (neither Space nor Collection), a space or a collection, with
// the member's role on it.
type InviteTarget struct {
	Space      *quire.Space
	Collection *quire.Collection
	Role       quire.Role
}

// LinkInviteTarget loads what a link invite to target id invites to, for
// member me, who must be able to administer it: the organization's admins
// for the organization; the admin role on a space or a collection. A space
// or collection of another organization, deleted, or that me cannot read is
// CodeNotFound, as what does not exist.
func (a *Author) LinkInviteTarget(ctx context.Context, me *quire.Member, target quire.InviteTarget, id string) (InviteTarget, error) {
	if target == quire.TargetOrganization {
		return InviteTarget{Role: me.Role}, quire.RequireOrgAdmin(me)
	}
	t, err := a.readInviteTarget(ctx, me, target, id)
	if err == nil {
		err = quire.RequireRole(t.Role, quire.RoleAdmin, string(target))
	}
	return t, err
}

// readInviteTarget loads space or collection id of me's organization and
// me's role on it: CodeNotFound unless me reads it.
func (a *Author) readInviteTarget(ctx context.Context, me *quire.Member, target quire.InviteTarget, id string) (t InviteTarget, err error) {
	var orgID string
	var level quire.DefaultLevel
	var ancestors []string
	deleted := false
	if target == quire.TargetSpace {
		if t.Space, err = a.DB.Space(ctx, id); err == nil {
			orgID, level, ancestors, deleted = t.Space.OrgID, t.Space.DefaultLevel, t.Space.Ancestors, !t.Space.DeletedAt.IsZero()
		}
	} else if t.Collection, err = a.DB.Collection(ctx, id); err == nil {
		orgID, level, ancestors, deleted = t.Collection.OrgID, t.Collection.DefaultLevel, t.Collection.Ancestors, !t.Collection.DeletedAt.IsZero()
	}
	if err != nil {
		return t, err
	}
	if orgID != me.OrgID || deleted {
		return t, quire.Errorf(quire.CodeNotFound, "%s not found", target)
	}
	v, err := a.DB.Viewer(ctx, me.OrgID, me.User.ID, append(append([]string{}, ancestors...), id))
	if err != nil {
		return t, err
	}
	t.Role = v.RoleOn(id, level, ancestors)
	return t, quire.RequireRole(t.Role, quire.RoleRead, string(target))
}
