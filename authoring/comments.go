package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// CommentPlace is where comments live: a space's own comments (§4.2), or a
// change request's (§4.1).
type CommentPlace struct {
	Space *quire.Space
	// ChangeRequest is nil for the space's own comments.
	ChangeRequest *quire.ChangeRequest
}

// Scope is the store's form of p.
func (p CommentPlace) Scope() store.CommentScope {
	s := store.CommentScope{SpaceID: p.Space.ID}
	if p.ChangeRequest != nil {
		s.ChangeRequestID = p.ChangeRequest.ID
	}
	return s
}

// RevisionID is the current revision of p's content, which comments are
// made against.
func (p CommentPlace) RevisionID() string {
	if p.ChangeRequest != nil {
		return p.ChangeRequest.RevisionID
	}
	return p.Space.RevisionID
}

// NewThread is a comment that starts a thread.
type NewThread struct {
	// Markdown is the comment's body, checked by quire.CheckCommentBody.
	Markdown string
	// Page is the id of the page commented on, nil for none.
	Page *string
	// NodeID is a node in the page, "" for none.
	NodeID string
}

// PostComment starts a thread in p by userID, against p's current
// revision, which the comment records. A page it names must exist in that
// revision (400 otherwise), checked in the transaction that writes it.
func (a *Author) PostComment(ctx context.Context, p CommentPlace, userID string, t NewThread) (*quire.Comment, error) {
	n := store.NewComment{CommentScope: p.Scope(), UserID: userID, Markdown: t.Markdown,
		NodeID: t.NodeID, RevisionID: p.RevisionID()}
	if t.Page != nil {
		n.PageID = *t.Page
	}
	var c *quire.Comment
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		if t.Page != nil {
			_, tree, err := tx.RevisionTree(ctx, p.Space.ID, n.RevisionID)
			if err != nil {
				return err
			}
			if _, ok := tree.Pages[n.PageID]; !ok {
				return quire.Errorf(quire.CodeInvalid, "page: no page %q in the current content", n.PageID)
			}
		}
		id, err := tx.CreateComment(ctx, n)
		if err != nil {
			return err
		}
		c, err = tx.Comment(ctx, n.CommentScope, id)
		return err
	})
	return c, err
}

// ReplyToComment answers comment c of p by userID with markdown.
func (a *Author) ReplyToComment(ctx context.Context, p CommentPlace, c *quire.Comment, userID, markdown string) (*quire.Comment, error) {
	return a.DB.CreateComment(ctx, store.NewComment{CommentScope: p.Scope(), ParentID: c.ID, UserID: userID, Markdown: markdown})
}

// UpdateComment applies u to c, a comment or reply of p, for userID whose
// role on the space is role: anyone who may comment resolves, reopens and
// reacts; only its author edits the body (403).
func (a *Author) UpdateComment(ctx context.Context, p CommentPlace, c *quire.Comment, role quire.Role, userID string, u store.CommentUpdate) (*quire.Comment, error) {
	if u.Markdown != nil && !quire.CommentPermissionsOf(role, c, userID).Edit {
		return nil, quire.Errorf(quire.CodeForbidden, "only its author may edit a comment")
	}
	return a.DB.UpdateComment(ctx, p.Scope(), c, userID, u)
}

// DeleteComment deletes c, a comment (with its replies) or a reply of p,
// for userID whose role on the space is role: its author may, and so may
// the space's admins (403 to others).
func (a *Author) DeleteComment(ctx context.Context, p CommentPlace, c *quire.Comment, role quire.Role, userID string) error {
	if !quire.CommentPermissionsOf(role, c, userID).Delete {
		return quire.Errorf(quire.CodeForbidden, "only its author or an admin of the space may delete a comment")
	}
	return a.DB.DeleteComment(ctx, p.Scope(), c)
}
