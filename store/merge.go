package store

import (
	"context"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
)

// EditFunc returns the content that replaces head, the request's current
// content (a private copy the function may change), at time now.
type EditFunc func(now time.Time, head *content.Tree) (*content.Tree, error)

// EditChangeRequest stores edit's result as the request's next revision and
// records the user as a contributor. Edits of one request are serialized.
func (db *DB) EditChangeRequest(ctx context.Context, spaceID, ref, userID string, edit EditFunc) (c *quire.ChangeRequest, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		c, err = tx.EditChangeRequest(ctx, spaceID, ref, userID, edit)
		return err
	})
	return c, err
}

// EditChangeRequest is DB.EditChangeRequest within tx.
func (tx *Tx) EditChangeRequest(ctx context.Context, spaceID, ref, userID string, edit EditFunc) (*quire.ChangeRequest, error) {
	return tx.editChangeRequest(ctx, spaceID, ref, userID, (*content.Tree).Clone, edit)
}

// ForkChangeRequest is EditChangeRequest with head a fork of the request's
// content (content.Tree.Fork), not a deep copy: edit changes it only through
// the fork's methods, as edit.Apply does, and the new revision costs what it
// changed rather than the size of the space.
func (tx *Tx) ForkChangeRequest(ctx context.Context, spaceID, ref, userID string, edit EditFunc) (*quire.ChangeRequest, error) {
	return tx.editChangeRequest(ctx, spaceID, ref, userID, (*content.Tree).Fork, edit)
}

func (tx *Tx) editChangeRequest(ctx context.Context, spaceID, ref, userID string, copyOf func(*content.Tree) *content.Tree, edit EditFunc) (*quire.ChangeRequest, error) {
	c, err := tx.lockChangeRequest(ctx, spaceID, ref)
	if err != nil {
		return nil, err
	}
	head, err := tx.revisionTree(ctx, spaceID, c.RevisionID)
	if err != nil {
		return nil, err
	}
	next, err := edit(tx.Now, copyOf(head))
	if err != nil {
		return nil, err
	}
	rev, err := tx.addRevision(ctx, spaceID, []string{c.RevisionID}, RevisionEdits, next, "", userID)
	if err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "UPDATE change_requests SET revision_id = ?, updated_at = ? WHERE id = ?", rev.ID, micros(tx.Now), c.ID); err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, `INSERT INTO change_request_contributors (change_request_id, user_id, edits, updated_at) VALUES (?, ?, 1, ?)
		ON CONFLICT (change_request_id, user_id) DO UPDATE SET edits = change_request_contributors.edits + 1,
		updated_at = excluded.updated_at`, c.ID, userID, micros(tx.Now)); err != nil {
		return nil, err
	}
	return tx.ChangeRequest(ctx, spaceID, c.ID)
}

// lockChangeRequest returns an unmerged change request of a space that is not
// locked, holding its row until the transaction ends so that concurrent
// edits apply one after the other.
func (tx *Tx) lockChangeRequest(ctx context.Context, spaceID, ref string) (*quire.ChangeRequest, error) {
	c, err := tx.lockedChangeRequest(ctx, spaceID, ref)
	if err != nil {
		return nil, err
	}
	if err := checkUnmerged(c); err != nil {
		return nil, err
	}
	// Checked again here: a lock that lands while a request is in flight wins.
	var mode string
	if err := tx.q.queryRow(ctx, "SELECT edit_mode FROM spaces WHERE id = ?", spaceID).Scan(&mode); err != nil {
		return nil, err
	}
	if err := quire.CheckEditable(&quire.Space{EditMode: quire.EditMode(mode)}); err != nil {
		return nil, err
	}
	return c, nil
}

// lockedChangeRequest locks the row of a change request of a space (by id or
// number), then reads it: once locked, what it reads is the latest committed
// state, also on PostgreSQL where a concurrent writer may have committed
// while this one waited.
func (tx *Tx) lockedChangeRequest(ctx context.Context, spaceID, ref string) (*quire.ChangeRequest, error) {
	where, arg := changeRequestWhere(ref)
	res, err := tx.q.exec(ctx, "UPDATE change_requests AS c SET updated_at = updated_at"+where, spaceID, arg)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, err
	} else if n == 0 {
		return nil, quire.Errorf(quire.CodeNotFound, "change request not found")
	}
	return tx.ChangeRequest(ctx, spaceID, ref)
}

func checkUnmerged(c *quire.ChangeRequest) error {
	if c.Status == quire.StatusMerged {
		return quire.Errorf(quire.CodeInvalid, "change request #%d is already merged", c.Number)
	}
	return nil
}

func (tx *Tx) revisionTree(ctx context.Context, spaceID, id string) (*content.Tree, error) {
	_, t, err := tx.RevisionTree(ctx, spaceID, id)
	return t, err
}

// MergeChangeRequest three-way merges a request (by id or number) into its
// space (base, the space's revision, the request's revision). On success the
// space moves to a merge revision whose parents are both heads and the
// request is merged. The space and the request are each read once, under
// their locks; the checks come in the order the API answers them: a missing
// request (404), a locked space, a request already merged.
//
// The trees are merged first, without any lock: under the space's row the
// merge only checks that neither head moved meanwhile and writes, so that
// other writers to the space (merges, new change requests) wait for writes,
// not for trees to be read and merged.
func (db *DB) MergeChangeRequest(ctx context.Context, spaceID, ref, userID string) (*quire.ChangeRequest, error) {
	return db.MergeChangeRequestChecked(ctx, spaceID, ref, userID, nil)
}

// MergeCheck judges a merge within its transaction, given the space and the
// request as read under their locks; an error refuses the merge, which then
// writes nothing. It may run again (a retried transaction): no side effects.
type MergeCheck func(tx *Tx, sp *quire.Space, c *quire.ChangeRequest) error

// MergeChangeRequestChecked is MergeChangeRequest with check asked, once
// the space is known to be editable and the request unmerged and before
// the trees are merged, whether the merge may go on.
func (db *DB) MergeChangeRequestChecked(ctx context.Context, spaceID, ref, userID string, check MergeCheck) (c *quire.ChangeRequest, err error) {
	pre := db.premerge(ctx, spaceID, ref)
	err = db.Tx(ctx, func(tx *Tx) error {
		c, err = tx.mergeChangeRequest(ctx, spaceID, ref, userID, pre, check)
		return err
	})
	return c, err
}

// premerged is a request's trees merged before the merge took its locks.
type premerged struct {
	base, ours, theirs string // the revisions merged
	tree               *content.Tree
}

// premerge merges a request's trees as they are now; nil when it cannot
// (a missing or merged request, a conflict): the merge then works under
// its locks, and answers what went wrong.
func (db *DB) premerge(ctx context.Context, spaceID, ref string) *premerged {
	sp, err := db.reader.Space(ctx, spaceID)
	if err != nil {
		return nil
	}
	c, err := db.reader.ChangeRequest(ctx, spaceID, ref)
	if err != nil || c.Status == quire.StatusMerged {
		return nil
	}
	t, err := db.reader.merge3(ctx, spaceID, c.Base(), sp.RevisionID, c.RevisionID, nil)
	if err != nil {
		return nil
	}
	return &premerged{base: c.Base(), ours: sp.RevisionID, theirs: c.RevisionID, tree: t}
}

// MergeChangeRequest is DB.MergeChangeRequest within tx.
func (tx *Tx) MergeChangeRequest(ctx context.Context, spaceID, ref, userID string) (*quire.ChangeRequest, error) {
	return tx.mergeChangeRequest(ctx, spaceID, ref, userID, nil, nil)
}

// MergeChangeRequestChecked is DB.MergeChangeRequestChecked within tx: a
// write that merges a request of its own (an import into a space) has its
// check asked under the merge's locks, in the write's transaction.
func (tx *Tx) MergeChangeRequestChecked(ctx context.Context, spaceID, ref, userID string, check MergeCheck) (*quire.ChangeRequest, error) {
	return tx.mergeChangeRequest(ctx, spaceID, ref, userID, nil, check)
}

// mergeChangeRequest merges, with the trees merged beforehand when pre
// merged the revisions found under the locks, and check asked first when
// not nil.
func (tx *Tx) mergeChangeRequest(ctx context.Context, spaceID, ref, userID string, pre *premerged, check MergeCheck) (*quire.ChangeRequest, error) {
	// The space's row first: merges into one space apply one at a time.
	var head, mode string
	if err := tx.q.queryRow(ctx, "UPDATE spaces SET updated_at = ? WHERE id = ? RETURNING revision_id, edit_mode",
		micros(tx.Now), spaceID).Scan(&head, &mode); err != nil {
		return nil, err
	}
	c, err := tx.lockedChangeRequest(ctx, spaceID, ref)
	if err != nil {
		return nil, err
	}
	if err := quire.CheckEditable(&quire.Space{EditMode: quire.EditMode(mode)}); err != nil {
		return nil, err
	}
	if err := checkUnmerged(c); err != nil {
		return nil, err
	}
	if check != nil {
		sp, err := tx.Space(ctx, spaceID)
		if err != nil {
			return nil, err
		}
		if err := check(tx, sp, c); err != nil {
			return nil, err
		}
	}
	var merged *content.Tree
	if pre != nil && pre.base == c.Base() && pre.ours == head && pre.theirs == c.RevisionID {
		merged = pre.tree
	} else if merged, err = tx.merge3(ctx, spaceID, c.Base(), head, c.RevisionID, nil); err != nil {
		return nil, err
	}
	rev, err := tx.addRevision(ctx, spaceID, []string{head, c.RevisionID}, RevisionMerge, merged, c.ID, userID)
	if err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "UPDATE spaces SET revision_id = ? WHERE id = ?", rev.ID, spaceID); err != nil {
		return nil, err
	}
	headRev, err := tx.Revision(ctx, spaceID, head)
	if err != nil {
		return nil, err
	}
	if err := tx.followIndex(ctx, spaceID, headRev.Root, merged, rev.Root); err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "UPDATE change_requests SET status = ?, revision_merged = ?, updated_at = ? WHERE id = ?",
		string(quire.StatusMerged), rev.ID, micros(tx.Now), c.ID); err != nil {
		return nil, err
	}
	// The row as just written, without reading it again.
	c.Status, c.RevisionMerged, c.UpdatedAt = quire.StatusMerged, rev.ID, fromMicros(micros(tx.Now))
	if err := tx.emit(ctx, changeRequestEvent(quire.EventChangeRequestMerged, c, userID)); err != nil {
		return nil, err
	}
	if err := tx.emit(ctx, Event{Name: quire.EventSpaceContentUpdated, SpaceID: spaceID, RevisionID: rev.ID, ActorID: userID,
		Resource: EventResource{Object: "space", ID: spaceID}}); err != nil {
		return nil, err
	}
	if err := tx.revalidateSpace(ctx, spaceID, quire.CacheTagChangeRequest(spaceID, c.ID)); err != nil {
		return nil, err
	}
	return c, nil
}

// UpdateChangeRequestFromSpace three-way merges the space's current content
// into a request (base, the space's revision, the request's revision). The
// request gets an update revision and the space's revision as its new base;
// when it is already up to date nothing changes.
func (db *DB) UpdateChangeRequestFromSpace(ctx context.Context, spaceID, ref, userID string) (*quire.ChangeRequest, error) {
	return db.UpdateChangeRequestResolving(ctx, spaceID, ref, userID, UpdateOptions{})
}

// UpdateOptions decide the conflicts of an update from the space.
type UpdateOptions struct {
	// Resolve decides pages and files in conflict by id. In an update the
	// space's version is content.KeepOurs and the request's KeepTheirs.
	Resolve map[string]content.Resolution
	// SpaceRevision, when set, is the space's revision the resolutions
	// were made against: if the space has moved on since, they are not
	// applied, so a conflict answers with what is in conflict now.
	SpaceRevision string
}

// UpdateChangeRequestResolving is UpdateChangeRequestFromSpace with the
// conflicts that opts resolves decided; conflicts it leaves open still
// answer a content.ConflictError and change nothing.
func (db *DB) UpdateChangeRequestResolving(ctx context.Context, spaceID, ref, userID string, opts UpdateOptions) (c *quire.ChangeRequest, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if c, err = tx.lockChangeRequest(ctx, spaceID, ref); err != nil {
			return err
		}
		var head string
		if err := tx.q.queryRow(ctx, "SELECT revision_id FROM spaces WHERE id = ?", spaceID).Scan(&head); err != nil {
			return err
		}
		if head == c.Base() {
			return nil
		}
		resolve := opts.Resolve
		if opts.SpaceRevision != "" && opts.SpaceRevision != head {
			resolve = nil
		}
		// The space is "ours", as in a merge: where both sides add pages at
		// the same place, the space's come first, so updating first and then
		// merging gives the same content as merging right away.
		merged, err := tx.merge3(ctx, spaceID, c.Base(), head, c.RevisionID, resolve)
		if err != nil {
			return err
		}
		rev, err := tx.addRevision(ctx, spaceID, []string{c.RevisionID, head}, RevisionUpdate, merged, "", userID)
		if err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "UPDATE change_requests SET revision_id = ?, revision_merged_ancestor = ?, updated_at = ? WHERE id = ?",
			rev.ID, head, micros(tx.Now), c.ID); err != nil {
			return err
		}
		c, err = tx.ChangeRequest(ctx, spaceID, c.ID)
		return err
	})
	return c, err
}

// merge3 merges the trees of revisions ours and theirs, descended from base,
// with the conflicts resolve decides (content.MergeHeads).
func (r reader) merge3(ctx context.Context, spaceID, base, ours, theirs string, resolve map[string]content.Resolution) (*content.Tree, error) {
	h, err := r.Heads(ctx, spaceID, base, ours, theirs)
	if err != nil {
		return nil, err
	}
	return content.MergeHeads(h[0], h[1], h[2], resolve)
}

// Heads returns the revisions ids of a space with their trees (shared: do
// not modify), as content.MergeHeads takes them.
func (r reader) Heads(ctx context.Context, spaceID string, ids ...string) ([]content.Head, error) {
	heads := make([]content.Head, len(ids))
	for i, id := range ids {
		_, t, err := r.RevisionTree(ctx, spaceID, id)
		if err != nil {
			return nil, err
		}
		heads[i] = content.Head{ID: id, Tree: t}
	}
	return heads, nil
}
