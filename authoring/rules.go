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

// Rules is who a write that merges at once answers to the merge rules as:
// User, whose custom rules see what Env renders (nil counts them unmet).
type Rules struct {
	User *quire.User
	Env  MergeEnv
}

// RulesEnv renders what a custom merge rule's expression sees for a user
// whose role on sp is role (api.Server.MergeRulesEnv): the writes that run
// with no request behind them (import runs) judge custom rules on it.
type RulesEnv func(sp *quire.Space, role quire.Role, c *quire.ChangeRequest, reviews []*quire.Review, actor *quire.User) (map[string]any, error)

// importRequest is the change request a write into sp by user that merges
// at once is judged as: a draft of the user's on the space's head, with no
// review.
func importRequest(sp *quire.Space, user *quire.User) *quire.ChangeRequest {
	return &quire.ChangeRequest{SpaceID: sp.ID, Subject: "Import", CreatedBy: *user,
		Status: quire.StatusDraft, RevisionID: sp.RevisionID, RevisionInitial: sp.RevisionID}
}

// CheckRules refuses (403, naming every rule unmet) a write into sp that
// merges at once when the rules in force would refuse it now. The write
// judges them again in its transaction; this lets a caller refuse before
// it reads or fetches anything.
func (a *Author) CheckRules(ctx context.Context, sp *quire.Space, r Rules) error {
	unmet, err := unmetMergeRules(ctx, a.DB, sp, importRequest(sp, r.User), r.User.ID, r.Env)
	if err != nil {
		return err
	}
	return quire.MergeRulesError(unmet)
}

// mergeCheck judges the rules as r within the merge's transaction, on the
// space as locked there. before is the space as the caller read it: its
// time, which the merge's lock has touched, is what the rules see.
func mergeCheck(ctx context.Context, before *quire.Space, r Rules) store.MergeCheck {
	return func(tx *store.Tx, locked *quire.Space, _ *quire.ChangeRequest) error {
		locked.UpdatedAt = before.UpdatedAt
		return judge(ctx, tx, locked, importRequest(locked, r.User), r.User.ID, r.Env)
	}
}

// runCheck judges the rules for an import run by userID, which has no
// request behind it: its user and their role on the space are read in the
// transaction, and custom rules see what a.RulesEnv renders.
func (a *Author) runCheck(ctx context.Context, before *quire.Space, userID string) store.MergeCheck {
	return func(tx *store.Tx, locked *quire.Space, c *quire.ChangeRequest) error {
		user, err := tx.User(ctx, userID)
		if err != nil {
			return err
		}
		var role quire.Role
		if a.RulesEnv != nil {
			v, err := tx.Viewer(ctx, locked.OrgID, userID, append(append([]string{}, locked.Ancestors...), locked.ID))
			if err != nil {
				return err
			}
			role = v.RoleOn(locked.ID, locked.DefaultLevel, locked.Ancestors)
		}
		return mergeCheck(ctx, before, Rules{User: user, Env: a.Env(role, user)})(tx, locked, c)
	}
}

// Env is what custom merge rules see for user, whose role on the space is
// role: what RulesEnv renders, or nil (custom rules unmet) without it.
func (a *Author) Env(role quire.Role, user *quire.User) MergeEnv {
	if a.RulesEnv == nil {
		return nil
	}
	return func(sp *quire.Space, c *quire.ChangeRequest, reviews []*quire.Review) (map[string]any, error) {
		return a.RulesEnv(sp, role, c, reviews, user)
	}
}
