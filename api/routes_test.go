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
	"GET /v1/spaces/s1/change-requests/1/pdf",
	"GET /v1/spaces/s1/pdf",
	// Reviews, requested reviewers, contributors and commenters.
	"GET /v1/spaces/s1/change-requests/1/reviews",
	"POST /v1/spaces/s1/change-requests/1/reviews",
	"GET /v1/spaces/s1/change-requests/1/reviews/v1",
	"GET /v1/spaces/s1/change-requests/1/requested-reviewers",
	"POST /v1/spaces/s1/change-requests/1/requested-reviewers",
	"DELETE /v1/spaces/s1/change-requests/1/requested-reviewers/u1",
	"GET /v1/spaces/s1/change-requests/1/contributors",
	"GET /v1/spaces/s1/change-requests/1/commenters",
	"GET /v1/spaces/s1/commenters",
	// §4.1 Change request comments, §4.2 space comments.
	"GET /v1/spaces/s1/change-requests/1/comments",
	"POST /v1/spaces/s1/change-requests/1/comments",
	"GET /v1/spaces/s1/change-requests/1/comments/k1",
	"PUT /v1/spaces/s1/change-requests/1/comments/k1",
	"DELETE /v1/spaces/s1/change-requests/1/comments/k1",
	"GET /v1/spaces/s1/change-requests/1/comments/k1/replies",
	"POST /v1/spaces/s1/change-requests/1/comments/k1/replies",
	"GET /v1/spaces/s1/change-requests/1/comments/k1/replies/r1",
	"PUT /v1/spaces/s1/change-requests/1/comments/k1/replies/r1",
	"DELETE /v1/spaces/s1/change-requests/1/comments/k1/replies/r1",
	"GET /v1/spaces/s1/comments",
	"POST /v1/spaces/s1/comments",
	"GET /v1/spaces/s1/comments/k1",
	"PUT /v1/spaces/s1/comments/k1",
	"DELETE /v1/spaces/s1/comments/k1",
	"GET /v1/spaces/s1/comments/k1/replies",
	"POST /v1/spaces/s1/comments/k1/replies",
	"GET /v1/spaces/s1/comments/k1/replies/r1",
	"PUT /v1/spaces/s1/comments/k1/replies/r1",
	"DELETE /v1/spaces/s1/comments/k1/replies/r1",
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
	// §4.8 to §4.12 Docs sites, sections, section groups, site spaces, redirects.
	"GET /v1/orgs/o1/sites",
	"POST /v1/orgs/o1/sites",
	"GET /v1/orgs/o1/sites/w1",
	"DELETE /v1/orgs/o1/sites/w1",
	"PATCH /v1/orgs/o1/sites/w1",
	"GET /v1/orgs/o1/sites/w1/adaptive-schema",
	"PUT /v1/orgs/o1/sites/w1/adaptive-schema",
	"GET /v1/orgs/o1/sites/w1/published",
	// Issue 19: site share links, permissions, customization, structure, publishing.
	"GET /v1/orgs/o1/sites/w1/share-links",
	"POST /v1/orgs/o1/sites/w1/share-links",
	"PATCH /v1/orgs/o1/sites/w1/share-links/k1",
	"DELETE /v1/orgs/o1/sites/w1/share-links/k1",
	"POST /v1/orgs/o1/sites/w1/permissions",
	"GET /v1/orgs/o1/sites/w1/permissions/aggregate",
	"GET /v1/orgs/o1/sites/w1/permissions/users",
	"PATCH /v1/orgs/o1/sites/w1/permissions/users/u1",
	"DELETE /v1/orgs/o1/sites/w1/permissions/users/u1",
	"GET /v1/orgs/o1/sites/w1/permissions/teams",
	"PATCH /v1/orgs/o1/sites/w1/permissions/teams/t1",
	"DELETE /v1/orgs/o1/sites/w1/permissions/teams/t1",
	"GET /v1/orgs/o1/sites/w1/customization",
	"PUT /v1/orgs/o1/sites/w1/customization",
	"GET /v1/orgs/o1/sites/w1/site-spaces/ss1/customization",
	"PATCH /v1/orgs/o1/sites/w1/site-spaces/ss1/customization",
	"DELETE /v1/orgs/o1/sites/w1/site-spaces/ss1/customization",
	"GET /v1/orgs/o1/sites/w1/structure",
	"PATCH /v1/orgs/o1/sites/w1/structure/sort",
	"POST /v1/orgs/o1/sites/w1/publish",
	"POST /v1/orgs/o1/sites/w1/unpublish",
	"POST /v1/orgs/o1/sites/w1/site-spaces/ss1/duplicate",
	"PUT /v1/orgs/o1/sites/w1/redirects",
	"GET /v1/orgs/o1/sites/w1/publishing/auth",
	"PATCH /v1/orgs/o1/sites/w1/publishing/auth",
	"POST /v1/orgs/o1/sites/w1/publishing/auth/regenerate",
	"GET /v1/orgs/o1/sites/w1/sections",
	"POST /v1/orgs/o1/sites/w1/sections",
	"DELETE /v1/orgs/o1/sites/w1/sections/x1",
	"PATCH /v1/orgs/o1/sites/w1/sections/x1",
	"POST /v1/orgs/o1/sites/w1/sections/x1/move",
	"GET /v1/orgs/o1/sites/w1/section-groups",
	"POST /v1/orgs/o1/sites/w1/section-groups",
	"DELETE /v1/orgs/o1/sites/w1/section-groups/g1",
	"PATCH /v1/orgs/o1/sites/w1/section-groups/g1",
	"POST /v1/orgs/o1/sites/w1/section-groups/g1/sections",
	"DELETE /v1/orgs/o1/sites/w1/section-groups/g1/sections/x1",
	"POST /v1/orgs/o1/sites/w1/section-groups/g1/move",
	"GET /v1/orgs/o1/sites/w1/site-spaces",
	"POST /v1/orgs/o1/sites/w1/site-spaces",
	"DELETE /v1/orgs/o1/sites/w1/site-spaces/y1",
	"PATCH /v1/orgs/o1/sites/w1/site-spaces/y1",
	"POST /v1/orgs/o1/sites/w1/site-spaces/y1/move",
	"GET /v1/orgs/o1/sites/w1/redirects",
	"POST /v1/orgs/o1/sites/w1/redirects",
	"DELETE /v1/orgs/o1/sites/w1/redirects/r1",
	"PATCH /v1/orgs/o1/sites/w1/redirects/r1",
	"GET /v1/orgs/o1/sites/w1/redirect",
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
	// §4.15 Single sign-on (GET O/sso and the sign-in routes need no token).
	"GET /v1/orgs/o1/saml",
	"POST /v1/orgs/o1/saml",
	"GET /v1/orgs/o1/saml/p1",
	"DELETE /v1/orgs/o1/saml/p1",
	"PATCH /v1/orgs/o1/saml/p1",
	// §4.17 Integrations, §4.18 Translation languages.
	"GET /v1/integrations",
	"GET /v1/integrations/i1",
	"POST /v1/integrations/i1",
	"DELETE /v1/integrations/i1",
	"GET /v1/integrations/i1/installations",
	"GET /v1/orgs/o1/translations/t1/languages",
	"GET /v1/orgs/o1/translations/t1/languages/fr",
	"PUT /v1/orgs/o1/translations/t1/languages/fr",
	"DELETE /v1/orgs/o1/translations/t1/languages/fr",
	// Issue 19: translations and their glossary.
	"GET /v1/orgs/o1/translations",
	"POST /v1/orgs/o1/translations",
	"GET /v1/orgs/o1/translations/t1",
	"PUT /v1/orgs/o1/translations/t1",
	"DELETE /v1/orgs/o1/translations/t1",
	"POST /v1/orgs/o1/translations/t1/run",
	"GET /v1/orgs/o1/translations-glossary",
	"PUT /v1/orgs/o1/translations-glossary",
	"GET /v1/orgs/o1/translations-glossary/g1",
	// §4.4 and §4.5 imports and search, §4.19 AI questions.
	"POST /v1/spaces/s1/change-requests/c1/content/import",
	"POST /v1/spaces/s1/content/import",
	"GET /v1/spaces/s1/search",
	"GET /v1/spaces/s1/embed",
	"POST /v1/spaces/s1/content/computed/document",
	"POST /v1/orgs/o1/ask",
	"GET /v1/orgs/o1/ask/stream",
	"GET /v1/orgs/o1/ask/questions",
	"GET /v1/orgs/o1/ask/questions/stream",
	// Docs as code: folder exports, uploads for file imports.
	"GET /v1/spaces/s1/revisions/r1/export",
	"GET /v1/spaces/s1/content/export",
	"GET /v1/spaces/s1/change-requests/c1/content/export",
	"POST /v1/orgs/o1/storage/upload",
	// Issue 19: the reference's remaining content reads.
	"GET /v1/spaces/s1/revisions/v1/files",
	"GET /v1/spaces/s1/revisions/v1/files/f1",
	"GET /v1/spaces/s1/revisions/v1/path/guide",
	"GET /v1/spaces/s1/revisions/v1/page/p1/document",
	"GET /v1/spaces/s1/revisions/v1/page/p1/meta-links",
	"GET /v1/spaces/s1/revisions/v1/reusable-contents/rc1",
	"GET /v1/spaces/s1/revisions/v1/reusable-contents/rc1/document",
	"GET /v1/spaces/s1/content/page/p1/meta-links",
	"GET /v1/spaces/s1/content/reusable-contents/rc1",
	"GET /v1/spaces/s1/change-requests/c1/content/path/guide",
	"GET /v1/spaces/s1/change-requests/c1/content/page/p1/meta-links",
	"GET /v1/spaces/s1/change-requests/c1/content/reusable-contents/rc1",
	"GET /v1/spaces/s1/documents/d1",
	// Issue 19: API specification visibility and versions.
	"PATCH /v1/orgs/o1/openapi/s1",
	"GET /v1/orgs/o1/openapi/s1/versions",
	"GET /v1/orgs/o1/openapi/s1/versions/latest",
	"GET /v1/orgs/o1/openapi/s1/versions/latest/content",
	"GET /v1/orgs/o1/openapi/s1/versions/latest/content/raw",
	"GET /v1/orgs/o1/openapi/s1/versions/v1",
	"GET /v1/orgs/o1/openapi/s1/versions/v1/content",
	"GET /v1/orgs/o1/openapi/s1/versions/v1/content/raw",
	// Issue 19: installing integrations, their events.
	"POST /v1/integrations/i1/installations",
	"GET /v1/integrations/i1/installations/n1",
	"PATCH /v1/integrations/i1/installations/n1",
	"DELETE /v1/integrations/i1/installations/n1",
	"POST /v1/integrations/i1/installations/n1/tokens",
	"GET /v1/integrations/i1/installations/n1/spaces",
	"POST /v1/integrations/i1/installations/n1/spaces",
	"GET /v1/integrations/i1/installations/n1/spaces/s1",
	"PATCH /v1/integrations/i1/installations/n1/spaces/s1",
	"DELETE /v1/integrations/i1/installations/n1/spaces/s1",
	"GET /v1/integrations/i1/installations/n1/sites/t1",
	"PATCH /v1/integrations/i1/installations/n1/sites/t1",
	"DELETE /v1/integrations/i1/installations/n1/sites/t1",
	"GET /v1/integrations/i1/installations/n1/sites",
	"POST /v1/integrations/i1/installations/n1/sites",
	"GET /v1/integrations/i1/spaces",
	"GET /v1/integrations/i1/sites",
	"GET /v1/integrations/i1/events",
	"GET /v1/integrations/i1/events/e1",
	"GET /v1/orgs/o1/integrations",
	"GET /v1/orgs/o1/installations",
	"GET /v1/orgs/o1/integrations/installations-status",
	"GET /v1/orgs/o1/integrations/i1/installation_status",
	"GET /v1/spaces/s1/integrations",
	// Issue 19: a site's search, ask, insights, MCP servers, external links
	// and integrations.
	"POST /v1/orgs/o1/sites/s1/search",
	"POST /v1/orgs/o1/sites/s1/search/prewarm",
	"POST /v1/orgs/o1/sites/s1/ask",
	"GET /v1/orgs/o1/sites/s1/ask/questions",
	"POST /v1/orgs/o1/sites/s1/insights/events",
	"POST /v1/orgs/o1/sites/s1/insights/events/aggregate",
	"GET /v1/orgs/o1/sites/s1/insights/visitor-segments",
	"GET /v1/orgs/o1/sites/s1/question-stats",
	"GET /v1/orgs/o1/sites/s1/mcp-servers",
	"POST /v1/orgs/o1/sites/s1/mcp-servers",
	"GET /v1/orgs/o1/sites/s1/mcp-servers/m1",
	"PATCH /v1/orgs/o1/sites/s1/mcp-servers/m1",
	"DELETE /v1/orgs/o1/sites/s1/mcp-servers/m1",
	"POST /v1/orgs/o1/sites/s1/external-links",
	"PATCH /v1/orgs/o1/sites/s1/external-links/l1",
	"DELETE /v1/orgs/o1/sites/s1/external-links/l1",
	"GET /v1/orgs/o1/sites/s1/integrations",
	"GET /v1/orgs/o1/sites/s1/integration-scripts",
	// Outgoing webhooks (Quire's extra).
	"GET /v1/orgs/o1/webhooks",
	"POST /v1/orgs/o1/webhooks",
	"GET /v1/orgs/o1/webhooks/w1",
	"PATCH /v1/orgs/o1/webhooks/w1",
	"DELETE /v1/orgs/o1/webhooks/w1",
	"POST /v1/orgs/o1/webhooks/w1/test",
	"GET /v1/orgs/o1/webhooks/w1/deliveries",
	"GET /v1/orgs/o1/webhooks/w1/deliveries/d1",
	"POST /v1/orgs/o1/webhooks/w1/deliveries/d1/redeliver",
	// Issue 19: audit log, URLs, e-mail domains, joining, custom hostnames
	// and fonts (GET /v1/ and the published-URL lookups take no token).
	"GET /v1/orgs/o1/audit-events",
	"GET /v1/orgs/o1/audit-events/a1",
	"GET /v1/orgs/o1/audit-event-actions",
	"GET /v1/urls/content",
	"GET /v1/urls/embed",
	"GET /v1/email-domains/example.com/orgs",
	"GET /v1/subdomains/acme-docs",
	"POST /v1/orgs/o1/join",
	"GET /v1/custom-hostnames/docs.example.com",
	"PATCH /v1/custom-hostnames/docs.example.com",
	"DELETE /v1/custom-hostnames/docs.example.com",
	"GET /v1/orgs/o1/fonts",
	"PUT /v1/orgs/o1/fonts",
	"GET /v1/orgs/o1/fonts/f1",
	"POST /v1/orgs/o1/fonts/f1",
	"DELETE /v1/orgs/o1/fonts/f1",
	// Issue 19: import runs (the reference's path has /org/).
	"GET /v1/org/o1/imports",
	"POST /v1/org/o1/imports",
	"GET /v1/org/o1/imports/i1",
	"POST /v1/org/o1/imports/i1/cancel",
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
