package authoring

import (
	"context"

	"github.com/quiredocs/quire"
)

// CheckReviewer refuses (400, naming field) a user who cannot be asked to
// review c: not a member who reads the space sp, or the request's author.
func (a *Author) CheckReviewer(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, field, userID string) error {
	if userID == c.CreatedBy.ID {
		return quire.Errorf(quire.CodeInvalid, "%s: the author of a change request cannot review it", field)
	}
	v, err := a.DB.Viewer(ctx, sp.OrgID, userID, append(append([]string{}, sp.Ancestors...), sp.ID))
	if err != nil {
		return err
	}
	if !v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors).AtLeast(quire.RoleRead) {
		return quire.Errorf(quire.CodeInvalid, "%s: no member %q of the organization can read this space", field, userID)
	}
	return nil
}
