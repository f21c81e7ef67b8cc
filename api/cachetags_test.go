package api_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestCacheTagsOfRendererReads: the answers GitBook's renderer caches name
// the tags it files them under (X-Gitbook-Cache-Tag, as its package
// cache-tags forms them), so a revalidation call of those tags reaches
// them: a space's reads space:S, a change request's
// space:S:change-request:C, a site's reads site:X, an API specification's
// organization:O:openapi:SLUG, and urls/published the URL's hostname, the
// site and the space it found.
func TestCacheTagsOfRendererReads(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	siteID, guide, _ := publishedSearchSite(t, e)
	crPath := e.cmNewCR(t, e.admin.token, guide)
	cr := e.cmCR(t, crPath)
	content := e.revision(t, "/v1/spaces/"+guide+"/content")
	page := content.Pages[0]
	specsPut(t, e.env, "petstore", map[string]any{"text": specsValidJSON}, http.StatusCreated)
	specsProcess(t, e.env, 1)

	spaceTag, crTag, siteTag := "space:"+guide, "space:"+guide+":change-request:"+cr.ID, "site:"+siteID
	for _, tc := range []struct {
		method, path string
		body         any
		token        string
		want         string
	}{
		{"GET", "/v1/spaces/" + guide, nil, e.admin.token, spaceTag},
		{"GET", "/v1/spaces/" + guide + "/content", nil, e.admin.token, spaceTag},
		{"GET", "/v1/spaces/" + guide + "/revisions/" + content.ID, nil, e.admin.token, spaceTag},
		{"GET", "/v1/spaces/" + guide + "/revisions/" + content.ID + "/page/" + page.ID + "/document", nil, e.admin.token, spaceTag},
		{"GET", "/v1/spaces/" + guide + "/revisions/" + content.ID + "/path/" + page.Path, nil, e.admin.token, spaceTag},
		{"GET", crPath, nil, e.admin.token, crTag},
		{"GET", crPath + "/changes", nil, e.admin.token, crTag},
		{"GET", sitePath(e.env, siteID, "/published"), nil, e.admin.token, siteTag},
		{"GET", sitePath(e.env, siteID, "/redirect?source=/nowhere"), nil, e.admin.token, siteTag},
		{"GET", specsURL(e.env, "/petstore/versions/latest/content"), nil, e.admin.token, "organization:" + e.org + ":openapi:petstore"},
		{"GET", "/v1/urls/published?url=" + url.QueryEscape(testPublicURL+"/sites/"+siteID+"/"), nil, "",
			"url:quire.test,site:" + siteID + ",space:" + guide},
		{"POST", "/v1/urls/published", map[string]any{"url": testPublicURL + "/sites/" + siteID + "/"}, "",
			"url:quire.test,site:" + siteID + ",space:" + guide},
	} {
		res := e.call(t, tc.token, tc.method, tc.path, tc.body)
		if res.Status >= 300 && tc.path != sitePath(e.env, siteID, "/redirect?source=/nowhere") {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, res.Status, res.Body)
			continue
		}
		if got := res.Header.Get("X-Gitbook-Cache-Tag"); got != tc.want {
			t.Errorf("%s %s: X-Gitbook-Cache-Tag %q, want %q", tc.method, tc.path, got, tc.want)
		}
		if got := res.Header.Get("X-Gitbook-Cache-Control"); got != "" {
			t.Errorf("%s %s: X-Gitbook-Cache-Control %q, want none", tc.method, tc.path, got)
		}
	}
	// Writes are not cached, and name no tags.
	if res := e.call(t, e.admin.token, "PATCH", crPath, map[string]any{"subject": "Other"}).want(t, http.StatusOK); res.Header.Get("X-Gitbook-Cache-Tag") != "" {
		t.Errorf("PATCH names tags %q", res.Header.Get("X-Gitbook-Cache-Tag"))
	}
}
