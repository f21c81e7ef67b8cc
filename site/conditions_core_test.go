package site_test

import (
	"net/http"
	"strings"
	"testing"
)

// A page whose condition the visitor does not meet is left out of every
// listing and answers 404, and so are its children.
func TestConditionedPagesAreHiddenEverywhere(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	d.e.change(t, d.guide,
		map[string]any{"operation": "insert_page", "ref": "pro", "title": "Pro features", "condition": `visitor.claims.plan == "pro"`, "document": map[string]any{"markdown": "Only for pro.\n"}},
		map[string]any{"operation": "insert_page", "into": "pro", "title": "Pro setup", "document": map[string]any{"markdown": "Setup.\n"}},
		map[string]any{"operation": "insert_page", "title": "Links", "document": map[string]any{"markdown": "See [pro](pro-features).\n"}},
	)
	for _, path := range []string{"pro-features", "pro-features/pro-setup", "pro-features.md"} {
		if a := fetch(t, nil, "GET", d.url+path); a.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, a.status)
		}
	}
	page := fetch(t, nil, "GET", d.url+"links")
	if strings.Contains(page.body, "pro-features") || strings.Contains(page.body, "Pro features") {
		t.Errorf("a page shows a conditioned page:\n%s", page.body)
	}
	if page.header.Get("Cache-Control") != "private, no-store" {
		t.Errorf("a page depending on a condition is cached publicly: %q", page.header.Get("Cache-Control"))
	}
	if a := fetch(t, nil, "GET", d.url+"links.md"); !strings.Contains(a.body, "See [pro]().") {
		t.Errorf("links.md: %q", a.body)
	}
	for _, path := range []string{"llms.txt", "llms-full.txt", "sitemap.xml", "links.md"} {
		if a := fetch(t, nil, "GET", d.url+path); strings.Contains(a.body, "Pro") || strings.Contains(a.body, "pro-features") {
			t.Errorf("%s lists a conditioned page:\n%s", path, a.body)
		}
	}
}

// Adaptive content ({% if %}) is shown only to visitors its expression
// holds for, its tags never, and a page holding it is not cached publicly.
func TestAdaptiveContentIsShownByItsCondition(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	d.e.change(t, d.guide,
		map[string]any{"operation": "insert_page", "title": "Plans", "document": map[string]any{"markdown": "For all.\n\n" +
			"{% if visitor.claims.unsigned.plan === \"pro\" %}\nOnly for pro.\n{% endif %}\n\n{% if visitor.claims.unsigned.plan !== \"pro\" %}\nNot pro.\n{% endif %}\n"}},
	)
	page := fetch(t, nil, "GET", d.url+"plans")
	if !strings.Contains(page.body, "For all.") || !strings.Contains(page.body, "Not pro.") || strings.Contains(page.body, "Only for pro") || strings.Contains(page.body, "{%") {
		t.Errorf("an anonymous visitor's page:\n%s", page.body)
	}
	if page.header.Get("Cache-Control") != "private, no-store" {
		t.Errorf("a page with adaptive content is cached publicly: %q", page.header.Get("Cache-Control"))
	}
}
