package authoring

import (
	"context"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// WriteTranslation makes tree the content of space sp, as one change
// request by the user named subject, merged at once, and calls within in
// the same transaction with the revision the merge made: when within fails
// (store.ErrTranslationRunLost: the run was lost), nothing is written.
// Pages of tree the space already has keep their times unless they
// changed; the others are dated now. tree's files are the source's, whose
// bytes are in the blob store already.
func (a *Author) WriteTranslation(ctx context.Context, sp *quire.Space, userID, subject string, tree *content.Tree,
	within func(tx *store.Tx, revision string) error) (*quire.ChangeRequest, error) {
	if err := quire.CheckEditable(sp); err != nil {
		return nil, err
	}
	var out *quire.ChangeRequest
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		cr, err := tx.CreateChangeRequest(ctx, sp.ID, subject, userID)
		if err != nil {
			return err
		}
		if _, err := tx.EditChangeRequest(ctx, sp.ID, cr.ID, userID, func(now time.Time, head *content.Tree) (*content.Tree, error) {
			t := tree.Clone()
			stamp(t, head, now.UnixMicro())
			return t, nil
		}); err != nil {
			return err
		}
		if out, err = tx.MergeChangeRequest(ctx, sp.ID, cr.ID, userID); err != nil {
			return err
		}
		return within(tx, out.RevisionMerged)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// stamp dates t's pages: as in head when unchanged there, else now.
func stamp(t, head *content.Tree, now int64) {
	for id, p := range t.Pages {
		if p == nil {
			continue
		}
		p.CreatedAt, p.UpdatedAt = now, now
		if h := head.Pages[id]; h != nil {
			p.CreatedAt = h.CreatedAt
			if h.Title == p.Title && h.Description == p.Description && h.Markdown == p.Markdown && h.Slug == p.Slug {
				p.UpdatedAt = h.UpdatedAt
			}
		}
	}
}
