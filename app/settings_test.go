package app_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// team is the settings tests' organization: its admin; Eddie, a member
// with the edit role; Gus, a guest granted read on the space Open only;
// and an outsider, admin of another organization. Open and Closed each
// have an open change request.
type team struct {
	*env
	open, closed, eddie, gus string
	teamID                   string
}

func newTeam(t *testing.T) *team {
	t.Helper()
	tm := &team{env: newEnv(t)}
	tm.open = tm.space(t, tm.token, tm.org, "Open", page{title: "Install", markdown: "Run the **installer** with care.\n\n## Requirements\n\nA computer."})
	tm.closed = tm.space(t, tm.token, tm.org, "Closed", page{title: "Secrets", markdown: "The launch codes are kept in the vault."})
	for _, sp := range []struct{ id, subject string }{{tm.open, "Tidy the install page"}, {tm.closed, "Hide the vault"}} {
		var cr struct{ ID string }
		tm.api(t, tm.token, "POST", "/v1/spaces/"+sp.id+"/change-requests", map[string]any{"subject": sp.subject}, http.StatusCreated, &cr)
		tm.api(t, tm.token, "PATCH", "/v1/spaces/"+sp.id+"/change-requests/"+cr.ID, map[string]any{"status": "open"}, http.StatusOK, nil)
	}
	tm.eddie = tm.addUser(t, tm.org, "eddie@example.com", "Eddie Editor", quire.RoleEdit)
	tm.gus = tm.addUser(t, tm.org, "gus@example.com", "Gus Guest", quire.RoleGuest)
	tm.api(t, tm.token, "POST", "/v1/spaces/"+tm.open+"/permissions", map[string]any{"role": "read", "users": []string{tm.gus}}, http.StatusNoContent, nil)
	var tt struct{ ID string }
	tm.api(t, tm.token, "PUT", "/v1/orgs/"+tm.org+"/teams", map[string]any{"title": "Writers"}, http.StatusCreated, &tt)
	tm.teamID = tt.ID
	if _, err := tm.db.InitOrganization(t.Context(), "Other Org", "olga@example.org", "Olga Outsider"); err != nil {
		t.Fatal(err)
	}
	return tm
}

func (e *env) addUser(t testing.TB, org, email, name string, role quire.Role) string {
	t.Helper()
	b, err := e.db.AddUser(t.Context(), org, email, name, role)
	if err != nil {
		t.Fatalf("add user %s: %v", email, err)
	}
	return b.User.ID
}

// as is a browser signed in as email, having read path (for its CSRF token).
func (tm *team) as(t *testing.T, email string) *browser {
	t.Helper()
	b := tm.browser(t)
	b.signIn(t, email)
	b.get(t, "/tokens")
	return b
}

// action is one form posted by someone, and the status wanted.
type action struct {
	name, who, path string
	form            url.Values
	want            int
}

func (tm *team) run(t *testing.T, actions []action) {
	t.Helper()
	browsers := map[string]*browser{}
	for _, a := range actions {
		b := browsers[a.who]
		if b == nil {
			b = tm.as(t, a.who)
			browsers[a.who] = b
		}
		form := url.Values{}
		for k, v := range a.form { // post sets the token in the form: each post its own
			form[k] = v
		}
		if got := b.post(t, a.path, form); got.status != a.want {
			t.Errorf("%s: POST %s as %s: %d, want %d: %s", a.name, a.path, a.who, got.status, a.want, errorMessage(got.body))
		}
	}
}

var errorText = regexp.MustCompile(`(?s)</h1>\s*<p>(.*?)</p>`)

// errorMessage is the message of an error page.
func errorMessage(body string) string {
	if m := errorText.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return "(no error message)"
}

const (
	admin    = "admin@example.com"
	eddie    = "eddie@example.com"
	gus      = "gus@example.com"
	outsider = "olga@example.org"
)

func TestSettingsPagesWhoSees(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	cases := []struct {
		path                    string
		admin, eddie, gus, olga int
		shows                   string
	}{
		{"/s/" + tm.open + "/~settings", 200, 403, 403, 404, "Space settings"},
		{"/s/" + tm.closed + "/~settings", 200, 403, 404, 404, "Space settings"},
		{"/o/" + tm.org + "/settings", 200, 403, 403, 404, "Organization settings"},
		{"/o/" + tm.org + "/sites", 200, 200, 200, 404, "Docs sites"},
	}
	who := map[string]*browser{admin: tm.as(t, admin), eddie: tm.as(t, eddie), gus: tm.as(t, gus), outsider: tm.as(t, outsider)}
	for _, c := range cases {
		for email, want := range map[string]int{admin: c.admin, eddie: c.eddie, gus: c.gus, outsider: c.olga} {
			got := who[email].get(t, c.path)
			if got.status != want {
				t.Errorf("GET %s as %s: %d, want %d", c.path, email, got.status, want)
			}
			if want == 200 && !strings.Contains(got.body, c.shows) {
				t.Errorf("GET %s as %s: no %q", c.path, email, c.shows)
			}
		}
	}
	if a := who[admin].get(t, "/s/"+tm.open); !strings.Contains(a.body, "/~settings") {
		t.Errorf("the space page does not link its settings for its admin")
	}
	if a := who[eddie].get(t, "/s/"+tm.open); strings.Contains(a.body, "/~settings") {
		t.Errorf("the space page links its settings for an editor")
	}
}

func TestSpaceSettings(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	settings := "/s/" + tm.open + "/~settings"
	general := url.Values{"title": {"Opened"}, "emoji": {"1f4d8"}, "visibility": {"public"}}
	tm.run(t, []action{
		{"editor changes title", eddie, settings, general, 403},
		{"guest changes title", gus, settings, general, 403},
		{"outsider changes title", outsider, settings, general, 404},
		{"bad csrf", admin, settings, url.Values{"title": {"X"}, "visibility": {"public"}, "csrf": {"nope"}}, 403},
		{"in-collection at top level", admin, settings, url.Values{"title": {"X"}, "visibility": {"in-collection"}}, 400},
		{"admin changes", admin, settings, general, 303},
		{"editor grants", eddie, settings + "/users", url.Values{"user": {tm.eddie}, "role": {"admin"}}, 403},
		{"admin grants a user", admin, settings + "/users", url.Values{"user": {tm.eddie}, "role": {"admin"}}, 303},
		{"admin grants a team", admin, settings + "/teams", url.Values{"team": {tm.teamID}, "role": {"edit"}}, 303},
		{"admin grants a stranger", admin, settings + "/users", url.Values{"user": {"nobody"}, "role": {"read"}}, 400},
		{"admin removes gus", admin, settings + "/users", url.Values{"user": {tm.gus}, "role": {"none"}}, 303},
	})
	var sp struct{ Title, Emoji, Visibility string }
	tm.api(t, tm.token, "GET", "/v1/spaces/"+tm.open, nil, http.StatusOK, &sp)
	if sp.Title != "Opened" || sp.Emoji != "1f4d8" || sp.Visibility != "public" {
		t.Errorf("space after settings: %+v", sp)
	}
	var users struct {
		Items []struct {
			Permission string
			User       struct{ ID string }
		}
	}
	tm.api(t, tm.token, "GET", "/v1/spaces/"+tm.open+"/permissions/users", nil, http.StatusOK, &users)
	if len(users.Items) != 1 || users.Items[0].User.ID != tm.eddie || users.Items[0].Permission != "admin" {
		t.Errorf("user grants: %+v", users.Items)
	}
	var teams struct{ Items []struct{ Permission string } }
	tm.api(t, tm.token, "GET", "/v1/spaces/"+tm.open+"/permissions/teams", nil, http.StatusOK, &teams)
	if len(teams.Items) != 1 || teams.Items[0].Permission != "edit" {
		t.Errorf("team grants: %+v", teams.Items)
	}
	// Eddie, now the space's admin, may change it; Gus no longer sees it.
	tm.run(t, []action{
		{"granted admin changes", eddie, settings, url.Values{"title": {"Eddie's"}, "visibility": {"public"}}, 303},
		{"ungranted guest", gus, settings, general, 404},
	})
}

func TestOrgSettings(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	base := "/o/" + tm.org + "/settings"
	tm.run(t, []action{
		{"editor promotes self", eddie, base + "/members/" + tm.eddie + "/role", url.Values{"role": {"admin"}}, 403},
		{"outsider", outsider, base + "/members/" + tm.eddie + "/role", url.Values{"role": {"admin"}}, 404},
		{"bad csrf", admin, base + "/members/" + tm.eddie + "/role", url.Values{"role": {"admin"}, "csrf": {"x"}}, 403},
		{"admin sets a role", admin, base + "/members/" + tm.eddie + "/role", url.Values{"role": {"review"}}, 303},
		{"unknown role", admin, base + "/members/" + tm.eddie + "/role", url.Values{"role": {"boss"}}, 400},
		{"editor creates a team", eddie, base + "/teams", url.Values{"title": {"Eds"}}, 403},
		{"admin creates a team", admin, base + "/teams", url.Values{"title": {"Reviewers"}}, 303},
		{"editor adds to a team", eddie, base + "/teams/" + tm.teamID + "/members", url.Values{"user": {tm.eddie}}, 403},
		{"admin adds an owner", admin, base + "/teams/" + tm.teamID + "/members", url.Values{"user": {tm.eddie}, "role": {"owner"}}, 303},
		{"owner adds to their team", eddie, base + "/teams/" + tm.teamID + "/members", url.Values{"user": {tm.gus}}, 303},
		{"owner removes from their team", eddie, base + "/teams/" + tm.teamID + "/members/" + tm.gus + "/remove", nil, 303},
		{"editor removes a member", eddie, base + "/members/" + tm.gus + "/remove", nil, 403},
		{"admin removes a member", admin, base + "/members/" + tm.gus + "/remove", nil, 303},
		{"last admin demoted", admin, base + "/members/" + tm.eddie + "/role", url.Values{"role": {"read"}}, 303},
	})
	m, err := tm.db.Member(t.Context(), tm.org, tm.eddie)
	if err != nil || m.Role != quire.RoleRead {
		t.Errorf("eddie: %+v %v", m, err)
	}
	if _, err := tm.db.Member(t.Context(), tm.org, tm.gus); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Errorf("gus still a member: %v", err)
	}
	adminID := tm.memberID(t, admin)
	tm.run(t, []action{{"last admin demotes self", admin, base + "/members/" + adminID + "/role", url.Values{"role": {"read"}}, 409}})
	page := tm.as(t, admin).get(t, base)
	for _, want := range []string{"Reviewers", "Writers", "Eddie Editor", "owner", "No SAML provider"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("settings page: no %q", want)
		}
	}
}

func (tm *team) memberID(t *testing.T, email string) string {
	t.Helper()
	u, err := tm.db.UserByEmail(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func TestSites(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	sites := "/o/" + tm.org + "/sites"
	tm.run(t, []action{
		{"editor creates", eddie, sites, url.Values{"title": {"Docs"}}, 403},
		{"guest creates", gus, sites, url.Values{"title": {"Docs"}}, 403},
		{"outsider creates", outsider, sites, url.Values{"title": {"Docs"}}, 404},
		{"bad csrf", admin, sites, url.Values{"title": {"Docs"}, "csrf": {"x"}}, 403},
		{"too short", admin, sites, url.Values{"title": {"D"}}, 400},
	})
	b := tm.as(t, admin)
	a := b.post(t, sites, url.Values{"title": {"Product docs"}, "csrf": {b.csrf}})
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, sites+"/") {
		t.Fatalf("create site: %d %q", a.status, a.location)
	}
	site := a.location
	tm.run(t, []action{
		{"editor adds a space", eddie, site + "/spaces", url.Values{"space": {tm.open}}, 403},
		{"editor publishes", eddie, site + "/publish", url.Values{"published": {"true"}}, 403},
		{"admin adds a space", admin, site + "/spaces", url.Values{"space": {tm.open}}, 303},
		{"admin adds a section", admin, site + "/sections", url.Values{"title": {"Secrets"}, "space": {tm.closed}}, 303},
		{"admin publishes", admin, site + "/publish", url.Values{"published": {"true"}}, 303},
	})
	page := b.get(t, site)
	for _, want := range []string{"Published at", "/sites/", "Open", "Secrets", "Unpublish"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("site page: no %q", want)
		}
	}
	if a := tm.as(t, eddie).get(t, site); a.status != 200 || strings.Contains(a.body, "Unpublish") {
		t.Errorf("site page for an editor: %d, or offers to unpublish", a.status)
	}
	tm.run(t, []action{{"admin unpublishes", admin, site + "/publish", url.Values{"published": {"false"}}, 303}})
	if a := b.get(t, site); !strings.Contains(a.body, "Not published") {
		t.Errorf("site page after unpublishing: still published")
	}

	// A guest sees the sites granted to them, as GET O/sites does, and
	// manages one only with a grant of the create role on it.
	g := tm.as(t, gus)
	if a := g.get(t, sites); a.status != 200 || strings.Contains(a.body, "Product docs") {
		t.Errorf("sites page for a guest granted none: %d, or lists the site", a.status)
	}
	if a := g.get(t, site); a.status != http.StatusNotFound {
		t.Errorf("site page for a guest granted none: %d, want 404", a.status)
	}
	siteID := site[strings.LastIndex(site, "/")+1:]
	grant := func(role quire.Role) {
		t.Helper()
		if err := tm.db.GrantRoles(t.Context(), store.Content{Kind: "site", ID: siteID, OrgID: tm.org}, []string{tm.gus}, nil, role); err != nil {
			t.Fatal(err)
		}
	}
	grant(quire.RoleRead)
	if a := g.get(t, sites); a.status != 200 || !strings.Contains(a.body, "Product docs") {
		t.Errorf("sites page for a guest granted the site: %d, or does not list it", a.status)
	}
	if a := g.get(t, site); a.status != 200 || strings.Contains(a.body, "Publish") {
		t.Errorf("site page for a guest who reads it: %d, or offers to publish", a.status)
	}
	tm.run(t, []action{{"reading guest publishes", gus, site + "/publish", url.Values{"published": {"true"}}, 403}})
	grant(quire.RoleCreate)
	tm.run(t, []action{{"guest granted create publishes", gus, site + "/publish", url.Values{"published": {"true"}}, 303}})
}

func TestOrgPageRecentChanges(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	org := "/o/" + tm.org
	if a := tm.as(t, admin).get(t, org); !strings.Contains(a.body, "Tidy the install page") || !strings.Contains(a.body, "Hide the vault") {
		t.Errorf("admin's org page lacks a change request:\n%s", a.body)
	}
	a := tm.as(t, gus).get(t, org)
	if !strings.Contains(a.body, "Tidy the install page") {
		t.Errorf("guest's org page lacks the change request of the space they read")
	}
	if strings.Contains(a.body, "Hide the vault") {
		t.Errorf("guest's org page shows a change request of a space they cannot read")
	}
}

func TestAsk(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	ask := "/o/" + tm.org + "/ask?q="
	a := tm.as(t, admin).get(t, ask+url.QueryEscape("How do I run the installer?"))
	if a.status != 200 || !strings.Contains(a.body, "installer") || !strings.Contains(a.body, `href="/s/`+tm.open+`/install`) {
		t.Errorf("ask: %d, no answer with its source:\n%s", a.status, a.body)
	}
	g := tm.as(t, gus)
	if a := g.get(t, ask+url.QueryEscape("Where are the launch codes?")); strings.Contains(a.body, "vault") || strings.Contains(a.body, tm.closed) {
		t.Errorf("ask answers a guest from a space they cannot read:\n%s", a.body)
	}
	if a := tm.as(t, outsider).get(t, ask+"installer"); a.status != http.StatusNotFound {
		t.Errorf("ask as an outsider: %d, want 404", a.status)
	}
	if a := g.get(t, "/o/"+tm.org+"/ask?q="+strings.Repeat("x", 1001)); a.status != http.StatusBadRequest {
		t.Errorf("ask a too long question: %d, want 400", a.status)
	}
}
