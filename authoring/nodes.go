package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Spaces and collections are the nodes of an organization's tree. Moving
// one within its organization, or transferring it to another, checks the
// mover's roles where it goes and writes in one transaction. Who may move
// the node itself (the admin role on it) is the caller's to check first.

// MoveSpace moves space sp under parent ("" for the top level) at pos, for
// userID: moving into another parent needs the create role there
// (quire.Viewer.CheckCreateIn).
func (a *Author) MoveSpace(ctx context.Context, sp *quire.Space, userID, parent string, pos quire.Position) (*quire.Space, error) {
	var out *quire.Space
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		if err := checkMoveInto(ctx, tx, sp.OrgID, userID, sp.ParentID, parent); err != nil {
			return err
		}
		if err := tx.MoveSpace(ctx, sp.ID, parent, pos); err != nil {
			return err
		}
		var err error
		out, err = tx.Space(ctx, sp.ID)
		return err
	})
	return out, err
}

// MoveCollection is MoveSpace for collection c, which cannot move into
// itself or its descendants.
func (a *Author) MoveCollection(ctx context.Context, c *quire.Collection, userID, parent string, pos quire.Position) (*quire.Collection, error) {
	var out *quire.Collection
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		if err := checkMoveInto(ctx, tx, c.OrgID, userID, c.ParentID, parent); err != nil {
			return err
		}
		if err := tx.MoveCollection(ctx, c.ID, parent, pos); err != nil {
			return err
		}
		var err error
		out, err = tx.Collection(ctx, c.ID)
		return err
	})
	return out, err
}

// TransferSpace moves space sp to the top level of organization to, for
// userID, who must be an admin of both organizations (404 for one they are
// not a member of); its grants and publications in the old one end.
func (a *Author) TransferSpace(ctx context.Context, sp *quire.Space, userID, to string) (*quire.Space, error) {
	var out *quire.Space
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		if err := checkTransfer(ctx, tx, userID, sp.OrgID, to); err != nil {
			return err
		}
		if err := tx.TransferSpace(ctx, sp.ID, to); err != nil {
			return err
		}
		var err error
		out, err = tx.Space(ctx, sp.ID)
		return err
	})
	return out, err
}

// TransferCollection is TransferSpace for collection c, with everything in it.
func (a *Author) TransferCollection(ctx context.Context, c *quire.Collection, userID, to string) (*quire.Collection, error) {
	var out *quire.Collection
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		if err := checkTransfer(ctx, tx, userID, c.OrgID, to); err != nil {
			return err
		}
		if err := tx.TransferCollection(ctx, c.ID, to); err != nil {
			return err
		}
		var err error
		out, err = tx.Collection(ctx, c.ID)
		return err
	})
	return out, err
}

// checkMoveInto refuses userID moving a node of org from parent current
// into parent unless they may create content there; staying in the same
// parent needs nothing more.
func checkMoveInto(ctx context.Context, tx *store.Tx, orgID, userID, current, parent string) error {
	if parent == current {
		return nil
	}
	v, err := tx.Viewer(ctx, orgID, userID, nil)
	if err != nil {
		return err
	}
	return checkCreateIn(ctx, tx, v, orgID, parent)
}

// checkTransfer refuses userID transferring from organization from to
// organization to unless they are an admin of both, and to is another.
func checkTransfer(ctx context.Context, tx *store.Tx, userID, from, to string) error {
	for _, org := range []string{from, to} {
		m, err := tx.Membership(ctx, org, userID)
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
