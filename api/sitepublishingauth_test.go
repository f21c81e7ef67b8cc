package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/internal/contract"
)

// The site-publishing-auth operations are outside the reference's subset,
// so their answers are checked against the whole reference document.

type sitePublishingAuth struct {
	Object      string `json:"object"`
	Backend     string `json:"backend"`
	PrivateKey  string `json:"privateKey"`
	FallbackURL string `json:"fallbackURL"`
	LogoutURL   string `json:"logoutURL"`
	Issuer      string `json:"issuer"`
}

var (
	fullRefOnce sync.Once
	fullRef     *contract.Reference
	fullRefErr  error
)

// fullReference loads the official document cut to the operations served
// (servedReferencePath): what answers beyond the contract's subset are
// checked against.
func fullReference(t testing.TB) *contract.Reference {
	t.Helper()
	fullRefOnce.Do(func() { fullRef, fullRefErr = contract.Load(servedReferencePath) })
	if fullRefErr != nil {
		t.Fatalf("load the served reference: %v", fullRefErr)
	}
	return fullRef
}

// authCall calls a publishing-auth operation as token's holder, checks the
// answer against the whole reference and wants status.
func authCall(t *testing.T, e *env, token, method, path string, body any, status int) *response {
	t.Helper()
	res := e.call(t, token, method, path, body)
	if ref := fullReference(t); ref != nil {
		if err := ref.Check(method, strings.TrimPrefix(path, "/v1"), res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res.want(t, status)
}

var hexKey = regexp.MustCompile(`^[0-9a-f]{64}$`)

func TestSitePublishingAuth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := siteCreate(t, e, map[string]any{"title": "Docs", "visibility": "visitor-auth", "spaces": []string{siteNewSpace(t, e, "Guide")}})
	path := sitePath(e, s.ID, "/publishing/auth")

	var got sitePublishingAuth
	authCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK).Decode(t, &got)
	key := got.PrivateKey
	if !hexKey.MatchString(key) {
		t.Fatalf("privateKey %q, want 64 hex digits", key)
	}
	if diff := cmp.Diff(sitePublishingAuth{Object: "publishing-auth", Backend: "custom", PrivateKey: key}, got); diff != "" {
		t.Errorf("new site's auth (-want +got):\n%s", diff)
	}

	// PATCH sets, keeps what it omits, and removes what it nulls.
	body := map[string]any{"backend": "custom", "fallbackURL": "https://auth.example.com/login?site=docs",
		"logoutURL": "https://auth.example.com/logout", "issuer": "https://auth.example.com"}
	got = sitePublishingAuth{}
	authCall(t, e, e.admin.token, "PATCH", path, body, http.StatusOK).Decode(t, &got)
	want := sitePublishingAuth{Object: "publishing-auth", Backend: "custom", PrivateKey: key,
		FallbackURL: "https://auth.example.com/login?site=docs", LogoutURL: "https://auth.example.com/logout", Issuer: "https://auth.example.com"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after PATCH (-want +got):\n%s", diff)
	}
	got = sitePublishingAuth{}
	authCall(t, e, e.admin.token, "PATCH", path, map[string]any{"logoutURL": nil, "issuer": nil}, http.StatusOK).Decode(t, &got)
	want.LogoutURL, want.Issuer = "", ""
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after removing logoutURL and issuer (-want +got):\n%s", diff)
	}
	if res := authCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK); !strings.Contains(string(res.Body), `"fallbackURL"`) || strings.Contains(string(res.Body), `"logoutURL"`) {
		t.Errorf("GET after PATCH: %s", res.Body)
	}

	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{"backend": "integration"}, `backend: "integration" is not supported`},
		{map[string]any{"backend": "oauth"}, "backend"},
		{map[string]any{"backend": nil}, "backend"},
		{map[string]any{"fallbackURL": "ftp://auth.example.com/"}, "fallbackURL"},
		{map[string]any{"fallbackURL": "/login"}, "fallbackURL"},
		{map[string]any{"fallbackURL": ""}, "fallbackURL"},
		{map[string]any{"fallbackURL": "https://auth.example.com/" + strings.Repeat("a", 2048)}, "fallbackURL"},
		{map[string]any{"logoutURL": "javascript:alert(1)"}, "logoutURL"},
		{map[string]any{"logoutURL": 3}, "logoutURL"},
		{map[string]any{"issuer": ""}, "issuer"},
		{map[string]any{"issuer": strings.Repeat("i", 257)}, "issuer"},
	} {
		authCall(t, e, e.admin.token, "PATCH", path, tc.body, http.StatusBadRequest).wantError(t, http.StatusBadRequest, tc.want)
	}

	// Regenerating makes a new key and keeps the URLs.
	got = sitePublishingAuth{}
	authCall(t, e, e.admin.token, "POST", path+"/regenerate", nil, http.StatusOK).Decode(t, &got)
	if got.PrivateKey == key || !hexKey.MatchString(got.PrivateKey) || got.FallbackURL != want.FallbackURL {
		t.Errorf("regenerated %+v; want a new key (not %q) and the fallback URL kept", got, key)
	}
	key = got.PrivateKey

	// The key shows in no other answer.
	for _, p := range []string{sitePath(e, s.ID, ""), siteOrg(e, "/sites"), sitePath(e, s.ID, "/published"), sitePath(e, s.ID, "/site-spaces"), sitePath(e, s.ID, "/share-links")} {
		if res := e.call(t, e.admin.token, "GET", p, nil); strings.Contains(string(res.Body), key) {
			t.Errorf("GET %s shows the visitor-auth key", p)
		}
	}

	// Only those who manage the site: others in the organization are
	// refused, outsiders do not see the site.
	editor, outsider := e.addUser(t, "edit", "Ed Editor"), e.outsider(t)
	for _, op := range []struct{ method, path string }{{"GET", path}, {"PATCH", path}, {"POST", path + "/regenerate"}} {
		var body any
		if op.method == "PATCH" {
			body = map[string]any{"backend": "custom"}
		}
		authCall(t, e, editor.token, op.method, op.path, body, http.StatusForbidden)
		authCall(t, e, outsider.token, op.method, op.path, body, http.StatusNotFound)
		authCall(t, e, "", op.method, op.path, body, http.StatusUnauthorized)
		authCall(t, e, e.admin.token, op.method, sitePath(e, "nosuchsite", "/publishing/auth")+strings.TrimPrefix(op.path, path), body, http.StatusNotFound)
	}
	if got := siteGet[sitePublishingAuth](t, e, e.admin.token, path); got.PrivateKey != key {
		t.Errorf("key %q after refused calls, want %q", got.PrivateKey, key)
	}
}

// TestConditionsMustCompile: a section, site space or page condition that
// does not compile is refused when it is set, naming the field.
func TestConditionsMustCompile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{siteNewSpace(t, e, "Guide")}})
	sec := siteCall[siteSection](t, e, "POST", sitePath(e, s.ID, "/sections"), map[string]any{"spaceId": siteNewSpace(t, e, "API")}, http.StatusCreated)
	secPath := sitePath(e, s.ID, "/sections/"+sec.ID)
	ssPath := sitePath(e, s.ID, "/site-spaces/"+sec.SiteSpaces[0].ID)
	for _, bad := range []string{`visitor.claims.plan ==`, `plan == "pro"`, `visitor.claims.plan = "pro"`, `1 + 1`} {
		for _, p := range []string{secPath, ssPath} {
			e.call(t, e.admin.token, "PATCH", p, map[string]any{"condition": bad}).wantError(t, http.StatusBadRequest, "condition: ")
		}
	}
	good := `visitor.claims.plan == "pro" || visitor.claims.unsigned.beta == true`
	if got := siteCall[siteSection](t, e, "PATCH", secPath, map[string]any{"condition": good}, http.StatusOK); got.Condition != good {
		t.Errorf("section condition %q, want %q", got.Condition, good)
	}
	if got := siteCall[siteSiteSpace](t, e, "PATCH", ssPath, map[string]any{"condition": good}, http.StatusOK); got.Condition != good {
		t.Errorf("site space condition %q, want %q", got.Condition, good)
	}

	_, cr := e.newChangeRequest(t)
	e.author(t, e.admin.token, cr, insertPage("p", "# Page\n", "condition", "visitor.claims.plan ==")).
		wantError(t, http.StatusBadRequest, "changes[0].condition: does not compile")
	e.author(t, e.admin.token, cr, insertPage("p", "# Page\n", "condition", good)).want(t, http.StatusOK)
	rev := e.revision(t, cr+"/content")
	e.author(t, e.admin.token, cr, map[string]any{"operation": "update_page", "page": rev.Pages[0].ID, "condition": "visiter.claims.plan"}).
		wantError(t, http.StatusBadRequest, "changes[0].condition: does not compile", "visiter")
	e.author(t, e.admin.token, cr, map[string]any{"operation": "update_page", "page": rev.Pages[0].ID, "condition": ""}).want(t, http.StatusOK)
}
