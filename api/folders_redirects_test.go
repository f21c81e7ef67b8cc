package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFolderRedirectsRoundTrip imports a repository whose .gitbook.yaml has
// redirects into a space: they become the space's, an export writes them
// back as they were (to the pages' files), and export, import, export
// again gives the same bytes. An import into a change request, and one of
// loose markdown files, leave the space's redirects alone.
func TestFolderRedirectsRoundTrip(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	config := "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n" +
		"  guide/old-install: guide/install.md\n  v1/日本語: README.md\n"
	repo := map[string]string{
		".gitbook.yaml":    config + "  dangling: nowhere.md\n",
		"SUMMARY.md":       "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n",
		"README.md":        "# Home\n\nWelcome.\n",
		"guide/README.md":  "# Guide\n\nRead on.\n",
		"guide/install.md": "# Install\n\nRun it.\n",
	}
	src := e.crSpace(t)
	key := e.upload(t, e.admin.token, e.org, "repo.zip", zipOf(t, repo))
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+src+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK)
	first := e.export(t, e.admin.token, "/v1/spaces/"+src+"/content/export", "")
	// The redirect to no page is left out; the others are written back as
	// they were.
	if first[".gitbook.yaml"] != config {
		t.Fatalf(".gitbook.yaml:\n%s\nwant:\n%s", first[".gitbook.yaml"], config)
	}

	dst := e.crSpace(t)
	key = e.upload(t, e.admin.token, e.org, "export.zip", zipOf(t, first))
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+dst+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK)
	second := e.export(t, e.admin.token, "/v1/spaces/"+dst+"/content/export", "")
	if diff := cmp.Diff(first, second); diff != "" {
		t.Fatalf("second export differs (-first +second):\n%s", diff)
	}
	// A change request's export writes the space's redirects to the
	// request's pages.
	var cr struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+dst+"/change-requests", map[string]any{"subject": "Edit"}).
		want(t, http.StatusCreated).Decode(t, &cr)
	crPath := "/v1/spaces/" + dst + "/change-requests/" + cr.ID
	if got := e.export(t, e.admin.token, crPath+"/content/export", ""); got[".gitbook.yaml"] != config {
		t.Errorf("change request's .gitbook.yaml:\n%s", got[".gitbook.yaml"])
	}
	// Into a change request: the space's redirects stay.
	other := map[string]string{".gitbook.yaml": "root: ./\n", "README.md": "# Home\n"}
	key = e.upload(t, e.admin.token, e.org, "other.zip", zipOf(t, other))
	e.call(t, e.admin.token, "POST", crPath+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK)
	// Loose markdown (no .gitbook.yaml) into the space: they stay too.
	key = e.upload(t, e.admin.token, e.org, "guide.md", []byte("# Guide\n\nRead on.\n"))
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+dst+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK)
	// (The pages they lead to are gone from the content, so an export
	// leaves them out, but the space keeps them.)
	if kept, err := e.db.SpaceRedirects(t.Context(), dst); err != nil || len(kept) != 2 {
		t.Errorf("after imports that carry no redirects: %v, %v", kept, err)
	}
	// A folder whose .gitbook.yaml has none clears them.
	key = e.upload(t, e.admin.token, e.org, "plain.zip", zipOf(t, other))
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+dst+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK)
	got := e.export(t, e.admin.token, "/v1/spaces/"+dst+"/content/export", "")
	if strings.Contains(got[".gitbook.yaml"], "redirects") {
		t.Errorf("after a folder without redirects, .gitbook.yaml:\n%s", got[".gitbook.yaml"])
	}
	// A malformed source is refused, naming it.
	bad := map[string]string{".gitbook.yaml": "redirects:\n  \"a?b\": README.md\n", "README.md": "# Home\n"}
	key = e.upload(t, e.admin.token, e.org, "bad.zip", zipOf(t, bad))
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+dst+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).wantError(t, http.StatusBadRequest, "a?b")
}
