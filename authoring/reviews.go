package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Review is a review a user submits of a change request.
type Review struct {
	Status quire.ReviewStatus
	// Comment is the markdown of the comment posted with it, "" for none.
	Comment string
}

// CanReview refuses (403) a review of c by userID, whose role on the space
// is role: the review role or a request to review is needed, and the
// request's author may not review it (approving one's own change would
// meet review rules alone). SubmitReview asks it too; callers ask first to
// refuse before they read what is submitted.
func (a *Author) CanReview(ctx context.Context, c *quire.ChangeRequest, role quire.Role, userID string) error {
	asked := false
	if !role.AtLeast(quire.RoleReview) {
		var err error
		if asked, err = a.DB.RequestedReviewer(ctx, c.ID, userID); err != nil {
			return err
		}
	}
	return quire.CheckCanReview(role, asked, c, userID)
}

// SubmitReview records userID's review of change request c of space sp,
// once CanReview allows it: the reviewer's earlier reviews become outdated
// (store.DB.SubmitReview). A merged request takes no review.
func (a *Author) SubmitReview(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, role quire.Role, userID string, v Review) (*quire.Review, error) {
	if err := a.CanReview(ctx, c, role, userID); err != nil {
		return nil, err
	}
	return a.DB.SubmitReview(ctx, store.NewReview{SpaceID: sp.ID, ChangeRequest: c.ID, ReviewerID: userID,
		Status: v.Status, Comment: v.Comment})
}
