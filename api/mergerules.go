package api

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
)

// mergeEnv is MergeRulesEnv for a caller whose role on the space is role.
func (s *Server) mergeEnv(role quire.Role, me *quire.User) authoring.MergeEnv {
	return func(sp *quire.Space, c *quire.ChangeRequest, reviews []*quire.Review) (map[string]any, error) {
		return s.MergeRulesEnv(sp, role, c, reviews, me)
	}
}

// MergeRulesEnv is what a custom rule's expression sees: the reference's
// MergeRulesEvaluationContext (space, changeRequest, reviews, actor), each
// as the API answers it (reviews without their comments). The app judges
// custom rules on it too, through authoring.Author.RulesEnv, which cmd/quire
// sets to it.
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
