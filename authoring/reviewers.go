package authoring

import (
	"context"
	"fmt"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// checkReviewer refuses (400, naming field) a user who cannot be asked to
// review c: not a member who reads the space sp, or the request's author.
func checkReviewer(ctx context.Context, r reviewReader, sp *quire.Space, c *quire.ChangeRequest, field, userID string) error {
	if userID == c.CreatedBy.ID {
		return quire.Errorf(quire.CodeInvalid, "%s: the author of a change request cannot review it", field)
	}
	v, err := r.Viewer(ctx, sp.OrgID, userID, append(append([]string{}, sp.Ancestors...), sp.ID))
	if err != nil {
		return err
	}
	if !v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors).AtLeast(quire.RoleRead) {
		return quire.Errorf(quire.CodeInvalid, "%s: no member %q of the organization can read this space", field, userID)
	}
	return nil
}

// ReviewRequest asks users to review a change request, and may change its
// subject and description (nil: unchanged) in the same write.
type ReviewRequest struct {
	// Users are the user ids asked; the second mention of one is ignored.
	Users []string
	// Field names the i-th user in refusals; nil names it users[i].
	Field                func(i int) string
	Subject, Description *string
}

// RequestReviewers asks the users of q to review change request c of space
// sp on behalf of byUserID, each checked (checkReviewer) in the transaction
// that asks them, on the request as locked there, and answers who is
// asked now.
func (a *Author) RequestReviewers(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, byUserID string, q ReviewRequest) ([]*quire.RequestedReviewer, error) {
	var users, fields []string
	seen := map[string]bool{}
	for i, u := range q.Users {
		if seen[u] {
			continue
		}
		seen[u] = true
		field := fmt.Sprintf("users[%d]", i)
		if q.Field != nil {
			field = q.Field(i)
		}
		users, fields = append(users, u), append(fields, field)
	}
	return a.DB.RequestReviewersChecked(ctx, sp.ID, c.ID, byUserID, users, q.Subject, q.Description, func(tx *store.Tx, locked *quire.ChangeRequest) error {
		for i, u := range users {
			if err := checkReviewer(ctx, tx, sp, locked, fields[i], u); err != nil {
				return err
			}
		}
		return nil
	})
}
