package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// RulesError refuses (403) a merge that the merge rules in force do not
// allow; Unmet names each rule as quire.MergeRules.Unmet words it.
type RulesError struct{ Unmet []string }

func (e *RulesError) Error() string { return quire.MergeRulesError(e.Unmet).Error() }

// Unwrap makes the error a quire CodeForbidden for the HTTP layer.
func (e *RulesError) Unwrap() error { return quire.MergeRulesError(e.Unmet) }

// Merge three-way merges change request c into its space sp for by, once the merge rules allow it (RulesError otherwise): the rules
// are judged within the merge's transaction, on the space and the request
// as locked there, so that what they read cannot change before the merge
// writes. A missing request (404), a locked space and a merged request are
// answered first, as store.DB.MergeChangeRequest does, and a conflict
// (content.ConflictError) after.
func (a *Author) Merge(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, by Actor) (*quire.ChangeRequest, error) {
	return a.DB.MergeChangeRequestChecked(ctx, sp.ID, c.ID, by.User.ID, func(tx *store.Tx, locked *quire.Space, c *quire.ChangeRequest) error {
		// The merge's lock has touched the space's row: its rules see the
		// space as it was before the merge, as the caller read it.
		locked.UpdatedAt = sp.UpdatedAt
		return a.judge(ctx, tx, locked, c, by)
	})
}

// Update three-way merges the space's current content into change request
// c of space sp (POST CR/update); it changes nothing when c is up to date.
func (a *Author) Update(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, actorID string) (*quire.ChangeRequest, error) {
	return a.DB.UpdateChangeRequestFromSpace(ctx, sp.ID, c.ID, actorID)
}

// Resolve is Update with the conflicts that opts resolves decided; those
// it leaves open answer a content.ConflictError and change nothing.
func (a *Author) Resolve(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, actorID string, opts store.UpdateOptions) (*quire.ChangeRequest, error) {
	return a.DB.UpdateChangeRequestResolving(ctx, sp.ID, c.ID, actorID, opts)
}

// UnmetMergeRules lists the merge rules in force for c (the space's, or
// its organization's when it inherits them) that a merge by the actor would
// not meet, each as quire.MergeRules.Unmet words it; custom rules see the
// request as the API answers it (mergeEnv). With rules none, or
// none set, none are unmet. A locked space or a merged request has none
// either: the merge itself answers those. The app shows these beside its
// Merge button; Merge refuses on them.
func (a *Author) UnmetMergeRules(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, by Actor) ([]string, error) {
	return a.unmetMergeRules(ctx, a.DB, sp, c, by)
}

// rulesReader reads what the merge rules judge: a store.DB or, within a
// merge, its store.Tx.
type rulesReader interface {
	Organization(ctx context.Context, id string) (*quire.Organization, error)
	CurrentReviews(ctx context.Context, changeRequestID string) ([]*quire.Review, error)
}

// judge refuses (RulesError) a merge of c by by that the rules in force
// for sp do not allow.
func (a *Author) judge(ctx context.Context, r rulesReader, sp *quire.Space, c *quire.ChangeRequest, by Actor) error {
	unmet, err := a.unmetMergeRules(ctx, r, sp, c, by)
	if err != nil {
		return err
	}
	if len(unmet) > 0 {
		return &RulesError{Unmet: unmet}
	}
	return nil
}

func (a *Author) unmetMergeRules(ctx context.Context, r rulesReader, sp *quire.Space, c *quire.ChangeRequest, by Actor) ([]string, error) {
	if c.Status == quire.StatusMerged || quire.CheckEditable(sp) != nil {
		return nil, nil
	}
	org, err := r.Organization(ctx, sp.OrgID)
	if err != nil {
		return nil, err
	}
	rules := quire.EffectiveMergeRules(sp.MergeRules, org.MergeRules)
	if rules.Rules == nil {
		return nil, nil
	}
	reviews, err := r.CurrentReviews(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	st := quire.MergeState{ChangeRequest: c, Outdated: sp.RevisionID != c.Base(), ActorID: by.User.ID, Reviews: reviews}
	st.Custom = func(rule quire.MergeRule) (bool, error) {
		e, err := mergeEnv(wire.Links{PublicURL: a.PublicURL}, sp, c, reviews, by)
		if err != nil {
			return false, err
		}
		return condition.EvalExpression(rule.Expression, e)
	}
	return rules.Unmet(st), nil
}
