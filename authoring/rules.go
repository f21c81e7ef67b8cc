package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Writes that merge a change request of their own at once, unreviewed (an
// import into a space, a website import run into a space), answer to the
// merge rules in force as a merge of a fresh draft by their user on the
// space's head would (importRequest). The rules are judged in the write's
// transaction, under the merge's lock on the space, so that a write the
// rules refuse writes nothing; a caller may also ask first (CheckRules),
// to refuse before any work is done.

// importRequest is the change request a write into sp by user that merges
// at once is judged as: a draft of the user's on the space's head, with no
// review.
func importRequest(sp *quire.Space, user *quire.User) *quire.ChangeRequest {
	return &quire.ChangeRequest{SpaceID: sp.ID, Subject: "Import", CreatedBy: *user,
		Status: quire.StatusDraft, RevisionID: sp.RevisionID, RevisionInitial: sp.RevisionID}
}

// CheckRules refuses (403, naming every rule unmet) a write into sp by by
// that merges at once when the rules in force would refuse it now. The
// write judges them again in its transaction; this lets a caller refuse
// before it reads or fetches anything.
func (a *Author) CheckRules(ctx context.Context, sp *quire.Space, by Actor) error {
	unmet, err := a.unmetMergeRules(ctx, a.DB, sp, importRequest(sp, by.User), by)
	if err != nil {
		return err
	}
	return quire.MergeRulesError(unmet)
}

// mergeCheck judges the rules for by within the merge's transaction, on
// the space as locked there. before is the space as the caller read it:
// its time, which the merge's lock has touched, is what the rules see.
func (a *Author) mergeCheck(ctx context.Context, before *quire.Space, by Actor) store.MergeCheck {
	return func(tx *store.Tx, locked *quire.Space, _ *quire.ChangeRequest) error {
		locked.UpdatedAt = before.UpdatedAt
		return a.judge(ctx, tx, locked, importRequest(locked, by.User), by)
	}
}

// runCheck judges the rules for an import run by userID, which has no
// request behind it: its user and their role on the space are read in the
// transaction.
func (a *Author) runCheck(ctx context.Context, before *quire.Space, userID string) store.MergeCheck {
	return func(tx *store.Tx, locked *quire.Space, c *quire.ChangeRequest) error {
		user, err := tx.User(ctx, userID)
		if err != nil {
			return err
		}
		v, err := tx.Viewer(ctx, locked.OrgID, userID, append(append([]string{}, locked.Ancestors...), locked.ID))
		if err != nil {
			return err
		}
		role := v.RoleOn(locked.ID, locked.DefaultLevel, locked.Ancestors)
		return a.mergeCheck(ctx, before, Actor{User: user, Role: role})(tx, locked, c)
	}
}
