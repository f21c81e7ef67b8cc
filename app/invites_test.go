package app_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

var (
	inviteLink   = regexp.MustCompile(`value="https?://[^/"]+(/o/[^/"]+/join/qinv_[A-Z2-7]+)"`)
	deleteLinkID = regexp.MustCompile(`/settings/link-invites/([^/"]+)/delete`)
)

// invitePaths makes the admin's browser invite form's addresses and returns the
// join paths shown, in order.
func invitePaths(t *testing.T, b *browser, path string, form url.Values) []string {
	t.Helper()
	a := b.post(t, path, form)
	if a.status != http.StatusOK {
		t.Fatalf("POST %s: %d, want 200: %s", path, a.status, errorMessage(a.body))
	}
	var out []string
	for _, m := range inviteLink.FindAllStringSubmatch(a.body, -1) {
		out = append(out, m[1])
	}
	return out
}

func (tm *team) role(t *testing.T, email string) (quire.Role, bool) {
	t.Helper()
	u, err := tm.db.UserByEmail(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tm.db.Membership(t.Context(), tm.org, u.ID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return m.Role, true
}

func TestInviteByEmail(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	if _, err := tm.db.InitOrganization(t.Context(), "Third Org", "yan@example.net", "Yan Late"); err != nil {
		t.Fatal(err)
	}
	ad := tm.as(t, admin)
	ad.get(t, "/o/"+tm.org+"/settings")
	paths := invitePaths(t, ad, "/o/"+tm.org+"/settings/invites",
		url.Values{"emails": {"olga@example.org, zed@example.org\nyan@example.net"}, "role": {"edit"}})
	if len(paths) != 3 {
		t.Fatalf("links shown: %q, want 3", paths)
	}
	olgaLink, zedLink, yanLink := paths[0], paths[1], paths[2]

	olga := tm.as(t, outsider) // signed in with a login link
	a := olga.get(t, olgaLink)
	if a.status != http.StatusOK || !strings.Contains(a.body, "Join Test Org") || !strings.Contains(a.body, "<strong>edit</strong>") {
		t.Fatalf("GET the invite: %d: %s", a.status, a.body)
	}
	if a := olga.post(t, olgaLink, nil); a.status != http.StatusSeeOther || a.location != "/o/"+tm.org {
		t.Fatalf("join: %d to %q: %s", a.status, a.location, errorMessage(a.body))
	}
	if role, ok := tm.role(t, outsider); !ok || role != quire.RoleEdit {
		t.Errorf("olga's role after joining: %q, %v; want edit", role, ok)
	}
	if a := olga.get(t, "/o/"+tm.org); a.status != http.StatusOK {
		t.Errorf("GET the organization after joining: %d", a.status)
	}
	// Used once; someone else's; expired: the API's refusals, on the page and its form.
	olga.get(t, "/tokens")
	for _, c := range []struct {
		name, path string
		want       int
	}{{"reuse", olgaLink, 409}, {"another address", zedLink, 403}} {
		if a := olga.get(t, c.path); a.status != c.want {
			t.Errorf("%s: GET %d, want %d", c.name, a.status, c.want)
		}
		if a := olga.post(t, c.path, nil); a.status != c.want {
			t.Errorf("%s: POST %d, want %d: %s", c.name, a.status, c.want, errorMessage(a.body))
		}
	}
	if a := olga.get(t, "/o/"+tm.org+"/join/qinv_AAAA"); a.status != http.StatusNotFound {
		t.Errorf("unknown key: %d, want 404", a.status)
	}
	tm.advance(quire.InviteTTL + time.Minute)
	yan := tm.as(t, "yan@example.net") // after the clock moved, which ends sessions
	if a := yan.get(t, yanLink); a.status != http.StatusConflict {
		t.Errorf("expired: GET %d, want 409", a.status)
	}
	if a := yan.post(t, yanLink, nil); a.status != http.StatusConflict {
		t.Errorf("expired: POST %d, want 409", a.status)
	}
	if _, ok := tm.role(t, "yan@example.net"); ok {
		t.Errorf("yan joined with an expired invite")
	}
}

func TestLinkInvites(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	ad := tm.as(t, admin)
	ad.get(t, "/o/"+tm.org+"/settings")
	paths := invitePaths(t, ad, "/o/"+tm.org+"/settings/link-invites", url.Values{"role": {"read"}})
	if len(paths) != 1 {
		t.Fatalf("links shown: %q, want 1", paths)
	}
	link := paths[0]
	page := ad.get(t, "/o/"+tm.org+"/settings")
	if strings.Contains(page.body, link) {
		t.Errorf("the link is shown again after its creation")
	}
	m := deleteLinkID.FindStringSubmatch(page.body)
	if m == nil {
		t.Fatalf("no link invite listed")
	}

	olga := tm.as(t, outsider)
	if a := olga.get(t, link); a.status != http.StatusForbidden { // inviteLinks is off
		t.Errorf("GET with invite links off: %d, want 403", a.status)
	}
	tm.api(t, tm.token, "PATCH", "/v1/orgs/"+tm.org, map[string]any{"inviteLinks": true}, http.StatusOK, nil)
	if a := olga.get(t, link); a.status != http.StatusOK || !strings.Contains(a.body, "<strong>read</strong>") {
		t.Fatalf("GET the link: %d", a.status)
	}
	if a := olga.post(t, link, nil); a.status != http.StatusSeeOther {
		t.Fatalf("join: %d: %s", a.status, errorMessage(a.body))
	}
	if role, ok := tm.role(t, outsider); !ok || role != quire.RoleRead {
		t.Errorf("olga's role: %q, %v; want read", role, ok)
	}

	ad.get(t, "/o/"+tm.org+"/settings")
	if a := ad.post(t, "/o/"+tm.org+"/settings/link-invites/"+m[1]+"/delete", nil); a.status != http.StatusSeeOther {
		t.Fatalf("delete: %d: %s", a.status, errorMessage(a.body))
	}
	if a := olga.get(t, link); a.status != http.StatusNotFound {
		t.Errorf("GET a deleted link: %d, want 404", a.status)
	}
	if a := ad.get(t, "/o/"+tm.org+"/settings"); deleteLinkID.MatchString(a.body) {
		t.Errorf("a deleted link is still listed")
	}
}

func TestInviteFormsWhoMay(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	li, err := tm.db.CreateLinkInvite(t.Context(), quire.LinkInvite{OrgID: tm.org, Target: quire.TargetOrganization, Role: quire.RoleRead})
	if err != nil {
		t.Fatal(err)
	}
	settings := "/o/" + tm.org + "/settings"
	invite := url.Values{"emails": {"new@example.com"}, "role": {"read"}}
	tm.run(t, []action{
		{"editor invites", eddie, settings + "/invites", invite, 403},
		{"editor makes a link", eddie, settings + "/link-invites", url.Values{"role": {"read"}}, 403},
		{"editor deletes a link", eddie, settings + "/link-invites/" + li.ID + "/delete", nil, 403},
		{"outsider invites", outsider, settings + "/invites", invite, 404},
		{"outsider makes a link", outsider, settings + "/link-invites", url.Values{"role": {"read"}}, 404},
		{"outsider deletes a link", outsider, settings + "/link-invites/" + li.ID + "/delete", nil, 404},
		{"no token", admin, settings + "/invites", url.Values{"emails": {"new@example.com"}, "csrf": {"forged"}}, 403},
		{"bad address", admin, settings + "/invites", url.Values{"emails": {"not-an-address"}}, 400},
		{"link, no token", admin, settings + "/link-invites", url.Values{"role": {"read"}, "csrf": {""}}, 403},
		{"delete, no token", admin, settings + "/link-invites/" + li.ID + "/delete", url.Values{"csrf": {"forged"}}, 403},
	})
	if links, _ := tm.db.ListLinkInvites(t.Context(), tm.org, store.Page{Limit: 10}); len(links.Items) != 1 {
		t.Errorf("link invites: %d, want 1", len(links.Items))
	}

	// Joining needs the form's token too.
	ad := tm.as(t, admin)
	ad.get(t, settings)
	link := invitePaths(t, ad, settings+"/invites", url.Values{"emails": {outsider}, "role": {"read"}})[0]
	olga := tm.as(t, outsider)
	olga.get(t, link)
	if a := olga.post(t, link, url.Values{"csrf": {"forged"}}); a.status != http.StatusForbidden {
		t.Errorf("join with a forged token: %d, want 403", a.status)
	}
	if _, ok := tm.role(t, outsider); ok {
		t.Errorf("olga joined without the form's token")
	}
}

func TestJoinSignedOut(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	ad := tm.as(t, admin)
	ad.get(t, "/o/"+tm.org+"/settings")
	link := invitePaths(t, ad, "/o/"+tm.org+"/settings/invites", url.Values{"emails": {outsider}, "role": {"comment"}})[0]

	b := tm.browser(t)
	a := b.get(t, link)
	want := "/signin?next=" + url.QueryEscape(link)
	if a.status != http.StatusSeeOther || a.location != want {
		t.Fatalf("GET the invite signed out: %d to %q, want 303 to %q", a.status, a.location, want)
	}
	if a := b.post(t, link, nil); a.status != http.StatusSeeOther || a.location != "/signin" {
		t.Errorf("POST signed out: %d to %q, want 303 to /signin", a.status, a.location)
	}
	if _, ok := tm.role(t, outsider); ok {
		t.Fatalf("a signed-out post joined")
	}
	// Signing in with a link brings the visitor back; only to this server.
	token, _, err := tm.db.CreateLoginLink(t.Context(), outsider)
	if err != nil {
		t.Fatal(err)
	}
	b.get(t, "/signin/link?token="+url.QueryEscape(token)+"&next="+url.QueryEscape(link))
	if a := b.post(t, "/signin/link", url.Values{"token": {token}, "next": {link}}); a.status != http.StatusSeeOther || a.location != link {
		t.Fatalf("sign in: %d to %q, want %q", a.status, a.location, link)
	}
	if a := b.get(t, link); a.status != http.StatusOK {
		t.Fatalf("GET the invite signed in: %d", a.status)
	}
	if a := b.post(t, link, nil); a.status != http.StatusSeeOther {
		t.Fatalf("join: %d: %s", a.status, errorMessage(a.body))
	}
	if page := tm.browser(t).get(t, "/signin/link?token=x&next="+url.QueryEscape("//evil.example/")); strings.Contains(page.body, "evil.example") {
		t.Errorf("the sign-in link page keeps another site's address")
	}
}
