package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Wire shapes the tests decode, holding only what they check.

type userOut struct {
	Object      string `json:"object"`
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	Email       string `json:"email"`
	URLs        struct {
		Location string `json:"location"`
	} `json:"urls"`
}

type orgOut struct {
	Object       string          `json:"object"`
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	CreatedAt    string          `json:"createdAt"`
	EmailDomains []string        `json:"emailDomains"`
	Hostname     string          `json:"hostname"`
	DefaultRole  *string         `json:"defaultRole"`
	SSO          bool            `json:"sso"`
	AI           bool            `json:"ai"`
	InviteLinks  bool            `json:"inviteLinks"`
	MergeRules   json.RawMessage `json:"mergeRules"`
	URLs         struct {
		Location string `json:"location"`
		App      string `json:"app"`
	} `json:"urls"`
	Permissions orgPermsOut `json:"permissions"`
}

// orgPermsOut are the organization permissions a user would notice.
type orgPermsOut struct {
	View          bool `json:"view"`
	Access        bool `json:"access"`
	Admin         bool `json:"admin"`
	OwnTeam       bool `json:"ownTeam"`
	CreateContent bool `json:"createContent"`
}

type listOut[T any] struct {
	Items []T `json:"items"`
	Count int `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

func ptrTo[T any](v T) *T { return &v }

// tickClock makes the store's clock start now and advance one millisecond on
// every reading, so join and last-seen times follow the order the test acts in.
func tickClock(e *env) {
	base := time.Now().UTC().Truncate(time.Millisecond)
	var n atomic.Int64
	e.db.Now = func() time.Time { return base.Add(time.Duration(n.Add(1)) * time.Millisecond) }
}

func (e *env) fetchOrg(t *testing.T, token, orgID string) orgOut {
	t.Helper()
	var o orgOut
	e.call(t, token, "GET", "/v1/orgs/"+orgID, nil).want(t, http.StatusOK).Decode(t, &o)
	return o
}

// createOrg creates an organization through the API as the holder of token.
func (e *env) createOrg(t *testing.T, token, title string) orgOut {
	t.Helper()
	var o orgOut
	e.call(t, token, "POST", "/v1/orgs", map[string]any{"title": title}).want(t, http.StatusCreated).Decode(t, &o)
	return o
}

func TestUserCurrent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rita Reader")
	for _, tc := range []struct {
		name string
		who  user
		want string
	}{
		{"admin", e.admin, "Ada Admin"},
		{"reader", reader, "Rita Reader"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got userOut
			e.call(t, tc.who.token, "GET", "/v1/user", nil).want(t, http.StatusOK).Decode(t, &got)
			want := userOut{Object: "user", ID: tc.who.id, DisplayName: tc.want, Email: tc.who.email}
			want.URLs.Location = testPublicURL + "/v1/users/" + tc.who.id
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("GET /v1/user (-want +got):\n%s", diff)
			}
		})
	}
	e.call(t, "", "GET", "/v1/user", nil).wantError(t, http.StatusUnauthorized, "Authorization")
	e.call(t, "quire_not-a-token", "GET", "/v1/user", nil).wantError(t, http.StatusUnauthorized)
}

// TestUserVisibility: a user is visible only to those who share an
// organization with them; everyone else gets 404, as for a missing user.
func TestUserVisibility(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rita Reader")
	guest := e.addUser(t, "guest", "Gus Guest")
	out := e.outsider(t)
	for _, tc := range []struct {
		name       string
		caller     user
		target     string
		wantStatus int
		wantName   string
	}{
		{"admin sees a member", e.admin, reader.id, http.StatusOK, "Rita Reader"},
		{"member sees the admin", reader, e.admin.id, http.StatusOK, "Ada Admin"},
		{"guest sees a member", guest, reader.id, http.StatusOK, "Rita Reader"},
		{"member sees a guest", reader, guest.id, http.StatusOK, "Gus Guest"},
		{"outsider sees themself", out, out.id, http.StatusOK, "Otto Outsider"},
		{"outsider does not see the admin", out, e.admin.id, http.StatusNotFound, ""},
		{"admin does not see an outsider", e.admin, out.id, http.StatusNotFound, ""},
		{"unknown user", e.admin, "nosuchuser", http.StatusNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := e.call(t, tc.caller.token, "GET", "/v1/users/"+tc.target, nil)
			if tc.wantStatus != http.StatusOK {
				res.wantError(t, tc.wantStatus, "user not found")
				return
			}
			var got userOut
			res.want(t, http.StatusOK).Decode(t, &got)
			if got.ID != tc.target || got.DisplayName != tc.wantName || got.Object != "user" {
				t.Errorf("got %+v, want user %s named %q", got, tc.target, tc.wantName)
			}
		})
	}

	// Visibility follows membership: once removed, the member is a stranger.
	e.call(t, e.admin.token, "DELETE", "/v1/orgs/"+e.org+"/members/"+reader.id, nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "GET", "/v1/users/"+reader.id, nil).wantError(t, http.StatusNotFound)
	e.call(t, reader.token, "GET", "/v1/users/"+e.admin.id, nil).wantError(t, http.StatusNotFound)
}

func TestOrgList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tickClock(e)
	second := e.createOrg(t, e.admin.token, "Second Org")
	// A third organization where the admin is only a reader.
	b, err := e.db.InitOrganization(t.Context(), "Third Org", uniqueEmail("third"), "Theo Third")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.AddUser(t.Context(), b.Organization.ID, e.admin.email, "Ada Admin", "read"); err != nil {
		t.Fatal(err)
	}
	third := b.Organization.ID

	type row struct {
		ID    string
		Title string
		Perms orgPermsOut
	}
	admin := orgPermsOut{View: true, Access: true, Admin: true, CreateContent: true}
	reader := orgPermsOut{View: true, Access: true}
	want := []row{{e.org, "Test Org", admin}, {second.ID, "Second Org", admin}, {third, "Third Org", reader}}
	rows := func(items []orgOut) []row {
		var out []row
		for _, o := range items {
			out = append(out, row{o.ID, o.Title, o.Permissions})
		}
		return out
	}

	var all listOut[orgOut]
	e.call(t, e.admin.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &all)
	if diff := cmp.Diff(want, rows(all.Items)); diff != "" {
		t.Errorf("GET /v1/orgs, oldest membership first (-want +got):\n%s", diff)
	}
	if all.Count != 3 || all.Next != nil {
		t.Errorf("count %d, next %v: want 3 and no next page", all.Count, all.Next)
	}

	// One per page: every organization once, then no next page.
	var paged []orgOut
	path := "/v1/orgs?limit=1"
	for pages := 0; ; pages++ {
		if pages > 3 {
			t.Fatal("more pages than organizations")
		}
		var page listOut[orgOut]
		e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &page)
		if page.Count != 3 || len(page.Items) != 1 {
			t.Fatalf("page %d: count %d with %d items, want 3 with 1", pages, page.Count, len(page.Items))
		}
		paged = append(paged, page.Items...)
		if page.Next == nil {
			break
		}
		path = "/v1/orgs?limit=1&page=" + page.Next.Page
	}
	if diff := cmp.Diff(want, rows(paged)); diff != "" {
		t.Errorf("GET /v1/orgs page by page (-want +got):\n%s", diff)
	}

	// Others see only their own organizations.
	var theirs listOut[orgOut]
	e.call(t, b.Token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &theirs)
	if diff := cmp.Diff([]row{{third, "Third Org", admin}}, rows(theirs.Items)); diff != "" || theirs.Count != 1 {
		t.Errorf("GET /v1/orgs by the third org's admin, count %d (-want +got):\n%s", theirs.Count, diff)
	}

	e.call(t, e.admin.token, "GET", "/v1/orgs?limit=0", nil).wantError(t, http.StatusBadRequest, "limit")
	e.call(t, e.admin.token, "GET", "/v1/orgs?page=bogus", nil).wantError(t, http.StatusBadRequest, "page")
	e.call(t, "", "GET", "/v1/orgs", nil).wantError(t, http.StatusUnauthorized)
}

func TestOrgCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	creator := e.addUser(t, "read", "Cora Creator")

	res := e.call(t, creator.token, "POST", "/v1/orgs", map[string]any{"title": "Acme Docs", "emailDomains": []string{"acme.com", "acme.io"}})
	var o orgOut
	res.want(t, http.StatusCreated).Decode(t, &o)
	if o.ID == "" || o.Object != "organization" {
		t.Fatalf("created %+v: want an organization with an id", o)
	}
	if loc := res.Header.Get("Location"); loc != testPublicURL+"/v1/orgs/"+o.ID || loc != o.URLs.Location {
		t.Errorf("Location %q, urls.location %q: want both %s", loc, o.URLs.Location, testPublicURL+"/v1/orgs/"+o.ID)
	}
	if o.Title != "Acme Docs" || !cmp.Equal(o.EmailDomains, []string{"acme.com", "acme.io"}) || o.DefaultRole != nil {
		t.Errorf("created title %q, emailDomains %v, defaultRole %v", o.Title, o.EmailDomains, o.DefaultRole)
	}
	if want := (orgPermsOut{View: true, Access: true, Admin: true, CreateContent: true}); o.Permissions != want {
		t.Errorf("creator's permissions %+v, want %+v", o.Permissions, want)
	}
	if string(o.MergeRules) != `{"type":"none"}` {
		t.Errorf("mergeRules %s, want none", o.MergeRules)
	}
	if _, err := time.Parse(time.RFC3339, o.CreatedAt); err != nil {
		t.Errorf("createdAt %q: %v", o.CreatedAt, err)
	}

	// The creator is its one member, an admin; it is what GET answers.
	if diff := cmp.Diff(o, e.fetchOrg(t, creator.token, o.ID)); diff != "" {
		t.Errorf("GET after POST (-created +got):\n%s", diff)
	}
	var members listOut[memberOut]
	e.call(t, creator.token, "GET", "/v1/orgs/"+o.ID+"/members", nil).want(t, http.StatusOK).Decode(t, &members)
	if members.Count != 1 || len(members.Items) != 1 || members.Items[0].ID != creator.id || members.Items[0].Role == nil || *members.Items[0].Role != "admin" {
		t.Errorf("members of the new organization: %+v, want the creator alone as admin", members)
	}
	// Nobody else sees it, not even the admin of the creator's other organization.
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+o.ID, nil).wantError(t, http.StatusNotFound)

	t.Run("titles", func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			title string
			ok    bool
		}{
			{"two characters", "Ab", true},
			{"255 characters", strings.Repeat("x", 255), true},
			{"255 two-byte characters", strings.Repeat("é", 255), true},
			{"inner spaces", "A  B", true},
			{"one character", "A", false},
			{"256 characters", strings.Repeat("x", 256), false},
			{"empty", "", false},
			{"leading space", " Acme", false},
			{"trailing space", "Acme ", false},
			{"trailing newline", "Acme\n", false},
			{"blank", "   ", false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := e.call(t, creator.token, "POST", "/v1/orgs", map[string]any{"title": tc.title})
				if !tc.ok {
					res.wantError(t, http.StatusBadRequest, "title")
					return
				}
				var got orgOut
				res.want(t, http.StatusCreated).Decode(t, &got)
				if got.Title != tc.title {
					t.Errorf("title %q, want %q", got.Title, tc.title)
				}
			})
		}
	})

	t.Run("invalid bodies", func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			body  any
			field string
		}{
			{"no title", map[string]any{}, "title"},
			{"null title", map[string]any{"title": nil}, "title"},
			{"number title", map[string]any{"title": 42}, "title"},
			{"domain not a domain", map[string]any{"title": "Acme", "emailDomains": []string{"not a domain"}}, "emailDomains[0]"},
			{"domain with @", map[string]any{"title": "Acme", "emailDomains": []string{"acme.com", "@acme.io"}}, "emailDomains[1]"},
			{"domains not an array", map[string]any{"title": "Acme", "emailDomains": "acme.com"}, "emailDomains"},
			{"body not an object", `["Acme"]`, "body"},
			{"no body", nil, "title"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e.call(t, creator.token, "POST", "/v1/orgs", tc.body).wantError(t, http.StatusBadRequest, tc.field)
			})
		}
	})

	// Failed creations left nothing behind: the creator's organizations are
	// the original one, Acme Docs and the four valid titles.
	var mine listOut[orgOut]
	e.call(t, creator.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &mine)
	if mine.Count != 6 {
		t.Errorf("creator belongs to %d organizations, want 6", mine.Count)
	}
}

// TestOrgPermissions: GET O shows each caller what they may do.
func TestOrgPermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		role string
		want orgPermsOut
	}{
		{"admin", orgPermsOut{View: true, Access: true, Admin: true, CreateContent: true}},
		{"create", orgPermsOut{View: true, Access: true, CreateContent: true}},
		{"review", orgPermsOut{View: true, Access: true}},
		{"edit", orgPermsOut{View: true, Access: true}},
		{"comment", orgPermsOut{View: true, Access: true}},
		{"read", orgPermsOut{View: true, Access: true}},
		{"guest", orgPermsOut{View: true}},
	} {
		t.Run(tc.role, func(t *testing.T) {
			u := e.addUser(t, tc.role, "Pat "+tc.role)
			got := e.fetchOrg(t, u.token, e.org)
			if diff := cmp.Diff(tc.want, got.Permissions); diff != "" {
				t.Errorf("permissions of a %s (-want +got):\n%s", tc.role, diff)
			}
			if got.ID != e.org || got.Title != "Test Org" {
				t.Errorf("got organization %s %q", got.ID, got.Title)
			}
		})
	}

	t.Run("team owner", func(t *testing.T) {
		u := e.addUser(t, "read", "Olga Owner")
		var team struct{ ID string }
		e.call(t, e.admin.token, "PUT", "/v1/orgs/"+e.org+"/teams", map[string]any{"title": "Owners"}).want(t, http.StatusCreated).Decode(t, &team)
		if got := e.fetchOrg(t, u.token, e.org).Permissions; got.OwnTeam {
			t.Errorf("ownTeam before owning a team: %+v", got)
		}
		e.call(t, e.admin.token, "PUT", "/v1/orgs/"+e.org+"/teams/"+team.ID+"/members/"+u.id, map[string]any{"role": "owner"}).want(t, http.StatusNoContent)
		if got := e.fetchOrg(t, u.token, e.org).Permissions; !got.OwnTeam || got.Admin {
			t.Errorf("permissions of a reader owning a team: %+v, want ownTeam and not admin", got)
		}
	})

	t.Run("invisible", func(t *testing.T) {
		out := e.outsider(t)
		e.call(t, out.token, "GET", "/v1/orgs/"+e.org, nil).wantError(t, http.StatusNotFound, "organization not found")
		e.call(t, e.admin.token, "GET", "/v1/orgs/nosuchorg", nil).wantError(t, http.StatusNotFound, "organization not found")
	})
}

func TestOrgUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := "/v1/orgs/" + e.org
	patch := func(t *testing.T, body any) orgOut {
		t.Helper()
		var o orgOut
		e.call(t, e.admin.token, "PATCH", path, body).want(t, http.StatusOK).Decode(t, &o)
		// What PATCH answers is what is stored.
		if diff := cmp.Diff(o, e.fetchOrg(t, e.admin.token, e.org)); diff != "" {
			t.Fatalf("GET after PATCH %v (-patched +got):\n%s", body, diff)
		}
		return o
	}

	// Each step changes one thing and leaves the rest as it was.
	steps := []struct {
		name string
		body string
		want func(o *orgOut)
	}{
		{"nothing", `{}`, func(o *orgOut) {}},
		{"title", `{"title":"Renamed Org"}`, func(o *orgOut) { o.Title = "Renamed Org" }},
		{"email domains", `{"emailDomains":["example.com","docs.example.org"]}`, func(o *orgOut) {
			o.EmailDomains = []string{"example.com", "docs.example.org"}
		}},
		{"no email domains", `{"emailDomains":[]}`, func(o *orgOut) { o.EmailDomains = []string{} }},
		{"email domains again", `{"emailDomains":["example.com"]}`, func(o *orgOut) { o.EmailDomains = []string{"example.com"} }},
		{"email domains null", `{"emailDomains":null}`, func(o *orgOut) { o.EmailDomains = []string{} }},
		{"hostname", `{"hostname":"renamed-org"}`, func(o *orgOut) { o.Hostname = "renamed-org" }},
		{"hostname kept", `{"hostname":"renamed-org"}`, func(o *orgOut) {}},
		{"hostname cleared", `{"hostname":null}`, func(o *orgOut) { o.Hostname = "" }},
		{"hostname 3", `{"hostname":"abc"}`, func(o *orgOut) { o.Hostname = "abc" }},
		{"hostname 32", `{"hostname":"` + strings.Repeat("h", 32) + `"}`, func(o *orgOut) { o.Hostname = strings.Repeat("h", 32) }},
		{"default role", `{"defaultRole":"edit"}`, func(o *orgOut) { o.DefaultRole = ptrTo("edit") }},
		{"default role guest", `{"defaultRole":null}`, func(o *orgOut) { o.DefaultRole = nil }},
		{"default role read", `{"defaultRole":"read"}`, func(o *orgOut) { o.DefaultRole = ptrTo("read") }},
		{"sso", `{"sso":true}`, func(o *orgOut) { o.SSO = true }},
		{"ai off", `{"ai":false}`, func(o *orgOut) { o.AI = false }},
		{"invite links", `{"inviteLinks":true}`, func(o *orgOut) { o.InviteLinks = true }},
		{"merge rules", `{"mergeRules":{"type":"rules","rules":[{"rule":"require_at_least_one_review"},{"rule":"require_specific_reviewers","users":["u1"]},{"rule":"custom","expression":"true","message":"ok"}]}}`,
			func(o *orgOut) {
				o.MergeRules = json.RawMessage(`{"type":"rules","rules":[{"rule":"require_at_least_one_review"},{"rule":"require_specific_reviewers","users":["u1"]},{"rule":"custom","expression":"true","message":"ok"}]}`)
			}},
		{"merge rules empty", `{"mergeRules":{"type":"rules","rules":[]}}`, func(o *orgOut) { o.MergeRules = json.RawMessage(`{"type":"rules","rules":[]}`) }},
		{"merge rules none", `{"mergeRules":{"type":"none"}}`, func(o *orgOut) { o.MergeRules = json.RawMessage(`{"type":"none"}`) }},
		{"several at once", `{"title":"Final Org","sso":false,"ai":true,"unknownField":1}`, func(o *orgOut) {
			o.Title, o.SSO, o.AI = "Final Org", false, true
		}},
	}
	cur := e.fetchOrg(t, e.admin.token, e.org)
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			want := cur
			want.EmailDomains = slices.Clone(cur.EmailDomains)
			st.want(&want)
			got := patch(t, st.body)
			opt := cmp.Comparer(func(a, b json.RawMessage) bool { return jsonEqual(t, a, b) })
			if diff := cmp.Diff(want, got, opt); diff != "" {
				t.Errorf("PATCH %s (-want +got):\n%s", st.body, diff)
			}
			cur = got
		})
	}

	t.Run("invalid", func(t *testing.T) {
		for _, tc := range []struct {
			body  string
			field string
		}{
			{`{"title":"X"}`, "title"},
			{`{"title":" Padded"}`, "title"},
			{`{"title":null}`, "title"},
			{`{"title":7}`, "title"},
			{`{"emailDomains":["EXAMPLE.COM"]}`, "emailDomains[0]"},
			{`{"emailDomains":"example.com"}`, "emailDomains"},
			{`{"hostname":"ab"}`, "hostname"},
			{`{"hostname":"` + strings.Repeat("h", 33) + `"}`, "hostname"},
			{`{"hostname":""}`, "hostname"},
			{`{"hostname":"Upper-Case"}`, "hostname"},
			{`{"hostname":"-dash"}`, "hostname"},
			{`{"defaultRole":"owner"}`, "defaultRole"},
			{`{"defaultRole":"guest"}`, "defaultRole"},
			{`{"sso":null}`, "sso"},
			{`{"ai":"yes"}`, "ai"},
			{`{"inviteLinks":null}`, "inviteLinks"},
			{`{"mergeRules":null}`, "mergeRules"},
			{`{"mergeRules":"none"}`, "mergeRules"},
			{`{"mergeRules":{"type":"some"}}`, "mergeRules.type"},
			{`{"mergeRules":{"type":"rules","rules":[{"rule":"be_nice"}]}}`, "mergeRules.rules[0].rule"},
			{`{"mergeRules":{"type":"rules","rules":[{"rule":"allow_bypass","users":["u1"]},{"rule":"require_specific_reviewers"}]}}`, "mergeRules.rules[1].users"},
			{`{"mergeRules":{"type":"rules","rules":[{"rule":"require_one_of_specific_reviewers","users":"u1"}]}}`, "mergeRules.rules[0].users"},
			{`{"mergeRules":{"type":"rules","rules":[{"rule":"custom"}]}}`, "mergeRules.rules[0].expression"},
			{`{"mergeRules":{"type":"rules","rules":[{"rule":"custom","expression":"` + strings.Repeat("x", 1025) + `"}]}}`, "mergeRules.rules[0].expression"},
		} {
			t.Run(tc.body[:min(len(tc.body), 60)], func(t *testing.T) {
				e.call(t, e.admin.token, "PATCH", path, tc.body).wantError(t, http.StatusBadRequest, tc.field)
			})
		}
		// Nothing of a refused update was applied.
		if diff := cmp.Diff(cur, e.fetchOrg(t, e.admin.token, e.org)); diff != "" {
			t.Errorf("organization changed by refused updates (-before +after):\n%s", diff)
		}
	})
}

// jsonEqual compares two JSON documents by value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("decode %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return cmp.Equal(va, vb)
}

// TestOrgHostnameUnique: a hostname belongs to one organization at a time.
func TestOrgHostnameUnique(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := e.createOrg(t, e.admin.token, "Other Org")
	mine, theirs := "/v1/orgs/"+e.org, "/v1/orgs/"+other.ID

	e.call(t, e.admin.token, "PATCH", mine, map[string]any{"hostname": "docs"}).want(t, http.StatusOK)
	e.call(t, e.admin.token, "PATCH", theirs, map[string]any{"hostname": "docs", "title": "Taken"}).wantError(t, http.StatusConflict, "hostname")
	if got := e.fetchOrg(t, e.admin.token, other.ID); got.Hostname != "" || got.Title != "Other Org" {
		t.Errorf("after the conflict the other org has hostname %q, title %q; want neither changed", got.Hostname, got.Title)
	}
	// Setting an organization's own hostname again is no conflict.
	e.call(t, e.admin.token, "PATCH", mine, map[string]any{"hostname": "docs"}).want(t, http.StatusOK)
	// Once released, the hostname is free for another.
	e.call(t, e.admin.token, "PATCH", mine, map[string]any{"hostname": nil}).want(t, http.StatusOK)
	var got orgOut
	e.call(t, e.admin.token, "PATCH", theirs, map[string]any{"hostname": "docs"}).want(t, http.StatusOK).Decode(t, &got)
	if got.Hostname != "docs" {
		t.Errorf("hostname %q, want docs", got.Hostname)
	}
	e.call(t, e.admin.token, "PATCH", mine, map[string]any{"hostname": "docs"}).wantError(t, http.StatusConflict, "hostname")
}

// TestOrgUpdateForbidden: only admins change an organization; members see
// 403, outsiders 404, and nothing changes.
func TestOrgUpdateForbidden(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := e.fetchOrg(t, e.admin.token, e.org)
	for _, role := range []string{"create", "review", "edit", "comment", "read", "guest"} {
		t.Run(role, func(t *testing.T) {
			u := e.addUser(t, role, "Max "+role)
			e.call(t, u.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"title": "Hijacked"}).wantError(t, http.StatusForbidden, "admin")
		})
	}
	out := e.outsider(t)
	e.call(t, out.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"title": "Hijacked"}).wantError(t, http.StatusNotFound)
	e.call(t, "", "PATCH", "/v1/orgs/"+e.org, map[string]any{"title": "Hijacked"}).wantError(t, http.StatusUnauthorized)
	if diff := cmp.Diff(before, e.fetchOrg(t, e.admin.token, e.org)); diff != "" {
		t.Errorf("organization changed (-before +after):\n%s", diff)
	}
}

// TestOrgRequestErrors covers each class of request error on the
// organization endpoints.
func TestOrgRequestErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := "/v1/orgs/" + e.org
	big := `{"title":"` + strings.Repeat("a", 1<<20) + `"}`
	for _, tc := range []struct {
		name        string
		token       string
		method      string
		path        string
		contentType string // "-" for none
		body        string
		status      int
		parts       []string
	}{
		{"no token", "", "PATCH", path, "application/json", `{"title":"New"}`, http.StatusUnauthorized, []string{"Authorization"}},
		{"bad token", "quire_wrong", "PATCH", path, "application/json", `{"title":"New"}`, http.StatusUnauthorized, []string{"token"}},
		{"body too large", e.admin.token, "PATCH", path, "application/json", big, http.StatusRequestEntityTooLarge, []string{"body"}},
		{"create body too large", e.admin.token, "POST", "/v1/orgs", "application/json", big, http.StatusRequestEntityTooLarge, []string{"body"}},
		{"text body", e.admin.token, "PATCH", path, "text/plain", `{"title":"New"}`, http.StatusUnsupportedMediaType, []string{"Content-Type"}},
		{"form body", e.admin.token, "POST", "/v1/orgs", "application/x-www-form-urlencoded", `title=New`, http.StatusUnsupportedMediaType, []string{"Content-Type"}},
		{"no content type", e.admin.token, "POST", "/v1/orgs", "-", `{"title":"New"}`, http.StatusUnsupportedMediaType, []string{"Content-Type"}},
		{"malformed", e.admin.token, "PATCH", path, "application/json", `{"title":"New"`, http.StatusBadRequest, []string{"malformed JSON"}},
		{"malformed with offset", e.admin.token, "POST", "/v1/orgs", "application/json", `{"title" "New"}`, http.StatusBadRequest, []string{"malformed JSON", "offset"}},
		{"wrong type", e.admin.token, "PATCH", path, "application/json", `{"sso":"yes"}`, http.StatusBadRequest, []string{"sso"}},
		{"wrong method", e.admin.token, "DELETE", path, "-", ``, http.StatusMethodNotAllowed, []string{"DELETE"}},
		{"forbidden", e.addUser(t, "read", "Rita Reader").token, "PATCH", path, "application/json", `{"title":"New"}`, http.StatusForbidden, nil},
		{"not found", e.outsider(t).token, "PATCH", path, "application/json", `{"title":"New"}`, http.StatusNotFound, []string{"organization not found"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tc.method, tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "-" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			e.do(t, req).wantError(t, tc.status, tc.parts...)
		})
	}
	// None of them changed the organization or created one.
	if got := e.fetchOrg(t, e.admin.token, e.org); got.Title != "Test Org" || got.SSO {
		t.Errorf("organization is now %q (sso %v)", got.Title, got.SSO)
	}
	var orgs listOut[orgOut]
	e.call(t, e.admin.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &orgs)
	if orgs.Count != 1 {
		t.Errorf("admin belongs to %d organizations, want 1", orgs.Count)
	}

	// JSON with parameters, or a +json type, is JSON.
	for _, ct := range []string{"application/json; charset=utf-8", "application/merge-patch+json"} {
		req, _ := http.NewRequestWithContext(t.Context(), "PATCH", path, strings.NewReader(`{"title":"Typed Org"}`))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+e.admin.token)
		e.do(t, req).want(t, http.StatusOK)
	}
}
