package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/site"
	"github.com/quiredocs/quire/store/storetest"
)

// siteEnv is an env whose API serves search and ask over sites through the
// published sites' server, which visits reaches.
type siteEnv struct {
	*env
	sites *site.Server
}

func newSiteEnv(t *testing.T) *siteEnv {
	t.Helper()
	db := storetest.Open(t)
	reader := revision.New(db, "quire.test")
	sites := site.New(db, site.Config{PublicURL: testPublicURL, Reader: reader})
	e := &env{db: db, srv: api.New(db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()},
		Fetcher: outbound.Fetcher{AllowPrivate: true}, Reader: reader, Sites: sites})}
	e.initOrg(t)
	return &siteEnv{env: e, sites: sites}
}

// visit reads path of the published sites as an anonymous visitor and
// returns the status.
func (e *siteEnv) visit(t *testing.T, path string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	e.sites.Wrap(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), "GET", path, nil))
	return rec.Code
}

// siteRefCall calls an operation as token's holder, checks the answer against
// the whole reference and wants status.
func siteRefCall(t *testing.T, e *env, token, method, path string, body any, status int) *response {
	t.Helper()
	res := e.call(t, token, method, path, body)
	if ref := fullReference(t); ref != nil {
		if err := ref.Check(method, strings.TrimPrefix(strings.SplitN(path, "?", 2)[0], "/v1"), res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res.want(t, status)
}

// publishedSearchSite is a published site of two spaces: "Guide" with a
// page only visitors with plan "pro" see, and "API" in a second section.
func publishedSearchSite(t *testing.T, e *siteEnv) (siteID string, guide, apiSpace string) {
	t.Helper()
	guide, apiSpace = siteNewSpace(t, e.env, "Guide"), siteNewSpace(t, e.env, "API")
	e.cmSeed(t, guide,
		insertPage("install", "# Installing\n\nRun the installer as root.\n"),
		insertPage("secret", "# Pro installer\n\nThe installer for pro plans.\n", "condition", `visitor.claims.plan == "pro"`),
	)
	e.cmSeed(t, apiSpace, insertPage("ref", "# Reference\n\nThe installer endpoint answers JSON.\n"))
	s := siteCreate(t, e.env, map[string]any{"title": "Docs", "spaces": []string{guide}})
	siteCall[siteSection](t, e.env, "POST", sitePath(e.env, s.ID, "/sections"), map[string]any{"spaceId": apiSpace}, http.StatusCreated)
	e.call(t, e.admin.token, "PATCH", sitePath(e.env, s.ID, ""), map[string]any{"published": true}).want(t, http.StatusOK)
	return s.ID, guide, apiSpace
}

type siteSearchOut struct {
	Items []struct {
		Type  string         `json:"type"`
		ID    string         `json:"id"`
		Title string         `json:"title"`
		Pages []searchHitOut `json:"pages"`
	} `json:"items"`
	Count int `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

func (o siteSearchOut) titles() []string {
	var out []string
	for _, sp := range o.Items {
		for _, p := range sp.Pages {
			out = append(out, sp.Title+"/"+p.Title)
		}
	}
	return out
}

// TestSiteSearch: POST SITE/search finds the pages of the published site
// in scope, grouped by space, ranked across them and paged, never those a
// condition hides; members who read the organization may search.
func TestSiteSearch(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	siteID, guide, apiSpace := publishedSearchSite(t, e)
	path := sitePath(e.env, siteID, "/search")
	var out siteSearchOut
	siteRefCall(t, e.env, e.admin.token, "POST", path, map[string]any{"query": "installer", "scope": map[string]any{"mode": "all"}}, http.StatusOK).Decode(t, &out)
	got := strings.Join(out.titles(), ",")
	if out.Count != 2 || len(out.Items) != 2 || strings.Contains(got, "Pro") || !strings.Contains(got, "Guide/Installing") || !strings.Contains(got, "API/Reference") {
		t.Fatalf("search all: count %d, %q", out.Count, got)
	}
	if out.Items[0].Type != "space" || out.Items[0].Pages[0].Rank != 1 {
		t.Errorf("first result %+v", out.Items[0])
	}

	// Paged: one page at a time, ranks going on.
	var first, second siteSearchOut
	siteRefCall(t, e.env, e.admin.token, "POST", path+"?limit=1", map[string]any{"query": "installer", "scope": map[string]any{"mode": "all"}}, http.StatusOK).Decode(t, &first)
	if first.Next == nil || len(first.titles()) != 1 {
		t.Fatalf("first page %+v", first)
	}
	siteRefCall(t, e.env, e.admin.token, "POST", path+"?limit=1&page="+first.Next.Page, map[string]any{"query": "installer", "scope": map[string]any{"mode": "all"}}, http.StatusOK).Decode(t, &second)
	if second.Next != nil || len(second.titles()) != 1 || second.Items[0].Pages[0].Rank != 2 || second.titles()[0] == first.titles()[0] {
		t.Errorf("second page %+v after %+v", second, first)
	}

	// Scopes: specific site spaces, the deprecated siteSpaceIds.
	var sss listOut[siteSiteSpace]
	e.call(t, e.admin.token, "GET", sitePath(e.env, siteID, "/site-spaces"), nil).want(t, http.StatusOK).Decode(t, &sss)
	var apiSS string
	for _, ss := range sss.Items {
		if ss.Space.ID == apiSpace {
			apiSS = ss.ID
		}
	}
	if apiSS == "" {
		t.Fatalf("no site space of the API space in %+v", sss.Items)
	}
	for _, body := range []map[string]any{
		{"query": "installer", "scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{apiSS}}},
		{"query": "installer", "siteSpaceIds": []string{apiSS}},
	} {
		siteRefCall(t, e.env, e.admin.token, "POST", path, body, http.StatusOK).Decode(t, &out)
		if got := out.titles(); len(got) != 1 || got[0] != "API/Reference" {
			t.Errorf("%v: %q", body, got)
		}
	}
	for restrict, want := range map[string]string{"currentSiteSpace": "API/Reference", "otherSiteSpaces": "Guide/Installing"} {
		body := map[string]any{"query": "installer", "scope": map[string]any{"mode": "default", "currentSiteSpace": apiSS, "restrictTo": restrict}}
		siteRefCall(t, e.env, e.admin.token, "POST", path, body, http.StatusOK).Decode(t, &out)
		if got := out.titles(); len(got) != 1 || got[0] != want {
			t.Errorf("default scope, %s: %q", restrict, got)
		}
	}
	siteRefCall(t, e.env, e.admin.token, "POST", path, map[string]any{"query": "installer", "scope": map[string]any{"mode": "default"}}, http.StatusOK).Decode(t, &out)
	if len(out.titles()) != 2 {
		t.Errorf("default scope: %q", out.titles())
	}

	// The page a condition hides is in the space, found by its own search.
	if res := searchFor(t, e.env, e.admin.token, guide, "pro installer", ""); len(res.Items) == 0 || res.Items[0].Title != "Pro installer" {
		t.Errorf("space search: %+v", res.Items)
	}

	// Readers of the organization may search; guests and outsiders not.
	reader := e.addUser(t, "read", "Rita Reader")
	siteRefCall(t, e.env, reader.token, "POST", path, map[string]any{"query": "installer", "scope": map[string]any{"mode": "all"}}, http.StatusOK)
	e.call(t, e.addUser(t, "guest", "Gil Guest").token, "POST", path, map[string]any{"query": "x", "scope": map[string]any{"mode": "all"}}).wantError(t, http.StatusNotFound)
	e.call(t, e.outsider(t).token, "POST", path, map[string]any{"query": "x", "scope": map[string]any{"mode": "all"}}).wantError(t, http.StatusNotFound)

	// Bad bodies name the field.
	for _, c := range []struct {
		body any
		want string
	}{
		{map[string]any{"scope": map[string]any{"mode": "all"}}, "query"},
		{map[string]any{"query": strings.Repeat("a", 513), "scope": map[string]any{"mode": "all"}}, "query"},
		{map[string]any{"query": "x"}, "scope"},
		{map[string]any{"query": "x", "scope": map[string]any{"mode": "sideways"}}, "scope.mode"},
		{map[string]any{"query": "x", "scope": map[string]any{"mode": "specific"}}, "scope.siteSpaceIds"},
		{map[string]any{"query": "x", "scope": map[string]any{"mode": "default", "restrictTo": "currentSiteSpace"}}, "scope.currentSiteSpace"},
	} {
		e.call(t, e.admin.token, "POST", path, c.body).wantError(t, http.StatusBadRequest, c.want)
	}

	// Prewarming answers 204; an unpublished site shows nothing.
	siteRefCall(t, e.env, e.admin.token, "POST", path+"/prewarm", nil, http.StatusNoContent)
	e.call(t, e.admin.token, "PATCH", sitePath(e.env, siteID, ""), map[string]any{"published": false}).want(t, http.StatusOK)
	siteRefCall(t, e.env, e.admin.token, "POST", path, map[string]any{"query": "installer", "scope": map[string]any{"mode": "all"}}, http.StatusOK).Decode(t, &out)
	if out.Count != 0 || len(out.Items) != 0 {
		t.Errorf("unpublished site: %+v", out)
	}
}

// TestSiteAsk: POST SITE/ask answers from the published site's visible
// pages, as an event stream of the reference's SearchAIAnswerStream.
func TestSiteAsk(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	siteID, _, _ := publishedSearchSite(t, e)
	path := sitePath(e.env, siteID, "/ask")
	res := e.call(t, e.admin.token, "POST", path, map[string]any{"question": "how do I run the installer", "scope": map[string]any{"mode": "all"}}).want(t, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	evs := events(t, res.Body)
	if len(evs) != 1 || !strings.Contains(evs[0], `"type":"answer"`) || !strings.Contains(evs[0], `"sources":[{`) || strings.Contains(evs[0], "pro plans") {
		t.Errorf("events %q", evs)
	}
	for _, c := range []struct {
		body any
		want string
	}{
		{map[string]any{"scope": map[string]any{"mode": "all"}}, "question"},
		{map[string]any{"question": "x"}, "scope"},
		{map[string]any{"question": strings.Repeat("a", 513), "scope": map[string]any{"mode": "all"}}, "question"},
	} {
		e.call(t, e.admin.token, "POST", path, c.body).wantError(t, http.StatusBadRequest, c.want)
	}
	e.call(t, e.outsider(t).token, "POST", path, map[string]any{"question": "x", "scope": map[string]any{"mode": "all"}}).wantError(t, http.StatusNotFound)
}
