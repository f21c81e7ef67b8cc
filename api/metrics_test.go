package api_test

import (
	"net/http"
	"strconv"
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

// TestMetricsCaches: GET /metrics shows each cache by its name: entries,
// bytes, its share of the budget, hits and misses. The counters are the
// process's (tests in parallel add to them), so a page list read twice
// shows at least one hit and one entry.
func TestMetricsCaches(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	e.author(t, e.admin.token, cr, insertPage("guide", "# Guide\n\nRead me.\n")).want(t, http.StatusOK)
	e.readMerge(t, cr)
	pages := "/v1/spaces/" + spaceID + "/content/pages"
	run(t, e, []scenario{
		{path: pages},
		{path: pages},
		{as: anonymous, path: "/metrics", want: []check{
			metricAtLeast(`quire_cache_hits_total{cache="revision.lists"}`, 1),
			metricAtLeast(`quire_cache_misses_total{cache="revision.lists"}`, 1),
			metricAtLeast(`quire_cache_entries{cache="revision.lists"}`, 1),
			metricAtLeast(`quire_cache_bytes{cache="revision.lists"}`, 1),
			metricAtLeast(`quire_cache_max_bytes{cache="revision.lists"}`, 1),
			metricAtLeast(`quire_cache_entries{cache="store.trees"}`, 1),
			metricAtLeast("quire_cache_budget_bytes", 1),
		}},
	})
}

// metricAtLeast wants the sample named series to be min or more.
func metricAtLeast(series string, min float64) check {
	return func(t testing.TB, r *response) {
		t.Helper()
		for line := range strings.Lines(string(r.Body)) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
				if n, err := strconv.ParseFloat(v, 64); err != nil || n < min {
					t.Errorf("%s = %s, want %v or more", series, v, min)
				}
				return
			}
		}
		t.Errorf("metrics lack %s", series)
	}
}
