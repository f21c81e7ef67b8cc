package main

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRateLimitSettings: the rate limit flags are told of by -help, checked
// before the server starts, and read from the environment too.
func TestRateLimitSettings(t *testing.T) {
	stdout, _, err := runCLI(t, "serve", "-help")
	for _, f := range []string{"-rate-limit-token", "QUIRE_RATE_LIMIT_IP", "-rate-limit-ask"} {
		if err != nil || !strings.Contains(stdout, f) {
			t.Errorf("serve -help (%v) does not tell of %s", err, f)
		}
	}
	_, stderr, err := runCLI(t, "serve", "--rate-limit-ip", "lots", "--data", t.TempDir())
	if !errors.Is(err, errUsage) || !strings.Contains(stderr, "--rate-limit-ip (env QUIRE_RATE_LIMIT_IP)") {
		t.Errorf("serve --rate-limit-ip lots: %v, stderr:\n%s", err, stderr)
	}
	t.Setenv("QUIRE_RATE_LIMIT_TOKEN", "600/min")
	r, err := defaultConfig().RateLimits.parse()
	if err != nil || r.token.Limit != 600 || r.token.Per != time.Minute || r.ip.Limit != 1200 || r.ask.Limit != 30 {
		t.Errorf("from the environment and defaults: %+v, %v", r, err)
	}
}

// TestServeRateLimits: the server started with limits applies them: a
// token over its limit is answered 429, and so is an address over its own.
func TestServeRateLimits(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr logBuffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx, s.args("serve", "--addr", "127.0.0.1:0", "--rate-limit-token", "3/day", "--rate-limit-ip", "2/day"), &stdout, &stderr)
	}()
	serving := stderr.waitJSON(t, done, func(m map[string]any) bool { return m["msg"] == "quire serving" })
	base := "http://" + serving["addr"].(string)
	token := firstStartToken(t, s.data, stdout.String(), base)
	for i, want := range []int{200, 200, 200, 429} {
		if resp, _ := do(t, http.MethodGet, base+"/v1/user", token, nil); resp.StatusCode != want || resp.Header.Get("X-RateLimit-Limit") != "3" {
			t.Errorf("request %d with the token: %d, limit %q; want %d, 3", i, resp.StatusCode, resp.Header.Get("X-RateLimit-Limit"), want)
		}
	}
	for i, want := range []int{401, 401, 429} {
		if resp, _ := do(t, http.MethodGet, base+"/v1/user", "quire_guess", nil); resp.StatusCode != want || resp.Header.Get("X-RateLimit-Limit") != "2" {
			t.Errorf("guess %d: %d, limit %q; want %d, 2", i, resp.StatusCode, resp.Header.Get("X-RateLimit-Limit"), want)
		}
	}
	cancel()
	<-done
}
