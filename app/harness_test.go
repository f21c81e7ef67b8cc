package app_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/app"
	"github.com/quiredocs/quire/authoring"
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

// env is one test's Quire composed as serve composes it (sites, then the
// app, then the API) on a real server over a fresh store whose clock the
// test moves; its organization's admin holds token.
type env struct {
	db    *store.DB
	srv   *httptest.Server
	dns   *dnstest.Server // the DNS that proves domains and hostnames
	org   string
	token string
	admin string // the admin's e-mail address

	mu  sync.Mutex
	now time.Time
}

func newEnv(t testing.TB) *env {
	t.Helper()
	db := storetest.Open(t)
	e := &env{db: db, now: time.Now().UTC(), admin: "admin@example.com"}
	db.Now = e.clock
	mux := http.NewServeMux()
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	reader := revision.New(db, strings.TrimPrefix(e.srv.URL, "http://"))
	blobs := blob.Dir{Path: t.TempDir()}
	var apiSrv *api.Server
	e.dns = dnstest.Start(t)
	// One author for the app and the API, as cmd/quire wires it.
	author := &authoring.Author{DB: db, Blobs: blobs, Fetcher: outbound.Fetcher{AllowPrivate: true}, AppHost: strings.TrimPrefix(e.srv.URL, "http://"),
		PublicURL: e.srv.URL}
	web, err := app.New(db, app.Config{PublicURL: e.srv.URL, Reader: reader, Blobs: blobs, DNS: dnscheck.New(e.dns.Addr), Author: author})
	if err != nil {
		t.Fatal(err)
	}
	apiSrv = api.New(db, api.Config{PublicURL: e.srv.URL, Blobs: blobs, Fetcher: outbound.Fetcher{AllowPrivate: true},
		Reader: reader, StartSession: web.StartSession, DNS: dnscheck.New(e.dns.Addr), Author: author})
	sites := site.New(db, site.Config{PublicURL: e.srv.URL, Reader: reader, Blobs: blobs})
	mux.Handle("/", sites.Wrap(web.Wrap(apiSrv)))
	b, err := db.InitOrganization(t.Context(), "Test Org", e.admin, "Ada Admin")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	e.org, e.token = b.Organization.ID, b.Token
	return e
}

func (e *env) clock() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now
}

// advance moves the store's clock, which sessions and links expire by.
func (e *env) advance(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now = e.now.Add(d)
}

// api calls the API with token and decodes the answer into out (when not
// nil), failing the test unless it answers want.
func (e *env) api(t testing.TB, token, method, path string, body any, want int, out any) {
	t.Helper()
	apitest.Call(t, e.srv.URL, token, method, path, body, want, out)
}

// page is a page to write: its title, markdown and, for a nested page, the
// ref of its parent; ref names it for its children.
type page struct {
	ref, parent, title, markdown string
}

// space creates a space of org titled title holding pages, merged through
// a change request, and returns its id.
func (e *env) space(t testing.TB, token, org, title string, pages ...page) string {
	t.Helper()
	return e.spaceIn(t, token, org, "", title, pages...)
}

// spaceIn is space, in collection parent ("" for the top level).
func (e *env) spaceIn(t testing.TB, token, org, parent, title string, pages ...page) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	var sp struct{ ID string }
	e.api(t, token, "POST", "/v1/orgs/"+org+"/spaces", body, http.StatusCreated, &sp)
	var cr struct{ ID string }
	e.api(t, token, "POST", "/v1/spaces/"+sp.ID+"/change-requests", map[string]any{"subject": "Write"}, http.StatusCreated, &cr)
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
	e.api(t, token, "POST", crPath+"/content", map[string]any{"changes": changes}, http.StatusOK, nil)
	e.api(t, token, "POST", crPath+"/merge", nil, http.StatusOK, nil)
	return sp.ID
}

// browser is one browser: its cookies, and redirects reported, not followed.
type browser struct {
	e      *env
	client *http.Client
	csrf   string // the CSRF token of the last page read
	origin string // the Origin header its posts send; "" for none
}

func (e *env) browser(t testing.TB) *browser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	return &browser{e: e, origin: e.srv.URL, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// answer is what the server answered.
type answer struct {
	status   int
	body     string
	location string
	header   http.Header
}

var csrfValue = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (b *browser) do(t testing.TB, req *http.Request) answer {
	t.Helper()
	resp, err := b.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if m := csrfValue.FindSubmatch(body); m != nil {
		b.csrf = string(m[1])
	}
	return answer{status: resp.StatusCode, body: string(body), location: resp.Header.Get("Location"), header: resp.Header}
}

// get opens path (on the server) in the browser.
func (b *browser) get(t testing.TB, path string) answer {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "GET", b.e.srv.URL+path, nil)
	return b.do(t, req)
}

// post submits a form to path, with the CSRF token of the last page read
// unless form has its own.
func (b *browser) post(t testing.TB, path string, form url.Values) answer {
	t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", b.csrf)
	}
	req, _ := http.NewRequestWithContext(t.Context(), "POST", b.e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if b.origin != "" {
		req.Header.Set("Origin", b.origin)
	}
	return b.do(t, req)
}

// signIn signs the browser in as the user of email with a one-time link.
func (b *browser) signIn(t testing.TB, email string) {
	t.Helper()
	token, _, err := b.e.db.CreateLoginLink(t.Context(), email)
	if err != nil {
		t.Fatalf("login link: %v", err)
	}
	b.useLink(t, token, http.StatusSeeOther)
}

func (b *browser) useLink(t testing.TB, token string, want int) answer {
	t.Helper()
	if a := b.get(t, "/signin/link?token="+url.QueryEscape(token)); a.status != http.StatusOK {
		t.Fatalf("GET /signin/link: %d", a.status)
	}
	a := b.post(t, "/signin/link", url.Values{"token": {token}, "csrf": {b.csrf}})
	if a.status != want {
		t.Fatalf("POST /signin/link: status %d, want %d: %s", a.status, want, a.body)
	}
	return a
}

// sessionCookie is the browser's session cookie, "" for none.
func (b *browser) sessionCookie() string {
	u, _ := url.Parse(b.e.srv.URL)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == quire.SessionCookie {
			return c.Value
		}
	}
	return ""
}
