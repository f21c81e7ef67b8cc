package api_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/outbound"
)

type embedOut struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Site  string `json:"site"`
	Icon  string `json:"icon"`
	HTML  string `json:"html"`
}

// TestEmbedInSpace: GET S/embed reads how to embed a URL from its page, as
// fetched through outbound: the oEmbed provider's frame (rewritten by
// Quire, never its own HTML), else Open Graph, else <title>; a page that
// cannot be read is a plain link; an address of the app is titled for the
// caller and not fetched. A bad url is 400 naming url; a space the caller
// cannot read is 404; what was read is kept, not fetched again.
func TestEmbedInSpace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader, outsider := e.addUser(t, "read", "Rita Reader"), e.outsider(t)
	var mu sync.Mutex
	hits := map[string]int{}
	var remote *httptest.Server
	remote = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/talk":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(`<html><head><title>Talk page</title><meta property="og:site_name" content="Tube">
				<link rel="icon" href="/favicon.png">
				<link rel="alternate" type="application/json+oembed" href="/oembed?url=talk"></head><body>` + strings.Repeat("<p>filler</p>", 60_000) + `</body></html>`))
		case "/oembed":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":"video","version":"1.0","title":"A talk","provider_name":"Tube",
				"html":"<iframe src=\"https://tube.example/embed/1\" width=\"480\" height=\"270\"></iframe><script>alert(1)</script>"}`))
		case "/article":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<title>Plain title</title><meta property="og:title" content="An article">`))
		case "/plain":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<!doctype html><title>Just a title</title>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(remote.Close)
	remoteURL, _ := url.Parse(remote.URL)
	host := remoteURL.Hostname()

	spaceID, cr := e.newChangeRequest(t)
	e.author(t, e.admin.token, cr, insertPage("guide", "# Guide\n\nHello.\n")).want(t, http.StatusOK)
	e.readMerge(t, cr)
	embed := func(u string) string { return "/v1/spaces/" + spaceID + "/embed?url=" + url.QueryEscape(u) }
	get := func(as user, u string) embedOut {
		t.Helper()
		var out embedOut
		e.call(t, as.token, "GET", embed(u), nil).want(t, http.StatusOK).Decode(t, &out)
		return out
	}

	talk := get(reader, remote.URL+"/talk")
	wantFrame := `<iframe src="https://tube.example/embed/1" title="A talk" width="480" height="270"`
	if talk.Type != "rich" || talk.Title != "A talk" || talk.Site != "Tube" || talk.Icon != remote.URL+"/favicon.png" ||
		!strings.HasPrefix(talk.HTML, wantFrame) || !strings.Contains(talk.HTML, `sandbox="`) || strings.Contains(talk.HTML, "<script") {
		t.Errorf("oEmbed video: %+v; want rich, A talk, Tube, the icon, Quire's frame %s…", talk, wantFrame)
	}
	if a := get(e.admin, remote.URL+"/article"); a != (embedOut{Type: "link", Title: "An article", Site: host}) {
		t.Errorf("Open Graph page: %+v", a)
	}
	if p := get(e.admin, remote.URL+"/plain"); p != (embedOut{Type: "link", Title: "Just a title", Site: host}) {
		t.Errorf("titled page: %+v", p)
	}
	missing := remote.URL + "/missing"
	if m := get(e.admin, missing); m != (embedOut{Type: "link", Title: missing, Site: host}) {
		t.Errorf("page not found: %+v, want a plain link", m)
	}
	// Kept: asked again, by anyone, nothing is fetched.
	get(e.admin, remote.URL+"/talk")
	get(e.admin, missing)
	mu.Lock()
	if hits["/talk"] != 1 || hits["/oembed"] != 1 || hits["/missing"] != 1 {
		t.Errorf("fetches %v, want each page once", hits)
	}
	mu.Unlock()

	// An address of the app: titled for the caller, never fetched.
	app := testPublicURL + "/s/" + spaceID + "/guide"
	if a := get(e.admin, app); a.Type != "link" || a.Title != "Guide" || a.Site != "quire.test" {
		t.Errorf("app page: %+v", a)
	}

	// Bad input and permissions.
	for _, bad := range []string{"", "notaurl", "ftp://example.com/x", "/relative", "http://" + strings.Repeat("a", 2100) + ".com/"} {
		e.call(t, e.admin.token, "GET", embed(bad), nil).wantError(t, http.StatusBadRequest, "url")
	}
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/embed", nil).wantError(t, http.StatusBadRequest, "url")
	e.call(t, outsider.token, "GET", embed(remote.URL+"/plain"), nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", "/v1/spaces/nosuchspace/embed?url="+url.QueryEscape(remote.URL+"/plain"), nil).wantError(t, http.StatusNotFound)
	e.call(t, "", "GET", embed(remote.URL+"/plain"), nil).wantError(t, http.StatusUnauthorized)

	// A server that refuses private addresses (the default) fetches
	// nothing from the loopback test server: a plain link.
	strict := &env{db: e.db, srv: api.New(e.db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()}, Fetcher: outbound.Fetcher{}}), org: e.org, admin: e.admin}
	private := remote.URL + "/plain?strict=1"
	var p embedOut
	strict.call(t, e.admin.token, "GET", embed(private), nil).want(t, http.StatusOK).Decode(t, &p)
	if p != (embedOut{Type: "link", Title: private, Site: host}) {
		t.Errorf("private address: %+v, want a plain link", p)
	}
	mu.Lock()
	if hits["/plain"] != 1 {
		t.Errorf("the private address was fetched: %v", hits)
	}
	mu.Unlock()
}
