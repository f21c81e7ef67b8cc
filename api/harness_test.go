package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/internal/contract"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// testPublicURL is the public URL of every test server.
const testPublicURL = "http://quire.test"

// env is one test's server: a fresh store, the real router on top, and an
// organization whose admin is env.admin.
type env struct {
	db    *store.DB
	srv   *api.Server
	org   string
	admin user
}

// user is a seeded user and their API token.
type user struct {
	id, email, token string
}

var emailSeq atomic.Int64

// newEnv opens a fresh store (SQLite, or PostgreSQL with QUIRE_TEST_POSTGRES)
// and creates an organization with an admin.
func newEnv(t testing.TB) *env {
	t.Helper()
	e := serverOn(t, storetest.Open(t))
	e.initOrg(t)
	return e
}

// initOrg creates the env's organization and its admin.
func (e *env) initOrg(t testing.TB) {
	t.Helper()
	b, err := e.db.InitOrganization(t.Context(), "Test Org", uniqueEmail("admin"), "Ada Admin")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	e.org = b.Organization.ID
	e.admin = user{id: b.User.ID, email: b.User.Email, token: b.Token}
}

// serverOn is a test server over db, without an organization.
func serverOn(t testing.TB, db *store.DB) *env {
	return &env{db: db, srv: api.New(db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()}, Fetcher: outbound.Fetcher{AllowPrivate: true}})}
}

func uniqueEmail(prefix string) string {
	return fmt.Sprintf("%s%d@example.com", prefix, emailSeq.Add(1))
}

// addUser adds a new user to the env's organization with role ("guest" for
// a guest) and returns them with a token.
func (e *env) addUser(t testing.TB, role, name string) user {
	t.Helper()
	return e.addUserTo(t, e.org, role, name)
}

func (e *env) addUserTo(t testing.TB, orgID, role, name string) user {
	t.Helper()
	r, ok := quire.ParseRole(role)
	if !ok && role != "guest" {
		t.Fatalf("bad role %q", role)
	}
	email := uniqueEmail(strings.ToLower(strings.Fields(name + " u")[0]))
	b, err := e.db.AddUser(t.Context(), orgID, email, name, r)
	if err != nil {
		t.Fatalf("add user: %v", err)
	}
	return user{id: b.User.ID, email: b.User.Email, token: b.Token}
}

// outsider creates a user in an organization of their own, who sees nothing
// of the env's organization.
func (e *env) outsider(t testing.TB) user {
	t.Helper()
	b, err := e.db.InitOrganization(t.Context(), "Other Org", uniqueEmail("outsider"), "Otto Outsider")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	return user{id: b.User.ID, email: b.User.Email, token: b.Token}
}

// response is what a call answered.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic value.
func (r *response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("decode body %q: %v", r.Body, err)
	}
	return v
}

// Decode decodes the body into v.
func (r *response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode body %q: %v", r.Body, err)
	}
}

// call sends a request through the real router as the holder of token ("" for
// none). body is JSON-encoded unless it is a string or []byte, sent as is.
// Every response is checked against the reference OpenAPI document.
func (e *env) call(t testing.TB, token, method, path string, body any) *response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encode body: %v", err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequestWithContext(t.Context(), method, path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return e.do(t, req)
}

// do serves a prepared request and checks the response against the reference.
func (e *env) do(t testing.TB, req *http.Request) *response {
	t.Helper()
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	res := &response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	if ref := reference(t); ref != nil && strings.HasPrefix(req.URL.Path, "/v1/") {
		if err := ref.Check(req.Method, strings.TrimPrefix(req.URL.Path, "/v1"), res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res
}

// want fails the test unless the response has the wanted status.
func (r *response) want(t testing.TB, status int) *response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Body)
	}
	return r
}

// wantError checks an error response: status, and a message containing each of parts.
func (r *response) wantError(t testing.TB, status int, parts ...string) {
	t.Helper()
	r.want(t, status)
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	r.Decode(t, &body)
	if body.Error.Code != status {
		t.Errorf("error.code %d, want %d", body.Error.Code, status)
	}
	for _, p := range parts {
		if !strings.Contains(body.Error.Message, p) {
			t.Errorf("error message %q does not mention %q", body.Error.Message, p)
		}
	}
}

var (
	refOnce sync.Once
	ref     *contract.Reference
	refErr  error
)

// reference loads the reference OpenAPI document once. CI has it (../shared);
// elsewhere its absence only skips the check.
func reference(t testing.TB) *contract.Reference {
	t.Helper()
	refOnce.Do(func() {
		path := contract.Find(".")
		if path == "" {
			if os.Getenv("CI") != "" {
				refErr = fmt.Errorf("reference OpenAPI document not found (set QUIRE_REFERENCE)")
			}
			return
		}
		ref, refErr = contract.Load(path)
	})
	if refErr != nil {
		t.Fatalf("load reference: %v", refErr)
	}
	return ref
}
