package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestOpenAPIDocument: GET /v1/openapi.json, with no token, is a valid
// OpenAPI document listing every operation served, with its path
// parameters, and which ones need no token.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res := e.call(t, "", "GET", "/v1/openapi.json", nil).want(t, http.StatusOK)
	doc, err := openapi3.NewLoader().LoadFromData(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(t.Context()); err != nil {
		t.Fatalf("invalid document: %v", err)
	}
	if doc.Servers[0].URL != testPublicURL+"/v1" {
		t.Errorf("servers %v", doc.Servers[0].URL)
	}
	// Each served operation's path, ids replaced by any {param}, is there.
	found := 0
	for _, op := range servedOperations {
		method, path, _ := strings.Cut(op, " ")
		rel := strings.TrimPrefix(strings.SplitN(path, "?", 2)[0], "/v1")
		for p, item := range doc.Paths.Map() {
			if item.GetOperation(method) != nil && templateMatches(p, rel) {
				found++
				break
			}
		}
	}
	if found != len(servedOperations) {
		t.Errorf("%d of %d served operations are in the document", found, len(servedOperations))
	}
	ask := doc.Paths.Find("/orgs/{organizationId}/ask")
	if ask == nil || ask.Post == nil || len(ask.Post.Parameters) != 1 || ask.Post.Security != nil {
		t.Errorf("ask operation %+v", ask)
	}
	if sso := doc.Paths.Find("/orgs/{organizationId}/sso"); sso == nil || sso.Get.Security == nil || len(*sso.Get.Security) != 0 {
		t.Error("GET O/sso should need no token")
	}
}

// templateMatches reports whether a path template ("/spaces/{spaceId}")
// matches a path ("/spaces/s1").
func templateMatches(tmpl, path string) bool {
	ts, ps := strings.Split(tmpl, "/"), strings.Split(path, "/")
	if len(ts) != len(ps) {
		return false
	}
	for i := range ts {
		if !strings.HasPrefix(ts[i], "{") && ts[i] != ps[i] {
			return false
		}
	}
	return true
}
