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

// CheckCreateIn checks that viewer v may create content in collection
// parentID ("" for the top level) of organization orgID
// (quire.Viewer.CheckCreateIn): a parent that is not a live collection of
// it, or that v cannot read, is CodeInvalid, as naming none.
func (a *Author) CheckCreateIn(ctx context.Context, v *quire.Viewer, orgID, parentID string) error {
	return checkCreateIn(ctx, a.DB, v, orgID, parentID)
}

// checkCreateIn is CheckCreateIn reading the parent through r: the store,
// or a write's transaction.
func checkCreateIn(ctx context.Context, r interface {
	Collection(ctx context.Context, id string) (*quire.Collection, error)
}, v *quire.Viewer, orgID, parentID string) error {
	var c *quire.Collection
	if parentID != "" {
		c, _ = r.Collection(ctx, parentID) // nil on any failure: no such parent
	}
	return v.CheckCreateIn(orgID, parentID, c)
}

// CreateSpace creates space n in organization orgID for viewer v, who may
// create in its parent (CheckCreateIn).
func (a *Author) CreateSpace(ctx context.Context, v *quire.Viewer, orgID string, n store.NewSpace) (*quire.Space, error) {
	if err := a.CheckCreateIn(ctx, v, orgID, n.ParentID); err != nil {
		return nil, err
	}
	return a.DB.CreateSpace(ctx, orgID, n)
}

// CreateCollection creates a collection titled title in collection parentID
// ("" for the top level) of organization orgID for viewer v, who may create
// there (CheckCreateIn).
func (a *Author) CreateCollection(ctx context.Context, v *quire.Viewer, orgID, title, parentID string) (*quire.Collection, error) {
	if err := a.CheckCreateIn(ctx, v, orgID, parentID); err != nil {
		return nil, err
	}
	return a.DB.CreateCollection(ctx, orgID, title, parentID)
}

// DuplicateSpace copies space sp beside it for user userID, who reads it
// and may create in its collection. One who sees the space but not its
// collection is refused (CodeForbidden), not told of a bad parent: the
// parent is not theirs to name.
func (a *Author) DuplicateSpace(ctx context.Context, sp *quire.Space, userID string) (*quire.Space, error) {
	v, err := a.DB.Viewer(ctx, sp.OrgID, userID, nil)
	if err != nil {
		return nil, err
	}
	if err := a.CheckCreateIn(ctx, v, sp.OrgID, sp.ParentID); err != nil {
		if quire.ErrorCode(err) == quire.CodeInvalid {
			return nil, quire.Errorf(quire.CodeForbidden, "duplicating needs the create role on the space's collection")
		}
		return nil, err
	}
	return a.DB.DuplicateSpace(ctx, sp.ID)
}
