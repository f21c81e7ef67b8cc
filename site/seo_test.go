package site_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestRobotsSitemapAndLLMsOfAPublicSite(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	robots := fetch(t, nil, "GET", d.url+"robots.txt")
	if robots.status != http.StatusOK || !strings.Contains(robots.body, "Allow: /") || !strings.Contains(robots.body, "Sitemap: "+d.url+"sitemap.xml") {
		t.Errorf("robots.txt: %d %q", robots.status, robots.body)
	}
	sm := fetch(t, nil, "GET", d.url+"sitemap.xml")
	if sm.status != http.StatusOK || !strings.HasPrefix(sm.header.Get("Content-Type"), "application/xml") {
		t.Fatalf("sitemap.xml: %d %s", sm.status, sm.header.Get("Content-Type"))
	}
	for _, want := range []string{"<loc>" + d.url + "</loc>", "<loc>" + d.url + "install/on-linux</loc>", "<loc>" + d.url + "guide-v2/</loc>", "<loc>" + d.url + "api-docs/reference/endpoints</loc>", "<lastmod>"} {
		if !strings.Contains(sm.body, want) {
			t.Errorf("sitemap lacks %s:\n%s", want, sm.body)
		}
	}
	for _, not := range []string{"secret", "draft", "introduction"} { // hidden, noIndex, and the first page under its own path
		if strings.Contains(sm.body, not) {
			t.Errorf("sitemap lists %s:\n%s", not, sm.body)
		}
	}
	llms := fetch(t, nil, "GET", d.url+"llms.txt")
	for _, want := range []string{"# Docs\n", "## Docs › Guide\n", "- [Introduction](" + d.url + "introduction.md)\n", "- [Draft](" + d.url + "draft.md): Not for robots.\n", "## API docs\n", "- [Endpoints](" + d.url + "api-docs/reference/endpoints.md)"} {
		if !strings.Contains(llms.body, want) {
			t.Errorf("llms.txt lacks %q:\n%s", want, llms.body)
		}
	}
	if strings.Contains(llms.body, "Secret") {
		t.Errorf("llms.txt lists a hidden page:\n%s", llms.body)
	}
	full := fetch(t, nil, "GET", d.url+"llms-full.txt")
	for _, want := range []string{"# On Linux\n\nSource: " + d.url + "install/on-linux\n\nUse the package.\n", "# Endpoints\n", "GET /things"} {
		if !strings.Contains(full.body, want) {
			t.Errorf("llms-full.txt lacks %q:\n%s", want, full.body)
		}
	}
	// Every listed .md link answers markdown.
	if md := fetch(t, nil, "GET", d.url+"introduction.md"); md.status != http.StatusOK || !strings.HasPrefix(md.body, "# Introduction\n") {
		t.Errorf("introduction.md: %d %q", md.status, md.body)
	}
}

func TestRobotsSitemapAndLLMsOfNonPublicSites(t *testing.T) {
	t.Parallel()
	for _, visibility := range []string{"unlisted", "share-link"} {
		t.Run(visibility, func(t *testing.T) {
			t.Parallel()
			d := newDocs(t, visibility)
			client := jarClient()
			if visibility == "share-link" {
				var links struct{ Items []struct{ Key string } }
				d.e.api(t, "GET", d.e.sitePath(d.id, "/share-links"), nil, http.StatusOK, &links)
				for _, path := range []string{"robots.txt", "llms.txt", "llms-full.txt", "install.md", "install", "sitemap.xml"} {
					if a := fetch(t, nil, "GET", d.url+path); a.status != http.StatusNotFound || strings.Contains(a.body, "Install") {
						t.Errorf("%s without the key: %d, want 404", path, a.status)
					}
				}
				if a := fetch(t, client, "GET", d.url+"?share="+links.Items[0].Key); a.status != http.StatusOK {
					t.Fatalf("with the share key: %d", a.status)
				}
			}
			robots := fetch(t, client, "GET", d.url+"robots.txt")
			if robots.status != http.StatusOK || robots.body != "User-agent: *\nDisallow: /\n" {
				t.Errorf("robots.txt: %d %q", robots.status, robots.body)
			}
			if sm := fetch(t, client, "GET", d.url+"sitemap.xml"); sm.status != http.StatusNotFound {
				t.Errorf("sitemap.xml: %d, want 404", sm.status)
			}
			page := fetch(t, client, "GET", d.url+"install")
			if parse(t, page.body).one("meta", "name", "robots", "content", "noindex") == nil || page.header.Get("Cache-Control") != "private, no-store" {
				t.Errorf("page of a %s site: no noindex, or Cache-Control %q", visibility, page.header.Get("Cache-Control"))
			}
			if llms := fetch(t, client, "GET", d.url+"llms.txt"); llms.status != http.StatusOK || !strings.Contains(llms.body, "[Install]") {
				t.Errorf("llms.txt: %d %q", llms.status, llms.body)
			}
		})
	}
}
