package site_test

import (
	"archive/zip"
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// importFolder uploads files as a zip and imports them into the space.
func (e *env) importFolder(t *testing.T, spaceID string, files map[string]string) {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for p, data := range files {
		w, err := zw.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	var u struct{ URL, Key string }
	e.api(t, "POST", "/v1/orgs/"+e.org+"/storage/upload", map[string]any{
		"file": map[string]any{"name": "repo.zip", "type": "application/zip", "size": b.Len()}, "kind": "import_file"}, http.StatusCreated, &u)
	req, err := http.NewRequestWithContext(t.Context(), "PUT", u.URL, bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("upload: %v %v", resp, err)
	}
	resp.Body.Close()
	e.api(t, "POST", "/v1/spaces/"+spaceID+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{u.Key}}}, http.StatusOK, nil)
}

// The redirects of a space's .gitbook.yaml lead a reader from the old
// paths to the pages, as 308s; a redirect's source that is a page now is
// that page, and one to a page the visitor may not see is not followed.
func TestSpaceRedirectsFromGitBookYAML(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := e.space(t, "Docs", page{title: "Home", markdown: "Welcome.\n"})
	e.importFolder(t, sp, map[string]string{
		".gitbook.yaml": "root: ./\n\nredirects:\n  old/install: guide/install.md\n  /legacy/start/: README.md\n" +
			"  guide: README.md\n  beta-old: beta.md\n",
		"SUMMARY.md":       "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n* [Beta](beta.md)\n",
		"README.md":        "# Home\n\nWelcome.\n",
		"guide/README.md":  "# Guide\n\nRead on.\n",
		"guide/install.md": "# Install\n\nRun it.\n",
		"beta.md":          "---\ncondition: visitor.claims.beta\n---\n\n# Beta\n\nSoon.\n",
	})
	_, url := e.site(t, "Docs", "public", sp)
	root := strings.TrimPrefix(url, e.srv.URL)
	for _, tc := range []struct {
		path   string
		status int
		to     string
	}{
		{"old/install", http.StatusPermanentRedirect, "guide/install"},
		{"old/install/", http.StatusPermanentRedirect, "guide/install"},
		{"old/install.md", http.StatusPermanentRedirect, "guide/install.md"},
		{"old/install?x=1", http.StatusPermanentRedirect, "guide/install?x=1"},
		{"legacy/start", http.StatusPermanentRedirect, ""},
		{"guide", http.StatusOK, ""},          // a page is there: no redirect
		{"beta-old", http.StatusNotFound, ""}, // hidden from the visitor by its condition
		{"old/nothing", http.StatusNotFound, ""},
	} {
		a := fetch(t, nil, "GET", url+tc.path)
		if a.status != tc.status {
			t.Errorf("GET %s: %d, want %d", tc.path, a.status, tc.status)
			continue
		}
		if loc := a.header.Get("Location"); tc.status == http.StatusPermanentRedirect && loc != root+tc.to {
			t.Errorf("GET %s: to %q, want %q", tc.path, loc, root+tc.to)
		}
	}
}
