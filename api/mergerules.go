package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
)

// checkMergeRules refuses (403) a merge of c by the caller that the merge
// rules in force (the space's, or its organization's when it inherits)
// do not allow, naming every rule unmet. With rules none, or none set,
// merging is as before. A locked space or a merged request is left for the
// store to answer, as it did before rules were enforced.
func (s *Server) checkMergeRules(r *http.Request, sp *quire.Space, role quire.Role, c *quire.ChangeRequest) error {
	if c.Status == quire.StatusMerged || quire.CheckEditable(sp) != nil {
		return nil
	}
	org, err := s.db.Organization(r.Context(), sp.OrgID)
	if err != nil {
		return err
	}
	rules := quire.EffectiveMergeRules(sp.MergeRules, org.MergeRules)
	if rules.Rules == nil {
		return nil
	}
	reviews, err := s.db.CurrentReviews(r.Context(), c.ID)
	if err != nil {
		return err
	}
	me := caller(r.Context())
	st := quire.MergeState{ChangeRequest: c, Outdated: sp.RevisionID != c.Base(), ActorID: me.ID, Reviews: reviews,
		Custom: func(rule quire.MergeRule) (bool, error) {
			env, err := s.mergeRulesEnv(sp, role, c, reviews, me)
			if err != nil {
				return false, err
			}
			return condition.EvalExpression(rule.Expression, env)
		}}
	if unmet := rules.Unmet(st); len(unmet) > 0 {
		return errorf(quire.CodeForbidden, "merge rules not met: %s", strings.Join(unmet, "; "))
	}
	return nil
}

// mergeRulesEnv is what a custom rule's expression sees: the reference's
// MergeRulesEvaluationContext (space, changeRequest, reviews, actor), each
// as the API answers it (reviews without their comments).
func (s *Server) mergeRulesEnv(sp *quire.Space, role quire.Role, c *quire.ChangeRequest, reviews []*quire.Review, me *quire.User) (map[string]any, error) {
	o := &reviewOut{s: s, place: &commentPlace{sp: sp, cr: c}}
	rs := make([]reviewJSON, len(reviews))
	for i, v := range reviews {
		rs[i] = o.json(v)
	}
	raw, err := json.Marshal(map[string]any{"space": s.spaceJSON(sp, role), "changeRequest": s.changeRequestJSON(sp, c),
		"reviews": rs, "actor": s.userJSON(me)})
	if err != nil {
		return nil, err
	}
	var env map[string]any
	return env, json.Unmarshal(raw, &env)
}
