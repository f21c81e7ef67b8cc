package site_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/jobs"
)

// docs is a published site of two sections: the default one ("Docs")
// holding Guide and, at guide-v2/, Guide v2; and "API docs" at api-docs/.
type docs struct {
	e                *env
	id, url, apiSec  string
	guide, v2, apiSp string
}

func newDocs(t *testing.T, visibility string) *docs {
	t.Helper()
	e := newEnv(t)
	d := &docs{e: e}
	d.guide = e.space(t, "Guide",
		page{ref: "intro", title: "Introduction", markdown: "Welcome to the guide.\n\n## First steps\n\nRead on.\n\n### Details\n\nMore.\n"},
		page{ref: "install", title: "Install", markdown: "Run the installer.\n"},
		page{parent: "install", title: "On Linux", markdown: "Use the package.\n"},
		page{title: "Configure", markdown: "Edit the file.\n"},
	)
	e.change(t, d.guide,
		map[string]any{"operation": "insert_page", "title": "Secret", "hidden": true, "document": map[string]any{"markdown": "Hidden away.\n"}},
		map[string]any{"operation": "insert_page", "title": "Draft", "noIndex": true, "description": "Not for robots.", "document": map[string]any{"markdown": "Work in progress.\n"}},
	)
	d.v2 = e.space(t, "Guide v2", page{title: "Welcome", markdown: "The second guide.\n"})
	d.apiSp = e.space(t, "API", page{ref: "ref", title: "Reference", markdown: "All endpoints.\n"}, page{parent: "ref", title: "Endpoints", markdown: "GET /things\n"})
	d.id, d.url = e.site(t, "Docs", visibility, d.guide)
	var ss published
	e.api(t, "POST", e.sitePath(d.id, "/site-spaces"), map[string]any{"spaceId": d.v2}, http.StatusCreated, &ss)
	var sec published
	e.api(t, "POST", e.sitePath(d.id, "/sections"), map[string]any{"spaceId": d.apiSp, "title": "API docs"}, http.StatusCreated, &sec)
	d.apiSec = sec.ID
	return d
}

func TestRoutesEveryPathShape(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	for _, tc := range []struct{ path, h1 string }{
		{"", "Introduction"},
		{"install", "Install"},
		{"install/on-linux", "On Linux"},
		{"install/on-linux/", "On Linux"},
		{"secret", "Secret"}, // hidden: out of navigation, still served
		{"guide-v2/", "Welcome"},
		{"guide-v2/welcome", "Welcome"},
		{"api-docs/", "Reference"},
		{"api-docs/reference/endpoints", "Endpoints"},
	} {
		a := fetch(t, nil, "GET", d.url+tc.path)
		if a.status != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", tc.path, a.status)
			continue
		}
		if h1 := parse(t, a.body).all("h1"); len(h1) != 1 || text(h1[0]) != tc.h1 {
			t.Errorf("GET %s: h1 %q, want one %q", tc.path, texts(h1), tc.h1)
		}
	}
	md := fetch(t, nil, "GET", d.url+"install/on-linux.md")
	if md.status != http.StatusOK || !strings.HasPrefix(md.header.Get("Content-Type"), "text/markdown") || !strings.HasPrefix(md.body, "# On Linux\n\nUse the package.") {
		t.Errorf("GET .md: %d %s %q", md.status, md.header.Get("Content-Type"), md.body)
	}
	root := strings.TrimSuffix(d.url, "/")
	if a := fetch(t, nil, "GET", root); a.status != http.StatusMovedPermanently || a.header.Get("Location") != strings.TrimPrefix(d.url, d.e.srv.URL) {
		t.Errorf("GET %s: %d to %q, want 301 to the trailing slash", root, a.status, a.header.Get("Location"))
	}
	for _, path := range []string{"nowhere", "install/nowhere", "api-docs/nowhere", "~nothing", "guide-v2/install"} {
		a := fetch(t, nil, "GET", d.url+path)
		if a.status != http.StatusNotFound || parse(t, a.body).one("article", "class", "error-page") == nil {
			t.Errorf("GET %s: %d, want the 404 page", path, a.status)
		}
	}
	if a := fetch(t, nil, "POST", d.url+"install"); a.status != http.StatusMethodNotAllowed {
		t.Errorf("POST a page: %d, want 405", a.status)
	}
}

func TestRoutesByHostnameAndBasename(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	var s published
	d.e.api(t, "PATCH", d.e.sitePath(d.id, ""), map[string]any{"hostname": "docs.example.com"}, http.StatusOK, &s)
	if s.URLs.Published != "https://docs.example.com/" {
		t.Fatalf("published URL %q", s.URLs.Published)
	}
	host := []string{"Host", "docs.example.com"}
	// Not served until its DNS proves it the organization's.
	if a := fetch(t, nil, "GET", d.e.srv.URL+"/install/on-linux", host...); a.status != http.StatusNotFound || strings.Contains(a.body, "On Linux") {
		t.Fatalf("by a hostname not proved: %d %q", a.status, a.body)
	}
	d.e.proveHostname(t, "docs.example.com")
	a := fetch(t, nil, "GET", d.e.srv.URL+"/install/on-linux", host...)
	if a.status != http.StatusOK || text(parse(t, a.body).one("h1")) != "On Linux" {
		t.Fatalf("by hostname: %d %q", a.status, a.body)
	}
	if c := parse(t, a.body).one("link", "rel", "canonical"); c == nil || attrOf(c, "href") != "https://docs.example.com/install/on-linux" {
		t.Errorf("canonical %v", c)
	}
	if a := fetch(t, nil, "GET", d.e.srv.URL+"/v1/user", host...); a.status == http.StatusOK {
		t.Errorf("the API is not served at a site's hostname: %d", a.status)
	}

	d.e.api(t, "PATCH", d.e.sitePath(d.id, ""), map[string]any{"basename": "docs"}, http.StatusOK, &s)
	if s.URLs.Published != "https://docs.example.com/docs/" {
		t.Fatalf("published URL with basename %q", s.URLs.Published)
	}
	if a := fetch(t, nil, "GET", d.e.srv.URL+"/", host...); a.status != http.StatusFound || a.header.Get("Location") != "/docs/" {
		t.Errorf("root with basename: %d to %q", a.status, a.header.Get("Location"))
	}
	a = fetch(t, nil, "GET", d.e.srv.URL+"/docs/api-docs/reference", host...)
	if a.status != http.StatusOK || text(parse(t, a.body).one("h1")) != "Reference" {
		t.Errorf("below basename: %d", a.status)
	}
	if link := parse(t, a.body).one("a", "rel", "next"); link == nil || attrOf(link, "href") != "/docs/api-docs/reference/endpoints" {
		t.Errorf("links below basename: %v", link)
	}
	if a := fetch(t, nil, "GET", d.e.srv.URL+"/install", host...); a.status != http.StatusNotFound {
		t.Errorf("outside basename: %d, want 404", a.status)
	}
	// The main address still serves it under /sites/.
	if a := fetch(t, nil, "GET", d.e.srv.URL+"/sites/"+d.id+"/install"); a.status != http.StatusOK {
		t.Errorf("under /sites/: %d", a.status)
	}

	// Its record gone, the hostname is served until the check that finds
	// it gone past the grace (none here).
	d.e.dns.SetTXT("_quire.docs.example.com")
	if a := fetch(t, nil, "GET", d.e.srv.URL+"/docs/install", host...); a.status != http.StatusOK {
		t.Errorf("before checking again: %d", a.status)
	}
	if failed, err := jobs.CheckHostnames(t.Context(), d.e.db, dnscheck.New(d.e.dns.Addr), 0); err != nil || failed != 1 {
		t.Fatalf("checking again: %d failed, %v", failed, err)
	}
	if a := fetch(t, nil, "GET", d.e.srv.URL+"/docs/install", host...); a.status != http.StatusNotFound {
		t.Errorf("after the record went: %d, want 404", a.status)
	}
}
