package site_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/dnscheck/dnstest"
	"github.com/quiredocs/quire/internal/apitest"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/site"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// env is one test's Quire: a fresh store, the API and the published sites
// on one real server, and an organization whose admin holds token.
type env struct {
	db    *store.DB
	srv   *httptest.Server
	dns   *dnstest.Server // the DNS that proves custom hostnames
	org   string
	token string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvWith(t, site.Config{})
}

// newEnvWith is newEnv with the sites configured as cfg, but for where
// they are, their reader and their blobs.
func newEnvWith(t testing.TB, cfg site.Config) *env {
	t.Helper()
	db := storetest.Open(t)
	e := &env{db: db, dns: dnstest.Start(t)}
	mux := http.NewServeMux()
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	reader := revision.New(db, strings.TrimPrefix(e.srv.URL, "http://"))
	blobs := blob.Dir{Path: t.TempDir()}
	apiSrv := api.New(db, api.Config{PublicURL: e.srv.URL, Blobs: blobs, Fetcher: outbound.Fetcher{AllowPrivate: true}, Reader: reader,
		DNS: dnscheck.New(e.dns.Addr)})
	cfg.PublicURL, cfg.Reader, cfg.Blobs = e.srv.URL, reader, blobs
	sites := site.New(db, cfg)
	mux.Handle("/", sites.Wrap(apiSrv))
	b, err := db.InitOrganization(t.Context(), "Test Org", "admin@example.com", "Ada Admin")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	e.org, e.token = b.Organization.ID, b.Token
	return e
}

// api calls the API as the admin and decodes the answer into out (when not
// nil), failing the test unless it answers want.
func (e *env) api(t testing.TB, method, path string, body any, want int, out any) {
	t.Helper()
	apitest.Call(t, e.srv.URL, e.token, method, path, body, want, out)
}

// proveHostname adds the TXT record that proves hostname the site's and has
// the API check it, as its admin would.
func (e *env) proveHostname(t testing.TB, hostname string) {
	t.Helper()
	var h struct{ DNS struct{ Name, Value string } }
	e.api(t, "GET", "/v1/custom-hostnames/"+hostname, nil, http.StatusOK, &h)
	e.dns.SetTXT(h.DNS.Name, h.DNS.Value)
	e.api(t, "PATCH", "/v1/custom-hostnames/"+hostname, nil, http.StatusNoContent, nil)
}

// page is a page to write: its title, markdown and, for a nested page, the
// ref of its parent; ref names it for its children.
type page struct {
	ref, parent, title, markdown string
}

// space creates a space titled title holding pages, merged through a
// change request, and returns its id.
func (e *env) space(t testing.TB, title string, pages ...page) string {
	t.Helper()
	var sp struct{ ID string }
	e.api(t, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": title}, http.StatusCreated, &sp)
	var cr struct{ ID string }
	e.api(t, "POST", "/v1/spaces/"+sp.ID+"/change-requests", map[string]any{"subject": "Write"}, http.StatusCreated, &cr)
	var changes []map[string]any
	for _, p := range pages {
		c := map[string]any{"operation": "insert_page", "title": p.title, "document": map[string]any{"markdown": p.markdown}}
		if p.ref != "" {
			c["ref"] = p.ref
		}
		if p.parent != "" {
			c["into"] = p.parent
		}
		changes = append(changes, c)
	}
	crPath := "/v1/spaces/" + sp.ID + "/change-requests/" + cr.ID
	e.api(t, "POST", crPath+"/content", map[string]any{"changes": changes}, http.StatusOK, nil)
	e.api(t, "POST", crPath+"/merge", nil, http.StatusOK, nil)
	return sp.ID
}

// site creates a site publishing spaceID with visibility and publishes it;
// it returns the site's id and its published URL.
func (e *env) site(t testing.TB, title, visibility, spaceID string) (id, url string) {
	t.Helper()
	var s struct {
		ID   string
		URLs struct{ Published string }
	}
	e.api(t, "POST", "/v1/orgs/"+e.org+"/sites", map[string]any{"title": title, "visibility": visibility, "spaces": []string{spaceID}}, http.StatusCreated, &s)
	e.api(t, "PATCH", "/v1/orgs/"+e.org+"/sites/"+s.ID, map[string]any{"published": true}, http.StatusOK, &s)
	return s.ID, s.URLs.Published
}

// get fetches url as an anonymous visitor and returns the status and body.
func get(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
