package site_test

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Conditions of the locate sites: beta and staff are what visitors state
// as unsigned claims (?visitor.beta=true); open is met by anyone without
// beta, anonymous visitors too.
const (
	betaCondition  = `visitor.claims.unsigned.beta == true`
	staffCondition = `visitor.claims.unsigned.staff == true`
	openCondition  = `visitor.claims.unsigned.beta != true`
	// signedCondition is met by visitors whose token, signed with the
	// site's key, says beta.
	signedCondition = `visitor.claims.beta == true`
)

// locateSites publishes two public sites with adaptive content, whose
// spaces' first pages are titled after them:
//
//   - at /sites/{id}/: the default section Guide, with the site space
//     "guide-v2" for beta visitors; the section "beta" for beta visitors;
//     the section "ops" whose default site space is for staff, beside
//     "extra"; the section "open" for anyone without beta; the section
//     "signed" (Beta again) for visitors whose token says beta.
//   - at the hostname locate.example.com under the basename "docs": the
//     default section Members for beta visitors, and the section "public".
//
// It returns the first site's id and URL, the second's host, and the id of
// each space by title.
func locateSites(t *testing.T, e *env) (firstID, first, host string, spaces map[string]string) {
	t.Helper()
	spaces = map[string]string{
		"Guide": e.space(t, "Guide",
			page{ref: "intro", title: "Introduction", markdown: "Welcome.\n"},
			page{ref: "install", title: "Install", markdown: "Run it.\n"},
			page{parent: "install", title: "On Linux", markdown: "Use the package.\n"}),
		"Guide v2": e.space(t, "Guide v2", page{title: "Welcome", markdown: "The second guide.\n"}),
		"Beta":     e.space(t, "Beta", page{title: "Beta features", markdown: "Soon.\n"}),
		"Ops":      e.space(t, "Ops", page{title: "Runbook", markdown: "Restart it.\n"}),
		"Extra":    e.space(t, "Extra", page{title: "Extras", markdown: "More.\n"}),
		"Open":     e.space(t, "Open", page{title: "Open house", markdown: "Come in.\n"}),
		"Members":  e.space(t, "Members", page{title: "Members only", markdown: "Hello, member.\n"}),
		"Public":   e.space(t, "Public", page{title: "Public page", markdown: "Hello, anyone.\n"}),
	}
	e.change(t, spaces["Guide"],
		map[string]any{"operation": "insert_page", "title": "Secret", "hidden": true, "document": map[string]any{"markdown": "Hidden away.\n"}},
		map[string]any{"operation": "insert_page", "title": "Pro", "condition": betaCondition, "document": map[string]any{"markdown": "For beta.\n"}},
	)
	type item struct {
		ID         string
		SiteSpaces []struct{ ID string }
	}
	adaptive := map[string]any{"adaptiveContent": map[string]any{"enabled": true}}
	section := func(siteID, space string, patch map[string]any) item {
		var sec item
		e.api(t, "POST", e.sitePath(siteID, "/sections"), map[string]any{"spaceId": spaces[space]}, http.StatusCreated, &sec)
		e.api(t, "PATCH", e.sitePath(siteID, "/sections/"+sec.ID), patch, http.StatusOK, nil)
		return sec
	}
	siteSpace := func(siteID string, patch map[string]any, id string) {
		e.api(t, "PATCH", e.sitePath(siteID, "/site-spaces/"+id), patch, http.StatusOK, nil)
	}

	id, first := e.site(t, "Docs", "public", spaces["Guide"])
	e.api(t, "PATCH", e.sitePath(id, ""), adaptive, http.StatusOK, nil)
	var v2 item
	e.api(t, "POST", e.sitePath(id, "/site-spaces"), map[string]any{"spaceId": spaces["Guide v2"]}, http.StatusCreated, &v2)
	siteSpace(id, map[string]any{"path": "guide-v2", "condition": betaCondition}, v2.ID)
	section(id, "Beta", map[string]any{"path": "beta", "condition": betaCondition})
	ops := section(id, "Ops", map[string]any{"path": "ops"})
	siteSpace(id, map[string]any{"condition": staffCondition}, ops.SiteSpaces[0].ID)
	var extra item
	e.api(t, "POST", e.sitePath(id, "/site-spaces"), map[string]any{"spaceId": spaces["Extra"], "sectionId": ops.ID}, http.StatusCreated, &extra)
	siteSpace(id, map[string]any{"path": "extra"}, extra.ID)
	section(id, "Open", map[string]any{"path": "open", "condition": openCondition})
	section(id, "Beta", map[string]any{"path": "signed", "condition": signedCondition})

	host = "locate.example.com"
	second, _ := e.site(t, "Members", "public", spaces["Members"])
	e.api(t, "PATCH", e.sitePath(second, ""), adaptive, http.StatusOK, nil)
	section(second, "Public", map[string]any{"path": "public"})
	var sections struct{ Items []struct{ ID, Path string } }
	e.api(t, "GET", e.sitePath(second, "/sections"), nil, http.StatusOK, &sections)
	for _, sec := range sections.Items {
		if sec.Path != "public" {
			e.api(t, "PATCH", e.sitePath(second, "/sections/"+sec.ID), map[string]any{"condition": betaCondition}, http.StatusOK, nil)
		}
	}
	e.api(t, "PATCH", e.sitePath(second, ""), map[string]any{"hostname": host, "basename": "docs"}, http.StatusOK, nil)
	e.proveHostname(t, host)
	return id, first, host, spaces
}

// lookup is what the API's urls/published answers of a URL.
type lookup struct {
	status       int
	Space        string
	Pathname     string
	BasePath     string
	SiteBasePath string
	CanonicalURL string
}

// lookupURL asks urls/published about u for a visitor, a SiteVisitorPayload
// (nil: anonymous, by GET; else by POST).
func lookupURL(t *testing.T, e *env, u string, visitor map[string]any) lookup {
	t.Helper()
	var req *http.Request
	if visitor == nil {
		req, _ = http.NewRequestWithContext(t.Context(), "GET", e.srv.URL+"/v1/urls/published?url="+url.QueryEscape(u), nil)
	} else {
		b, _ := json.Marshal(map[string]any{"url": u, "visitor": visitor})
		req, _ = http.NewRequestWithContext(t.Context(), "POST", e.srv.URL+"/v1/urls/published", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("lookup %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := lookup{status: resp.StatusCode}
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("lookup %s: %v: %s", u, err, body)
		}
	}
	return out
}

// canonicalLink is the href of a page's <link rel="canonical">.
func canonicalLink(body string) string {
	if m := regexp.MustCompile(`<link rel="canonical" href="([^"]*)">`).FindStringSubmatch(body); m != nil {
		return html.UnescapeString(m[1])
	}
	return ""
}

// TestLocateOneAnswer holds the published sites' routing and the API's
// urls/published lookup to one answer, over paths × visitors × conditions:
// for each path and visitor, the lookup names the space, page path and base
// path that the site serves the page of (or nothing when the site sees no
// place there), and the site answers the page titled title (404 for "").
// The lookup does not judge pages: a page the visitor does not see, or that
// is not there, still has its place; the canonical URL it answers for a
// page the site serves is the one that page links.
func TestLocateOneAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	firstID, first, host, spaces := locateSites(t, e)
	anyone := map[string]any(nil)
	beta := map[string]any{"beta": true}
	staff := map[string]any{"staff": true}
	second := "https://" + host + "/docs/"
	for _, tc := range []struct {
		name     string
		root     string // the site's address
		path     string // below it
		claims   map[string]any
		space    string // title of the space located; "" for none
		pagePath string
		base     string // below the site's root
		title    string // the page the site serves; "" for 404
	}{
		{"root", first, "", anyone, "Guide", "", "", "Introduction"},
		{"nested page", first, "install/on-linux", anyone, "Guide", "install/on-linux", "", "On Linux"},
		{"trailing slash", first, "install/on-linux/", anyone, "Guide", "install/on-linux", "", "On Linux"},
		{"hidden page is served", first, "secret", anyone, "Guide", "secret", "", "Secret"},
		{"page whose condition is not met", first, "pro", anyone, "Guide", "pro", "", ""},
		{"page whose condition is met", first, "pro", beta, "Guide", "pro", "", "Pro"},
		{"unknown page", first, "nowhere/at/all", anyone, "Guide", "nowhere/at/all", "", ""},
		{"site space hidden by its condition", first, "guide-v2/welcome", anyone, "Guide", "guide-v2/welcome", "", ""},
		{"site space seen", first, "guide-v2/welcome", beta, "Guide v2", "welcome", "guide-v2/", "Welcome"},
		{"section hidden by its condition", first, "beta/", anyone, "Guide", "beta", "", ""},
		{"section seen", first, "beta/", beta, "Beta", "", "beta/", "Beta features"},
		{"prefix of a section's path", first, "bet/beta-features", beta, "Guide", "bet/beta-features", "", ""},
		{"hidden default site space gives way", first, "ops/", anyone, "Extra", "", "ops/extra/", "Extras"},
		{"hidden default site space, a page", first, "ops/runbook", anyone, "Extra", "runbook", "ops/extra/", ""},
		{"default site space seen", first, "ops/runbook", staff, "Ops", "runbook", "ops/", "Runbook"},
		{"non-default site space", first, "ops/extra/extras", staff, "Extra", "extras", "ops/extra/", "Extras"},
		{"condition anonymous visitors meet", first, "open/", anyone, "Open", "", "open/", "Open house"},
		{"condition beta visitors do not meet", first, "open/", beta, "Guide", "open", "", ""},
		{"basename: hidden default section gives way", second, "", anyone, "Public", "", "public/", "Public page"},
		{"basename: page of the section given way to", second, "public-page", anyone, "Public", "public-page", "public/", "Public page"},
		{"basename: section by its path", second, "public/public-page", anyone, "Public", "public-page", "public/", "Public page"},
		{"basename: default section seen", second, "", beta, "Members", "", "", "Members only"},
		{"outside the basename", "https://" + host + "/elsewhere/", "", anyone, "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := tc.root + tc.path
			var visitor map[string]any
			if tc.claims != nil {
				visitor = map[string]any{"unsignedClaims": tc.claims}
			}
			got := lookupURL(t, e, u, visitor)
			if tc.space == "" {
				if got.status != http.StatusNotFound {
					t.Errorf("urls/published %s: %d, want 404", u, got.status)
				}
			} else {
				siteRoot := strings.TrimPrefix(tc.root, "https://"+host)
				if strings.HasPrefix(tc.root, e.srv.URL) {
					siteRoot = strings.TrimPrefix(tc.root, e.srv.URL)
				}
				want := lookup{status: http.StatusOK, Space: spaces[tc.space], Pathname: tc.pagePath, BasePath: siteRoot + tc.base,
					SiteBasePath: siteRoot, CanonicalURL: tc.root + tc.base + tc.pagePath}
				if tc.title != "" { // the site serves it: the URL its page links as canonical (checked below)
					want.CanonicalURL = got.CanonicalURL
				}
				if got != want {
					t.Errorf("urls/published %s:\n got %+v\nwant %+v", u, got, want)
				}
			}

			// The site, as the same visitor.
			target := u
			var headers []string
			if strings.HasPrefix(u, "https://"+host) {
				target, headers = e.srv.URL+strings.TrimPrefix(u, "https://"+host), []string{"Host", host}
			}
			if tc.claims != nil {
				q := url.Values{}
				for k, v := range tc.claims {
					q.Set("visitor."+k, strings.ToLower(strings.TrimSpace(jsonText(v))))
				}
				target += "?" + q.Encode()
			}
			a := fetch(t, nil, "GET", target, headers...)
			switch {
			case tc.title == "" && a.status != http.StatusNotFound:
				t.Errorf("site %s: %d, want 404", target, a.status)
			case tc.title != "" && (a.status != http.StatusOK || text(parse(t, a.body).one("h1")) != tc.title):
				t.Errorf("site %s: %d %q, want 200 %q", target, a.status, text(parse(t, a.body).one("h1")), tc.title)
			case tc.title != "" && canonicalLink(a.body) != got.CanonicalURL:
				t.Errorf("site %s links %q as canonical, urls/published says %q", target, canonicalLink(a.body), got.CanonicalURL)
			}
		})
	}

	// A visitor's token, signed with the site's key, as the payload's
	// jwtToken and as the site takes it from programs (Authorization):
	// heeded when it verifies, unheeded when not.
	key := e.visitorKey(t, firstID)
	exp := time.Now().Add(time.Hour).Unix()
	for _, tc := range []struct {
		name, token, space, pagePath, base, title string
	}{
		{"signed claim", sign(t, key, jwt.MapClaims{"exp": exp, "beta": true}), "Beta", "", "signed/", "Beta features"},
		{"signed without the claim", sign(t, key, jwt.MapClaims{"exp": exp}), "Guide", "signed", "", ""},
		{"signed with another key", sign(t, "not the key", jwt.MapClaims{"exp": exp, "beta": true}), "Guide", "signed", "", ""},
		{"expired", sign(t, key, jwt.MapClaims{"exp": time.Now().Add(-time.Hour).Unix(), "beta": true}), "Guide", "signed", "", ""},
	} {
		t.Run("token: "+tc.name, func(t *testing.T) {
			u := first + "signed/"
			got := lookupURL(t, e, u, map[string]any{"jwtToken": tc.token})
			if got.Space != spaces[tc.space] || got.Pathname != tc.pagePath || got.CanonicalURL != first+tc.base+tc.pagePath {
				t.Errorf("urls/published %s: %+v, want %s at %q", u, got, tc.space, tc.base+tc.pagePath)
			}
			a := fetch(t, nil, "GET", u, "Authorization", "Bearer "+tc.token)
			switch {
			case tc.title == "" && a.status != http.StatusNotFound:
				t.Errorf("site %s: %d, want 404", u, a.status)
			case tc.title != "" && (a.status != http.StatusOK || text(parse(t, a.body).one("h1")) != tc.title):
				t.Errorf("site %s: %d, want 200 %q", u, a.status, tc.title)
			}
		})
	}
}

// jsonText is v as JSON text ("true" for true).
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
