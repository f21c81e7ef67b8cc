package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
	"github.com/quiredocs/quire/store"
)

// MergeEnv builds what a custom merge rule's expression sees (the
// reference's MergeRulesEvaluationContext) for change request c of space
// sp and the reviews the rules read. It is the API's to build, in its wire
// shapes; nil counts custom rules unmet.
type MergeEnv func(sp *quire.Space, c *quire.ChangeRequest, reviews []*quire.Review) (map[string]any, error)

// RulesError refuses (403) a merge that the merge rules in force do not
// allow; Unmet names each rule as quire.MergeRules.Unmet words it.
type RulesError struct{ Unmet []string }

func (e *RulesError) Error() string { return quire.MergeRulesError(e.Unmet).Error() }

// Unwrap makes the error a quire CodeForbidden for the HTTP layer.
func (e *RulesError) Unwrap() error { return quire.MergeRulesError(e.Unmet) }

// Merge three-way merges change request c into its space sp for the user
// actorID, once the merge rules allow it (RulesError otherwise): the rules
// are judged within the merge's transaction, on the space and the request
// as locked there, so that what they read cannot change before the merge
// writes. A missing request (404), a locked space and a merged request are
// answered first, as store.DB.MergeChangeRequest does, and a conflict
// (content.ConflictError) after.
func (a *Author) Merge(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, actorID string, env MergeEnv) (*quire.ChangeRequest, error) {
	return a.DB.MergeChangeRequestChecked(ctx, sp.ID, c.ID, actorID, func(tx *store.Tx, locked *quire.Space, c *quire.ChangeRequest) error {
		// The merge's lock has touched the space's row: its rules see the
		// space as it was before the merge, as the caller read it.
		locked.UpdatedAt = sp.UpdatedAt
		return judge(ctx, tx, locked, c, actorID, env)
	})
}

// judge refuses (RulesError) a merge of c by actorID that the rules in
// force for sp do not allow.
func judge(ctx context.Context, r rulesReader, sp *quire.Space, c *quire.ChangeRequest, actorID string, env MergeEnv) error {
	unmet, err := unmetMergeRules(ctx, r, sp, c, actorID, env)
	if err != nil {
		return err
	}
	if len(unmet) > 0 {
		return &RulesError{Unmet: unmet}
	}
	return nil
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
// its organization's when it inherits them) that a merge by actorID would
// not meet, each as quire.MergeRules.Unmet words it. With rules none, or
// none set, none are unmet. A locked space or a merged request has none
// either: the merge itself answers those. The app shows these beside its
// Merge button; Merge refuses on them.
func (a *Author) UnmetMergeRules(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, actorID string, env MergeEnv) ([]string, error) {
	return unmetMergeRules(ctx, a.DB, sp, c, actorID, env)
}

// rulesReader reads what the merge rules judge: a store.DB or, within a
// merge, its store.Tx.
type rulesReader interface {
	Organization(ctx context.Context, id string) (*quire.Organization, error)
	CurrentReviews(ctx context.Context, changeRequestID string) ([]*quire.Review, error)
}

func unmetMergeRules(ctx context.Context, r rulesReader, sp *quire.Space, c *quire.ChangeRequest, actorID string, env MergeEnv) ([]string, error) {
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
	st := quire.MergeState{ChangeRequest: c, Outdated: sp.RevisionID != c.Base(), ActorID: actorID, Reviews: reviews}
	if env != nil {
		st.Custom = func(rule quire.MergeRule) (bool, error) {
			e, err := env(sp, c, reviews)
			if err != nil {
				return false, err
			}
			return condition.EvalExpression(rule.Expression, e)
		}
	}
	return rules.Unmet(st), nil
}
