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

func TestSignInWithLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.browser(t)
	if a := b.get(t, "/"); a.status != http.StatusSeeOther || a.location != "/signin" {
		t.Fatalf("signed out, GET /: %d to %q, want 303 to /signin", a.status, a.location)
	}
	token, _, err := e.db.CreateLoginLink(t.Context(), e.admin)
	if err != nil {
		t.Fatal(err)
	}
	a := b.useLink(t, token, http.StatusSeeOther)
	if a.location != "/" || b.sessionCookie() == "" {
		t.Fatalf("signed in: redirect to %q, cookie %q", a.location, b.sessionCookie())
	}
	cookie := a.header.Get("Set-Cookie")
	for _, want := range []string{"HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("session cookie %q lacks %s", cookie, want)
		}
	}
	if a := b.get(t, "/o/"+e.org); a.status != http.StatusOK || !strings.Contains(a.body, "Ada Admin") {
		t.Fatalf("GET org page: %d", a.status)
	}

	// The link works once, in any browser.
	other := e.browser(t)
	if a := other.useLink(t, token, http.StatusUnauthorized); !strings.Contains(a.body, "already used or has expired") {
		t.Errorf("reused link: %s", a.body)
	}
	if other.sessionCookie() != "" {
		t.Error("reused link started a session")
	}
	// A link expires after store.LoginLinkTTL.
	late, _, err := e.db.CreateLoginLink(t.Context(), e.admin)
	if err != nil {
		t.Fatal(err)
	}
	e.advance(store.LoginLinkTTL + time.Second)
	other.useLink(t, late, http.StatusUnauthorized)
	other.useLink(t, "made-up", http.StatusUnauthorized)
}

func TestSignInWithToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.browser(t)
	b.get(t, "/signin")
	if a := b.post(t, "/signin/token", url.Values{"token": {"quire_wrong"}}); a.status != http.StatusUnauthorized {
		t.Fatalf("bad token: %d", a.status)
	}
	a := b.post(t, "/signin/token", url.Values{"token": {e.token}, "next": {"/tokens"}})
	if a.status != http.StatusSeeOther || a.location != "/tokens" {
		t.Fatalf("sign in with token: %d to %q", a.status, a.location)
	}
	// next never leads away from the server.
	b2 := e.browser(t)
	b2.get(t, "/signin")
	if a := b2.post(t, "/signin/token", url.Values{"token": {e.token}, "next": {"//evil.example/x"}}); a.location != "/" {
		t.Errorf("next //evil.example: redirect to %q, want /", a.location)
	}
}

func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	home := "/o/" + e.org

	idle := e.browser(t)
	idle.signIn(t, e.admin)
	e.advance(store.SessionIdle - time.Minute)
	if a := idle.get(t, home); a.status != http.StatusOK {
		t.Fatalf("used within the idle limit: %d", a.status)
	}
	e.advance(store.SessionIdle - time.Second) // counted from the last use
	if a := idle.get(t, home); a.status != http.StatusOK {
		t.Fatalf("used again within the idle limit: %d", a.status)
	}
	e.advance(store.SessionIdle)
	if a := idle.get(t, home); a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/signin") {
		t.Fatalf("idle session: %d to %q, want 303 to /signin", a.status, a.location)
	}

	busy := e.browser(t)
	busy.signIn(t, e.admin)
	for used := time.Duration(0); used+6*24*time.Hour < store.SessionLifetime; used += 6 * 24 * time.Hour {
		e.advance(6 * 24 * time.Hour)
		if a := busy.get(t, home); a.status != http.StatusOK {
			t.Fatalf("busy session after %v: %d", used, a.status)
		}
	}
	e.advance(6 * 24 * time.Hour) // past the absolute limit, though used
	if a := busy.get(t, home); a.status != http.StatusSeeOther {
		t.Fatalf("session past its lifetime: %d, want 303", a.status)
	}
}

func TestSignOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	home := "/o/" + e.org
	one, two, three := e.browser(t), e.browser(t), e.browser(t)
	for _, b := range []*browser{one, two, three} {
		b.signIn(t, e.admin)
		b.get(t, home)
	}
	if a := one.post(t, "/signout", nil); a.status != http.StatusSeeOther {
		t.Fatalf("sign out: %d", a.status)
	}
	if a := one.get(t, home); a.status != http.StatusSeeOther {
		t.Errorf("signed-out browser: %d", a.status)
	}
	if a := two.get(t, home); a.status != http.StatusOK {
		t.Fatalf("other browser after signing out one: %d", a.status)
	}
	if a := two.post(t, "/signout/everywhere", nil); a.status != http.StatusSeeOther {
		t.Fatalf("sign out everywhere: %d", a.status)
	}
	for i, b := range []*browser{two, three} {
		if a := b.get(t, home); a.status != http.StatusSeeOther {
			t.Errorf("browser %d after signing out everywhere: %d", i+2, a.status)
		}
	}
}

func TestCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.browser(t)
	b.signIn(t, e.admin)
	b.get(t, "/tokens")
	good := b.csrf
	for _, tc := range []struct {
		name       string
		csrf       string
		origin     string
		fetchSite  string
		wantStatus int
	}{
		{"no token", "", b.origin, "", http.StatusForbidden},
		{"wrong token", good + "x", b.origin, "", http.StatusForbidden},
		{"other origin", good, "https://evil.example", "", http.StatusForbidden},
		{"cross-site fetch", good, "", "cross-site", http.StatusForbidden},
		{"same origin", good, b.origin, "same-origin", http.StatusOK},
		{"header", "header:" + good, b.origin, "same-origin", http.StatusOK},
		{"wrong header", "header:x", b.origin, "same-origin", http.StatusForbidden},
	} {
		form := url.Values{"csrf": {tc.csrf}, "label": {tc.name}}
		header, inHeader := strings.CutPrefix(tc.csrf, "header:")
		if inHeader {
			form.Del("csrf")
		}
		req, _ := http.NewRequestWithContext(t.Context(), "POST", e.srv.URL+"/tokens", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		if tc.fetchSite != "" {
			req.Header.Set("Sec-Fetch-Site", tc.fetchSite)
		}
		if inHeader {
			req.Header.Set("X-CSRF-Token", header)
		}
		if a := b.do(t, req); a.status != tc.wantStatus {
			t.Errorf("%s: status %d, want %d", tc.name, a.status, tc.wantStatus)
		}
	}
	list, err := e.db.ListTokens(t.Context(), mustUser(t, e, e.admin))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(list); n != 3 { // the initial one and those made by "same origin" and "header"
		t.Errorf("%d tokens, want 3: refused posts made some", n)
	}

	// Before sign-in, forms carry the token of the csrf cookie.
	anon := e.browser(t)
	if a := anon.post(t, "/signin/token", url.Values{"token": {e.token}, "csrf": {"guess"}}); a.status != http.StatusForbidden {
		t.Errorf("sign-in form without its cookie: %d, want 403", a.status)
	}
	// Signing out is a post, so a link elsewhere cannot sign anyone out.
	if a := b.get(t, "/signout"); a.status == http.StatusSeeOther {
		t.Errorf("GET /signout signed out")
	}
}

func mustUser(t *testing.T, e *env, email string) string {
	t.Helper()
	u, err := e.db.UserByEmail(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func TestTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.browser(t)
	b.signIn(t, e.admin)
	b.get(t, "/tokens")
	a := b.post(t, "/tokens", url.Values{"label": {"CI"}})
	m := newToken.FindStringSubmatch(a.body)
	if a.status != http.StatusOK || m == nil {
		t.Fatalf("create token: %d, token shown: %v", a.status, m != nil)
	}
	token := m[1]
	e.api(t, token, "GET", "/v1/orgs/"+e.org, nil, http.StatusOK, nil) // and now cached by the API

	list, err := e.db.ListTokens(t.Context(), mustUser(t, e, e.admin))
	if err != nil {
		t.Fatal(err)
	}
	var hash string
	for _, tk := range list {
		if tk.Label == "CI" {
			hash = tk.Hash
		}
	}
	if a := b.get(t, "/tokens"); strings.Contains(a.body, token) || !strings.Contains(a.body, "CI") {
		t.Errorf("tokens page shows the token again, or not its label")
	}
	// Someone else cannot revoke it.
	other := e.browser(t)
	b2, err := e.db.AddUser(t.Context(), e.org, "bob@example.com", "Bob", "read")
	if err != nil {
		t.Fatal(err)
	}
	_ = b2
	other.signIn(t, "bob@example.com")
	other.get(t, "/tokens")
	if a := other.post(t, "/tokens/"+hash+"/revoke", nil); a.status != http.StatusNotFound {
		t.Errorf("revoke another's token: %d, want 404", a.status)
	}
	if a := b.post(t, "/tokens/"+hash+"/revoke", nil); a.status != http.StatusSeeOther {
		t.Fatalf("revoke: %d", a.status)
	}
	e.api(t, token, "GET", "/v1/orgs/"+e.org, nil, http.StatusUnauthorized, nil)
}

var newToken = regexp.MustCompile(`<pre class="token" id="new-token">([^<]+)</pre>`)

// TestSignInPage lists the SAML providers of the organization asked for,
// or of the server's only one, each starting a sign-in that ends here.
func TestSignInPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p, err := e.db.CreateSAMLProvider(t.Context(), e.org, quire.SAMLProvider{Label: "Okta", EntityID: "https://idp.test", SSOURL: "https://idp.test/sso", Certificate: "-----BEGIN CERTIFICATE-----"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.CreateSAMLProvider(t.Context(), e.org, quire.SAMLProvider{Label: "Pending"}); err != nil {
		t.Fatal(err)
	}
	start := `href="/v1/orgs/` + e.org + `/saml/` + p.ID + `/start?app=1"`
	b := e.browser(t)
	for _, path := range []string{"/signin", "/signin?org=" + e.org} {
		if a := b.get(t, path); a.status != 200 || !strings.Contains(a.body, start) || strings.Contains(a.body, "Pending") {
			t.Errorf("GET %s: %d, lists Okta: %v", path, a.status, strings.Contains(a.body, start))
		}
	}
	other, err := e.db.InitOrganization(t.Context(), "Other", "o@example.com", "O")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/signin", "/signin?org=" + other.Organization.ID, "/signin?org=nope"} {
		if a := b.get(t, path); a.status != 200 || strings.Contains(a.body, "Okta") {
			t.Errorf("GET %s: %d, lists another organization's provider", path, a.status)
		}
	}
}

// TestSignInNeverLeavesTheServer holds every way sign-in sends a browser
// on (a signed-in GET /signin, POST /signin/token, POST /signin/link) to a
// path of this server, whatever next says: the Location is checked as a
// browser reads it, backslashes as slashes.
func TestSignInNeverLeavesTheServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct{ next, want string }{
		{"/./\\evil.com", "/"},
		{"/.\\evil.com", "/"},
		{"/%5Cevil.com", "/"},
		{"/\\/evil.com", "/"},
		{"//evil.com", "/"},
		{"/\t/evil.com", "/"},
		{"https://evil.com/", "/"},
		{"evil.com", "/"},
		{"/a/../b?x=1", "/b?x=1"},
		{"/tokens/", "/tokens/"},
		{"/o/x?next=//evil.com", "/o/x?next=//evil.com"},
	}
	for _, c := range cases {
		signedIn := e.browser(t)
		signedIn.signIn(t, e.admin)
		if a := signedIn.get(t, "/signin?next="+url.QueryEscape(c.next)); a.status != http.StatusSeeOther || a.location != c.want {
			t.Errorf("signed in, GET /signin?next=%q: %d to %q, want %q", c.next, a.status, a.location, c.want)
		}

		withToken := e.browser(t)
		withToken.get(t, "/signin")
		if a := withToken.post(t, "/signin/token", url.Values{"token": {e.token}, "next": {c.next}}); a.location != c.want {
			t.Errorf("POST /signin/token next %q: to %q, want %q", c.next, a.location, c.want)
		}

		withLink := e.browser(t)
		token, _, err := e.db.CreateLoginLink(t.Context(), e.admin)
		if err != nil {
			t.Fatal(err)
		}
		withLink.get(t, "/signin/link?token="+url.QueryEscape(token))
		if a := withLink.post(t, "/signin/link", url.Values{"token": {token}, "csrf": {withLink.csrf}, "next": {c.next}}); a.location != c.want {
			t.Errorf("POST /signin/link next %q: to %q, want %q", c.next, a.location, c.want)
		}
	}
}
