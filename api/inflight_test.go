package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
)

// TestLimitInFlight: requests beyond the limit wait for room, and are
// answered 503 with Retry-After when none comes in time; health checks and
// event streams pass however busy the server is.
func TestLimitInFlight(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan struct{}, 8)
	h := api.LimitInFlight(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			started <- struct{}{}
			<-release
		}
		w.Write([]byte("ok"))
	}), 2, 300*time.Millisecond)
	srv := httptest.NewServer(h)
	defer srv.Close()

	var wg sync.WaitGroup
	statuses := make([]int, 3)
	for i := range 2 {
		wg.Go(func() { statuses[i] = get(t, srv.URL+"/slow", "").StatusCode })
	}
	<-started
	<-started
	// Both slots are taken: a third request waits, and is served once
	// one is given back within the wait.
	wg.Go(func() { statuses[2] = get(t, srv.URL+"/slow", "").StatusCode })
	time.Sleep(100 * time.Millisecond)
	release <- struct{}{}
	<-started

	// Now full again: one more waits out its time and is turned away.
	start := time.Now()
	res := get(t, srv.URL+"/fast", "")
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "1" {
		t.Errorf("over the limit: %d, Retry-After %q; want 503 with Retry-After 1", res.StatusCode, res.Header.Get("Retry-After"))
	}
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || body.Error.Code != 503 || body.Error.Message == "" {
		t.Errorf("busy body: %+v, %v", body, err)
	}
	if waited := time.Since(start); waited < 300*time.Millisecond {
		t.Errorf("turned away after %v, want after the 300ms wait", waited)
	}
	for _, c := range []struct{ path, accept string }{{"/healthz", ""}, {"/metrics", ""}, {"/events", "text/event-stream"}} {
		if res := get(t, srv.URL+c.path, c.accept); res.StatusCode != http.StatusOK {
			t.Errorf("%s while busy: %d, want 200", c.path, res.StatusCode)
		}
	}
	close(release)
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("slow request %d: %d, want 200", i, s)
		}
	}
	if res := get(t, srv.URL+"/fast", ""); res.StatusCode != http.StatusOK {
		t.Errorf("once idle: %d, want 200", res.StatusCode)
	}
}

func get(t *testing.T, url, accept string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return &http.Response{}
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}
