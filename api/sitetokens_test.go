package api_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/published"
)

// siteTokenClaims are the claims of a site token, as GitBook's renderer
// decodes them (jwtDecode<SiteAPIToken>).
type siteTokenClaims struct {
	Kind          string         `json:"kind"`
	Organization  string         `json:"organization"`
	Spaces        []string       `json:"spaces"`
	Site          string         `json:"site"`
	SiteSection   string         `json:"siteSection"`
	SiteSpace     string         `json:"siteSpace"`
	Space         string         `json:"space"`
	Draft         bool           `json:"draft"`
	ChangeRequest string         `json:"changeRequest"`
	Claims        map[string]any `json:"claims"`
	Exp           int64          `json:"exp"`
	Iat           int64          `json:"iat"`
}

// decodeSiteToken reads a token's claims without checking it, as the
// renderer does.
func decodeSiteToken(t *testing.T, token string) siteTokenClaims {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("apiToken %q is no JWT", token)
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatalf("apiToken payload: %v", err)
	}
	var c siteTokenClaims
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("apiToken payload %s: %v", raw, err)
	}
	return c
}

// lookupToken looks siteURL up as an anonymous renderer (POST with the
// visitor payload when visitor is not nil) and returns the apiToken.
func lookupToken(t *testing.T, e *env, token, siteURL string, visitor map[string]any) string {
	t.Helper()
	var out struct{ APIToken string }
	if visitor == nil {
		e.call(t, token, "GET", "/v1/urls/published?url="+url.QueryEscape(siteURL), nil).want(t, http.StatusOK).Decode(t, &out)
	} else {
		e.call(t, token, "POST", "/v1/urls/published", map[string]any{"url": siteURL, "visitor": visitor}).want(t, http.StatusOK).Decode(t, &out)
	}
	return out.APIToken
}

// pageTitles are the titles of a revision's pages, depth first.
func pageTitles(t *testing.T, res *response) []string {
	t.Helper()
	var rev struct {
		Pages []json.RawMessage `json:"pages"`
	}
	res.Decode(t, &rev)
	var out []string
	var walk func([]json.RawMessage)
	walk = func(pages []json.RawMessage) {
		for _, raw := range pages {
			var p struct {
				Title string            `json:"title"`
				Pages []json.RawMessage `json:"pages"`
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			out = append(out, p.Title)
			walk(p.Pages)
		}
	}
	walk(rev.Pages)
	return out
}

// secretPage is the id and path of the page of publishedSearchSite's
// guide only visitors with plan "pro" see.
func secretPage(t *testing.T, e *env, guide string) (id, path string) {
	t.Helper()
	for _, p := range e.revision(t, "/v1/spaces/"+guide+"/content").Pages {
		if p.Title == "Pro installer" {
			return p.ID, p.Path
		}
	}
	t.Fatal("fixture: no Pro installer page")
	return "", ""
}

// TestSiteTokens: the token a URL lookup answers reads its site's published
// content and the spaces the site publishes, and nothing else: another
// site of the organization, another organization, a space the site does
// not publish, a change request it does not preview, any write, all
// refused; the site's search and insights events accepted; an expired,
// tampered or foreign-key token is 401, one of a site no longer published
// 404.
func TestSiteTokens(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	clock := spUseClock(e.env)
	siteID, guide, apiSpace := publishedSearchSite(t, e)
	other := siteNewSpace(t, e.env, "Other")
	e.cmSeed(t, other, insertPage("other", "# Other\n\nElsewhere.\n"))
	siteB := siteCreate(t, e.env, map[string]any{"title": "Site B", "spaces": []string{other}})
	e.call(t, e.admin.token, "PATCH", sitePath(e.env, siteB.ID, ""), map[string]any{"published": true}).want(t, http.StatusOK)
	unpublished := siteNewSpace(t, e.env, "Unpublished")
	var cr, otherCR cmCR
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+guide+"/change-requests", map[string]any{"subject": "Edits"}).want(t, http.StatusCreated).Decode(t, &cr)
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+guide+"/change-requests", map[string]any{"subject": "More"}).want(t, http.StatusCreated).Decode(t, &otherCR)
	otherOrg, err := e.db.InitOrganization(t.Context(), "Other Org", uniqueEmail("other"), "Olga Other")
	if err != nil {
		t.Fatal(err)
	}
	// A published site of another organization, and its space.
	var foreignSpace, foreignSite struct{ ID string }
	e.call(t, otherOrg.Token, "POST", "/v1/orgs/"+otherOrg.Organization.ID+"/spaces", map[string]any{"title": "Theirs"}).want(t, http.StatusCreated).Decode(t, &foreignSpace)
	e.call(t, otherOrg.Token, "POST", "/v1/orgs/"+otherOrg.Organization.ID+"/sites", map[string]any{"title": "Their site", "spaces": []string{foreignSpace.ID}}).want(t, http.StatusCreated).Decode(t, &foreignSite)
	e.call(t, otherOrg.Token, "PATCH", "/v1/orgs/"+otherOrg.Organization.ID+"/sites/"+foreignSite.ID, map[string]any{"published": true}).want(t, http.StatusOK)
	current := e.revision(t, "/v1/spaces/"+guide+"/content").ID
	e.cmSeed(t, guide, insertPage("later", "# Later\n\nAdded later.\n"))
	latest := e.revision(t, "/v1/spaces/"+guide+"/content").ID

	root := testPublicURL + "/sites/" + siteID + "/"
	token := lookupToken(t, e.env, "", root+"install", nil)
	c := decodeSiteToken(t, token)
	if c.Kind != "site" || c.Site != siteID || c.Organization != e.org || c.Space != guide || c.SiteSpace == "" || c.SiteSection == "" ||
		!slices.Contains(c.Spaces, guide) || !slices.Contains(c.Spaces, apiSpace) || len(c.Spaces) != 2 || c.Claims != nil || c.Draft {
		t.Fatalf("claims %+v", c)
	}
	if c.Exp-c.Iat != int64(published.SiteTokenLifetime/time.Second) || c.Iat != clock.Now().Unix() {
		t.Errorf("iat %d, exp %d: want an hour from now", c.Iat, c.Exp)
	}
	visitor := user{id: "site-visitor", email: "site token", token: token}

	secretID, secretPath := secretPage(t, e.env, guide)
	install := e.revision(t, "/v1/spaces/"+guide+"/content").Pages[0].Path
	insights := map[string]any{"events": []any{map[string]any{"type": "page_view",
		"session":  map[string]any{"visitorId": "v", "sessionId": "s", "cookies": map[string]any{}, "userAgent": "x", "language": nil, "referrer": nil},
		"location": map[string]any{"url": root + "install", "siteSection": nil, "siteSpace": nil, "siteShareKey": nil, "page": nil, "space": nil, "revision": nil}}}}
	site := func(id, rest string) string { return sitePath(e.env, id, rest) }
	run(t, e.env, []scenario{
		// The renderer's reads.
		{name: "the published site", as: visitor, path: site(siteID, "/published"), want: []check{inReference("GET", site(siteID, "/published"))}},
		{name: "a redirect by source", as: visitor, path: site(siteID, "/redirect?source=/nowhere"), status: http.StatusNotFound},
		{name: "the space", as: visitor, path: "/v1/spaces/" + guide, want: []check{field("id", guide)}},
		{name: "the other section's space", as: visitor, path: "/v1/spaces/" + apiSpace + "/content"},
		{name: "a page by path", as: visitor, path: "/v1/spaces/" + guide + "/content/path/" + install, want: []check{field("title", "Installing")}},
		{name: "the current revision", as: visitor, path: "/v1/spaces/" + guide + "/revisions/" + latest + "/pages"},
		{name: "a revision the site no longer shows", as: visitor, path: "/v1/spaces/" + guide + "/revisions/" + current, status: http.StatusNotFound, errs: []string{"revision not found"}},
		{name: "a page the visitor does not see", as: visitor, path: "/v1/spaces/" + guide + "/content/path/" + secretPath, status: http.StatusNotFound, errs: []string{"page not found"}},
		{name: "that page by id", as: visitor, path: "/v1/spaces/" + guide + "/content/page/" + secretID, status: http.StatusNotFound, errs: []string{"page not found"}},
		{name: "search the site", as: visitor, method: "POST", path: site(siteID, "/search"), body: map[string]any{"query": "installer", "scope": map[string]any{"mode": "all"}}},
		{name: "an embed's preview", as: visitor, path: "/v1/spaces/" + guide + "/embed?url=" + url.QueryEscape(root+"install"), want: []check{field("type", "link")}},
		{name: "a computed document of a spec the site has none of", as: visitor, method: "POST", path: "/v1/spaces/" + guide + "/content/computed/document",
			body: map[string]any{"source": map[string]any{"type": "builtin:openapi", "props": map[string]any{"doc": "models"},
				"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "none"}}}}, "seed": "s"}, status: http.StatusNotFound},
		{name: "insights events", as: visitor, method: "POST", path: site(siteID, "/insights/events"), body: insights, status: http.StatusNoContent},
		// Elsewhere: not found.
		{name: "another site of the organization", as: visitor, path: site(siteB.ID, "/published"), status: http.StatusNotFound, errs: []string{"site not found"}},
		{name: "another site's space", as: visitor, path: "/v1/spaces/" + other, status: http.StatusNotFound, errs: []string{"space not found"}},
		{name: "a space no site publishes", as: visitor, path: "/v1/spaces/" + unpublished + "/content", status: http.StatusNotFound, errs: []string{"space not found"}},
		{name: "another organization", as: visitor, path: "/v1/orgs/" + otherOrg.Organization.ID + "/sites/" + siteID + "/published", status: http.StatusNotFound, errs: []string{"organization not found"}},
		{name: "a site of another organization", as: visitor, path: "/v1/orgs/" + otherOrg.Organization.ID + "/sites/" + foreignSite.ID + "/published", status: http.StatusNotFound, errs: []string{"organization not found"}},
		{name: "its space", as: visitor, path: "/v1/spaces/" + foreignSpace.ID, status: http.StatusNotFound, errs: []string{"space not found"}},
		{name: "its search", as: visitor, method: "POST", path: "/v1/orgs/" + otherOrg.Organization.ID + "/sites/" + foreignSite.ID + "/search", body: map[string]any{"query": "x"}, status: http.StatusNotFound},
		{name: "a change request", as: visitor, path: "/v1/spaces/" + guide + "/change-requests/" + cr.ID, status: http.StatusNotFound, errs: []string{"change request not found"}},
		// Never: forbidden.
		{name: "PATCH the space", as: visitor, method: "PATCH", path: "/v1/spaces/" + guide, body: map[string]any{"title": "Mine"}, status: http.StatusForbidden, errs: []string{"read-only"}},
		{name: "POST a change request", as: visitor, method: "POST", path: "/v1/spaces/" + guide + "/change-requests", body: map[string]any{"subject": "x"}, status: http.StatusForbidden, errs: []string{"read-only"}},
		{name: "aggregate insights", as: visitor, method: "POST", path: site(siteID, "/insights/events/aggregate"), body: map[string]any{"range": "last24Hours"}, status: http.StatusForbidden},
		{name: "the site's settings", as: visitor, path: site(siteID, ""), status: http.StatusForbidden},
		{name: "the space's comments", as: visitor, path: "/v1/spaces/" + guide + "/comments", status: http.StatusForbidden},
		{name: "an export", as: visitor, path: "/v1/spaces/" + guide + "/content/export", status: http.StatusForbidden},
		{name: "the current user", as: visitor, path: "/v1/user", status: http.StatusForbidden},
		{name: "a user", as: visitor, path: "/v1/users/" + e.admin.id, status: http.StatusForbidden},
		{name: "the organization's spaces", as: visitor, path: siteOrg(e.env, "/spaces"), status: http.StatusForbidden},
	})
	if got := pageTitles(t, e.call(t, token, "GET", "/v1/spaces/"+guide+"/content", nil).want(t, http.StatusOK)); slices.Contains(got, "Pro installer") || !slices.Contains(got, "Installing") {
		t.Errorf("the visitor's revision lists %q", got)
	}
	if title, ok := e.db.Space(t.Context(), guide); ok != nil || title.Title != "Guide" {
		t.Errorf("space after the refused PATCH: %+v, %v", title, ok)
	}

	// A preview's token reads its change request, no other.
	preview := lookupToken(t, e.env, e.admin.token, root+"~/changes/"+cr.ID+"/install", nil)
	if pc := decodeSiteToken(t, preview); pc.ChangeRequest != cr.ID || !pc.Draft {
		t.Fatalf("preview claims %+v", pc)
	}
	e.call(t, preview, "GET", "/v1/spaces/"+guide+"/change-requests/"+cr.ID, nil).want(t, http.StatusOK)
	e.call(t, preview, "GET", "/v1/spaces/"+guide+"/change-requests/"+cr.ID+"/content", nil).want(t, http.StatusOK)
	e.call(t, preview, "GET", "/v1/spaces/"+guide+"/change-requests/"+otherCR.ID, nil).wantError(t, http.StatusNotFound, "change request not found")
	e.call(t, preview, "GET", "/v1/spaces/"+guide+"/revisions/"+cr.Revision, nil).want(t, http.StatusOK)
	old := lookupToken(t, e.env, e.admin.token, root+"~/revisions/"+current+"/", nil)
	e.call(t, old, "GET", "/v1/spaces/"+guide+"/revisions/"+current, nil).want(t, http.StatusOK)
	e.call(t, old, "GET", "/v1/spaces/"+guide+"/revisions/"+latest, nil).want(t, http.StatusOK)
	// The lookup authenticates previews by a member's own token only.
	var out map[string]any
	e.call(t, token, "GET", "/v1/urls/published?url="+url.QueryEscape(root+"~/changes/"+cr.ID+"/install"), nil).want(t, http.StatusNotFound).Decode(t, &out)

	// Bad tokens: 401.
	parts := strings.Split(token, ".")
	sig := []byte(parts[2])
	sig[0] ^= 1
	tampered := parts[0] + "." + parts[1] + "." + string(sig)
	e.call(t, tampered, "GET", "/v1/spaces/"+guide, nil).wantError(t, http.StatusUnauthorized, "invalid")
	foreign, err := published.SignSiteToken([]byte("another key"), published.SiteToken{Organization: e.org, Site: siteID, SiteSpace: c.SiteSpace, Space: guide, Spaces: []string{guide}}, clock.Now(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	e.call(t, foreign, "GET", "/v1/spaces/"+guide, nil).wantError(t, http.StatusUnauthorized, "invalid")
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"kind": "site", "site": siteID, "organization": e.org, "space": guide,
		"spaces": []string{guide}, "exp": clock.Now().Add(time.Hour).Unix()}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	e.call(t, none, "GET", "/v1/spaces/"+guide, nil).wantError(t, http.StatusUnauthorized, "invalid")
	clock.Advance(published.SiteTokenLifetime + time.Second)
	e.call(t, token, "GET", "/v1/spaces/"+guide, nil).wantError(t, http.StatusUnauthorized, "expired")

	// A site no longer published to anyone: 404 for its tokens.
	fresh := lookupToken(t, e.env, "", root+"install", nil)
	e.call(t, fresh, "GET", "/v1/spaces/"+guide, nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "PATCH", sitePath(e.env, siteID, ""), map[string]any{"visibility": "share-link"}).want(t, http.StatusOK)
	e.call(t, fresh, "GET", "/v1/spaces/"+guide, nil).wantError(t, http.StatusNotFound, "site not found")
	e.call(t, e.admin.token, "PATCH", sitePath(e.env, siteID, ""), map[string]any{"visibility": "public"}).want(t, http.StatusOK)
	e.call(t, fresh, "GET", "/v1/spaces/"+guide, nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "PATCH", sitePath(e.env, siteID, ""), map[string]any{"published": false}).want(t, http.StatusOK)
	e.call(t, fresh, "GET", sitePath(e.env, siteID, "/published"), nil).wantError(t, http.StatusNotFound, "site not found")
}

// TestSiteTokenVisitorClaims: on a site with adaptive content, the token
// carries the claims of the visitor's verified token and their unsigned
// claims, where the renderer reads them, and the content it reads shows
// the pages those claims see; a token signed with another key is unheeded,
// the site token expires with the visitor's, and the site's search finds
// what the claims see.
func TestSiteTokenVisitorClaims(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	siteID, guide, _ := publishedSearchSite(t, e)
	e.call(t, e.admin.token, "PATCH", sitePath(e.env, siteID, ""), map[string]any{"adaptiveContent": map[string]any{"enabled": true}}).want(t, http.StatusOK)
	var auth struct {
		PrivateKey string `json:"privateKey"`
	}
	e.call(t, e.admin.token, "GET", sitePath(e.env, siteID, "/publishing/auth"), nil).want(t, http.StatusOK).Decode(t, &auth)
	exp := time.Now().Add(20 * time.Minute).Unix()
	sign := func(key string) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"plan": "pro", "exp": exp}).SignedString([]byte(key))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	root := testPublicURL + "/sites/" + siteID + "/"
	_, secretPath := secretPage(t, e.env, guide)

	pro := lookupToken(t, e.env, "", root, map[string]any{"jwtToken": sign(auth.PrivateKey), "unsignedClaims": map[string]any{"lang": "fr"}})
	c := decodeSiteToken(t, pro)
	unsigned, _ := c.Claims["unsigned"].(map[string]any)
	if c.Claims["plan"] != "pro" || unsigned["lang"] != "fr" || c.Exp != exp {
		t.Fatalf("claims %+v, exp %d (want %d)", c.Claims, c.Exp, exp)
	}
	if got := pageTitles(t, e.call(t, pro, "GET", "/v1/spaces/"+guide+"/content", nil).want(t, http.StatusOK)); !slices.Contains(got, "Pro installer") {
		t.Errorf("a pro visitor's revision lists %q", got)
	}
	e.call(t, pro, "GET", "/v1/spaces/"+guide+"/content/path/"+secretPath, nil).want(t, http.StatusOK)
	search := func(token string) string {
		var out siteSearchOut
		siteRefCall(t, e.env, token, "POST", sitePath(e.env, siteID, "/search"), map[string]any{"query": "installer", "scope": map[string]any{"mode": "all"}}, http.StatusOK).Decode(t, &out)
		return strings.Join(out.titles(), ",")
	}
	if got := search(pro); !strings.Contains(got, "Guide/Pro installer") {
		t.Errorf("a pro visitor's search: %q", got)
	}

	for name, visitor := range map[string]map[string]any{
		"another key":          {"jwtToken": sign("not the site's key")},
		"unsigned claims only": {"unsignedClaims": map[string]any{"plan": "pro"}},
		"no claims":            {},
		"a token that is junk": {"jwtToken": "junk"},
	} {
		tok := lookupToken(t, e.env, "", root, visitor)
		if plan := decodeSiteToken(t, tok).Claims["plan"]; plan != nil {
			t.Errorf("%s: claims.plan %v", name, plan)
		}
		if got := pageTitles(t, e.call(t, tok, "GET", "/v1/spaces/"+guide+"/content/pages", nil).want(t, http.StatusOK)); slices.Contains(got, "Pro installer") || len(got) == 0 {
			t.Errorf("%s: pages %q", name, got)
		}
		e.call(t, tok, "GET", "/v1/spaces/"+guide+"/content/path/"+secretPath, nil).wantError(t, http.StatusNotFound, "page not found")
		if got := search(tok); strings.Contains(got, "Pro") || !strings.Contains(got, "Guide/Installing") {
			t.Errorf("%s: search %q", name, got)
		}
	}
}

// TestSiteTokenRateLimits: URL lookups count against the renderer's token
// when it sends one, not its address; a site token's requests count
// against its site, whatever address they come from; refused tokens
// against the address.
func TestSiteTokenRateLimits(t *testing.T) {
	t.Parallel()
	c := &clock{now: time.Unix(1_800_000_000, 0)}
	plain := newEnv(t) // sets up the site without limits
	siteID, guide, _ := publishedSearchSite(t, &siteEnv{env: plain})
	e := limitedServerOn(t, plain.db, c, api.RateLimits{Token: ratelimit.Rate{Limit: 4, Per: time.Minute}, IP: ratelimit.Rate{Limit: 1, Per: time.Minute}})
	e.org, e.admin = plain.org, plain.admin
	lookup := "/v1/urls/published?url=" + url.QueryEscape(testPublicURL+"/sites/"+siteID+"/install")

	// Anonymous: the address's one request.
	e.call(t, "", "GET", lookup, nil).want(t, http.StatusOK)
	e.call(t, "", "GET", lookup, nil).wantError(t, http.StatusTooManyRequests, "rate limit")
	// A refused token: still the address.
	e.call(t, "quire_nosuchtoken", "GET", lookup, nil).wantError(t, http.StatusTooManyRequests, "rate limit")
	// The renderer's API token: its own budget.
	var out struct{ APIToken string }
	e.call(t, e.admin.token, "GET", lookup, nil).want(t, http.StatusOK).Decode(t, &out)
	token := out.APIToken
	// The site token: the site's budget, shared by every visitor's token.
	var other struct{ APIToken string }
	e.call(t, e.admin.token, "GET", lookup, nil).want(t, http.StatusOK).Decode(t, &other)
	for i := range 4 {
		tok := token
		if i%2 == 1 {
			tok = other.APIToken
		}
		r := e.call(t, tok, "GET", "/v1/spaces/"+guide, nil).want(t, http.StatusOK)
		if got := r.Header.Get("X-RateLimit-Remaining"); got != string(rune('3'-i)) {
			t.Errorf("request %d: remaining %q", i, got)
		}
	}
	e.call(t, token, "GET", "/v1/spaces/"+guide, nil).wantError(t, http.StatusTooManyRequests, "rate limit")
	// Lookups with the site token count there too.
	e.call(t, token, "GET", lookup, nil).wantError(t, http.StatusTooManyRequests, "rate limit")
	// The admin's own budget is apart: two lookups spent of four.
	e.call(t, e.admin.token, "GET", lookup, nil).want(t, http.StatusOK)
}
