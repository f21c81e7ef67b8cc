package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Space and collection permission grants (reference: inviteToSpace,
// listPermissionsAggregateInSpace, listUserPermissionsInSpace, …, and the
// same for collections), end to end. Identifiers declared here start with
// "gr"; the collection helpers of collections_test.go are shared.

// grUserPermission is an item of …/permissions/users and …/aggregate.
type grUserPermission struct {
	Permission string `json:"permission"`
	User       struct {
		Object      string `json:"object"`
		ID          string `json:"id"`
		DisplayName string `json:"displayName"`
		Email       string `json:"email"`
		URLs        struct {
			Location string `json:"location"`
		} `json:"urls"`
	} `json:"user"`
}

// grTeamPermission is an item of …/permissions/teams.
type grTeamPermission struct {
	Permission string `json:"permission"`
	Team       struct {
		Object  string `json:"object"`
		ID      string `json:"id"`
		Title   string `json:"title"`
		Members int    `json:"members"`
		Spaces  int    `json:"spaces"`
	} `json:"team"`
}

// grWorld is one organization set up for grant tests: a collection P at the
// top, a collection C inside it and a space S inside C, with people of every
// kind. target is the content under test ("space" S or "collection" C);
// P is above it either way.
type grWorld struct {
	e                                   *env
	kind, target                        string // "space" or "collection", and its id
	p, c, s                             string
	create, edit, read, guest, outsider user
	team, foreignTeam                   string
	teamGuest                           user // a guest in team
}

func grSetup(t *testing.T, kind string) *grWorld {
	t.Helper()
	e := newEnv(t)
	var n int64
	start := time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)
	// Each reading of the clock is a second later, so grants have an order.
	e.db.Now = func() time.Time { n++; return start.Add(time.Duration(n) * time.Second) }
	w := &grWorld{e: e, kind: kind,
		create: e.addUser(t, "create", "Cary Create"), edit: e.addUser(t, "edit", "Eddie Edit"),
		read: e.addUser(t, "read", "Reed Read"), guest: e.addUser(t, "guest", "Gus Guest"),
		teamGuest: e.addUser(t, "guest", "Tina Team"), outsider: e.outsider(t)}
	w.p = colCreate(t, e, e.admin.token, "P", "").ID
	w.c = colCreate(t, e, e.admin.token, "C", w.p).ID
	w.s = colCreateSpace(t, e, "S", w.c).ID
	w.target = w.s
	if kind == "collection" {
		w.target = w.c
	}
	w.team = colTeam(t, e, "Crew", w.teamGuest.id)
	otherOrg, otherAdmin := colOtherOrg(t, e)
	var team struct {
		ID string `json:"id"`
	}
	e.call(t, otherAdmin.token, "PUT", "/v1/orgs/"+otherOrg+"/teams", map[string]any{"title": "Theirs"}).want(t, 201).Decode(t, &team)
	w.foreignTeam = team.ID
	return w
}

func (w *grWorld) path(rest string) string { return "/v1/" + w.kind + "s/" + w.target + rest }

// users lists the user grants on the target as the admin: user id → role.
func (w *grWorld) users(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, g := range colAll[grUserPermission](t, w.e, w.e.admin.token, w.path("/permissions/users"), 1000) {
		if _, dup := out[g.User.ID]; dup {
			t.Errorf("user %s listed twice", g.User.ID)
		}
		out[g.User.ID] = g.Permission
	}
	return out
}

// teams lists the team grants on the target as the admin: team id → role.
func (w *grWorld) teams(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, g := range colAll[grTeamPermission](t, w.e, w.e.admin.token, w.path("/permissions/teams"), 1000) {
		out[g.Team.ID] = g.Permission
	}
	return out
}

// aggregate lists everyone who can access the target: user id → role.
func (w *grWorld) aggregate(t *testing.T, token, query string, limit int) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, g := range colAll[grUserPermission](t, w.e, token, w.path("/permissions/aggregate"+query), limit) {
		if _, dup := out[g.User.ID]; dup {
			t.Errorf("aggregate%s limit %d: user %s listed twice", query, limit, g.User.ID)
		}
		out[g.User.ID] = g.Permission
	}
	return out
}

// spacePerms reads the space S as who: nil when it is 404 to them.
func (w *grWorld) spacePerms(t *testing.T, who user) *colSpacePerms {
	t.Helper()
	r := w.e.call(t, who.token, "GET", "/v1/spaces/"+w.s, nil)
	if r.Status == http.StatusNotFound {
		return nil
	}
	var s colSpace
	r.want(t, 200).Decode(t, &s)
	return &s.Permissions
}

var grKinds = []string{"space", "collection"}

func TestGrantsInvite(t *testing.T) {
	t.Parallel()
	for _, kind := range grKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := grSetup(t, kind)
			e := w.e
			guestAdmin := e.addUser(t, "guest", "Gary Granted")
			nobody := e.addUser(t, "guest", "Nora Nogrant")
			colGrant(t, e, kind, w.target, "admin", []string{guestAdmin.id}, nil)
			base := map[string]string{guestAdmin.id: "admin"}

			steps := []struct {
				name   string
				caller user
				body   any
				status int
				parts  []string
				users  map[string]string // wanted user grants besides base
				teams  map[string]string
			}{
				{"one user", e.admin, map[string]any{"role": "edit", "users": []string{w.guest.id}}, 204, nil,
					map[string]string{w.guest.id: "edit"}, nil},
				{"users and teams at once", e.admin, map[string]any{"role": "review", "users": []string{w.read.id, w.guest.id}, "teams": []string{w.team}}, 204, nil,
					map[string]string{w.guest.id: "review", w.read.id: "review"}, map[string]string{w.team: "review"}},
				{"teams only", e.admin, map[string]any{"role": "comment", "teams": []string{w.team}}, 204, nil,
					map[string]string{w.guest.id: "review", w.read.id: "review"}, map[string]string{w.team: "comment"}},
				{"a guest with an admin grant may invite", guestAdmin, map[string]any{"role": "read", "users": []string{w.edit.id}}, 204, nil,
					map[string]string{w.guest.id: "review", w.read.id: "review", w.edit.id: "read"}, map[string]string{w.team: "comment"}},
				{"role null removes", e.admin, map[string]any{"role": nil, "users": []string{w.read.id, w.edit.id}}, 204, nil,
					map[string]string{w.guest.id: "review"}, map[string]string{w.team: "comment"}},
				{"removing what is not granted", e.admin, map[string]any{"role": nil, "users": []string{w.create.id}}, 204, nil,
					map[string]string{w.guest.id: "review"}, map[string]string{w.team: "comment"}},
				{"no role", e.admin, map[string]any{"users": []string{w.read.id}}, 400, []string{"role"}, nil, nil},
				{"unknown role", e.admin, map[string]any{"role": "owner", "users": []string{w.read.id}}, 400, []string{"role"}, nil, nil},
				{"neither users nor teams", e.admin, map[string]any{"role": "edit"}, 400, []string{"users", "teams"}, nil, nil},
				{"empty users and teams", e.admin, map[string]any{"role": "edit", "users": []string{}, "teams": []string{}}, 400, []string{"users"}, nil, nil},
				{"users not an array", e.admin, map[string]any{"role": "edit", "users": w.read.id}, 400, []string{"users"}, nil, nil},
				{"unknown user, nothing changes", e.admin, map[string]any{"role": "edit", "users": []string{w.read.id, "nosuchuser"}, "teams": []string{w.team}}, 404, []string{"users[1]"}, nil, nil},
				{"user of another organization", e.admin, map[string]any{"role": "edit", "users": []string{w.outsider.id}}, 404, []string{"users[0]"}, nil, nil},
				{"team of another organization, nothing changes", e.admin, map[string]any{"role": "edit", "users": []string{w.read.id}, "teams": []string{w.foreignTeam}}, 404, []string{"teams[0]"}, nil, nil},
				{"unknown team", e.admin, map[string]any{"role": "edit", "teams": []string{"nosuchteam"}}, 404, []string{"teams[0]"}, nil, nil},
				{"create member", w.create, map[string]any{"role": "read", "users": []string{w.read.id}}, 403, []string{"admin"}, nil, nil},
				{"edit member", w.edit, map[string]any{"role": "read", "users": []string{w.read.id}}, 403, []string{"admin"}, nil, nil},
				{"guest without a grant", nobody, map[string]any{"role": "read", "users": []string{w.read.id}}, 404, nil, nil, nil},
				{"outsider", w.outsider, map[string]any{"role": "read", "users": []string{w.read.id}}, 404, nil, nil, nil},
			}
			wantUsers, wantTeams := map[string]string{}, map[string]string{}
			for _, st := range steps {
				r := e.call(t, st.caller.token, "POST", w.path("/permissions"), st.body)
				if st.status == 204 {
					r.want(t, 204)
					if len(r.Body) != 0 {
						t.Errorf("%s: 204 with body %q", st.name, r.Body)
					}
					wantUsers, wantTeams = map[string]string{}, map[string]string{}
					for id, role := range base {
						wantUsers[id] = role
					}
					for id, role := range st.users {
						wantUsers[id] = role
					}
					for id, role := range st.teams {
						wantTeams[id] = role
					}
				} else {
					r.wantError(t, st.status, st.parts...)
				}
				if diff := cmp.Diff(wantUsers, w.users(t)); diff != "" {
					t.Fatalf("%s: user grants (-want +got):\n%s", st.name, diff)
				}
				if diff := cmp.Diff(wantTeams, w.teams(t)); diff != "" {
					t.Fatalf("%s: team grants (-want +got):\n%s", st.name, diff)
				}
			}
			e.call(t, e.admin.token, "POST", "/v1/"+kind+"s/nosuchcontent/permissions", map[string]any{"role": "read", "users": []string{w.read.id}}).wantError(t, 404)
		})
	}
}

// TestGrantsRaiseRoles: grants to a guest, to a team and on a collection
// above decide what a guest may do with a space.
func TestGrantsRaiseRoles(t *testing.T) {
	t.Parallel()
	for _, kind := range grKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := grSetup(t, kind)
			e := w.e
			if got := w.spacePerms(t, w.guest); got != nil {
				t.Fatalf("guest without grants sees the space: %+v", got)
			}
			colGrant(t, e, kind, w.target, "review", []string{w.guest.id}, nil)
			want := colSpacePerms{Access: true, Comment: true, Edit: true, Review: true}
			if got := w.spacePerms(t, w.guest); got == nil || *got != want {
				t.Errorf("guest with a review grant on the %s: %+v, want %+v", kind, got, want)
			}
			// A weaker grant above does not lower it; a stronger one raises it.
			colGrant(t, e, "collection", w.p, "read", []string{w.guest.id}, nil)
			if got := w.spacePerms(t, w.guest); got == nil || *got != want {
				t.Errorf("after a read grant on P: %+v, want %+v", got, want)
			}
			colGrant(t, e, "collection", w.p, "admin", []string{w.guest.id}, nil)
			if got := w.spacePerms(t, w.guest); got == nil || !got.Admin {
				t.Errorf("after an admin grant on P: %+v, want admin", got)
			}
			colGrant(t, e, "collection", w.p, "", []string{w.guest.id}, nil)
			colGrant(t, e, kind, w.target, "", []string{w.guest.id}, nil)
			if got := w.spacePerms(t, w.guest); got != nil {
				t.Errorf("after removing the grants: %+v, want 404", got)
			}
			// A team's grant reaches its members.
			colGrant(t, e, kind, w.target, "comment", nil, []string{w.team})
			if got := w.spacePerms(t, w.teamGuest); got == nil || *got != (colSpacePerms{Access: true, Comment: true}) {
				t.Errorf("team member: %+v, want comment", got)
			}
			if diff := cmp.Diff([]string{w.s}, colSpaceIDs(t, e, w.teamGuest.token, colOrgPath(e, "/spaces"))); diff != "" {
				t.Errorf("team member's spaces (-want +got):\n%s", diff)
			}
			// A member's own role is a floor that grants only raise.
			colGrant(t, e, kind, w.target, "read", []string{w.edit.id}, nil)
			if got := w.spacePerms(t, w.edit); got == nil || !got.Edit {
				t.Errorf("edit member with a read grant: %+v, want edit", got)
			}
			colGrant(t, e, kind, w.target, "admin", []string{w.read.id}, nil)
			if got := w.spacePerms(t, w.read); got == nil || !got.Admin {
				t.Errorf("read member with an admin grant: %+v, want admin", got)
			}
			if kind == "collection" {
				// The collection's own flags follow the grants too.
				if got := colGet(t, e, w.read.token, w.c).Permissions; got != colAdminPerms {
					t.Errorf("read member with an admin grant on C: %+v", got)
				}
				if got := colGet(t, e, w.teamGuest.token, w.c).Permissions; got != colReadPerms {
					t.Errorf("team member on C: %+v", got)
				}
			}
		})
	}
}

func TestGrantsList(t *testing.T) {
	t.Parallel()
	for _, kind := range grKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := grSetup(t, kind)
			e := w.e
			team2 := colTeam(t, e, "Second crew", w.read.id, w.edit.id)
			// Granted one at a time, a second apart: the lists are in grant order.
			colGrant(t, e, kind, w.target, "edit", []string{w.guest.id}, nil)
			colGrant(t, e, kind, w.target, "admin", []string{w.read.id}, nil)
			colGrant(t, e, kind, w.target, "comment", []string{w.create.id}, nil)
			colGrant(t, e, kind, w.target, "review", nil, []string{team2})
			colGrant(t, e, kind, w.target, "read", nil, []string{w.team})
			colGrant(t, e, "collection", w.p, "read", []string{w.edit.id}, []string{w.team}) // above: not listed here

			var users colList[grUserPermission]
			e.call(t, w.read.token, "GET", w.path("/permissions/users"), nil).want(t, 200).Decode(t, &users)
			if users.Count != 3 || users.Next != nil || len(users.Items) != 3 {
				t.Fatalf("users: count %d, %d items, next %v", users.Count, len(users.Items), users.Next)
			}
			first := users.Items[0]
			if first.Permission != "edit" || first.User.Object != "user" || first.User.ID != w.guest.id ||
				first.User.DisplayName != "Gus Guest" || first.User.Email != w.guest.email ||
				first.User.URLs.Location != testPublicURL+"/v1/users/"+w.guest.id {
				t.Errorf("first user grant %+v", first)
			}
			wantUsers := []string{w.guest.id + " edit", w.read.id + " admin", w.create.id + " comment"}
			for _, limit := range []int{1, 2, 3, 1000} {
				var got []string
				for _, g := range colAll[grUserPermission](t, e, w.guest.token, w.path("/permissions/users"), limit) {
					got = append(got, g.User.ID+" "+g.Permission)
				}
				if diff := cmp.Diff(wantUsers, got); diff != "" {
					t.Errorf("users, limit %d (-want +got):\n%s", limit, diff)
				}
			}

			var teams colList[grTeamPermission]
			e.call(t, w.edit.token, "GET", w.path("/permissions/teams"), nil).want(t, 200).Decode(t, &teams)
			if teams.Count != 2 || len(teams.Items) != 2 {
				t.Fatalf("teams: count %d, %d items", teams.Count, len(teams.Items))
			}
			t0 := teams.Items[0]
			if t0.Permission != "review" || t0.Team.Object != "team" || t0.Team.ID != team2 || t0.Team.Title != "Second crew" ||
				t0.Team.Members != 2 || t0.Team.Spaces != 1 {
				t.Errorf("first team grant %+v", t0)
			}
			wantTeams := []string{team2 + " review", w.team + " read"}
			for _, limit := range []int{1, 1000} {
				var got []string
				for _, g := range colAll[grTeamPermission](t, e, w.teamGuest.token, w.path("/permissions/teams"), limit) {
					got = append(got, g.Team.ID+" "+g.Permission)
				}
				if diff := cmp.Diff(wantTeams, got); diff != "" {
					t.Errorf("teams, limit %d (-want +got):\n%s", limit, diff)
				}
			}
			// Changing a role keeps the grant's place.
			colGrant(t, e, kind, w.target, "read", []string{w.guest.id}, nil)
			if got := w.users(t); got[w.guest.id] != "read" {
				t.Errorf("after regranting: %v", got)
			}
			var ids []string
			for _, g := range colAll[grUserPermission](t, e, e.admin.token, w.path("/permissions/users"), 1000) {
				ids = append(ids, g.User.ID)
			}
			if diff := cmp.Diff([]string{w.guest.id, w.read.id, w.create.id}, ids); diff != "" {
				t.Errorf("order after regranting (-want +got):\n%s", diff)
			}

			for _, path := range []string{"/permissions/users", "/permissions/teams"} {
				e.call(t, w.outsider.token, "GET", w.path(path), nil).wantError(t, 404)
				e.call(t, e.admin.token, "GET", w.path(path+"?limit=0"), nil).wantError(t, 400, "limit")
				e.call(t, e.admin.token, "GET", w.path(path+"?page=x"), nil).wantError(t, 400)
				e.call(t, e.admin.token, "GET", "/v1/"+kind+"s/nosuchcontent"+path, nil).wantError(t, 404)
			}
			guest2 := e.addUser(t, "guest", "Nora Nogrant")
			e.call(t, guest2.token, "GET", w.path("/permissions/users"), nil).wantError(t, 404)
		})
	}
}

func TestGrantsAggregate(t *testing.T) {
	t.Parallel()
	for _, kind := range grKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := grSetup(t, kind)
			e := w.e
			teamReader := e.addUser(t, "read", "Theo Team")
			aboveReader := e.addUser(t, "read", "Abe Above")
			aboveGuest := e.addUser(t, "guest", "Ava Above")
			plainGuest := e.addUser(t, "guest", "Nora Nogrant")
			e.call(t, e.admin.token, "PUT", colOrgPath(e, "/teams/"+w.team+"/members/"+teamReader.id), map[string]any{}).want(t, 204)
			colGrant(t, e, kind, w.target, "edit", []string{w.guest.id}, nil)
			colGrant(t, e, kind, w.target, "review", nil, []string{w.team})
			colGrant(t, e, "collection", w.p, "create", []string{aboveReader.id}, nil)
			colGrant(t, e, "collection", w.p, "read", []string{aboveGuest.id}, nil)
			colGrant(t, e, kind, w.target, "read", []string{w.edit.id}, nil) // below their org role
			e.call(t, e.admin.token, "PATCH", "/v1/collections/"+w.p, map[string]any{"defaultLevel": "comment"}).want(t, 200)

			want := map[string]string{
				e.admin.id:     "admin",
				w.create.id:    "create",
				w.edit.id:      "edit",
				w.read.id:      "comment", // P's default level, inherited
				teamReader.id:  "review",  // the team's grant
				aboveReader.id: "create",  // a grant on P
				w.guest.id:     "edit",
				w.teamGuest.id: "review",
				aboveGuest.id:  "read",
				// plainGuest, a guest without grants, is not listed.
			}
			for _, limit := range []int{1, 4, 1000} {
				if diff := cmp.Diff(want, w.aggregate(t, w.read.token, "", limit)); diff != "" {
					t.Errorf("aggregate, limit %d (-want +got):\n%s", limit, diff)
				}
			}
			for _, role := range []string{"admin", "create", "review", "edit", "comment", "read"} {
				only := map[string]string{}
				for id, r := range want {
					if r == role {
						only[id] = r
					}
				}
				for _, limit := range []int{1, 1000} {
					if diff := cmp.Diff(only, w.aggregate(t, w.guest.token, "?role="+role, limit)); diff != "" {
						t.Errorf("aggregate role=%s limit %d (-want +got):\n%s", role, limit, diff)
					}
				}
			}
			var first colList[grUserPermission]
			e.call(t, e.admin.token, "GET", w.path("/permissions/aggregate?limit=1"), nil).want(t, 200).Decode(t, &first)
			if first.Count != len(want) || len(first.Items) != 1 || first.Next == nil || first.Items[0].User.Object != "user" {
				t.Errorf("first page of one: count %d, items %+v, next %v", first.Count, first.Items, first.Next)
			}
			// Without P's default level, the reader is back to read; without
			// the guest's grant, the guest is gone.
			e.call(t, e.admin.token, "PATCH", "/v1/collections/"+w.p, map[string]any{"defaultLevel": nil}).want(t, 200)
			e.call(t, e.admin.token, "DELETE", w.path("/permissions/users/"+w.guest.id), nil).want(t, 204)
			want[w.read.id] = "read"
			delete(want, w.guest.id)
			if diff := cmp.Diff(want, w.aggregate(t, e.admin.token, "", 1000)); diff != "" {
				t.Errorf("aggregate after changes (-want +got):\n%s", diff)
			}
			// The content's own default level counts for members.
			if kind == "space" {
				e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+w.s, map[string]any{"defaultLevel": "edit"}).want(t, 200)
			} else {
				e.call(t, e.admin.token, "PATCH", "/v1/collections/"+w.c, map[string]any{"defaultLevel": "edit"}).want(t, 200)
			}
			want[w.read.id] = "edit"
			if diff := cmp.Diff(want, w.aggregate(t, e.admin.token, "", 1000)); diff != "" {
				t.Errorf("aggregate with defaultLevel edit (-want +got):\n%s", diff)
			}

			e.call(t, e.admin.token, "GET", w.path("/permissions/aggregate?role=owner"), nil).wantError(t, 400, "role")
			e.call(t, e.admin.token, "GET", w.path("/permissions/aggregate?role="), nil).wantError(t, 400, "role")
			e.call(t, e.admin.token, "GET", w.path("/permissions/aggregate?limit=1001"), nil).wantError(t, 400, "limit")
			e.call(t, plainGuest.token, "GET", w.path("/permissions/aggregate"), nil).wantError(t, 404)
			e.call(t, w.outsider.token, "GET", w.path("/permissions/aggregate"), nil).wantError(t, 404)
		})
	}
}

func TestGrantsUpdateAndRemove(t *testing.T) {
	t.Parallel()
	for _, kind := range grKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := grSetup(t, kind)
			e := w.e
			nobody := e.addUser(t, "guest", "Nora Nogrant")
			userPath := func(id string) string { return w.path("/permissions/users/" + id) }
			teamPath := func(id string) string { return w.path("/permissions/teams/" + id) }

			steps := []struct {
				name         string
				caller       user
				method, path string
				body         any
				status       int
				parts        []string
				users, teams map[string]string // wanted grants after the step
				guestSpace   bool              // whether the guest then sees the space
			}{
				{"PATCH grants to a guest without one", e.admin, "PATCH", userPath(w.guest.id), map[string]any{"role": "comment"}, 204, nil,
					map[string]string{w.guest.id: "comment"}, map[string]string{}, true},
				{"PATCH changes the role", e.admin, "PATCH", userPath(w.guest.id), map[string]any{"role": "admin"}, 204, nil,
					map[string]string{w.guest.id: "admin"}, map[string]string{}, true},
				{"PATCH a team", e.admin, "PATCH", teamPath(w.team), map[string]any{"role": "edit"}, 204, nil,
					map[string]string{w.guest.id: "admin"}, map[string]string{w.team: "edit"}, true},
				{"PATCH a team's role", e.admin, "PATCH", teamPath(w.team), map[string]any{"role": "read"}, 204, nil,
					map[string]string{w.guest.id: "admin"}, map[string]string{w.team: "read"}, true},
				{"the granted guest is an admin of the content", w.guest, "PATCH", userPath(w.read.id), map[string]any{"role": "create"}, 204, nil,
					map[string]string{w.guest.id: "admin", w.read.id: "create"}, map[string]string{w.team: "read"}, true},
				{"PATCH without role", e.admin, "PATCH", userPath(w.guest.id), map[string]any{}, 400, []string{"role"},
					nil, nil, true},
				{"PATCH an unknown role", e.admin, "PATCH", userPath(w.guest.id), map[string]any{"role": "nope"}, 400, []string{"role"},
					nil, nil, true},
				{"PATCH an unknown user", e.admin, "PATCH", userPath("nosuchuser"), map[string]any{"role": "read"}, 404, nil,
					nil, nil, true},
				{"PATCH a user of another organization", e.admin, "PATCH", userPath(w.outsider.id), map[string]any{"role": "read"}, 404, nil,
					nil, nil, true},
				{"PATCH a team of another organization", e.admin, "PATCH", teamPath(w.foreignTeam), map[string]any{"role": "read"}, 404, nil,
					nil, nil, true},
				{"PATCH by an edit member", w.edit, "PATCH", userPath(w.guest.id), map[string]any{"role": "read"}, 403, []string{"admin"},
					nil, nil, true},
				{"PATCH by a guest without a grant", nobody, "PATCH", userPath(w.guest.id), nil, 404, nil,
					nil, nil, true},
				{"PATCH by an outsider", w.outsider, "PATCH", teamPath(w.team), map[string]any{"role": "read"}, 404, nil,
					nil, nil, true},
				{"DELETE by a create member", w.create, "DELETE", userPath(w.guest.id), nil, 403, []string{"admin"},
					nil, nil, true},
				{"DELETE by an outsider", w.outsider, "DELETE", userPath(w.guest.id), nil, 404, nil,
					nil, nil, true},
				{"PATCH null removes a team", e.admin, "PATCH", teamPath(w.team), map[string]any{"role": nil}, 204, nil,
					map[string]string{w.guest.id: "admin", w.read.id: "create"}, map[string]string{}, true},
				{"PATCH null removes a user", e.admin, "PATCH", userPath(w.read.id), map[string]any{"role": nil}, 204, nil,
					map[string]string{w.guest.id: "admin"}, map[string]string{}, true},
				{"DELETE a user", e.admin, "DELETE", userPath(w.guest.id), nil, 204, nil,
					map[string]string{}, map[string]string{}, false},
				{"DELETE again", e.admin, "DELETE", userPath(w.guest.id), nil, 204, nil,
					map[string]string{}, map[string]string{}, false},
				{"DELETE an unknown user", e.admin, "DELETE", userPath("nosuchuser"), nil, 204, nil,
					map[string]string{}, map[string]string{}, false},
				{"PATCH a team again", e.admin, "PATCH", teamPath(w.team), map[string]any{"role": "review"}, 204, nil,
					map[string]string{}, map[string]string{w.team: "review"}, false},
				{"DELETE a team", e.admin, "DELETE", teamPath(w.team), nil, 204, nil,
					map[string]string{}, map[string]string{}, false},
				{"DELETE a team again", e.admin, "DELETE", teamPath(w.team), nil, 204, nil,
					map[string]string{}, map[string]string{}, false},
			}
			users, teams := map[string]string{}, map[string]string{}
			for _, st := range steps {
				r := e.call(t, st.caller.token, st.method, st.path, st.body)
				if st.status != 204 {
					r.wantError(t, st.status, st.parts...)
				} else {
					r.want(t, 204)
					if len(r.Body) != 0 {
						t.Errorf("%s: 204 with body %q", st.name, r.Body)
					}
					users, teams = st.users, st.teams
				}
				if diff := cmp.Diff(users, w.users(t)); diff != "" {
					t.Fatalf("%s: user grants (-want +got):\n%s", st.name, diff)
				}
				if diff := cmp.Diff(teams, w.teams(t)); diff != "" {
					t.Fatalf("%s: team grants (-want +got):\n%s", st.name, diff)
				}
				if sees := w.spacePerms(t, w.guest) != nil; sees != st.guestSpace {
					t.Fatalf("%s: guest sees the space: %v, want %v", st.name, sees, st.guestSpace)
				}
			}
		})
	}
}

// TestGrantsOfLeavers: grants belong to the organization's members and
// teams. A deleted team's grants go with it, and so do the grants of a
// member who leaves: coming back does not bring them back.
func TestGrantsOfLeavers(t *testing.T) {
	t.Parallel()
	for _, kind := range grKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := grSetup(t, kind)
			e := w.e
			team2 := colTeam(t, e, "Short-lived", w.guest.id)
			colGrant(t, e, kind, w.target, "edit", []string{w.guest.id, w.read.id}, []string{w.team, team2})
			e.call(t, e.admin.token, "DELETE", colOrgPath(e, "/teams/"+team2), nil).want(t, 204)
			if diff := cmp.Diff(map[string]string{w.team: "edit"}, w.teams(t)); diff != "" {
				t.Errorf("team grants after deleting a team (-want +got):\n%s", diff)
			}

			e.call(t, e.admin.token, "DELETE", colOrgPath(e, "/members/"+w.guest.id), nil).want(t, 204)
			if diff := cmp.Diff(map[string]string{w.read.id: "edit"}, w.users(t)); diff != "" {
				t.Errorf("user grants after the guest left (-want +got):\n%s", diff)
			}
			agg := w.aggregate(t, e.admin.token, "", 1000)
			if _, ok := agg[w.guest.id]; ok {
				t.Errorf("aggregate lists the guest who left: %v", agg)
			}
			// Invited again, the guest starts with nothing.
			if _, err := e.db.AddUser(t.Context(), e.org, w.guest.email, "Gus Guest", ""); err != nil {
				t.Fatal(err)
			}
			if got := w.spacePerms(t, w.guest); got != nil {
				t.Errorf("the guest who came back sees the space: %+v", got)
			}
			if got := w.users(t); got[w.guest.id] != "" {
				t.Errorf("the guest who came back has grants again: %v", got)
			}
		})
	}
}
