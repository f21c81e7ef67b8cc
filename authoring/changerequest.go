package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// ChangeRequestEdit changes a change request's subject, description and
// status; nil leaves each as it is.
type ChangeRequestEdit struct {
	Subject *string
	// Description is markdown, checked as a page's body is (edit.Markdown);
	// "" clears it.
	Description *string
	// Status is draft, open or archived: closing is archiving, reopening
	// is opening again; merging is Merge.
	Status *quire.ChangeRequestStatus
}

// CreateChangeRequest opens a draft of space sp by userID, forked from the
// space's current content (POST S/change-requests, the editor's first
// save).
func (a *Author) CreateChangeRequest(ctx context.Context, sp *quire.Space, subject, userID string) (*quire.ChangeRequest, error) {
	return a.DB.CreateChangeRequest(ctx, sp.ID, subject, userID)
}

// EditChangeRequest applies e to change request c of space sp for actorID
// (PATCH CR, the app's description form). A merged request keeps its
// status: closing or reopening one is refused (400).
func (a *Author) EditChangeRequest(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, actorID string, e ChangeRequestEdit) (*quire.ChangeRequest, error) {
	return a.DB.UpdateChangeRequest(ctx, sp.ID, c.ID, store.ChangeRequestUpdate{Subject: e.Subject, Description: e.Description,
		Status: e.Status, Actor: actorID})
}
