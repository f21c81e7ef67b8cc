package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestMetrics: GET /metrics, with no token, counts requests by the route
// that served them (never their ids) and status, and shows the runtime.
func TestMetrics(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.call(t, e.admin.token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", "/v1/spaces/nosuchspace", nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", "/v1/nowhere", nil)
	res := e.call(t, "", "GET", "/metrics", nil).want(t, http.StatusOK)
	body := string(res.Body)
	for _, want := range []string{
		`quire_http_requests_total{route="GET /v1/user",status="200"} 2`,
		`quire_http_requests_total{route="GET /v1/spaces/{spaceId}",status="404"} 1`,
		`quire_http_requests_total{route="unmatched",status="404"} 1`,
		`quire_http_request_duration_seconds_count{route="GET /v1/user"} 2`,
		"quire_http_requests_in_flight 1", // the metrics request itself
		"go_goroutines",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(body, "nosuchspace") {
		t.Error("metrics hold a path")
	}
}
