package app_test

import (
	"net/http"
	"strings"
	"testing"
)

// The app pages GitBook's CLI prints (issue 19): an integration's page, and
// its installation page in an organization, which says whether and how it
// is installed there.
func TestIntegrationPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.api(t, e.token, "POST", "/v1/integrations/app-check", map[string]any{
		"organization": e.org, "title": "App Check", "description": "Checks", "script": "export default {}", "scopes": []string{},
	}, http.StatusOK, nil)
	b := e.browser(t)
	b.signIn(t, e.admin)
	installation := "/o/" + e.org + "/integrations/app-check"
	for path, want := range map[string][]string{
		"/integrations/app-check": {"App Check", "Checks"},
		installation:              {"App Check", "Installed", "no"},
	} {
		a := b.get(t, path)
		for _, w := range want {
			if a.status != http.StatusOK || !strings.Contains(a.body, w) {
				t.Errorf("GET %s: %d, want 200 with %q", path, a.status, w)
			}
		}
	}
	e.api(t, e.token, "POST", "/v1/integrations/app-check/installations", map[string]any{"organization": e.org}, http.StatusCreated, nil)
	if a := b.get(t, installation); !strings.Contains(a.body, "active since") {
		t.Errorf("installed: GET %s does not say it is active", installation)
	}
}
