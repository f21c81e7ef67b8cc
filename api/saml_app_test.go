package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/app"
	"github.com/quiredocs/quire/authoring"
)

// TestSAMLSignInToApp: a sign-in started from the app's sign-in page
// (start?app=1) ends in an app session and a redirect to the organization,
// with no API token made; one started without it still shows a token.
func TestSAMLSignInToApp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := newFlow(t, e, testKeys()[0])
	web, err := app.New(e.db, app.Config{PublicURL: testPublicURL, Author: &authoring.Author{DB: e.db}})
	if err != nil {
		t.Fatal(err)
	}
	srv := api.New(e.db, api.Config{PublicURL: testPublicURL, StartSession: web.StartSession})
	email := uniqueEmail("App.User")

	start := func(srv http.Handler, query string) string {
		t.Helper()
		req := httptest.NewRequestWithContext(t.Context(), "GET", strings.TrimPrefix(f.p.Service.StartURL, testPublicURL)+query, nil)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusFound {
			t.Fatalf("start%s: %d", query, rec.Code)
		}
		f.cookie = pendingSignIn(t, &response{Status: rec.Code, Header: rec.Header()})
		return rec.Header().Get("Location")
	}

	res := f.post(t, srv, f.respond(t, start(srv, "?app=1"), email, nil))
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/o/"+e.org {
		t.Fatalf("ACS of an app sign-in: %d to %q, want 303 to /o/%s:\n%s", res.Status, res.Header.Get("Location"), e.org, res.Body)
	}
	var session string
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == quire.SessionCookie {
			session = c.Value
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("session cookie: %+v", c)
			}
		}
	}
	_, u, err := e.db.SessionUser(t.Context(), session)
	if err != nil || u.Email != strings.ToLower(email) {
		t.Fatalf("session of the app sign-in: %v, %v", u, err)
	}
	if tokens, err := e.db.ListTokens(t.Context(), u.ID); err != nil || len(tokens) != 0 {
		t.Errorf("app sign-in made API tokens: %v, %v", tokens, err)
	}

	// Without ?app=1, and on a server without the app, the answer shows a token.
	signedIn(t, f.post(t, srv, f.respond(t, start(srv, ""), email, nil)))
	signedIn(t, f.post(t, e.srv, f.respond(t, start(e.srv, "?app=1"), email, nil)))
}
