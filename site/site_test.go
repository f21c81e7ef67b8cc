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
