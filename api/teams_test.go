package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Contract §4.14 Teams, end to end through the real router. Identifiers
// declared here start with "teams" so they cannot clash with other test files
// of the package.

// teamsTeam is a team as the API answers it.
type teamsTeam struct {
	Object      string     `json:"object"`
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	Members     int        `json:"members"`
	Spaces      int        `json:"spaces"`
	CreatedAt   string     `json:"createdAt"`
	Permissions teamsPerms `json:"permissions"`
}

type teamsPerms struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// teamsList is a list envelope.
type teamsList[T any] struct {
	Items []T `json:"items"`
	Count int `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

// teamsMemberItem is one item of GET O/teams/{teamId}/members.
type teamsMemberItem struct {
	Organization struct {
		Object string  `json:"object"`
		ID     string  `json:"id"`
		Role   *string `json:"role"`
		User   struct {
			ID    string `json:"id"`
			Email string `json:"email"`
		} `json:"user"`
		Teams int `json:"teams"`
	} `json:"organization"`
	Team struct {
		Role string `json:"role"`
	} `json:"team"`
	Permissions struct {
		View bool `json:"view"`
	} `json:"permissions"`
}

// teamsMemberTeam is one item of GET O/members/{userId}/teams.
type teamsMemberTeam struct {
	Team   teamsTeam `json:"team"`
	Member struct {
		Role string `json:"role"`
	} `json:"member"`
}

// teamsClock makes e's store clock start at start and move on by step at
// each reading, so creation order is also time order (step 0 stops it).
func teamsClock(e *env, start time.Time, step time.Duration) {
	var n atomic.Int64
	e.db.Now = func() time.Time { return start.Add(time.Duration(n.Add(1)-1) * step) }
}

// teamsURL is the path of the env organization's teams, with more segments.
func teamsURL(e *env, rest ...string) string {
	return "/v1/orgs/" + e.org + "/teams" + strings.Join(rest, "")
}

// teamsCreate creates a team as the admin.
func teamsCreate(t *testing.T, e *env, title string, members ...string) teamsTeam {
	t.Helper()
	body := map[string]any{"title": title}
	if members != nil {
		body["members"] = members
	}
	var team teamsTeam
	e.call(t, e.admin.token, "PUT", teamsURL(e), body).want(t, http.StatusCreated).Decode(t, &team)
	return team
}

// teamsGet reads a team as token's holder.
func teamsGet(t *testing.T, e *env, token, teamID string) teamsTeam {
	t.Helper()
	var team teamsTeam
	e.call(t, token, "GET", teamsURL(e, "/", teamID), nil).want(t, http.StatusOK).Decode(t, &team)
	return team
}

// teamsSetRoles sets team roles as the admin (user id → owner or member).
func teamsSetRoles(t *testing.T, e *env, teamID string, roles map[string]string) {
	t.Helper()
	if len(roles) == 0 {
		return
	}
	m := map[string]any{}
	for id, role := range roles {
		m[id] = map[string]string{"role": role}
	}
	teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", teamID, "/members"), map[string]any{"memberships": m}))
}

// teamsRoles returns a team's members (user id → team role) as the admin
// lists them, and checks that the list's count and the team's members count
// agree with it.
func teamsRoles(t *testing.T, e *env, teamID string) map[string]string {
	t.Helper()
	var list teamsList[teamsMemberItem]
	e.call(t, e.admin.token, "GET", teamsURL(e, "/", teamID, "/members?limit=1000"), nil).want(t, http.StatusOK).Decode(t, &list)
	roles := map[string]string{}
	for _, it := range list.Items {
		roles[it.Organization.ID] = it.Team.Role
	}
	if list.Count != len(list.Items) || len(roles) != len(list.Items) {
		t.Errorf("team members: count %d, %d items, %d distinct users", list.Count, len(list.Items), len(roles))
	}
	if got := teamsGet(t, e, e.admin.token, teamID).Members; got != len(roles) {
		t.Errorf("team members count %d, but %d members are listed", got, len(roles))
	}
	return roles
}

// teamsMemberTeamsCount is the teams count of GET O/members/{userId}.
func teamsMemberTeamsCount(t *testing.T, e *env, userID string) int {
	t.Helper()
	var m struct {
		Teams int `json:"teams"`
	}
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+userID, nil).want(t, http.StatusOK).Decode(t, &m)
	return m.Teams
}

// teamsNoContent checks a 204 answer with an empty body.
func teamsNoContent(t *testing.T, r *response) {
	t.Helper()
	r.want(t, http.StatusNoContent)
	if len(r.Body) != 0 {
		t.Errorf("204 with body %q", r.Body)
	}
}

// teamsWalk fetches every page of a list with the given limit and returns the
// keys of the items in order. It checks that every page has the same count,
// at most limit items, a next page exactly when it is not the last, and
// that the pages together hold count distinct items.
func teamsWalk[T any](t *testing.T, e *env, token, path string, limit int, key func(T) string) []string {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var keys []string
	count := -1
	page := ""
	for i := 0; ; i++ {
		if i > 1000 {
			t.Fatalf("%s: more than 1000 pages", path)
		}
		q := fmt.Sprintf("%s%slimit=%d", path, sep, limit)
		if page != "" {
			q += "&page=" + url.QueryEscape(page)
		}
		var list teamsList[T]
		e.call(t, token, "GET", q, nil).want(t, http.StatusOK).Decode(t, &list)
		if count == -1 {
			count = list.Count
		} else if list.Count != count {
			t.Errorf("%s page %d: count %d, first page said %d", path, i, list.Count, count)
		}
		if len(list.Items) > limit {
			t.Errorf("%s page %d: %d items, limit %d", path, i, len(list.Items), limit)
		}
		for _, it := range list.Items {
			keys = append(keys, key(it))
		}
		if list.Next == nil {
			break
		}
		if len(list.Items) == 0 {
			t.Fatalf("%s page %d: empty page with a next page", path, i)
		}
		page = list.Next.Page
	}
	if len(keys) != count {
		t.Errorf("%s limit %d: %d items over all pages, count %d", path, limit, len(keys), count)
	}
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			t.Errorf("%s limit %d: %s listed twice", path, limit, k)
		}
		seen[k] = true
	}
	return keys
}

func teamID(t teamsTeam) string              { return t.ID }
func teamTitle(t teamsTeam) string           { return t.Title }
func teamMemberID(it teamsMemberItem) string { return it.Organization.ID }

// teamsOtherOrg creates a second organization and returns its id and its
// admin, who is an outsider to e's organization.
func teamsOtherOrg(t *testing.T, e *env) (string, user) {
	t.Helper()
	b, err := e.db.InitOrganization(t.Context(), "Other Org", uniqueEmail("other"), "Olga Other")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	return b.Organization.ID, user{id: b.User.ID, email: b.User.Email, token: b.Token}
}

func TestCreateTeam(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	created := time.Date(2025, 3, 4, 5, 6, 7, 890_000_000, time.UTC)
	teamsClock(e, created, 0)
	ann := e.addUser(t, "edit", "Ann")
	bob := e.addUser(t, "read", "Bob")

	tests := []struct {
		name        string
		body        any
		wantTitle   string
		wantMembers []string
	}{
		{"title only", map[string]any{"title": "Docs"}, "Docs", nil},
		{"one character", map[string]any{"title": "x"}, "x", nil},
		{"64 characters, not ASCII", map[string]any{"title": strings.Repeat("é", 64)}, strings.Repeat("é", 64), nil},
		{"empty members", map[string]any{"title": "Nobody", "members": []string{}}, "Nobody", nil},
		{"with members", map[string]any{"title": "Writers", "members": []string{ann.id, bob.id}}, "Writers", []string{ann.id, bob.id}},
		{"a member named twice counts once", map[string]any{"title": "Twice", "members": []string{ann.id, ann.id}}, "Twice", []string{ann.id}},
		{"the admin as a member", map[string]any{"title": "Admins", "members": []string{e.admin.id}}, "Admins", []string{e.admin.id}},
		{"unknown fields are ignored", map[string]any{"title": "Extra", "color": "red"}, "Extra", nil},
	}
	var ids []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.call(t, e.admin.token, "PUT", teamsURL(e), tt.body).want(t, http.StatusCreated)
			var got teamsTeam
			r.Decode(t, &got)
			want := teamsTeam{
				Object: "team", ID: got.ID, Title: tt.wantTitle, Members: len(tt.wantMembers), Spaces: 0,
				CreatedAt:   "2025-03-04T05:06:07.890Z",
				Permissions: teamsPerms{Admin: true, View: true},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("created team (-want +got):\n%s", diff)
			}
			if got.ID == "" || slices.Contains(ids, got.ID) {
				t.Errorf("team id %q is empty or reused", got.ID)
			}
			ids = append(ids, got.ID)
			loc := r.Header.Get("Location")
			if want := testPublicURL + teamsURL(e, "/", got.ID); loc != want {
				t.Fatalf("Location %q, want %q", loc, want)
			}
			if diff := cmp.Diff(want, teamsGet(t, e, e.admin.token, got.ID)); diff != "" {
				t.Errorf("GET Location (-want +got):\n%s", diff)
			}
			wantRoles := map[string]string{}
			for _, id := range tt.wantMembers {
				wantRoles[id] = "member"
			}
			if diff := cmp.Diff(wantRoles, teamsRoles(t, e, got.ID)); diff != "" {
				t.Errorf("members (-want +got):\n%s", diff)
			}
		})
	}
	var list teamsList[teamsTeam]
	e.call(t, e.admin.token, "GET", teamsURL(e), nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != len(tests) {
		t.Errorf("%d teams listed, want %d", list.Count, len(tests))
	}
	// Ann is in Writers and Twice; Bob in Writers.
	if got := teamsMemberTeamsCount(t, e, ann.id); got != 2 {
		t.Errorf("Ann is in %d teams, want 2", got)
	}
	if got := teamsMemberTeamsCount(t, e, bob.id); got != 1 {
		t.Errorf("Bob is in %d teams, want 1", got)
	}
}

func TestCreateTeamInvalid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.addUser(t, "edit", "Ann")
	out := e.outsider(t)

	tests := []struct {
		name   string
		body   any
		status int
		parts  []string
	}{
		{"no body", nil, http.StatusBadRequest, []string{"title"}},
		{"no title", map[string]any{"members": []string{ann.id}}, http.StatusBadRequest, []string{"title"}},
		{"null title", map[string]any{"title": nil}, http.StatusBadRequest, []string{"title"}},
		{"empty title", map[string]any{"title": ""}, http.StatusBadRequest, []string{"title"}},
		{"65 characters", map[string]any{"title": strings.Repeat("a", 65)}, http.StatusBadRequest, []string{"title"}},
		{"65 characters, not ASCII", map[string]any{"title": strings.Repeat("é", 65)}, http.StatusBadRequest, []string{"title"}},
		{"title not a string", map[string]any{"title": 7}, http.StatusBadRequest, []string{"title"}},
		{"members not an array", map[string]any{"title": "T", "members": ann.id}, http.StatusBadRequest, []string{"members"}},
		{"member not a string", map[string]any{"title": "T", "members": []any{1}}, http.StatusBadRequest, []string{"members"}},
		{"unknown member", map[string]any{"title": "T", "members": []string{"nobody"}}, http.StatusBadRequest, []string{"members[0]", "nobody"}},
		{"member of another organization after a good one", map[string]any{"title": "T", "members": []string{ann.id, out.id}}, http.StatusBadRequest, []string{"members[1]", out.id}},
		{"malformed JSON", `{"title": "T"`, http.StatusBadRequest, []string{"body"}},
		{"not an object", `["T"]`, http.StatusBadRequest, []string{"body"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.call(t, e.admin.token, "PUT", teamsURL(e), tt.body).wantError(t, tt.status, tt.parts...)
		})
	}
	t.Run("not JSON", func(t *testing.T) {
		req := newTeamsRequest(t, e.admin.token, "PUT", teamsURL(e), "title=T", "text/plain")
		e.do(t, req).wantError(t, http.StatusUnsupportedMediaType)
	})

	// Nothing was created, not even by the request that failed on its second member.
	var list teamsList[teamsTeam]
	e.call(t, e.admin.token, "GET", teamsURL(e), nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 0 || len(list.Items) != 0 {
		t.Errorf("failed creates left %d teams: %+v", list.Count, list.Items)
	}
	if got := teamsMemberTeamsCount(t, e, ann.id); got != 0 {
		t.Errorf("Ann is in %d teams after failed creates, want 0", got)
	}
}

// newTeamsRequest builds a request with a raw body and content type.
func newTeamsRequest(t *testing.T, token, method, path, body, contentType string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

func TestCreateTeamForbidden(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := e.addUser(t, "create", "Owen")
	team := teamsCreate(t, e, "Owned")
	teamsSetRoles(t, e, team.ID, map[string]string{owner.id: "owner"})

	tests := []struct {
		name   string
		token  string
		status int
	}{
		{"create", e.addUser(t, "create", "Cy").token, http.StatusForbidden},
		{"review", e.addUser(t, "review", "Rae").token, http.StatusForbidden},
		{"edit", e.addUser(t, "edit", "Ed").token, http.StatusForbidden},
		{"comment", e.addUser(t, "comment", "Cam").token, http.StatusForbidden},
		{"read", e.addUser(t, "read", "Reed").token, http.StatusForbidden},
		{"guest", e.addUser(t, "guest", "Gus").token, http.StatusForbidden},
		{"team owner", owner.token, http.StatusForbidden},
		{"outsider", e.outsider(t).token, http.StatusNotFound},
		{"no token", "", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.call(t, tt.token, "PUT", teamsURL(e), map[string]any{"title": "Sneaky"}).wantError(t, tt.status)
		})
	}
	got := teamsWalk(t, e, e.admin.token, teamsURL(e), 1000, teamTitle)
	if diff := cmp.Diff([]string{"Owned"}, got); diff != "" {
		t.Errorf("teams (-want +got):\n%s", diff)
	}
}

func TestGetTeam(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	created := time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC)
	teamsClock(e, created, 0)
	owner := e.addUser(t, "read", "Owen")
	member := e.addUser(t, "edit", "Mia")
	other := e.addUser(t, "admin", "Ada Two")
	bystander := e.addUser(t, "comment", "Bea")
	guest := e.addUser(t, "guest", "Gus")
	team := teamsCreate(t, e, "Platform", member.id)
	teamsSetRoles(t, e, team.ID, map[string]string{owner.id: "owner"})

	tests := []struct {
		name      string
		token     string
		wantAdmin bool
	}{
		{"org admin outside the team", e.admin.token, true},
		{"another org admin", other.token, true},
		{"team owner with role read", owner.token, true},
		{"team member", member.token, false},
		{"member not in the team", bystander.token, false},
		{"guest", guest.token, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := teamsTeam{
				Object: "team", ID: team.ID, Title: "Platform", Members: 2, Spaces: 0,
				CreatedAt: "2024-12-31T23:59:59.000Z", Permissions: teamsPerms{Admin: tt.wantAdmin, View: true},
			}
			if diff := cmp.Diff(want, teamsGet(t, e, tt.token, team.ID)); diff != "" {
				t.Errorf("team (-want +got):\n%s", diff)
			}
		})
	}

	otherOrg, otherAdmin := teamsOtherOrg(t, e)
	var foreign teamsTeam
	e.call(t, otherAdmin.token, "PUT", "/v1/orgs/"+otherOrg+"/teams", map[string]any{"title": "Foreign"}).
		want(t, http.StatusCreated).Decode(t, &foreign)

	notFound := []struct {
		name, token, path string
		status            int
	}{
		{"unknown team", e.admin.token, teamsURL(e, "/nosuchteam"), http.StatusNotFound},
		{"team of another organization", e.admin.token, teamsURL(e, "/", foreign.ID), http.StatusNotFound},
		{"outsider", otherAdmin.token, teamsURL(e, "/", team.ID), http.StatusNotFound},
		{"outsider through their own organization", otherAdmin.token, "/v1/orgs/" + otherOrg + "/teams/" + team.ID, http.StatusNotFound},
		{"unknown organization", e.admin.token, "/v1/orgs/nosuchorg/teams/" + team.ID, http.StatusNotFound},
		{"no token", "", teamsURL(e, "/", team.ID), http.StatusUnauthorized},
	}
	for _, tt := range notFound {
		t.Run(tt.name, func(t *testing.T) {
			e.call(t, tt.token, "GET", tt.path, nil).wantError(t, tt.status)
		})
	}
}

func TestListTeams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	teamsClock(e, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Second)
	owner := e.addUser(t, "edit", "Owen")
	member := e.addUser(t, "read", "Mia")
	loner := e.addUser(t, "comment", "Lou")
	guest := e.addUser(t, "guest", "Gus")
	admin2 := e.addUser(t, "admin", "Ada Two")

	titles := []string{"Docs Writers", "API Reviewers", "docs-infra", "50% Club", "500 Club", "snake_case", "Équipe Ünïcode"}
	byTitle := map[string]string{}
	for _, title := range titles {
		byTitle[title] = teamsCreate(t, e, title).ID
	}
	// Owen owns Docs Writers and API Reviewers and is a plain member of
	// docs-infra; Mia is a plain member of Docs Writers.
	teamsSetRoles(t, e, byTitle["Docs Writers"], map[string]string{owner.id: "owner", member.id: "member"})
	teamsSetRoles(t, e, byTitle["API Reviewers"], map[string]string{owner.id: "owner"})
	teamsSetRoles(t, e, byTitle["docs-infra"], map[string]string{owner.id: "member"})

	tests := []struct {
		name  string
		query string
		want  []string
	}{
		{"all, oldest first", "", titles},
		{"title contains", "?title=docs", []string{"Docs Writers", "docs-infra"}},
		{"title is case-insensitive", "?title=DOCS", []string{"Docs Writers", "docs-infra"}},
		{"title in the middle", "?title=Review", []string{"API Reviewers"}},
		{"title with a space", "?title=" + url.QueryEscape("s w"), []string{"Docs Writers"}},
		{"percent sign is literal", "?title=" + url.QueryEscape("%"), []string{"50% Club"}},
		{"underscore is literal", "?title=_", []string{"snake_case"}},
		{"title, not ASCII", "?title=" + url.QueryEscape("Équipe"), []string{"Équipe Ünïcode"}},
		{"title, not ASCII, other case", "?title=" + url.QueryEscape("éQUIPE üNÏ"), []string{"Équipe Ünïcode"}},
		{"no title matches", "?title=zzz", []string{}},
		{"empty title filter", "?title=", titles},
		{"owner: an org admin manages all", "?owner=" + admin2.id, titles},
		{"owner: the caller", "?owner=" + e.admin.id, titles},
		{"owner: team owner", "?owner=" + owner.id, []string{"Docs Writers", "API Reviewers"}},
		{"owner: plain member manages none", "?owner=" + member.id, []string{}},
		{"owner: member of no team", "?owner=" + loner.id, []string{}},
		{"owner and title", "?owner=" + owner.id + "&title=api", []string{"API Reviewers"}},
		{"owner and title matching none", "?owner=" + owner.id + "&title=infra", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var list teamsList[teamsTeam]
			e.call(t, e.admin.token, "GET", teamsURL(e, tt.query), nil).want(t, http.StatusOK).Decode(t, &list)
			got := []string{}
			for _, team := range list.Items {
				got = append(got, team.Title)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
			if list.Count != len(tt.want) || list.Next != nil {
				t.Errorf("count %d, next %v; want %d and none", list.Count, list.Next, len(tt.want))
			}
		})
	}

	bad := []struct {
		name, query string
		parts       []string
	}{
		{"owner unknown", "?owner=nobody", []string{"owner"}},
		{"owner empty", "?owner=", []string{"owner"}},
		{"owner of another organization", "?owner=" + e.outsider(t).id, []string{"owner"}},
		{"limit 0", "?limit=0", []string{"limit"}},
		{"limit over 1000", "?limit=1001", []string{"limit"}},
		{"limit not a number", "?limit=ten", []string{"limit"}},
		{"page not a token", "?page=nonsense", []string{"page"}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			e.call(t, e.admin.token, "GET", teamsURL(e, tt.query), nil).wantError(t, http.StatusBadRequest, tt.parts...)
		})
	}

	// permissions.admin in a list follows the caller: org admins manage
	// every team, team owners theirs, everyone else none.
	callers := []struct {
		name      string
		token     string
		wantAdmin []string
	}{
		{"org admin", e.admin.token, titles},
		{"team owner", owner.token, []string{"Docs Writers", "API Reviewers"}},
		{"team member", member.token, []string{}},
		{"member of no team", loner.token, []string{}},
		{"guest", guest.token, []string{}},
	}
	for _, tt := range callers {
		t.Run("as "+tt.name, func(t *testing.T) {
			var list teamsList[teamsTeam]
			e.call(t, tt.token, "GET", teamsURL(e, "?limit=1000"), nil).want(t, http.StatusOK).Decode(t, &list)
			got := []string{}
			for _, team := range list.Items {
				if !team.Permissions.View {
					t.Errorf("%s: permissions.view false", team.Title)
				}
				if team.Permissions.Admin {
					got = append(got, team.Title)
				}
			}
			if diff := cmp.Diff(tt.wantAdmin, got); diff != "" {
				t.Errorf("teams with permissions.admin (-want +got):\n%s", diff)
			}
			if list.Count != len(titles) {
				t.Errorf("count %d, want %d", list.Count, len(titles))
			}
		})
	}

	t.Run("members counts", func(t *testing.T) {
		var list teamsList[teamsTeam]
		e.call(t, e.admin.token, "GET", teamsURL(e), nil).want(t, http.StatusOK).Decode(t, &list)
		got := map[string]int{}
		for _, team := range list.Items {
			got[team.Title] = team.Members
		}
		want := map[string]int{"Docs Writers": 2, "API Reviewers": 1, "docs-infra": 1, "50% Club": 0, "500 Club": 0, "snake_case": 0, "Équipe Ünïcode": 0}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("members counts (-want +got):\n%s", diff)
		}
	})

	t.Run("outsider", func(t *testing.T) {
		e.call(t, e.outsider(t).token, "GET", teamsURL(e), nil).wantError(t, http.StatusNotFound)
	})
	t.Run("no token", func(t *testing.T) {
		e.call(t, "", "GET", teamsURL(e), nil).wantError(t, http.StatusUnauthorized)
	})
}

func TestTeamsPagination(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	teamsClock(e, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), time.Second)
	owner := e.addUser(t, "edit", "Owen")

	// Seven teams titled "Squad n" and one more, created in this order.
	var squads, all []string
	for i := 1; i <= 7; i++ {
		id := teamsCreate(t, e, fmt.Sprintf("Squad %d", i)).ID
		squads = append(squads, id)
		all = append(all, id)
		if i%2 == 1 {
			teamsSetRoles(t, e, id, map[string]string{owner.id: "owner"})
		}
	}
	all = append(all, teamsCreate(t, e, "Lone wolf").ID)
	owned := []string{squads[0], squads[2], squads[4], squads[6]}

	lists := []struct {
		name, path string
		want       []string
	}{
		{"all teams", teamsURL(e), all},
		{"title filter", teamsURL(e, "?title=squad"), squads},
		{"owner filter", teamsURL(e, "?owner="+owner.id), owned},
	}
	for _, l := range lists {
		for _, limit := range []int{1, 2, 3, len(l.want) - 1, len(l.want), len(l.want) + 1, 1000} {
			t.Run(fmt.Sprintf("%s limit %d", l.name, limit), func(t *testing.T) {
				got := teamsWalk(t, e, e.admin.token, l.path, limit, teamID)
				if diff := cmp.Diff(l.want, got); diff != "" {
					t.Errorf("teams over all pages (-want +got):\n%s", diff)
				}
			})
		}
	}

	// Team members: seven added one by one, in this order, then three at
	// once, who share their time of joining.
	team := squads[0] // Owen owns it already
	var users []user
	for i := range 10 {
		users = append(users, e.addUser(t, "read", fmt.Sprintf("User%d", i)))
	}
	for _, u := range users[:7] {
		teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", team, "/members/", u.id), nil))
	}
	teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", team, "/members"),
		map[string]any{"add": []string{users[7].id, users[8].id, users[9].id}}))
	first := []string{owner.id}
	for _, u := range users[:7] {
		first = append(first, u.id)
	}
	full := teamsWalk(t, e, e.admin.token, teamsURL(e, "/", team, "/members"), 1000, teamMemberID)
	if len(full) != 11 {
		t.Fatalf("%d team members listed, want 11", len(full))
	}
	if diff := cmp.Diff(first, full[:8]); diff != "" {
		t.Errorf("team members in the order they joined (-want +got):\n%s", diff)
	}
	last := slices.Sorted(slices.Values(full[8:]))
	if diff := cmp.Diff(slices.Sorted(slices.Values([]string{users[7].id, users[8].id, users[9].id})), last); diff != "" {
		t.Errorf("team members added together (-want +got):\n%s", diff)
	}
	for _, limit := range []int{1, 2, 3, 4, 10, 11, 12} {
		t.Run(fmt.Sprintf("team members limit %d", limit), func(t *testing.T) {
			got := teamsWalk(t, e, owner.token, teamsURL(e, "/", team, "/members"), limit, teamMemberID)
			if diff := cmp.Diff(full, got); diff != "" {
				t.Errorf("team members over all pages (-want +got):\n%s", diff)
			}
		})
	}

	// A member's teams page the same way.
	for _, limit := range []int{1, 2, 3, 4, 5} {
		t.Run(fmt.Sprintf("member teams limit %d", limit), func(t *testing.T) {
			got := teamsWalk(t, e, e.admin.token, "/v1/orgs/"+e.org+"/members/"+owner.id+"/teams", limit,
				func(mt teamsMemberTeam) string { return mt.Team.ID })
			if diff := cmp.Diff(owned, got); diff != "" {
				t.Errorf("member teams over all pages (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("bad page and limit on team members", func(t *testing.T) {
		e.call(t, e.admin.token, "GET", teamsURL(e, "/", team, "/members?limit=0"), nil).wantError(t, http.StatusBadRequest, "limit")
		e.call(t, e.admin.token, "GET", teamsURL(e, "/", team, "/members?limit=1001"), nil).wantError(t, http.StatusBadRequest, "limit")
		e.call(t, e.admin.token, "GET", teamsURL(e, "/", team, "/members?page=%21%21"), nil).wantError(t, http.StatusBadRequest, "page")
	})
}

// TestTeamsPaginationSameTime pages teams created at the same instant, whose
// order then rests on their ids alone.
func TestTeamsPaginationSameTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	teamsClock(e, time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC), 0)
	var want []string
	for i := range 6 {
		want = append(want, teamsCreate(t, e, fmt.Sprintf("Same %d", i)).ID)
	}
	full := teamsWalk(t, e, e.admin.token, teamsURL(e), 1000, teamID)
	if diff := cmp.Diff(slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(full))); diff != "" {
		t.Fatalf("teams (-want +got):\n%s", diff)
	}
	for _, limit := range []int{1, 2, 4, 5, 6} {
		t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
			if diff := cmp.Diff(full, teamsWalk(t, e, e.admin.token, teamsURL(e), limit, teamID)); diff != "" {
				t.Errorf("teams over all pages (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpdateTeam(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	created := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	teamsClock(e, created, 0)
	owner := e.addUser(t, "read", "Owen")
	member := e.addUser(t, "edit", "Mia")
	team := teamsCreate(t, e, "Before", member.id)
	teamsSetRoles(t, e, team.ID, map[string]string{owner.id: "owner"})
	path := teamsURL(e, "/", team.ID)

	want := teamsTeam{
		Object: "team", ID: team.ID, Title: "Before", Members: 2, CreatedAt: "2025-02-03T04:05:06.000Z",
		Permissions: teamsPerms{Admin: true, View: true},
	}
	for _, title := range []string{"After", "x", strings.Repeat("ü", 64), "After again"} {
		t.Run("rename to "+title, func(t *testing.T) {
			var got teamsTeam
			e.call(t, e.admin.token, "PATCH", path, map[string]any{"title": title}).want(t, http.StatusOK).Decode(t, &got)
			want.Title = title
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("PATCH answer (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, teamsGet(t, e, e.admin.token, team.ID)); diff != "" {
				t.Errorf("GET after PATCH (-want +got):\n%s", diff)
			}
		})
	}

	bad := []struct {
		name   string
		token  string
		path   string
		body   any
		status int
		parts  []string
	}{
		{"no body", e.admin.token, path, nil, http.StatusBadRequest, []string{"title"}},
		{"no title", e.admin.token, path, map[string]any{}, http.StatusBadRequest, []string{"title"}},
		{"null title", e.admin.token, path, map[string]any{"title": nil}, http.StatusBadRequest, []string{"title"}},
		{"empty title", e.admin.token, path, map[string]any{"title": ""}, http.StatusBadRequest, []string{"title"}},
		{"65 characters", e.admin.token, path, map[string]any{"title": strings.Repeat("b", 65)}, http.StatusBadRequest, []string{"title"}},
		{"title not a string", e.admin.token, path, map[string]any{"title": true}, http.StatusBadRequest, []string{"title"}},
		{"malformed JSON", e.admin.token, path, `{"title":`, http.StatusBadRequest, []string{"body"}},
		{"team owner", owner.token, path, map[string]any{"title": "Owner's"}, http.StatusForbidden, nil},
		{"team member", member.token, path, map[string]any{"title": "Member's"}, http.StatusForbidden, nil},
		{"member not in the team", e.addUser(t, "create", "Cy").token, path, map[string]any{"title": "Cy's"}, http.StatusForbidden, nil},
		{"outsider", e.outsider(t).token, path, map[string]any{"title": "Outsider's"}, http.StatusNotFound, nil},
		{"no token", "", path, map[string]any{"title": "Anyone's"}, http.StatusUnauthorized, nil},
		{"unknown team", e.admin.token, teamsURL(e, "/nosuchteam"), map[string]any{"title": "Ghost"}, http.StatusNotFound, nil},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			e.call(t, tt.token, "PATCH", tt.path, tt.body).wantError(t, tt.status, tt.parts...)
			if diff := cmp.Diff(want, teamsGet(t, e, e.admin.token, team.ID)); diff != "" {
				t.Errorf("team changed (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("answer as team owner would see it", func(t *testing.T) {
		// The owner sees the new title, and that they manage the team.
		got := teamsGet(t, e, owner.token, team.ID)
		if !got.Permissions.Admin || got.Title != want.Title {
			t.Errorf("owner sees %+v", got)
		}
	})
}

func TestDeleteTeam(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := e.addUser(t, "read", "Owen")
	member := e.addUser(t, "edit", "Mia")
	doomed := teamsCreate(t, e, "Doomed", member.id)
	teamsSetRoles(t, e, doomed.ID, map[string]string{owner.id: "owner"})
	kept := teamsCreate(t, e, "Kept", member.id, owner.id)
	path := teamsURL(e, "/", doomed.ID)

	refused := []struct {
		name   string
		token  string
		status int
	}{
		{"team owner", owner.token, http.StatusForbidden},
		{"team member", member.token, http.StatusForbidden},
		{"member not in the team", e.addUser(t, "create", "Cy").token, http.StatusForbidden},
		{"guest", e.addUser(t, "guest", "Gus").token, http.StatusForbidden},
		{"outsider", e.outsider(t).token, http.StatusNotFound},
		{"no token", "", http.StatusUnauthorized},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			e.call(t, tt.token, "DELETE", path, nil).wantError(t, tt.status)
			if got := teamsGet(t, e, e.admin.token, doomed.ID); got.Members != 2 {
				t.Errorf("team after refused delete: %+v", got)
			}
		})
	}
	if got := teamsMemberTeamsCount(t, e, member.id); got != 2 {
		t.Fatalf("Mia is in %d teams before the delete, want 2", got)
	}

	teamsNoContent(t, e.call(t, e.admin.token, "DELETE", path, nil))

	gone := []struct{ method, path string }{
		{"GET", path},
		{"DELETE", path},
		{"PATCH", path},
		{"GET", path + "/members"},
		{"PUT", path + "/members"},
		{"PUT", path + "/members/" + member.id},
		{"DELETE", path + "/members/" + member.id},
	}
	for _, g := range gone {
		t.Run("after delete "+g.method+" "+strings.TrimPrefix(g.path, path), func(t *testing.T) {
			var body any
			switch g.method {
			case "PATCH":
				body = map[string]any{"title": "Back"}
			case "PUT":
				if strings.HasSuffix(g.path, "/members") {
					body = map[string]any{"add": []string{member.id}}
				}
			}
			e.call(t, e.admin.token, g.method, g.path, body).wantError(t, http.StatusNotFound)
		})
	}
	got := teamsWalk(t, e, e.admin.token, teamsURL(e), 1000, teamID)
	if diff := cmp.Diff([]string{kept.ID}, got); diff != "" {
		t.Errorf("teams after delete (-want +got):\n%s", diff)
	}
	if got := teamsMemberTeamsCount(t, e, member.id); got != 1 {
		t.Errorf("Mia is in %d teams after the delete, want 1", got)
	}
	if got := teamsMemberTeamsCount(t, e, owner.id); got != 1 {
		t.Errorf("Owen is in %d teams after the delete, want 1", got)
	}
	memberTeams := teamsWalk(t, e, e.admin.token, "/v1/orgs/"+e.org+"/members/"+member.id+"/teams", 1000,
		func(mt teamsMemberTeam) string { return mt.Team.ID })
	if diff := cmp.Diff([]string{kept.ID}, memberTeams); diff != "" {
		t.Errorf("Mia's teams after delete (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{member.id: "member", owner.id: "member"}, teamsRoles(t, e, kept.ID)); diff != "" {
		t.Errorf("other team's members (-want +got):\n%s", diff)
	}
}

func TestListTeamMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	teamsClock(e, time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC), time.Second)
	owner := e.addUser(t, "read", "Owen")
	member := e.addUser(t, "edit", "Mia")
	bystander := e.addUser(t, "comment", "Bea")
	guest := e.addUser(t, "guest", "Gus")
	team := teamsCreate(t, e, "Core")
	teamsCreate(t, e, "Other", owner.id)
	empty := teamsCreate(t, e, "Empty")
	// Owen joins first as owner, then Mia, then the admin; Owen is in two teams.
	teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", team.ID, "/members/", owner.id), map[string]any{"role": "owner"}))
	teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", team.ID, "/members/", member.id), nil))
	teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", team.ID, "/members/", e.admin.id), map[string]any{"role": "member"}))

	type row struct {
		Object, ID, Email string
		OrgRole           *string
		Teams             int
		TeamRole          string
		View              bool
	}
	str := func(s string) *string { return &s }
	want := []row{
		{"member", owner.id, owner.email, str("read"), 2, "owner", true},
		{"member", member.id, member.email, str("edit"), 1, "member", true},
		{"member", e.admin.id, e.admin.email, str("admin"), 1, "member", true},
	}
	readers := []struct {
		name  string
		token string
	}{
		{"org admin", e.admin.token},
		{"team owner", owner.token},
		{"team member", member.token},
		{"member not in the team", bystander.token},
		{"guest", guest.token},
	}
	for _, tt := range readers {
		t.Run(tt.name, func(t *testing.T) {
			var list teamsList[teamsMemberItem]
			e.call(t, tt.token, "GET", teamsURL(e, "/", team.ID, "/members"), nil).want(t, http.StatusOK).Decode(t, &list)
			got := []row{}
			for _, it := range list.Items {
				o := it.Organization
				if o.User.ID != o.ID {
					t.Errorf("organization.id %q, organization.user.id %q", o.ID, o.User.ID)
				}
				got = append(got, row{o.Object, o.ID, o.User.Email, o.Role, o.Teams, it.Team.Role, it.Permissions.View})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("team members (-want +got):\n%s", diff)
			}
			if list.Count != 3 || list.Next != nil {
				t.Errorf("count %d, next %v; want 3 and none", list.Count, list.Next)
			}
		})
	}

	t.Run("empty team", func(t *testing.T) {
		r := e.call(t, member.token, "GET", teamsURL(e, "/", empty.ID, "/members"), nil).want(t, http.StatusOK)
		if got := r.JSON(t); got["count"] != float64(0) || fmt.Sprint(got["items"]) != "[]" {
			t.Errorf("empty team lists %s", r.Body)
		}
	})

	refused := []struct {
		name, token, path string
		status            int
	}{
		{"unknown team", e.admin.token, teamsURL(e, "/nosuchteam/members"), http.StatusNotFound},
		{"outsider", e.outsider(t).token, teamsURL(e, "/", team.ID, "/members"), http.StatusNotFound},
		{"no token", "", teamsURL(e, "/", team.ID, "/members"), http.StatusUnauthorized},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			e.call(t, tt.token, "GET", tt.path, nil).wantError(t, tt.status)
		})
	}
}

func TestUpdateTeamMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.addUser(t, "edit", "Ann")
	bob := e.addUser(t, "read", "Bob")
	cat := e.addUser(t, "comment", "Cat")
	gus := e.addUser(t, "guest", "Gus")
	out := e.outsider(t)

	type roles = map[string]string
	owner, member := "owner", "member"
	tests := []struct {
		name   string
		start  roles
		body   any
		status int      // 0 for 204
		parts  []string // in the error message
		want   roles    // nil: unchanged from start
	}{
		{name: "add by id", body: map[string]any{"add": []string{ann.id, bob.id}},
			want: roles{ann.id: member, bob.id: member}},
		{name: "add by e-mail in any case", body: map[string]any{"add": []string{strings.ToUpper(ann.email), bob.email}},
			want: roles{ann.id: member, bob.id: member}},
		{name: "add a guest", body: map[string]any{"add": []string{gus.id}},
			want: roles{gus.id: member}},
		{name: "add the same user twice", body: map[string]any{"add": []string{ann.id, ann.email}},
			want: roles{ann.id: member}},
		{name: "add keeps an owner an owner", start: roles{ann.id: owner}, body: map[string]any{"add": []string{ann.id, bob.id}},
			want: roles{ann.id: owner, bob.id: member}},
		{name: "remove by id and e-mail", start: roles{ann.id: member, bob.id: owner, cat.id: member},
			body: map[string]any{"remove": []string{ann.id, bob.email}}, want: roles{cat.id: member}},
		{name: "remove one not in the team", start: roles{ann.id: member}, body: map[string]any{"remove": []string{bob.id}},
			want: roles{ann.id: member}},
		{name: "in add and remove ends removed", body: map[string]any{"add": []string{ann.id, bob.id}, "remove": []string{ann.id}},
			want: roles{bob.id: member}},
		{name: "added by e-mail and removed by id ends removed", body: map[string]any{"add": []string{ann.email}, "remove": []string{ann.id}},
			want: roles{}},
		{name: "a present owner in add and remove ends removed", start: roles{ann.id: owner, bob.id: member},
			body: map[string]any{"add": []string{ann.id}, "remove": []string{ann.id}}, want: roles{bob.id: member}},
		{name: "memberships set roles and add", start: roles{ann.id: member, bob.id: owner},
			body: map[string]any{"memberships": map[string]any{ann.id: roles{"role": owner}, bob.id: roles{"role": member}, cat.id: roles{"role": owner}}},
			want: roles{ann.id: owner, bob.id: member, cat.id: owner}},
		{name: "memberships by e-mail", body: map[string]any{"memberships": map[string]any{ann.email: roles{"role": owner}}},
			want: roles{ann.id: owner}},
		{name: "add with a membership role", body: map[string]any{"add": []string{ann.id}, "memberships": map[string]any{ann.id: roles{"role": owner}}},
			want: roles{ann.id: owner}},
		{name: "membership and remove ends removed", start: roles{bob.id: member},
			body: map[string]any{"memberships": map[string]any{ann.id: roles{"role": owner}}, "remove": []string{ann.id}},
			want: roles{bob.id: member}},
		{name: "add, re-role and remove at once", start: roles{ann.id: owner, bob.id: member},
			body: map[string]any{"add": []string{cat.id}, "memberships": map[string]any{bob.id: roles{"role": owner}}, "remove": []string{ann.email}},
			want: roles{bob.id: owner, cat.id: member}},
		{name: "empty object changes nothing", start: roles{ann.id: member}, body: map[string]any{}},
		{name: "empty lists change nothing", start: roles{ann.id: member},
			body: map[string]any{"add": []string{}, "remove": []string{}, "memberships": map[string]any{}}},

		// Refused requests change nothing.
		{name: "unknown user in add", start: roles{ann.id: member}, body: map[string]any{"add": []string{bob.id, "nobody"}},
			status: http.StatusBadRequest, parts: []string{"add[1]", "nobody"}},
		{name: "outsider e-mail in add", start: roles{ann.id: member}, body: map[string]any{"add": []string{out.email}},
			status: http.StatusBadRequest, parts: []string{"add[0]", out.email}},
		{name: "outsider in remove", start: roles{ann.id: member},
			body:   map[string]any{"add": []string{bob.id}, "remove": []string{ann.id, out.id}},
			status: http.StatusBadRequest, parts: []string{"remove[1]", out.id}},
		{name: "unknown user in memberships undoes the rest", start: roles{ann.id: member},
			body:   map[string]any{"add": []string{bob.id, cat.id}, "remove": []string{ann.id}, "memberships": map[string]any{out.id: roles{"role": owner}}},
			status: http.StatusBadRequest, parts: []string{"memberships", out.id}},
		{name: "bad role in memberships", start: roles{ann.id: member},
			body:   map[string]any{"add": []string{bob.id}, "memberships": map[string]any{ann.id: roles{"role": "admin"}}},
			status: http.StatusBadRequest, parts: []string{"memberships", "role"}},
		{name: "missing role in memberships", start: roles{ann.id: member},
			body:   map[string]any{"memberships": map[string]any{ann.id: map[string]any{}}},
			status: http.StatusBadRequest, parts: []string{"role"}},
		{name: "add not an array", start: roles{ann.id: member}, body: map[string]any{"add": ann.id},
			status: http.StatusBadRequest, parts: []string{"add"}},
		{name: "remove holds a number", start: roles{ann.id: member}, body: map[string]any{"remove": []any{1}},
			status: http.StatusBadRequest, parts: []string{"remove"}},
		{name: "memberships not an object", start: roles{ann.id: member}, body: map[string]any{"memberships": []string{ann.id}},
			status: http.StatusBadRequest, parts: []string{"memberships"}},
		{name: "malformed JSON", start: roles{ann.id: member}, body: `{"add": [`,
			status: http.StatusBadRequest, parts: []string{"body"}},
		{name: "too many changes at once", start: roles{ann.id: member}, body: map[string]any{"add": slices.Repeat([]string{bob.id}, 1001)},
			status: http.StatusBadRequest, parts: []string{"at most"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			team := teamsCreate(t, e, fmt.Sprintf("Team %d", i))
			teamsSetRoles(t, e, team.ID, tt.start)
			r := e.call(t, e.admin.token, "PUT", teamsURL(e, "/", team.ID, "/members"), tt.body)
			if tt.status == 0 {
				teamsNoContent(t, r)
			} else {
				r.wantError(t, tt.status, tt.parts...)
			}
			want := tt.want
			if want == nil {
				want = tt.start
			}
			if want == nil {
				want = roles{}
			}
			if diff := cmp.Diff(want, teamsRoles(t, e, team.ID)); diff != "" {
				t.Errorf("team members (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTeamMemberWrites checks who may change a team's members, through each
// of the three writing endpoints.
func TestTeamMemberWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := e.addUser(t, "read", "Owen")
	member := e.addUser(t, "create", "Mia")
	bystander := e.addUser(t, "edit", "Bea")
	otherOwner := e.addUser(t, "review", "Ota")
	guest := e.addUser(t, "guest", "Gus")
	newcomer := e.addUser(t, "read", "Nia")
	victim := e.addUser(t, "comment", "Vic")
	otherTeam := teamsCreate(t, e, "Elsewhere")
	teamsSetRoles(t, e, otherTeam.ID, map[string]string{otherOwner.id: "owner"})

	callers := []struct {
		name    string
		token   string
		status  int // of a refused write; 0 when allowed
		ownerOK bool
	}{
		{"org admin", e.admin.token, 0, true},
		{"team owner", owner.token, 0, true},
		{"team member", member.token, http.StatusForbidden, false},
		{"member not in the team", bystander.token, http.StatusForbidden, false},
		{"owner of another team", otherOwner.token, http.StatusForbidden, false},
		{"guest", guest.token, http.StatusForbidden, false},
		{"outsider", e.outsider(t).token, http.StatusNotFound, false},
		{"no token", "", http.StatusUnauthorized, false},
	}
	ops := []struct {
		name string
		call func(t *testing.T, token, teamID string) *response
		// done is the team after an allowed write, from the start below.
		done map[string]string
	}{
		{"bulk add and remove", func(t *testing.T, token, teamID string) *response {
			return e.call(t, token, "PUT", teamsURL(e, "/", teamID, "/members"),
				map[string]any{"add": []string{newcomer.email}, "remove": []string{victim.id}})
		}, map[string]string{owner.id: "owner", member.id: "member", newcomer.id: "member"}},
		{"bulk memberships", func(t *testing.T, token, teamID string) *response {
			return e.call(t, token, "PUT", teamsURL(e, "/", teamID, "/members"),
				map[string]any{"memberships": map[string]any{member.id: map[string]string{"role": "owner"}}})
		}, map[string]string{owner.id: "owner", member.id: "owner", victim.id: "member"}},
		{"put one", func(t *testing.T, token, teamID string) *response {
			return e.call(t, token, "PUT", teamsURL(e, "/", teamID, "/members/", newcomer.id), map[string]string{"role": "owner"})
		}, map[string]string{owner.id: "owner", member.id: "member", victim.id: "member", newcomer.id: "owner"}},
		{"delete one", func(t *testing.T, token, teamID string) *response {
			return e.call(t, token, "DELETE", teamsURL(e, "/", teamID, "/members/", victim.id), nil)
		}, map[string]string{owner.id: "owner", member.id: "member"}},
	}
	start := map[string]string{owner.id: "owner", member.id: "member", victim.id: "member"}
	n := 0
	for _, c := range callers {
		for _, op := range ops {
			t.Run(c.name+" "+op.name, func(t *testing.T) {
				n++
				team := teamsCreate(t, e, fmt.Sprintf("Team %d", n))
				teamsSetRoles(t, e, team.ID, start)
				r := op.call(t, c.token, team.ID)
				want := start
				if c.status == 0 {
					teamsNoContent(t, r)
					want = op.done
				} else {
					r.wantError(t, c.status)
				}
				if diff := cmp.Diff(want, teamsRoles(t, e, team.ID)); diff != "" {
					t.Errorf("team members (-want +got):\n%s", diff)
				}
			})
		}
	}
	// The owner of the other team kept their team as it was.
	if diff := cmp.Diff(map[string]string{otherOwner.id: "owner"}, teamsRoles(t, e, otherTeam.ID)); diff != "" {
		t.Errorf("other team (-want +got):\n%s", diff)
	}
}

func TestPutTeamMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.addUser(t, "edit", "Ann")
	out := e.outsider(t)

	type roles = map[string]string
	tests := []struct {
		name   string
		start  roles
		user   string
		body   any
		status int
		parts  []string
		want   roles // nil: unchanged from start
	}{
		{name: "new, no body, joins as member", user: ann.id, want: roles{ann.id: "member"}},
		{name: "new, empty object, joins as member", user: ann.id, body: map[string]any{}, want: roles{ann.id: "member"}},
		{name: "new as owner", user: ann.id, body: map[string]any{"role": "owner"}, want: roles{ann.id: "owner"}},
		{name: "new as member", user: ann.id, body: map[string]any{"role": "member"}, want: roles{ann.id: "member"}},
		{name: "owner, no body, stays owner", start: roles{ann.id: "owner"}, user: ann.id, want: roles{ann.id: "owner"}},
		{name: "owner, empty object, stays owner", start: roles{ann.id: "owner"}, user: ann.id, body: map[string]any{}, want: roles{ann.id: "owner"}},
		{name: "owner made member", start: roles{ann.id: "owner"}, user: ann.id, body: map[string]any{"role": "member"}, want: roles{ann.id: "member"}},
		{name: "member made owner", start: roles{ann.id: "member"}, user: ann.id, body: map[string]any{"role": "owner"}, want: roles{ann.id: "owner"}},
		{name: "the admin", user: e.admin.id, body: map[string]any{"role": "owner"}, want: roles{e.admin.id: "owner"}},

		{name: "unknown role", start: roles{ann.id: "member"}, user: ann.id, body: map[string]any{"role": "admin"},
			status: http.StatusBadRequest, parts: []string{"role"}},
		{name: "empty role", user: ann.id, body: map[string]any{"role": ""},
			status: http.StatusBadRequest, parts: []string{"role"}},
		{name: "role not a string", user: ann.id, body: map[string]any{"role": 1},
			status: http.StatusBadRequest, parts: []string{"role"}},
		{name: "malformed JSON", user: ann.id, body: `{"role"`, status: http.StatusBadRequest, parts: []string{"body"}},
		{name: "user of another organization", user: out.id, body: map[string]any{"role": "member"}, status: http.StatusNotFound},
		{name: "unknown user", user: "nobody", status: http.StatusNotFound},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			team := teamsCreate(t, e, fmt.Sprintf("Team %d", i))
			teamsSetRoles(t, e, team.ID, tt.start)
			r := e.call(t, e.admin.token, "PUT", teamsURL(e, "/", team.ID, "/members/", tt.user), tt.body)
			if tt.status == 0 {
				teamsNoContent(t, r)
			} else {
				r.wantError(t, tt.status, tt.parts...)
			}
			want := tt.want
			if want == nil {
				want = tt.start
			}
			if want == nil {
				want = roles{}
			}
			if diff := cmp.Diff(want, teamsRoles(t, e, team.ID)); diff != "" {
				t.Errorf("team members (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("unknown team", func(t *testing.T) {
		e.call(t, e.admin.token, "PUT", teamsURL(e, "/nosuchteam/members/", ann.id), nil).wantError(t, http.StatusNotFound)
	})
}

func TestRemoveTeamMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := e.addUser(t, "read", "Owen")
	ann := e.addUser(t, "edit", "Ann")
	bob := e.addUser(t, "edit", "Bob")
	team := teamsCreate(t, e, "Core", ann.id, bob.id)
	teamsSetRoles(t, e, team.ID, map[string]string{owner.id: "owner"})
	path := teamsURL(e, "/", team.ID, "/members/")

	teamsNoContent(t, e.call(t, e.admin.token, "DELETE", path+ann.id, nil))
	if diff := cmp.Diff(map[string]string{owner.id: "owner", bob.id: "member"}, teamsRoles(t, e, team.ID)); diff != "" {
		t.Errorf("after removing Ann (-want +got):\n%s", diff)
	}
	if got := teamsMemberTeamsCount(t, e, ann.id); got != 0 {
		t.Errorf("Ann is in %d teams, want 0", got)
	}

	// Removing someone who is not in the team is not an error.
	teamsNoContent(t, e.call(t, e.admin.token, "DELETE", path+ann.id, nil))
	teamsNoContent(t, e.call(t, e.admin.token, "DELETE", path+e.admin.id, nil))
	if got := teamsGet(t, e, e.admin.token, team.ID).Members; got != 2 {
		t.Errorf("team has %d members, want 2", got)
	}

	// The owner removes a member, then leaves; having left, they manage nothing.
	teamsNoContent(t, e.call(t, owner.token, "DELETE", path+bob.id, nil))
	teamsNoContent(t, e.call(t, owner.token, "DELETE", path+owner.id, nil))
	if diff := cmp.Diff(map[string]string{}, teamsRoles(t, e, team.ID)); diff != "" {
		t.Errorf("after the owner left (-want +got):\n%s", diff)
	}
	if got := teamsGet(t, e, owner.token, team.ID); got.Permissions.Admin {
		t.Errorf("former owner still has permissions.admin: %+v", got)
	}
	e.call(t, owner.token, "PUT", path+owner.id, map[string]any{"role": "owner"}).wantError(t, http.StatusForbidden)
	e.call(t, owner.token, "DELETE", path+e.admin.id, nil).wantError(t, http.StatusForbidden)

	e.call(t, e.admin.token, "DELETE", teamsURL(e, "/nosuchteam/members/", bob.id), nil).wantError(t, http.StatusNotFound)
}

// TestTeamsInMembers checks that a member's team count and team list follow
// their team memberships, and that leaving the organization leaves its teams.
func TestTeamsInMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	teamsClock(e, time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC), time.Second)
	ann := e.addUser(t, "edit", "Ann")
	bob := e.addUser(t, "read", "Bob")
	memberTeams := func(t *testing.T, token, userID, query string) []string {
		t.Helper()
		var list teamsList[teamsMemberTeam]
		e.call(t, token, "GET", "/v1/orgs/"+e.org+"/members/"+userID+"/teams"+query, nil).want(t, http.StatusOK).Decode(t, &list)
		got := []string{}
		for _, mt := range list.Items {
			got = append(got, fmt.Sprintf("%s:%s:%d:admin=%t", mt.Team.Title, mt.Member.Role, mt.Team.Members, mt.Team.Permissions.Admin))
		}
		if list.Count != len(got) {
			t.Errorf("count %d, %d items", list.Count, len(got))
		}
		return got
	}
	orgOwnTeam := func(t *testing.T, token string) bool {
		t.Helper()
		var o struct {
			Permissions struct {
				OwnTeam bool `json:"ownTeam"`
			} `json:"permissions"`
		}
		e.call(t, token, "GET", "/v1/orgs/"+e.org, nil).want(t, http.StatusOK).Decode(t, &o)
		return o.Permissions.OwnTeam
	}

	if got := teamsMemberTeamsCount(t, e, ann.id); got != 0 {
		t.Errorf("Ann starts in %d teams", got)
	}
	alpha := teamsCreate(t, e, "Alpha Docs", ann.id, bob.id)
	beta := teamsCreate(t, e, "Beta Docs", bob.id)
	gamma := teamsCreate(t, e, "Gamma")
	teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", beta.ID, "/members/", ann.id), map[string]any{"role": "owner"}))
	teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", gamma.ID, "/members"), map[string]any{"add": []string{ann.email}}))

	if got := teamsMemberTeamsCount(t, e, ann.id); got != 3 {
		t.Errorf("Ann is in %d teams, want 3", got)
	}
	if got := teamsMemberTeamsCount(t, e, bob.id); got != 2 {
		t.Errorf("Bob is in %d teams, want 2", got)
	}
	if !orgOwnTeam(t, ann.token) || orgOwnTeam(t, bob.token) {
		t.Errorf("ownTeam: Ann %t, Bob %t; want true, false", orgOwnTeam(t, ann.token), orgOwnTeam(t, bob.token))
	}
	views := []struct {
		name, token, user, query string
		want                     []string
	}{
		{"Ann's teams as Ann", ann.token, ann.id, "",
			[]string{"Alpha Docs:member:2:admin=false", "Beta Docs:owner:2:admin=true", "Gamma:member:1:admin=false"}},
		{"Ann's teams as the admin", e.admin.token, ann.id, "",
			[]string{"Alpha Docs:member:2:admin=true", "Beta Docs:owner:2:admin=true", "Gamma:member:1:admin=true"}},
		{"Ann's teams, title filter", ann.token, ann.id, "?title=beta", []string{"Beta Docs:owner:2:admin=true"}},
		{"Ann's teams, title filter in other case", ann.token, ann.id, "?title=DOCS",
			[]string{"Alpha Docs:member:2:admin=false", "Beta Docs:owner:2:admin=true"}},
		{"Ann's teams, title filter matching none", ann.token, ann.id, "?title=zzz", []string{}},
		{"Bob's teams", e.admin.token, bob.id, "",
			[]string{"Alpha Docs:member:2:admin=true", "Beta Docs:member:2:admin=true"}},
		{"the admin's teams", e.admin.token, e.admin.id, "", []string{}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			if diff := cmp.Diff(v.want, memberTeams(t, v.token, v.user, v.query)); diff != "" {
				t.Errorf("member teams (-want +got):\n%s", diff)
			}
		})
	}

	// Ann leaves Alpha, and is made a plain member of Beta.
	teamsNoContent(t, e.call(t, e.admin.token, "DELETE", teamsURL(e, "/", alpha.ID, "/members/", ann.id), nil))
	teamsNoContent(t, e.call(t, e.admin.token, "PUT", teamsURL(e, "/", beta.ID, "/members"),
		map[string]any{"memberships": map[string]any{ann.id: map[string]string{"role": "member"}}}))
	if got := teamsMemberTeamsCount(t, e, ann.id); got != 2 {
		t.Errorf("Ann is in %d teams, want 2", got)
	}
	if orgOwnTeam(t, ann.token) {
		t.Errorf("Ann still has ownTeam after losing ownership")
	}
	if diff := cmp.Diff([]string{"Beta Docs:member:2:admin=false", "Gamma:member:1:admin=false"}, memberTeams(t, ann.token, ann.id, "")); diff != "" {
		t.Errorf("Ann's teams (-want +got):\n%s", diff)
	}

	// The admin removes Ann from the organization: she leaves every team.
	teamsNoContent(t, e.call(t, e.admin.token, "DELETE", "/v1/orgs/"+e.org+"/members/"+ann.id, nil))
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+ann.id, nil).wantError(t, http.StatusNotFound)
	for _, team := range []teamsTeam{alpha, beta, gamma} {
		roles := teamsRoles(t, e, team.ID)
		if _, ok := roles[ann.id]; ok {
			t.Errorf("%s still lists Ann after she left the organization", team.Title)
		}
	}
	var list teamsList[teamsTeam]
	e.call(t, e.admin.token, "GET", teamsURL(e), nil).want(t, http.StatusOK).Decode(t, &list)
	counts := map[string]int{}
	for _, team := range list.Items {
		counts[team.Title] = team.Members
	}
	if diff := cmp.Diff(map[string]int{"Alpha Docs": 1, "Beta Docs": 1, "Gamma": 0}, counts); diff != "" {
		t.Errorf("members counts after Ann left (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Alpha Docs:member:1:admin=true", "Beta Docs:member:1:admin=true"}, memberTeams(t, e.admin.token, bob.id, "")); diff != "" {
		t.Errorf("Bob's teams (-want +got):\n%s", diff)
	}
	// Ann cannot be put back into a team, nor reach them.
	e.call(t, e.admin.token, "PUT", teamsURL(e, "/", gamma.ID, "/members/", ann.id), nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "PUT", teamsURL(e, "/", gamma.ID, "/members"), map[string]any{"add": []string{ann.email}}).
		wantError(t, http.StatusBadRequest, "add[0]")
	e.call(t, ann.token, "GET", teamsURL(e), nil).wantError(t, http.StatusNotFound)
}

// TestTeamsOutsiders runs every teams endpoint as an outsider (404, not
// 403: they may not learn the organization exists) and without a token (401),
// and checks that nothing changed.
func TestTeamsOutsiders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.addUser(t, "edit", "Ann")
	bob := e.addUser(t, "edit", "Bob")
	team := teamsCreate(t, e, "Private", ann.id)
	otherOrg, outsider := teamsOtherOrg(t, e)
	foreign := ""
	{
		var f teamsTeam
		e.call(t, outsider.token, "PUT", "/v1/orgs/"+otherOrg+"/teams", map[string]any{"title": "Theirs"}).want(t, http.StatusCreated).Decode(t, &f)
		foreign = f.ID
	}

	type req struct {
		method, path string
		body         any
	}
	reqs := func(org, teamID string) []req {
		base := "/v1/orgs/" + org + "/teams"
		return []req{
			{"GET", base, nil},
			{"PUT", base, map[string]any{"title": "Intruders"}},
			{"GET", base + "/" + teamID, nil},
			{"PATCH", base + "/" + teamID, map[string]any{"title": "Owned"}},
			{"DELETE", base + "/" + teamID, nil},
			{"GET", base + "/" + teamID + "/members", nil},
			{"PUT", base + "/" + teamID + "/members", map[string]any{"add": []string{bob.id}, "remove": []string{ann.id}}},
			{"PUT", base + "/" + teamID + "/members/" + bob.id, map[string]any{"role": "owner"}},
			{"DELETE", base + "/" + teamID + "/members/" + ann.id, nil},
		}
	}
	tests := []struct {
		name   string
		token  string
		reqs   []req
		status int
	}{
		{"outsider", outsider.token, reqs(e.org, team.ID), http.StatusNotFound},
		{"outsider naming their own organization", outsider.token, reqs(otherOrg, team.ID)[2:], http.StatusNotFound},
		{"admin naming a team of another organization", e.admin.token, reqs(e.org, foreign)[2:], http.StatusNotFound},
		{"no token", "", reqs(e.org, team.ID), http.StatusUnauthorized},
		{"bad token", "quire_nonsense", reqs(e.org, team.ID), http.StatusUnauthorized},
	}
	for _, tt := range tests {
		for _, r := range tt.reqs {
			t.Run(tt.name+" "+r.method+" "+r.path, func(t *testing.T) {
				e.call(t, tt.token, r.method, r.path, r.body).wantError(t, tt.status)
			})
		}
	}

	want := teamsTeam{Object: "team", ID: team.ID, Title: "Private", Members: 1, CreatedAt: team.CreatedAt, Permissions: teamsPerms{Admin: true, View: true}}
	if diff := cmp.Diff(want, teamsGet(t, e, e.admin.token, team.ID)); diff != "" {
		t.Errorf("team (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{ann.id: "member"}, teamsRoles(t, e, team.ID)); diff != "" {
		t.Errorf("team members (-want +got):\n%s", diff)
	}
	if got := teamsWalk(t, e, e.admin.token, teamsURL(e), 1000, teamID); len(got) != 1 {
		t.Errorf("%d teams, want 1", len(got))
	}
	var theirs teamsTeam
	e.call(t, outsider.token, "GET", "/v1/orgs/"+otherOrg+"/teams/"+foreign, nil).want(t, http.StatusOK).Decode(t, &theirs)
	if theirs.Title != "Theirs" || theirs.Members != 0 {
		t.Errorf("the other organization's team changed: %+v", theirs)
	}
}

// TestTeamMembershipsBadRoles: of several bad roles, the first by user id is
// named, every time.
func TestTeamMembershipsBadRoles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	team := teamsCreate(t, e, "Bad roles")
	body := map[string]any{"memberships": map[string]any{"u3": map[string]string{"role": "x"}, "u1": map[string]string{"role": "y"}, "u2": map[string]string{"role": "member"}}}
	for range 5 {
		e.call(t, e.admin.token, "PUT", teamsURL(e, "/", team.ID, "/members"), body).wantError(t, http.StatusBadRequest, "memberships.u1.role: must be owner or member")
	}
}
