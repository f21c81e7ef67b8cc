package site_test

import (
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// clearedCookies are the names of the cookies an answer removes, each
// checked to be removed under path.
func clearedCookies(t *testing.T, a answer, path string) []string {
	t.Helper()
	var names []string
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if c.MaxAge >= 0 || c.Path != path || !c.HttpOnly {
			t.Errorf("cookie %s: Max-Age %d, Path %q, HttpOnly %v: not removed under %s", c.Name, c.MaxAge, c.Path, c.HttpOnly, path)
		}
		names = append(names, c.Name)
	}
	return names
}

// A visitor signs out at ~logout: the site's visitor cookies are cleared
// and the visitor goes to the site's logout URL, else to its root.
func TestLogout(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	guide := guideSpace(t, e)
	id, url := e.siteOf(t, "Docs", "visitor-auth", guide)
	root := strings.TrimPrefix(url, e.srv.URL) // /sites/{id}/
	e.api(t, "PATCH", e.sitePath(id, ""), map[string]any{"adaptiveContent": map[string]any{"enabled": true}}, http.StatusOK, nil)
	e.api(t, "PATCH", e.sitePath(id, "/publishing/auth"), map[string]any{"logoutURL": "https://auth.example.com/logout"}, http.StatusOK, nil)
	key := e.visitorKey(t, id)
	token := sign(t, key, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()})

	jar, _ := cookiejar.New(nil)
	browser := newClient(jar)
	if a := fetch(t, browser, "GET", url+"?jwt_token="+token+"&visitor.lang=fr"); a.status != http.StatusFound {
		t.Fatalf("sign in: %d", a.status)
	}
	if a := fetch(t, browser, "GET", url+"install"); a.status != http.StatusOK {
		t.Fatalf("signed in: GET install: %d", a.status)
	}
	out := fetch(t, browser, "GET", url+"~logout")
	if out.status != http.StatusFound || out.header.Get("Location") != "https://auth.example.com/logout" {
		t.Errorf("GET ~logout: %d to %q, want 302 to the logout URL", out.status, out.header.Get("Location"))
	}
	if out.header.Get("Cache-Control") != "no-store" {
		t.Errorf("GET ~logout: Cache-Control %q", out.header.Get("Cache-Control"))
	}
	want := []string{"quire_share_" + id, "quire_visitor_" + id, "quire_claims_" + id}
	if got := clearedCookies(t, out, root); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("GET ~logout clears %v, want %v", got, want)
	}
	if a := fetch(t, browser, "GET", url+"install"); a.status != http.StatusUnauthorized {
		t.Errorf("signed out: GET install: %d, want 401", a.status)
	}

	// A visitor whose token expired signs out all the same.
	expired := sign(t, key, jwt.MapClaims{"exp": time.Now().Add(-time.Hour).Unix()})
	a := fetch(t, nil, "GET", url+"~logout", "Cookie", "quire_visitor_"+id+"="+expired)
	if a.status != http.StatusFound || len(clearedCookies(t, a, root)) != 3 {
		t.Errorf("expired token: GET ~logout: %d, Set-Cookie %q", a.status, a.header.Values("Set-Cookie"))
	}
	// Signing out is a GET; nothing else.
	if a := fetch(t, nil, "POST", url+"~logout"); a.status != http.StatusMethodNotAllowed || a.header.Get("Allow") != "GET" {
		t.Errorf("POST ~logout: %d, Allow %q", a.status, a.header.Get("Allow"))
	}

	// Without a logout URL, the visitor goes to the site's root.
	e.api(t, "PATCH", e.sitePath(id, "/publishing/auth"), map[string]any{"logoutURL": nil}, http.StatusOK, nil)
	if a := fetch(t, nil, "GET", url+"~logout"); a.status != http.StatusFound || a.header.Get("Location") != root {
		t.Errorf("no logout URL: GET ~logout: %d to %q, want 302 to %s", a.status, a.header.Get("Location"), root)
	}
	_, public := e.siteOf(t, "Public", "public", guide)
	if a := fetch(t, nil, "GET", public+"~logout"); a.status != http.StatusFound || a.header.Get("Location") != strings.TrimPrefix(public, e.srv.URL) {
		t.Errorf("public: GET ~logout: %d to %q", a.status, a.header.Get("Location"))
	}
}

// On a share-link site, signing out forgets the key; a stranger without
// it learns nothing of the site.
func TestLogoutShareLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, url := e.siteOf(t, "Secret handbook", "share-link", guideSpace(t, e))
	jar, _ := cookiejar.New(nil)
	browser := newClient(jar)
	if a := fetch(t, browser, "GET", url+"?share="+e.shareKey(t, id)); a.status != http.StatusFound {
		t.Fatalf("with the key: %d", a.status)
	}
	if a := fetch(t, browser, "GET", url); a.status != http.StatusOK {
		t.Fatalf("with the key kept: %d", a.status)
	}
	if a := fetch(t, browser, "GET", url+"~logout"); a.status != http.StatusFound || a.header.Get("Location") != strings.TrimPrefix(url, e.srv.URL) {
		t.Errorf("GET ~logout: %d to %q", a.status, a.header.Get("Location"))
	}
	if a := fetch(t, browser, "GET", url); a.status != http.StatusNotFound {
		t.Errorf("signed out: %d, want 404", a.status)
	}
	a := fetch(t, nil, "GET", url+"~logout")
	if a.status != http.StatusNotFound || strings.Contains(a.body, "Secret handbook") {
		t.Errorf("stranger: GET ~logout: %d, or the site's title shown", a.status)
	}
	if a := fetch(t, nil, "GET", url+"~logout", "Authorization", "Bearer "+e.token); a.status != http.StatusFound {
		t.Errorf("member: GET ~logout: %d, want 302", a.status)
	}
}
