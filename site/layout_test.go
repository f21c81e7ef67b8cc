package site_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestLayoutFollowsTheDOMContract(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	a := fetch(t, nil, "GET", d.url+"install")
	if a.status != http.StatusOK {
		t.Fatalf("GET install: %d", a.status)
	}
	p := parse(t, a.body)
	for _, c := range []struct {
		what  string
		tag   string
		attrs []string
	}{
		{"theme", "html", []string{"data-theme", "light"}},
		{"skip link", "a", []string{"class", "skip-link", "href", "#content"}},
		{"site header", "header", []string{"class", "site-header"}},
		{"site title", "a", []string{"class", "site-title"}},
		{"section tabs", "nav", []string{"class", "section-tabs", "aria-label", "Sections"}},
		{"current tab", "a", []string{"class", "section-tab", "aria-current", "page"}},
		{"search", "input", []string{"id", "search-input", "type", "search"}},
		{"search results", "", []string{"id", "search-results"}},
		{"theme toggle", "button", []string{"id", "theme-toggle"}},
		{"sidebar", "nav", []string{"class", "sidebar", "aria-label", "Pages"}},
		{"sections in the narrow screens' menu", "ul", []string{"class", "sidebar-sections", "aria-label", "Sections"}},
		{"content", "main", []string{"id", "content"}},
		{"breadcrumbs", "nav", []string{"class", "breadcrumbs"}},
		{"previous", "a", []string{"rel", "prev"}},
		{"next", "a", []string{"rel", "next"}},
		{"ask form", "form", []string{"id", "ask-form"}},
		{"ask input", "input", []string{"id", "ask-input"}},
		{"ask answer", "", []string{"id", "ask-answer"}},
		{"canonical", "link", []string{"rel", "canonical", "href", d.url + "install"}},
		{"og title", "meta", []string{"property", "og:title", "content", "Install"}},
		{"favicon", "link", []string{"rel", "icon"}},
		{"stylesheet", "link", []string{"rel", "stylesheet"}},
		{"last updated", "time", []string{"datetime", "*"}},
	} {
		if p.one(c.tag, c.attrs...) == nil {
			t.Errorf("%s: no <%s %v>", c.what, c.tag, c.attrs)
		}
	}
	if got := texts(p.all("title")); len(got) != 1 || got[0] != "Install · Docs" {
		t.Errorf("title %q", got)
	}
	if h1 := p.all("h1"); len(h1) != 1 {
		t.Errorf("%d h1, want 1", len(h1))
	}
	tabs := texts(in(p.one("nav", "class", "section-tabs")).all("a", "class", "section-tab"))
	if !slices.Equal(tabs, []string{"Docs", "API docs"}) {
		t.Errorf("tabs %q", tabs)
	}
	side := in(p.one("nav", "class", "sidebar"))
	if got := texts(side.all("a", "class", "variant")); !slices.Equal(got, []string{"Guide", "Guide v2"}) {
		t.Errorf("variants %q", got)
	}
	// Install is open (its child shown); hidden Secret is left out.
	if got := texts(side.all("li")); !slices.Contains(got, "On Linux") || slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "Secret") }) {
		t.Errorf("sidebar %q", got)
	}
	if cur := side.one("a", "aria-current", "page"); cur == nil || text(cur) != "Install" {
		t.Errorf("current page in sidebar %v", cur)
	}
	if got := texts(in(p.one("nav", "class", "breadcrumbs")).all("li")); !slices.Equal(got, []string{"Docs", "Guide", "Install"}) {
		t.Errorf("breadcrumbs %q", got)
	}
	prev, next := p.one("a", "rel", "prev"), p.one("a", "rel", "next")
	if !strings.Contains(text(prev), "Introduction") || attrOf(prev, "href") != strings.TrimPrefix(d.url, d.e.srv.URL) ||
		!strings.Contains(text(next), "On Linux") {
		t.Errorf("prev %q %q, next %q", text(prev), attrOf(prev, "href"), text(next))
	}
	if csp := a.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' 'sha256-") {
		t.Errorf("CSP %q", csp)
	}
	// Assets are served, versioned and immutable.
	for _, l := range []string{attrOf(p.one("link", "rel", "stylesheet"), "href"), attrOf(p.one("script", "src", "*"), "src")} {
		as := fetch(t, nil, "GET", d.e.srv.URL+l)
		if as.status != http.StatusOK || !strings.Contains(as.header.Get("Cache-Control"), "immutable") || len(as.body) < 1000 {
			t.Errorf("asset %s: %d %q", l, as.status, as.header.Get("Cache-Control"))
		}
	}
}

func TestLayoutTOCAndHiddenPages(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	p := parse(t, fetch(t, nil, "GET", d.url).body)
	if got := texts(in(p.one("nav", "class", "toc")).all("a")); !slices.Equal(got, []string{"First steps", "Details"}) {
		t.Errorf("toc %q", got)
	}
	if p.one("a", "rel", "prev") != nil {
		t.Errorf("the first page has a previous page")
	}
	// The last listed page leads nowhere next; Secret (hidden) is skipped.
	last := parse(t, fetch(t, nil, "GET", d.url+"draft").body)
	if last.one("a", "rel", "next") != nil || !strings.Contains(text(last.one("a", "rel", "prev")), "Configure") {
		t.Errorf("pagination of the last page: prev %v next %v", last.one("a", "rel", "prev"), last.one("a", "rel", "next"))
	}
	if last.one("meta", "name", "robots", "content", "noindex") == nil {
		t.Errorf("a noIndex page has no robots noindex")
	}
	if m := last.one("meta", "name", "description"); m == nil || attrOf(m, "content") != "Not for robots." {
		t.Errorf("meta description %v", m)
	}
	secret := parse(t, fetch(t, nil, "GET", d.url+"secret").body)
	if secret.one("a", "rel", "prev") != nil || secret.one("a", "rel", "next") != nil {
		t.Errorf("a hidden page has previous/next links")
	}
	if p.one("meta", "name", "robots") != nil {
		t.Errorf("a public page says noindex")
	}
}
