package api

import (
	"encoding/json"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
)

// checkMergeRules refuses (403) a merge of c by the caller that the merge
// rules in force (the space's, or its organization's when it inherits)
// do not allow, naming every rule unmet (authoring.Author.UnmetMergeRules).
// With rules none, or none set, merging is as before. A locked space or a
// merged request is left for the store to answer. Imports ask here before
// they merge; POST CR/merge judges the rules within the merge
// (authoring.Author.Merge).
func (s *Server) checkMergeRules(r *http.Request, sp *quire.Space, role quire.Role, c *quire.ChangeRequest) error {
	unmet, err := s.author.UnmetMergeRules(r.Context(), sp, c, caller(r.Context()).ID, s.mergeEnv(role, caller(r.Context())))
	if err != nil {
		return err
	}
	return quire.MergeRulesError(unmet)
}

// mergeEnv is MergeRulesEnv for a caller whose role on the space is role.
func (s *Server) mergeEnv(role quire.Role, me *quire.User) authoring.MergeEnv {
	return func(sp *quire.Space, c *quire.ChangeRequest, reviews []*quire.Review) (map[string]any, error) {
		return s.MergeRulesEnv(sp, role, c, reviews, me)
	}
}

// MergeRulesEnv is what a custom rule's expression sees: the reference's
// MergeRulesEvaluationContext (space, changeRequest, reviews, actor), each
// as the API answers it (reviews without their comments). The app judges
// custom rules on it too (app.Config.MergeRulesEnv).
func (s *Server) MergeRulesEnv(sp *quire.Space, role quire.Role, c *quire.ChangeRequest, reviews []*quire.Review, me *quire.User) (map[string]any, error) {
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
