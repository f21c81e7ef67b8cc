package api_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestBoolParams: every boolean query parameter takes exactly "true" and
// "false"; other spellings strconv.ParseBool knows, and an empty value, are 400.
func TestBoolParams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	routes := []struct{ path, name string }{
		{"/v1/orgs/" + e.org + "/collections", "nested"},
		{"/v1/orgs/" + e.org + "/sites", "published"},
		{"/v1/integrations", "blocks"},
	}
	tests := []struct {
		value  string
		status int
	}{
		{"true", http.StatusOK},
		{"false", http.StatusOK},
		{"", http.StatusBadRequest},
		{"1", http.StatusBadRequest},
		{"0", http.StatusBadRequest},
		{"t", http.StatusBadRequest},
		{"F", http.StatusBadRequest},
		{"TRUE", http.StatusBadRequest},
		{"False", http.StatusBadRequest},
		{"yes", http.StatusBadRequest},
		{" true", http.StatusBadRequest},
	}
	for _, rt := range routes {
		for _, tt := range tests {
			path := rt.path + "?" + rt.name + "=" + url.QueryEscape(tt.value)
			t.Run(path, func(t *testing.T) {
				res := e.call(t, e.admin.token, "GET", path, nil)
				if tt.status == http.StatusOK {
					res.want(t, http.StatusOK)
					return
				}
				res.wantError(t, tt.status, rt.name+": must be true or false")
			})
		}
	}
}
