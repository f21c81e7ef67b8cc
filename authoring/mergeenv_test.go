package authoring

import (
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// TestMergeEnv checks what custom rules see: the API's shapes of the space
// for the actor's role, the request, its reviews and the actor.
func TestMergeEnv(t *testing.T) {
	sp := &quire.Space{ID: "s1", OrgID: "o1", RevisionID: "r2"}
	c := &quire.ChangeRequest{ID: "cr1", SpaceID: "s1", RevisionInitial: "r1", Status: quire.StatusOpen}
	reviews := []*quire.Review{{ID: "v1", ChangeRequestID: "cr1", Status: quire.ReviewApproved, Reviewer: quire.User{ID: "u2"}}}
	for _, tt := range []struct {
		name  string
		role  quire.Role
		merge bool
	}{{"reviewer", quire.RoleReview, true}, {"editor", quire.RoleEdit, false}} {
		t.Run(tt.name, func(t *testing.T) {
			env, err := mergeEnv(wire.Links{PublicURL: "https://quire.example"}, sp, c, reviews, Actor{User: &quire.User{ID: "u1"}, Role: tt.role})
			if err != nil {
				t.Fatal(err)
			}
			perms := env["space"].(map[string]any)["permissions"].(map[string]any)
			if perms["merge"] != tt.merge {
				t.Errorf("space.permissions.merge = %v, want %v", perms["merge"], tt.merge)
			}
			if got := env["changeRequest"].(map[string]any)["outdated"]; got != true {
				t.Errorf("changeRequest.outdated = %v, want true", got)
			}
			rs := env["reviews"].([]any)
			if len(rs) != 1 || rs[0].(map[string]any)["status"] != string(quire.ReviewApproved) {
				t.Errorf("reviews = %v", rs)
			}
			if _, ok := rs[0].(map[string]any)["comment"]; ok {
				t.Errorf("reviews carry no comments: %v", rs[0])
			}
			if got := env["actor"].(map[string]any)["id"]; got != "u1" {
				t.Errorf("actor.id = %v, want u1", got)
			}
		})
	}
}
