package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// importSite serves a small website: a home page linking to a guide, which
// has a subpage.
func importSite(t *testing.T) *httptest.Server {
	t.Helper()
	pages := map[string]string{
		"/docs/":               `<html><body><nav><a href="/docs/guide">Guide</a></nav><main><h1>Home</h1><p>Read <a href="guide">the guide</a>.</p></main></body></html>`,
		"/docs/guide":          `<html><body><main><h1>Guide</h1><p>Steps. See <a href="guide/advanced">advanced</a>.</p></main></body></html>`,
		"/docs/guide/advanced": `<html><body><main><h1>Advanced</h1><p>More.</p></main></body></html>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

type importOut struct {
	Revision          string `json:"revision"`
	ImportedResources int    `json:"importedResources"`
	TotalResources    int    `json:"totalResources"`
}

// TestImportWebsite imports a website into a change request and into a
// space: its pages become pages, nested as its paths are, linked to each
// other; only editors import into requests and reviewers into spaces.
func TestImportWebsite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	site := importSite(t)
	body := map[string]any{"url": site.URL + "/docs/", "source": "website"}
	spaceID, crPath := e.newChangeRequest(t)

	var out importOut
	e.call(t, e.admin.token, "POST", crPath+"/content/import", body).want(t, http.StatusOK).Decode(t, &out)
	if out.ImportedResources != 3 || out.TotalResources != 3 || out.Revision == "" {
		t.Fatalf("import %+v", out)
	}
	rev := e.revision(t, crPath+"/content")
	ids := cmIDs(rev.Pages)
	if len(rev.Pages) != 2 || rev.Pages[0].Title != "Home" || rev.Pages[1].Title != "Guide" ||
		len(rev.Pages[1].Pages) != 1 || rev.Pages[1].Pages[0].Title != "Advanced" {
		t.Fatalf("imported tree %+v", rev.Pages)
	}
	var home pageOut
	e.readGet(t, e.admin.token, crPath+"/content/page/"+ids["Home"], &home)
	if !strings.Contains(home.Markdown, "[the guide](/pages/"+ids["Guide"]+")") || strings.Contains(home.Markdown, "Home") {
		t.Errorf("home markdown %q", home.Markdown)
	}
	if out.Revision != e.cmCR(t, crPath).Revision {
		t.Errorf("revision %s is not the request's", out.Revision)
	}

	// Into the space: a merged change request names the import.
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/content/import", body).want(t, http.StatusOK).Decode(t, &out)
	space := e.revision(t, "/v1/spaces/"+spaceID+"/content")
	if out.ImportedResources != 3 || len(space.Pages) != 2 || space.Pages[0].Title != "Home" || e.cmSpace(t, spaceID).Revision != out.Revision {
		t.Errorf("space import %+v, pages %+v", out, space.Pages)
	}
	var crs struct {
		Items []struct{ Subject, Status string }
	}
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/change-requests?status=merged", nil).want(t, http.StatusOK).Decode(t, &crs)
	if len(crs.Items) != 1 || crs.Items[0].Subject != "Import of "+site.URL+"/docs/" {
		t.Errorf("merged requests %+v", crs.Items)
	}

	// Editors import into requests, not into the space.
	editor := e.addUser(t, "edit", "Eddie Editor")
	e.call(t, editor.token, "POST", "/v1/spaces/"+spaceID+"/content/import", body).wantError(t, http.StatusForbidden)
	e.call(t, editor.token, "POST", crPath+"/content/import", body).want(t, http.StatusOK)
	reader := e.addUser(t, "read", "Rita Reader")
	e.call(t, reader.token, "POST", crPath+"/content/import", body).wantError(t, http.StatusForbidden)

	// Bad input changes nothing.
	before := e.cmSpace(t, spaceID).Revision
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"source": "website"}, "url"},
		{map[string]any{"url": site.URL + "/docs/"}, "source"},
		{map[string]any{"url": site.URL + "/docs/", "source": "notion"}, "source"},
		{map[string]any{"url": site.URL + "/missing", "source": "website"}, "url"},
		{map[string]any{"url": "ftp://example.com/", "source": "website"}, "url"},
	} {
		e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/content/import", tc.body).wantError(t, http.StatusBadRequest, tc.want)
	}
	if after := e.cmSpace(t, spaceID).Revision; after != before {
		t.Error("a refused import changed the space")
	}

	// A locked space takes no import.
	e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+spaceID, map[string]any{"editMode": "locked"}).want(t, http.StatusOK)
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/content/import", body).wantError(t, http.StatusForbidden)
	e.call(t, e.admin.token, "POST", crPath+"/content/import", body).wantError(t, http.StatusForbidden)
}
