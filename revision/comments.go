package revision

import (
	"context"
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
)

// CommentViews are what the comments of one place (a space, or one of its
// change requests) are shown against: the place's current content, and, for
// comments on pages gone from it since, the revisions they commented on.
type CommentViews struct {
	Current *View            // nil when no comment needs it
	old     map[string]*View // revisions commented on, by id
}

// CommentViews opens what comments cs of space sp (of its change request cr,
// when not nil), whose content is at revID, need to be shown: the current
// content when a comment targets a page or documents (whose links resolve
// against it) are asked for, and the revisions commented on of pages gone
// since. A revision no longer there is left out.
func (r *Reader) CommentViews(ctx context.Context, sp *quire.Space, revID string, cr *quire.ChangeRequest, cs []*quire.Comment, documents bool) (*CommentViews, error) {
	cv := &CommentViews{old: map[string]*View{}}
	need := documents
	for _, c := range cs {
		need = need || c.PageID != ""
	}
	if !need {
		return cv, nil
	}
	var err error
	if cv.Current, err = r.Open(ctx, sp, revID, cr); err != nil {
		return nil, err
	}
	for _, c := range cs {
		if c.PageID == "" || cv.Current.Tree.Pages[c.PageID] != nil || cv.old[c.RevisionID] != nil {
			continue
		}
		v, err := r.Open(ctx, sp, c.RevisionID, cr)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		cv.old[c.RevisionID] = v
	}
	return cv, nil
}

// Page is the page comment c targets, from the current content, or, when it
// is gone from there (outdated), from the revision commented on; pg is nil
// when neither holds it. Nodes are not addressable in markdown bodies yet,
// so a node's own presence is not checked.
func (cv *CommentViews) Page(c *quire.Comment) (v *View, pg *content.Page, outdated bool) {
	v = cv.Current
	if v.Tree.Pages[c.PageID] == nil {
		v, outdated = cv.old[c.RevisionID], true
	}
	if v == nil || v.Tree.Pages[c.PageID] == nil {
		return nil, nil, outdated
	}
	return v, v.Tree.Pages[c.PageID], outdated
}

// Document is the JSON document of c's body: its links resolved against the
// current content and the page commented on, mentions of users as mention
// nodes (render.Mentions).
func (cv *CommentViews) Document(c *quire.Comment) json.RawMessage {
	return cv.Current.CommentDocument(c.PageID, c.Markdown, render.Mentions)
}
