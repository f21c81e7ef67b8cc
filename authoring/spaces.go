package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// UpdateSpace changes space sp as u says for a caller whose role on it is
// role (at least edit: the caller's to check), once CheckSpaceUpdate allows
// it.
func (a *Author) UpdateSpace(ctx context.Context, sp *quire.Space, role quire.Role, u store.SpaceUpdate) (*quire.Space, error) {
	if err := CheckSpaceUpdate(sp, role, u); err != nil {
		return nil, err
	}
	return a.DB.UpdateSpace(ctx, sp.ID, u)
}

// CheckSpaceUpdate says whether a caller whose role on space sp is role may
// change it as u says, checking in this order: a space is in-collection
// only inside a collection (CodeInvalid); its settings (default level, edit
// mode, visibility, merge rules) need the admin role (CodeForbidden); its
// title and emoji are edits, refused while it is locked unless the same
// change unlocks it (quire.CheckEditable).
func CheckSpaceUpdate(sp *quire.Space, role quire.Role, u store.SpaceUpdate) error {
	if u.Visibility != nil && *u.Visibility == quire.VisibilityInCollection && sp.ParentID == "" {
		return quire.Errorf(quire.CodeInvalid, "visibility: in-collection is only for spaces inside a collection")
	}
	if (u.DefaultLevel != nil || u.EditMode != nil || u.Visibility != nil || u.MergeRules != nil) && role != quire.RoleAdmin {
		return quire.Errorf(quire.CodeForbidden, "changing defaultLevel, editMode, visibility or mergeRules needs the admin role on the space")
	}
	unlocking := u.EditMode != nil && *u.EditMode == quire.EditLive
	if (u.Title != nil || u.Emoji != nil) && !unlocking {
		return quire.CheckEditable(sp)
	}
	return nil
}

// TransferTarget checks that user may move content of organization from to
// organization to: they administer both (an organization they are not a
// member of is CodeNotFound), and to is another one (CodeInvalid).
func (a *Author) TransferTarget(ctx context.Context, userID, from, to string) error {
	for _, org := range []string{from, to} {
		m, err := a.DB.Membership(ctx, org, userID)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return quire.Errorf(quire.CodeNotFound, "organization not found")
		}
		if err != nil {
			return err
		}
		if m.Role != quire.RoleAdmin {
			return quire.Errorf(quire.CodeForbidden, "transferring needs the admin role in both organizations")
		}
	}
	if to == from {
		return quire.Errorf(quire.CodeInvalid, "organization: already the owner")
	}
	return nil
}
