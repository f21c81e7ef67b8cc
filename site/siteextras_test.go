package site_test

import (
	"net/http"
	"strings"
	"testing"
)

// What the published site honours of issue 19's site operations: share
// links made and revoked, publish and unpublish, the customization.

func TestShareLinksCreatedAndRevoked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, url := e.siteOf(t, "Docs", "share-link", guideSpace(t, e))
	links := "/v1/orgs/" + e.org + "/sites/" + id + "/share-links"
	var link struct {
		ID, Key string
		URLs    struct{ Published string }
	}
	e.api(t, "POST", links, map[string]any{"name": "Partners"}, http.StatusCreated, &link)

	// The link's published URL opens the site, and keeps the visitor in by a cookie.
	resp, _ := fetchReq(t, newRequest(t, link.URLs.Published))
	c := cookieNamed(resp, "quire_share_")
	if resp.StatusCode != http.StatusFound || c == nil {
		t.Fatalf("with the new link's key: %d, cookie %v; want 302 and a cookie", resp.StatusCode, c)
	}
	if resp, body := fetchReq(t, newRequest(t, url+"install", c)); resp.StatusCode != http.StatusOK || !strings.Contains(body, "Run the installer.") {
		t.Fatalf("with the new link's cookie: %d", resp.StatusCode)
	}
	old := e.shareKey(t, id)

	// Revoked, neither its key nor its cookie opens the site; other links still do.
	e.api(t, "PATCH", links+"/"+link.ID, map[string]any{"active": false}, http.StatusOK, nil)
	if resp, _ := fetchReq(t, newRequest(t, url+"install", c)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("revoked link's cookie: %d, want 404", resp.StatusCode)
	}
	if resp, _ := fetchReq(t, newRequest(t, url+"?share="+link.Key)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("revoked link's key: %d, want 404", resp.StatusCode)
	}
	if resp, _ := fetchReq(t, newRequest(t, url+"?share="+old)); resp.StatusCode != http.StatusFound {
		t.Errorf("the first link's key: %d, want 302", resp.StatusCode)
	}
	// Active again, then deleted.
	e.api(t, "PATCH", links+"/"+link.ID, map[string]any{"active": true}, http.StatusOK, nil)
	if resp, _ := fetchReq(t, newRequest(t, url+"install", c)); resp.StatusCode != http.StatusOK {
		t.Errorf("reactivated link's cookie: %d, want 200", resp.StatusCode)
	}
	e.api(t, "DELETE", links+"/"+link.ID, nil, http.StatusResetContent, nil)
	if resp, _ := fetchReq(t, newRequest(t, url+"install", c)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("deleted link's cookie: %d, want 404", resp.StatusCode)
	}
}

func TestPublishAndUnpublish(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, url := e.siteOf(t, "Docs", "public", guideSpace(t, e))
	site := "/v1/orgs/" + e.org + "/sites/" + id
	e.api(t, "POST", site+"/unpublish", nil, http.StatusOK, nil)
	if status, _ := get(t, url); status != http.StatusNotFound {
		t.Errorf("unpublished: %d, want 404", status)
	}
	e.api(t, "POST", site+"/publish", nil, http.StatusOK, nil)
	if status, body := get(t, url); status != http.StatusOK || !strings.Contains(body, "Welcome to the guide.") {
		t.Errorf("published again: %d", status)
	}
}

func TestCustomizationRendered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, url := e.siteOf(t, "Docs", "public", guideSpace(t, e))
	custom := "/v1/orgs/" + e.org + "/sites/" + id + "/customization"
	var settings map[string]any
	e.api(t, "GET", custom, nil, http.StatusOK, &settings)
	if _, body := get(t, url); !strings.Contains(body, `class="theme-clean"`) || strings.Contains(body, "<style>") || !strings.Contains(body, "theme-toggle") {
		t.Errorf("default look: want the clean theme, no style of its own, a theme toggle")
	}
	settings["title"] = "Acme <Docs>"
	settings["styling"].(map[string]any)["theme"] = "bold"
	settings["styling"].(map[string]any)["primaryColor"] = map[string]any{"light": "#aa0000", "dark": "#ff5555"}
	settings["themes"] = map[string]any{"default": "dark", "toggeable": false}
	settings["header"] = map[string]any{"preset": "default", "logo": map[string]any{"light": "https://acme.example.com/logo.png", "dark": "https://acme.example.com/logo-dark.png"}, "links": []any{
		map[string]any{"title": "Home page", "to": map[string]any{"kind": "url", "url": "https://acme.example.com/"}, "links": []any{}},
		map[string]any{"title": "Sneaky", "to": map[string]any{"kind": "url", "url": "javascript:alert(1)"}, "links": []any{}},
		map[string]any{"title": "Products", "to": nil, "links": []any{
			map[string]any{"title": "Rockets", "to": map[string]any{"kind": "url", "url": "https://acme.example.com/rockets"}},
		}},
	}}
	settings["footer"] = map[string]any{"groups": []any{map[string]any{"title": "Company", "links": []any{
		map[string]any{"title": "Blog", "to": map[string]any{"kind": "url", "url": "https://acme.example.com/blog"}},
	}}}, "copyright": "© Acme"}
	e.api(t, "PUT", custom, settings, http.StatusOK, nil)
	_, body := get(t, url)
	for _, want := range []string{
		"<title>Introduction · Acme &lt;Docs&gt;</title>", `class="theme-bold"`, `data-theme="dark" data-default-theme="dark"`,
		`<style>:root{--accent:#aa0000}[data-theme="dark"]{--accent:#ff5555}</style>`,
		`src="https://acme.example.com/logo.png"`, `src="https://acme.example.com/logo-dark.png"`,
		`href="https://acme.example.com/">Home page</a>`, "<summary>Products</summary>", `href="https://acme.example.com/rockets">Rockets</a>`,
		"<h2>Company</h2>", `href="https://acme.example.com/blog">Blog</a>`, "© Acme · Acme &lt;Docs&gt; · Published with Quire",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page does not show %s", want)
		}
	}
	for _, unwanted := range []string{"Sneaky", "javascript:", `id="theme-toggle"`} {
		if strings.Contains(body, unwanted) {
			t.Errorf("the page shows %s", unwanted)
		}
	}

	// A site space's overrides show on its pages.
	var spaces struct{ Items []struct{ ID string } }
	e.api(t, "GET", "/v1/orgs/"+e.org+"/sites/"+id+"/site-spaces", nil, http.StatusOK, &spaces)
	e.api(t, "PATCH", "/v1/orgs/"+e.org+"/sites/"+id+"/site-spaces/"+spaces.Items[0].ID+"/customization",
		map[string]any{"title": "Guide v2", "styling": map[string]any{"theme": "muted"}}, http.StatusOK, nil)
	_, body = get(t, url)
	for _, want := range []string{"<title>Introduction · Guide v2</title>", `class="theme-muted"`, `--accent:#aa0000`, "Home page"} {
		if !strings.Contains(body, want) {
			t.Errorf("with the site space's overrides, the page does not show %s", want)
		}
	}
}
