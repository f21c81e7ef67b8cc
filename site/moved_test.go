package site_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

// pageID is the id of the page at path in space spaceID's current content.
func (e *env) pageID(t testing.TB, spaceID, path string) string {
	t.Helper()
	var p struct{ ID string }
	e.api(t, "GET", "/v1/spaces/"+spaceID+"/content/path/"+path, nil, http.StatusOK, &p)
	return p.ID
}

// A page renamed or moved through change requests is found at its old
// paths, which answer 308 to where it is now; the old paths of a deleted
// page and of a page the visitor may not see answer 404.
func TestMovedPagesRedirectFromTheirOldPaths(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	e := d.e
	install, configure, draft := e.pageID(t, d.guide, "install"), e.pageID(t, d.guide, "configure"), e.pageID(t, d.guide, "draft")
	e.change(t, d.guide, map[string]any{"operation": "insert_page", "ref": "pro", "title": "Pro", "document": map[string]any{"markdown": "For pros.\n"}})
	pro := e.pageID(t, d.guide, "pro")
	e.change(t, d.guide, map[string]any{"operation": "update_page", "page": install, "slug": "setup"})
	e.change(t, d.guide,
		map[string]any{"operation": "update_page", "page": configure, "into": install},
		map[string]any{"operation": "delete_page", "page": draft},
		map[string]any{"operation": "update_page", "page": pro, "slug": "pro-plus", "condition": `visitor.claims.plan == "pro"`},
	)
	// A later page at a former path is that page, not a redirect.
	e.change(t, d.guide, map[string]any{"operation": "insert_page", "title": "Install", "document": map[string]any{"markdown": "The new install page.\n"}})

	root := strings.TrimPrefix(d.url, e.srv.URL)
	for _, tc := range []struct {
		path   string
		status int
		to     string // Location, below the site's root
	}{
		{"setup", http.StatusOK, ""},
		{"install", http.StatusOK, ""}, // the new page
		{"install/on-linux", http.StatusPermanentRedirect, "setup/on-linux"},
		{"install/on-linux/", http.StatusPermanentRedirect, "setup/on-linux"},
		{"install/on-linux.md", http.StatusPermanentRedirect, "setup/on-linux.md"},
		{"install/on-linux?tab=apt", http.StatusPermanentRedirect, "setup/on-linux?tab=apt"},
		{"configure", http.StatusPermanentRedirect, "setup/configure"},
		{"configure.md", http.StatusPermanentRedirect, "setup/configure.md"},
		{"draft", http.StatusNotFound, ""},    // deleted
		{"draft.md", http.StatusNotFound, ""}, // deleted
		{"pro", http.StatusNotFound, ""},      // hidden by its condition
		{"pro.md", http.StatusNotFound, ""},   // hidden by its condition
		{"nowhere", http.StatusNotFound, ""},  // never was
		{"setup/nowhere", http.StatusNotFound, ""},
	} {
		a := fetch(t, nil, "GET", d.url+tc.path)
		if a.status != tc.status {
			t.Errorf("GET %s: %d, want %d", tc.path, a.status, tc.status)
			continue
		}
		if loc := a.header.Get("Location"); tc.to != "" && loc != root+tc.to {
			t.Errorf("GET %s: to %q, want %q", tc.path, loc, root+tc.to)
		}
		if tc.status == http.StatusPermanentRedirect && a.header.Get("Cache-Control") != "public, max-age=60" {
			t.Errorf("GET %s: Cache-Control %q", tc.path, a.header.Get("Cache-Control"))
		}
	}
	if a := fetch(t, nil, "GET", d.url+"install"); !strings.Contains(a.body, "The new install page.") {
		t.Errorf("GET install: not the new page")
	}

	// Members see what conditions hide, so they follow it.
	a := fetch(t, nil, "GET", d.url+"pro", "Authorization", "Bearer "+e.token)
	if a.status != http.StatusPermanentRedirect || a.header.Get("Location") != root+"pro-plus" {
		t.Errorf("member: GET pro: %d to %q, want 308 to pro-plus", a.status, a.header.Get("Location"))
	}
	if a.header.Get("Cache-Control") != "private, no-store" {
		t.Errorf("member: GET pro: Cache-Control %q", a.header.Get("Cache-Control"))
	}

	// Another site space's pages, in a section: the same, below its root.
	api := e.pageID(t, d.apiSp, "reference/endpoints")
	e.change(t, d.apiSp, map[string]any{"operation": "update_page", "page": api, "slug": "paths"})
	if a := fetch(t, nil, "GET", d.url+"api-docs/reference/endpoints"); a.status != http.StatusPermanentRedirect || a.header.Get("Location") != root+"api-docs/reference/paths" {
		t.Errorf("GET api-docs/reference/endpoints: %d to %q", a.status, a.header.Get("Location"))
	}
}

// Many requests at once for old and unknown paths of a new revision share
// one walk of its history and all get their answer.
func TestMovedPagesUnderConcurrentRequests(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	e := d.e
	e.change(t, d.guide, map[string]any{"operation": "update_page", "page": e.pageID(t, d.guide, "configure"), "slug": "settings"})
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			path, want := "configure", http.StatusPermanentRedirect
			if i%2 == 1 {
				path, want = "nowhere-"+strings.Repeat("x", i), http.StatusNotFound
			}
			if a := fetch(t, nil, "GET", d.url+path); a.status != want {
				t.Errorf("GET %s: %d, want %d", path, a.status, want)
			}
		})
	}
	wg.Wait()
}
