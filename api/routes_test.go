package api_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiredocs/quire/api"
)

// servedOperations are the contract operations (and extras) Quire serves so
// far, with path parameters filled in.
var servedOperations = []string{
	"GET /v1/user",
	"GET /v1/users/u1",
	"GET /v1/orgs",
	"POST /v1/orgs",
	"GET /v1/orgs/o1",
	"PATCH /v1/orgs/o1",
	// §4.13 Organization members.
	"GET /v1/orgs/o1/members",
	"GET /v1/orgs/o1/members/u1",
	"DELETE /v1/orgs/o1/members/u1",
	"PATCH /v1/orgs/o1/members/u1",
	"POST /v1/orgs/o1/ping",
	"POST /v1/orgs/o1/members/u1/sso",
	"GET /v1/orgs/o1/members/u1/spaces",
	"GET /v1/orgs/o1/members/u1/teams",
	// Spaces of an organization.
	"GET /v1/orgs/o1/spaces",
	"POST /v1/orgs/o1/spaces",
	// §4.3 Change requests.
	"GET /v1/spaces/s1/change-requests",
	"POST /v1/spaces/s1/change-requests",
	"GET /v1/spaces/s1/change-requests/1",
	"PATCH /v1/spaces/s1/change-requests/1",
	// §4.6 Spaces.
	"GET /v1/spaces/s1",
	"DELETE /v1/spaces/s1",
	"PATCH /v1/spaces/s1",
	"POST /v1/spaces/s1/duplicate",
	"POST /v1/spaces/s1/restore",
	"POST /v1/spaces/s1/move",
	"POST /v1/spaces/s1/transfer",
	// §4.7 Collections.
	"GET /v1/collections/c1",
	"DELETE /v1/collections/c1",
	"PATCH /v1/collections/c1",
	"GET /v1/collections/c1/spaces",
	"POST /v1/collections/c1/move",
	"POST /v1/collections/c1/transfer",
	"GET /v1/orgs/o1/collections",
	"POST /v1/orgs/o1/collections",
	// Space and collection grants.
	"POST /v1/spaces/s1/permissions",
	"GET /v1/spaces/s1/permissions/aggregate",
	"GET /v1/spaces/s1/permissions/users",
	"PATCH /v1/spaces/s1/permissions/users/u1",
	"DELETE /v1/spaces/s1/permissions/users/u1",
	"GET /v1/spaces/s1/permissions/teams",
	"PATCH /v1/spaces/s1/permissions/teams/t1",
	"DELETE /v1/spaces/s1/permissions/teams/t1",
	"POST /v1/collections/c1/permissions",
	"GET /v1/collections/c1/permissions/aggregate",
	"GET /v1/collections/c1/permissions/users",
	"PATCH /v1/collections/c1/permissions/users/u1",
	"DELETE /v1/collections/c1/permissions/users/u1",
	"GET /v1/collections/c1/permissions/teams",
	"PATCH /v1/collections/c1/permissions/teams/t1",
	"DELETE /v1/collections/c1/permissions/teams/t1",
	// §4.14 Teams.
	"GET /v1/orgs/o1/teams",
	"PUT /v1/orgs/o1/teams",
	"GET /v1/orgs/o1/teams/t1",
	"DELETE /v1/orgs/o1/teams/t1",
	"PATCH /v1/orgs/o1/teams/t1",
	"GET /v1/orgs/o1/teams/t1/members",
	"PUT /v1/orgs/o1/teams/t1/members",
	"PUT /v1/orgs/o1/teams/t1/members/u1",
	"DELETE /v1/orgs/o1/teams/t1/members/u1",
}

// TestOperationsServed checks that every operation is routed and
// authenticated: without a token it answers 401, not 404 or 405.
func TestOperationsServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, op := range servedOperations {
		method, path, _ := strings.Cut(op, " ")
		e.call(t, "", method, path, nil).wantError(t, http.StatusUnauthorized, "Authorization")
	}
}

func TestUnknownRoutesAnswerJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.call(t, e.admin.token, "GET", "/v1/nowhere", nil).wantError(t, http.StatusNotFound, "no such endpoint")
	res := e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/members", nil)
	res.wantError(t, http.StatusMethodNotAllowed, "POST")
	if allow := res.Header.Get("Allow"); !strings.Contains(allow, "GET") {
		t.Errorf("Allow = %q, want it to list GET", allow)
	}
}

func TestHealthzAndRequestID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res := e.call(t, "", "GET", "/healthz", nil).want(t, http.StatusOK)
	a := res.Header.Get("X-Request-Id")
	b := e.call(t, "", "GET", "/healthz", nil).Header.Get("X-Request-Id")
	if a == "" || a == b {
		t.Errorf("X-Request-Id %q then %q: want a fresh id on every response", a, b)
	}
}

func TestBadTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, header := range []string{"Bearer nope", "Basic " + e.admin.token, e.admin.token, "Bearer "} {
		req, _ := http.NewRequestWithContext(t.Context(), "GET", "/v1/user", nil)
		req.Header.Set("Authorization", header)
		res := e.do(t, req)
		res.wantError(t, http.StatusUnauthorized)
		if res.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%q: 401 without WWW-Authenticate", header)
		}
	}
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var buf bytes.Buffer
	srv := api.New(e.db, api.Config{PublicURL: testPublicURL, Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	req := httptest.NewRequestWithContext(t.Context(), "GET", "/v1/orgs/"+e.org+"/members", nil)
	req.Header.Set("Authorization", "Bearer "+e.admin.token)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one log line per request, got %d: %s", len(lines), buf.String())
	}
	var entry map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &entry); err != nil {
		t.Fatal(err)
	}
	if entry["method"] != "GET" || entry["path"] != "/v1/orgs/"+e.org+"/members" || entry["status"] != float64(200) ||
		entry["request_id"] != rec.Header().Get("X-Request-Id") || entry["duration"] == nil {
		t.Errorf("log line %s lacks method, path, status, duration or the response's request id", lines[0])
	}
	if strings.Contains(buf.String(), e.admin.token) {
		t.Error("the log shows the API token")
	}
}
