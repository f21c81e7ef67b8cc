package store

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
)

// MergeEnv builds what a custom merge rule's expression sees (the
// reference's MergeRulesEvaluationContext) from the reviews the rules read.
// It is the API's to build, in its wire shapes; nil counts custom rules unmet.
type MergeEnv func(reviews []*quire.Review) (map[string]any, error)

// UnmetMergeRules lists the merge rules in force for c (the space's, or
// its organization's when it inherits them) that a merge by actorID would
// not meet, each as quire.MergeRules.Unmet words it. With rules none, or
// none set, none are unmet. A locked space or a merged request has none
// either: the merge itself answers those. The API's POST CR/merge and the
// app's Merge button both ask here, so they cannot disagree.
func (db *DB) UnmetMergeRules(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, actorID string, env MergeEnv) ([]string, error) {
	if c.Status == quire.StatusMerged || quire.CheckEditable(sp) != nil {
		return nil, nil
	}
	org, err := db.Organization(ctx, sp.OrgID)
	if err != nil {
		return nil, err
	}
	rules := quire.EffectiveMergeRules(sp.MergeRules, org.MergeRules)
	if rules.Rules == nil {
		return nil, nil
	}
	reviews, err := db.CurrentReviews(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	st := quire.MergeState{ChangeRequest: c, Outdated: sp.RevisionID != c.Base(), ActorID: actorID, Reviews: reviews}
	if env != nil {
		st.Custom = func(rule quire.MergeRule) (bool, error) {
			e, err := env(reviews)
			if err != nil {
				return false, err
			}
			return condition.EvalExpression(rule.Expression, e)
		}
	}
	return rules.Unmet(st), nil
}

// CheckReviewer refuses (400, naming field) a user who cannot be asked to
// review c: not a member who reads the space sp, or the request's author.
func (db *DB) CheckReviewer(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, field, userID string) error {
	if userID == c.CreatedBy.ID {
		return quire.Errorf(quire.CodeInvalid, "%s: the author of a change request cannot review it", field)
	}
	v, err := db.Viewer(ctx, sp.OrgID, userID, append(append([]string{}, sp.Ancestors...), sp.ID))
	if err != nil {
		return err
	}
	if !v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors).AtLeast(quire.RoleRead) {
		return quire.Errorf(quire.CodeInvalid, "%s: no member %q of the organization can read this space", field, userID)
	}
	return nil
}
