package authoring

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// Actor is who merges: the user and their role on the space, both of which
// custom merge rules may read.
type Actor struct {
	User *quire.User
	Role quire.Role
}

// mergeEnv is what a custom rule's expression sees: the reference's
// MergeRulesEvaluationContext (space, changeRequest, reviews, actor), each
// as the API answers it (wire's shapes, reviews without their comments), so
// that the API and the app judge a rule on one view.
func mergeEnv(l wire.Links, sp *quire.Space, c *quire.ChangeRequest, reviews []*quire.Review, by Actor) (map[string]any, error) {
	rs := make([]wire.Review, len(reviews))
	for i, v := range reviews {
		rs[i] = l.Review(sp.ID, v, nil)
	}
	raw, err := json.Marshal(map[string]any{"space": l.Space(sp, by.Role), "changeRequest": l.ChangeRequest(sp, c),
		"reviews": rs, "actor": l.User(by.User)})
	if err != nil {
		return nil, err
	}
	var env map[string]any
	return env, json.Unmarshal(raw, &env)
}
