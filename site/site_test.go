package site_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestServesPublishedPages(t *testing.T) {
	e := newEnv(t)
	sp := e.space(t, "Guide",
		page{ref: "intro", title: "Introduction", markdown: "Welcome to the guide.\n"},
		page{ref: "install", title: "Install", markdown: "Run the installer.\n"},
		page{parent: "install", title: "On Linux", markdown: "Use the package.\n"},
	)
	_, url := e.site(t, "Docs", "public", sp)
	if !strings.HasSuffix(url, "/") || !strings.HasPrefix(url, e.srv.URL+"/sites/") {
		t.Fatalf("published URL %q", url)
	}
	for path, want := range map[string]string{"": "Welcome to the guide.", "install": "Run the installer.", "install/on-linux": "Use the package."} {
		status, body := get(t, url+path)
		if status != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("GET %s: %d %q, want 200 with %q", url+path, status, body, want)
		}
	}
	if status, _ := get(t, url+"nowhere"); status != http.StatusNotFound {
		t.Errorf("unknown page: %d, want 404", status)
	}
}

// Emoji kept as code points show as emoji: the space's in the favicon and
// title, a page's in its heading and in the sidebar.
func TestEmojiShownAsCharacters(t *testing.T) {
	e := newEnv(t)
	sp := e.space(t, "Guide", page{title: "Welcome", markdown: "Hello.\n"})
	e.api(t, "PATCH", "/v1/spaces/"+sp, map[string]any{"emoji": "1f4d8"}, http.StatusOK, nil)
	e.change(t, sp, map[string]any{"operation": "insert_page", "title": "Launch", "emoji": "1f680", "document": map[string]any{"markdown": "Go.\n"}})
	_, url := e.site(t, "Docs", "public", sp)
	status, body := get(t, url)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d", url, status)
	}
	if strings.Contains(body, "1f4d8") || strings.Contains(body, "1f680") {
		t.Errorf("page shows emoji codes: %s", body)
	}
	if !strings.Contains(body, "🚀") || !strings.Contains(body, "📘") {
		t.Errorf("page lacks the emoji: %s", body)
	}
}
