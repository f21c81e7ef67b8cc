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

// reviewReader reads what the review rules judge: a store.DB or, within the
// write, its store.Tx.
type reviewReader interface {
	RequestedReviewer(ctx context.Context, changeRequestID, userID string) (bool, error)
	Viewer(ctx context.Context, orgID, userID string, ids []string) (*quire.Viewer, error)
}

// CanReview refuses (403) a review of c by userID, whose role on the space
// is role: the review role or a request to review is needed, and the
// request's author may not review it (approving one's own change would
// meet review rules alone). SubmitReview judges it again in its
// transaction; callers ask first to refuse before they read what is
// submitted.
func (a *Author) CanReview(ctx context.Context, c *quire.ChangeRequest, role quire.Role, userID string) error {
	return canReview(ctx, a.DB, c, role, userID)
}

func canReview(ctx context.Context, r reviewReader, c *quire.ChangeRequest, role quire.Role, userID string) error {
	asked := false
	if !role.AtLeast(quire.RoleReview) {
		var err error
		if asked, err = r.RequestedReviewer(ctx, c.ID, userID); err != nil {
			return err
		}
	}
	return quire.CheckCanReview(role, asked, c, userID)
}

// SubmitReview records userID's review of change request c of space sp:
// CanReview is judged in the transaction that writes it, on the request as
// locked there, and the reviewer's earlier reviews become outdated
// (store.DB.SubmitReview). A merged request takes no review.
func (a *Author) SubmitReview(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, role quire.Role, userID string, v Review) (*quire.Review, error) {
	return a.DB.SubmitReviewChecked(ctx, store.NewReview{SpaceID: sp.ID, ChangeRequest: c.ID, ReviewerID: userID,
		Status: v.Status, Comment: v.Comment}, func(tx *store.Tx, locked *quire.ChangeRequest) error {
		return canReview(ctx, tx, locked, role, userID)
	})
}
