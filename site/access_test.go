package site_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Who may read a published site (issue 14, "Who may read"), through the
// real server: each visibility, share links, visitor tokens, members, and
// conditions over visitors' claims.

// visitorCase is one visitor of one published site: how they ask for its
// URLs and whether its visibility admits them. Tests of every kind of URL
// (pages, search, files, sitemaps, llms.txt, .md, MCP) run the same cases
// from visitorCases.
type visitorCase struct {
	name    string
	base    string // the site's published URL, ending with a slash
	allowed bool
	refused int                     // the status when refused: 404, or 401 on visitor-auth sites
	prepare func(req *http.Request) // adds the visitor's key, token or API token; nil for none
}

// visitorCases publishes one site per visibility, each showing the spaces
// spaceIDs, and returns a case for each kind of visitor of each, allowed
// and refused: anyone on public and unlisted sites, share-link visitors
// with and without the key, visitor-auth visitors with a valid token and
// with bad ones, members of the organization by API token, and someone
// else's API token.
func visitorCases(t *testing.T, e *env, spaceIDs ...string) []visitorCase {
	t.Helper()
	sites := map[string]string{} // visibility → published URL
	ids := map[string]string{}
	for _, vis := range []string{"public", "unlisted", "share-link", "visitor-auth"} {
		ids[vis], sites[vis] = e.siteOf(t, "Docs "+vis, vis, spaceIDs...)
	}
	shareKey := e.shareKey(t, ids["share-link"])
	key := e.visitorKey(t, ids["visitor-auth"])
	outsider := e.outsiderToken(t)
	query := func(name, value string) func(*http.Request) {
		return func(req *http.Request) {
			q := req.URL.Query()
			q.Set(name, value)
			req.URL.RawQuery = q.Encode()
		}
	}
	header := func(token string) func(*http.Request) {
		return func(req *http.Request) { req.Header.Set("Authorization", "Bearer "+token) }
	}
	valid := sign(t, key, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()})
	cases := []visitorCase{
		{name: "public, anyone", base: sites["public"], allowed: true},
		{name: "unlisted, anyone", base: sites["unlisted"], allowed: true},
		{name: "share-link, no key", base: sites["share-link"]},
		{name: "share-link, wrong key", base: sites["share-link"], prepare: query("share", "not-the-key")},
		{name: "share-link, share", base: sites["share-link"], allowed: true, prepare: query("share", shareKey)},
		{name: "share-link, shareKey", base: sites["share-link"], allowed: true, prepare: query("shareKey", shareKey)},
		{name: "share-link, member", base: sites["share-link"], allowed: true, prepare: header(e.token)},
		{name: "share-link, outsider's API token", base: sites["share-link"], prepare: header(outsider)},
		{name: "visitor-auth, no token", base: sites["visitor-auth"]},
		{name: "visitor-auth, token", base: sites["visitor-auth"], allowed: true, prepare: query("jwt_token", valid)},
		{name: "visitor-auth, token as bearer", base: sites["visitor-auth"], allowed: true, prepare: header(valid)},
		{name: "visitor-auth, expired token", base: sites["visitor-auth"],
			prepare: query("jwt_token", sign(t, key, jwt.MapClaims{"exp": time.Now().Add(-time.Hour).Unix()}))},
		{name: "visitor-auth, token signed with another key", base: sites["visitor-auth"],
			prepare: query("jwt_token", sign(t, strings.Repeat("0", 64), jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()}))},
		{name: "visitor-auth, member", base: sites["visitor-auth"], allowed: true, prepare: header(e.token)},
		{name: "visitor-auth, outsider's API token", base: sites["visitor-auth"], prepare: header(outsider)},
	}
	for i := range cases {
		cases[i].refused = http.StatusNotFound
		if strings.HasPrefix(cases[i].name, "visitor-auth") {
			cases[i].refused = http.StatusUnauthorized
		}
	}
	return cases
}

// want is the status the case's visitor should get for a URL that answers
// ok to those admitted.
func (c visitorCase) want(ok int) int {
	if c.allowed {
		return ok
	}
	return c.refused
}

// get requests path (below the site's root, query allowed) as the case's
// visitor, following redirects with a cookie jar of its own, as a browser
// does; it returns the final status and body.
func (c visitorCase) get(t *testing.T, path string) (int, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	req, err := http.NewRequestWithContext(t.Context(), "GET", c.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.prepare != nil {
		c.prepare(req)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", req.URL, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// siteOf creates and publishes a site showing spaceIDs at its root; it
// returns its id and published URL.
func (e *env) siteOf(t *testing.T, title, visibility string, spaceIDs ...string) (id, url string) {
	t.Helper()
	var s struct {
		ID   string
		URLs struct{ Published string }
	}
	e.api(t, "POST", "/v1/orgs/"+e.org+"/sites", map[string]any{"title": title, "visibility": visibility, "spaces": spaceIDs}, http.StatusCreated, &s)
	e.api(t, "PATCH", "/v1/orgs/"+e.org+"/sites/"+s.ID, map[string]any{"published": true}, http.StatusOK, &s)
	return s.ID, s.URLs.Published
}

// shareKey reads a site's share key as its admin does.
func (e *env) shareKey(t testing.TB, siteID string) string {
	t.Helper()
	var links struct{ Items []struct{ Key string } }
	e.api(t, "GET", "/v1/orgs/"+e.org+"/sites/"+siteID+"/share-links", nil, http.StatusOK, &links)
	return links.Items[0].Key
}

// visitorKey reads a site's visitor-auth key as its admin does.
func (e *env) visitorKey(t *testing.T, siteID string) string {
	t.Helper()
	var auth struct{ PrivateKey string }
	e.api(t, "GET", "/v1/orgs/"+e.org+"/sites/"+siteID+"/publishing/auth", nil, http.StatusOK, &auth)
	return auth.PrivateKey
}

// outsiderToken is the API token of the admin of another organization.
func (e *env) outsiderToken(t *testing.T) string {
	t.Helper()
	b, err := e.db.InitOrganization(t.Context(), "Other Org", "otto@example.com", "Otto Outsider")
	if err != nil {
		t.Fatal(err)
	}
	return b.Token
}

// sign makes a visitor token as a site's backend does: HS256 with the key's
// text as the secret.
func sign(t *testing.T, key string, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// noRedirects is a client that shows redirects rather than following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// fetch sends req without following redirects.
func fetchReq(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func newRequest(t *testing.T, url string, cookies ...*http.Cookie) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	return req
}

// cookieNamed is the cookie resp sets whose name starts with prefix.
func cookieNamed(resp *http.Response, prefix string) *http.Cookie {
	for _, c := range resp.Cookies() {
		if strings.HasPrefix(c.Name, prefix) {
			return c
		}
	}
	return nil
}

func guideSpace(t *testing.T, e *env) string {
	t.Helper()
	return e.space(t, "Guide",
		page{ref: "intro", title: "Introduction", markdown: "Welcome to the guide.\n"},
		page{ref: "install", title: "Install", markdown: "Run the installer.\n"},
	)
}

func TestVisibilityOnPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := visitorCases(t, e, guideSpace(t, e))
	for _, c := range cases {
		for path, text := range map[string]string{"": "Welcome to the guide.", "install": "Run the installer."} {
			status, body := c.get(t, path)
			if want := c.want(http.StatusOK); status != want {
				t.Errorf("%s: GET /%s: %d, want %d", c.name, path, status, want)
			}
			if shown := strings.Contains(body, text); shown != c.allowed {
				t.Errorf("%s: GET /%s shows the page: %v, want %v", c.name, path, shown, c.allowed)
			}
		}
	}
}

func TestUnpublishedSiteIsNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, url := e.siteOf(t, "Docs", "public", guideSpace(t, e))
	e.api(t, "PATCH", "/v1/orgs/"+e.org+"/sites/"+id, map[string]any{"published": false}, http.StatusOK, nil)
	req := newRequest(t, url)
	req.Header.Set("Authorization", "Bearer "+e.token)
	if resp, _ := fetchReq(t, req); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unpublished site, as a member: %d, want 404", resp.StatusCode)
	}
}

func TestShareLinkCookie(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := guideSpace(t, e)
	idA, urlA := e.siteOf(t, "Site A", "share-link", sp)
	idB, urlB := e.siteOf(t, "Site B", "share-link", sp)
	keyA := e.shareKey(t, idA)

	resp, _ := fetchReq(t, newRequest(t, urlA+"install?share="+keyA+"&tab=1"))
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("with the key: %d, want 302", resp.StatusCode)
	}
	if loc := resp.Header.Get("Location"); loc != strings.TrimPrefix(urlA, e.srv.URL)+"install?tab=1" {
		t.Errorf("Location %q, want the same URL without the key", loc)
	}
	c := cookieNamed(resp, "quire_share_")
	if c == nil || c.Name != "quire_share_"+idA || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure || c.Path != "/sites/"+idA+"/" {
		t.Fatalf("cookie %+v; want quire_share_<site>, HttpOnly, SameSite=Lax, not Secure over plain HTTP, under the site's path", c)
	}
	if resp, body := fetchReq(t, newRequest(t, urlA+"install", c)); resp.StatusCode != http.StatusOK || !strings.Contains(body, "Run the installer.") {
		t.Errorf("with the cookie: %d", resp.StatusCode)
	}
	// The cookie of site A opens neither site B, nor A once renamed for B.
	if resp, _ := fetchReq(t, newRequest(t, urlB+"install", c)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("site B with site A's cookie: %d, want 404", resp.StatusCode)
	}
	forged := &http.Cookie{Name: "quire_share_" + idB, Value: keyA}
	if resp, _ := fetchReq(t, newRequest(t, urlB+"install", forged)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("site B with site A's key: %d, want 404", resp.StatusCode)
	}
	wrong := &http.Cookie{Name: "quire_share_" + idA, Value: keyA + "x"}
	if resp, _ := fetchReq(t, newRequest(t, urlA+"install", wrong)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a wrong key in the cookie: %d, want 404", resp.StatusCode)
	}
}

// visitorAuthSite publishes a visitor-auth site with a fallback URL and an
// issuer, and returns its id, URL and key.
func visitorAuthSite(t *testing.T, e *env, spaceID string) (id, url, key string) {
	t.Helper()
	id, url = e.siteOf(t, "Private docs", "visitor-auth", spaceID)
	e.api(t, "PATCH", "/v1/orgs/"+e.org+"/sites/"+id+"/publishing/auth",
		map[string]any{"backend": "custom", "fallbackURL": "https://auth.example.com/login", "issuer": "https://auth.example.com"}, http.StatusOK, nil)
	return id, url, e.visitorKey(t, id)
}

func TestVisitorTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, url, key := visitorAuthSite(t, e, guideSpace(t, e))
	hour := time.Now().Add(time.Hour)
	claims := func(extra jwt.MapClaims) jwt.MapClaims {
		c := jwt.MapClaims{"exp": hour.Unix(), "iss": "https://auth.example.com", "sub": "ada"}
		for k, v := range extra {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		return c
	}
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims(nil)).SignedString(jwt.UnsafeAllowNoneSignatureType)
	hs512, _ := jwt.NewWithClaims(jwt.SigningMethodHS512, claims(nil)).SignedString([]byte(key))
	valid := sign(t, key, claims(nil))
	for name, token := range map[string]string{
		"missing":         "",
		"garbage":         "not.a.token",
		"bad signature":   valid[:len(valid)-4] + "AAAA",
		"wrong key":       sign(t, strings.Repeat("ab", 32), claims(nil)),
		"expired":         sign(t, key, claims(jwt.MapClaims{"exp": time.Now().Add(-time.Hour).Unix()})),
		"without exp":     sign(t, key, claims(jwt.MapClaims{"exp": nil})),
		"not yet valid":   sign(t, key, claims(jwt.MapClaims{"nbf": hour.Add(-time.Minute).Unix()})),
		"alg none":        none,
		"alg HS512":       hs512,
		"wrong issuer":    sign(t, key, claims(jwt.MapClaims{"iss": "https://evil.example.com"})),
		"without issuer":  sign(t, key, claims(jwt.MapClaims{"iss": nil})),
		"key as hex data": sign(t, hexDecoded(t, key), claims(nil)),
	} {
		u := url + "install"
		if token != "" {
			u += "?jwt_token=" + token
		}
		resp, body := fetchReq(t, newRequest(t, u))
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", name, resp.StatusCode)
			continue
		}
		if strings.Contains(body, "Run the installer.") {
			t.Errorf("%s: the 401 shows the page", name)
		}
		if !strings.Contains(body, "https://auth.example.com/login?location=") {
			t.Errorf("%s: the 401 does not link to the sign-in URL: %s", name, body)
		}
		if c := cookieNamed(resp, "quire_visitor_"); c != nil && c.MaxAge >= 0 {
			t.Errorf("%s: cookie %+v set", name, c)
		}
	}

	// A valid token: a cookie that expires with it, and the same URL without it.
	resp, _ := fetchReq(t, newRequest(t, url+"install?jwt_token="+valid))
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != strings.TrimPrefix(url, e.srv.URL)+"install" {
		t.Fatalf("valid token: %d to %q, want 302 to the URL without it", resp.StatusCode, resp.Header.Get("Location"))
	}
	c := cookieNamed(resp, "quire_visitor_")
	if c == nil || c.Name != "quire_visitor_"+id || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/sites/"+id+"/" ||
		c.Expires.Unix() != hour.Unix() {
		t.Fatalf("cookie %+v; want quire_visitor_<site>, HttpOnly, SameSite=Lax, under the site's path, expiring with the token (%v)", c, hour)
	}
	if resp, body := fetchReq(t, newRequest(t, url+"install", c)); resp.StatusCode != http.StatusOK || !strings.Contains(body, "Run the installer.") {
		t.Fatalf("with the cookie: %d", resp.StatusCode)
	}

	// A new key refuses old tokens and the cookies that keep them, at once.
	e.api(t, "POST", "/v1/orgs/"+e.org+"/sites/"+id+"/publishing/auth/regenerate", nil, http.StatusOK, nil)
	resp, _ = fetchReq(t, newRequest(t, url+"install", c))
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("old cookie after a new key: %d, want 401", resp.StatusCode)
	}
	if cleared := cookieNamed(resp, "quire_visitor_"); cleared == nil || cleared.MaxAge >= 0 {
		t.Errorf("old cookie not cleared: %+v", cleared)
	}
	if resp, _ := fetchReq(t, newRequest(t, url+"install?jwt_token="+valid)); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("old token after a new key: %d, want 401", resp.StatusCode)
	}
	fresh := sign(t, e.visitorKey(t, id), claims(nil))
	if resp, _ := fetchReq(t, newRequest(t, url+"install?jwt_token="+fresh)); resp.StatusCode != http.StatusFound {
		t.Errorf("token signed with the new key: %d, want 302", resp.StatusCode)
	}
}

func hexDecoded(t *testing.T, s string) string {
	t.Helper()
	b := make([]byte, len(s)/2)
	for i := range b {
		var v byte
		for _, c := range s[2*i : 2*i+2] {
			v <<= 4
			if c >= 'a' {
				v |= byte(c-'a') + 10
			} else {
				v |= byte(c - '0')
			}
		}
		b[i] = v
	}
	return string(b)
}

// sectionedSite publishes a site (public or visitor-auth) with adaptive
// content and three sections: Guide (the default), Beta for visitors whose
// token says beta, and French whose one site space is for visitors who say
// lang=fr. It returns the site's id and URL.
func sectionedSite(t *testing.T, e *env, visibility string) (id, url string) {
	t.Helper()
	guide := guideSpace(t, e)
	beta := e.space(t, "Beta", page{title: "Beta features", markdown: "Try the new engine.\n"})
	french := e.space(t, "French", page{title: "Bienvenue", markdown: "Bonjour.\n"})
	id, url = e.siteOf(t, "Docs", visibility, guide)
	site := "/v1/orgs/" + e.org + "/sites/" + id
	e.api(t, "PATCH", site, map[string]any{"adaptiveContent": map[string]any{"enabled": true}}, http.StatusOK, nil)
	var sec struct {
		ID         string
		SiteSpaces []struct{ ID string }
	}
	e.api(t, "POST", site+"/sections", map[string]any{"spaceId": beta}, http.StatusCreated, &sec)
	e.api(t, "PATCH", site+"/sections/"+sec.ID, map[string]any{"path": "beta", "condition": "visitor.claims.beta == true"}, http.StatusOK, nil)
	e.api(t, "POST", site+"/sections", map[string]any{"spaceId": french}, http.StatusCreated, &sec)
	e.api(t, "PATCH", site+"/sections/"+sec.ID, map[string]any{"path": "fr"}, http.StatusOK, nil)
	e.api(t, "PATCH", site+"/site-spaces/"+sec.SiteSpaces[0].ID, map[string]any{"condition": `visitor.claims.unsigned.lang == "fr"`}, http.StatusOK, nil)
	return id, url
}

func TestConditionsOnSectionsAndSiteSpaces(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, url := sectionedSite(t, e, "visitor-auth")
	key := e.visitorKey(t, id)
	exp := time.Now().Add(time.Hour).Unix()
	plain := sign(t, key, jwt.MapClaims{"exp": exp})
	betaToken := sign(t, key, jwt.MapClaims{"exp": exp, "beta": true})
	// A visitor cannot state a signed claim: unsigned ones are apart.
	spoof := "&visitor.beta=true"
	for _, tc := range []struct {
		name, path string
		want       int
		text       string
	}{
		{"no claim", "beta/?jwt_token=" + plain, http.StatusNotFound, ""},
		{"unsigned claim posing as signed", "beta/?jwt_token=" + plain + spoof, http.StatusNotFound, ""},
		{"signed claim", "beta/?jwt_token=" + betaToken, http.StatusOK, "Try the new engine."},
		{"default section", "?jwt_token=" + plain, http.StatusOK, "Welcome to the guide."},
		{"without lang", "fr/?jwt_token=" + plain, http.StatusNotFound, ""},
		{"lang=de", "fr/?jwt_token=" + plain + "&visitor.lang=de", http.StatusNotFound, ""},
		{"lang=fr", "fr/?jwt_token=" + plain + "&visitor.lang=fr", http.StatusOK, "Bonjour."},
	} {
		c := visitorCase{name: tc.name, base: url}
		status, body := c.get(t, tc.path)
		if status != tc.want || !strings.Contains(body, tc.text) {
			t.Errorf("%s: GET %s: %d, want %d with %q", tc.name, tc.path, status, tc.want, tc.text)
		}
	}

	// Members see every section.
	for _, path := range []string{"beta/", "fr/"} {
		req := newRequest(t, url+path)
		req.Header.Set("Authorization", "Bearer "+e.token)
		if resp, _ := fetchReq(t, req); resp.StatusCode != http.StatusOK {
			t.Errorf("member: GET %s: %d, want 200", path, resp.StatusCode)
		}
	}
}

func TestUnsignedClaims(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, url := sectionedSite(t, e, "public")

	// Stated once, kept in a cookie for the visit.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	for _, tc := range []struct {
		path string
		want int
	}{{"fr/", http.StatusNotFound}, {"fr/?visitor.lang=fr", http.StatusOK}, {"fr/", http.StatusOK}, {"fr/?visitor.lang=de", http.StatusNotFound}} {
		resp, err := browser.Get(url + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("GET %s: %d, want %d", tc.path, resp.StatusCode, tc.want)
		}
	}

	// Signed claims adapt a public site too; a bad token only goes unheeded.
	key := e.visitorKey(t, id)
	beta := sign(t, key, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix(), "beta": true})
	if status, body := (visitorCase{base: url}).get(t, "beta/?jwt_token="+beta); status != http.StatusOK || !strings.Contains(body, "Try the new engine.") {
		t.Errorf("public site, signed beta claim: %d", status)
	}
	if status, _ := (visitorCase{base: url}).get(t, "beta/?jwt_token=bad"); status != http.StatusNotFound {
		t.Errorf("public site, bad token: %d, want 404 (the section hidden)", status)
	}
	if status, _ := (visitorCase{base: url}).get(t, "?jwt_token=bad"); status != http.StatusOK {
		t.Errorf("public site, bad token: %d, want 200", status)
	}

	// Without adaptive content, claims are not read.
	e.api(t, "PATCH", "/v1/orgs/"+e.org+"/sites/"+id, map[string]any{"adaptiveContent": map[string]any{"enabled": false}}, http.StatusOK, nil)
	if status, _ := (visitorCase{base: url}).get(t, "fr/?visitor.lang=fr"); status != http.StatusNotFound {
		t.Errorf("without adaptive content, lang=fr: %d, want 404", status)
	}
}

// TestSignInLocation: the 401 links to the site's sign-in URL with the
// page asked for (without the token) as its location.
func TestSignInLocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, siteURL, _ := visitorAuthSite(t, e, guideSpace(t, e))
	resp, body := fetchReq(t, newRequest(t, siteURL+"install?tab=2&jwt_token=bad"))
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("%d, want 401", resp.StatusCode)
	}
	want := "https://auth.example.com/login?location=" + url.QueryEscape(strings.TrimPrefix(siteURL, e.srv.URL)+"install?tab=2")
	if !strings.Contains(body, strings.ReplaceAll(want, "&", "&amp;")) && !strings.Contains(body, want) {
		t.Errorf("401 body %s; want a link to %s", body, want)
	}
}
