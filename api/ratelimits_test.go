package api_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
)

// clock is a settable time for limiters.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// limitedServerOn is a test server over db with rate limits, counting on a
// limiter of its own whose time c tells.
func limitedServerOn(t testing.TB, db *store.DB, c *clock, limits api.RateLimits) *env {
	limits.Limiter = ratelimit.NewLimiter()
	limits.Limiter.Now = c.Now
	return &env{db: db, srv: api.New(db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()},
		Fetcher: outbound.Fetcher{AllowPrivate: true}, RateLimits: limits})}
}

// limitedEnv is newEnv with rate limits.
func limitedEnv(t testing.TB, c *clock, limits api.RateLimits) *env {
	plain := newEnv(t)
	e := limitedServerOn(t, plain.db, c, limits)
	e.org, e.admin = plain.org, plain.admin
	return e
}

// wantRateHeaders checks the X-RateLimit headers of an answer.
func wantRateHeaders(t *testing.T, r *response, limit, remaining int, reset time.Time) {
	t.Helper()
	for h, want := range map[string]string{"X-RateLimit-Limit": strconv.Itoa(limit), "X-RateLimit-Remaining": strconv.Itoa(remaining),
		"X-RateLimit-Reset": strconv.FormatInt(reset.Unix(), 10)} {
		if got := r.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
}

// TestRateLimitPerToken: a token gets its limit per window, each answer
// saying how much is left and when the window ends; then 429 with
// Retry-After in the API's error shape, while other tokens go on; the
// next window starts over.
func TestRateLimitPerToken(t *testing.T) {
	t.Parallel()
	c := &clock{now: time.Unix(1_800_000_000+15, 0)} // 15 s into a minute
	e := limitedEnv(t, c, api.RateLimits{Token: ratelimit.Rate{Limit: 3, Per: time.Minute}})
	reset := time.Unix(1_800_000_060, 0)
	for i := range 3 {
		r := e.call(t, e.admin.token, "GET", "/v1/user", nil).want(t, http.StatusOK)
		wantRateHeaders(t, r, 3, 2-i, reset)
	}
	r := e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org, nil)
	r.wantError(t, http.StatusTooManyRequests, "rate limit", "45 seconds")
	wantRateHeaders(t, r, 3, 0, reset)
	if got := r.Header.Get("Retry-After"); got != "45" {
		t.Errorf("Retry-After %q, want 45", got)
	}
	other := e.addUser(t, "read", "Otto Other")
	e.call(t, other.token, "GET", "/v1/user", nil).want(t, http.StatusOK)

	c.now = reset
	r = e.call(t, e.admin.token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	wantRateHeaders(t, r, 3, 2, reset.Add(time.Minute))
}

// TestRateLimitPerAddress: what comes without a valid token (single
// sign-on's public endpoints, refused tokens) is limited by client address,
// so tokens cannot be guessed at speed; other addresses, and valid tokens
// from the same address, go on.
func TestRateLimitPerAddress(t *testing.T) {
	t.Parallel()
	c := &clock{now: time.Unix(1_800_000_000, 0)}
	e := limitedEnv(t, c, api.RateLimits{IP: ratelimit.Rate{Limit: 2, Per: time.Minute}})
	from := func(addr, token, path string) *response {
		req := httptest.NewRequestWithContext(t.Context(), "GET", path, nil)
		req.RemoteAddr = addr
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return e.do(t, req)
	}
	sso := "/v1/orgs/" + e.org + "/sso"
	from("203.0.113.7:4000", "", sso).want(t, http.StatusOK)
	from("203.0.113.7:4001", "quire_guessed", "/v1/user").wantError(t, http.StatusUnauthorized)
	r := from("203.0.113.7:4002", "quire_guessed2", "/v1/user")
	r.wantError(t, http.StatusTooManyRequests, "rate limit")
	if r.Header.Get("Retry-After") != "60" {
		t.Errorf("Retry-After %q, want 60", r.Header.Get("Retry-After"))
	}
	from("203.0.113.7:4003", "", sso).wantError(t, http.StatusTooManyRequests)
	from("198.51.100.1:4000", "", sso).want(t, http.StatusOK)
	r = from("203.0.113.7:4004", e.admin.token, "/v1/user").want(t, http.StatusOK)
	if r.Header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("a valid token's answer carries the address's limit: %v", r.Header)
	}
	// One IPv6 host is its /64.
	from("[2001:db8::1]:4000", "", sso).want(t, http.StatusOK)
	from("[2001:db8::2]:4000", "", sso).want(t, http.StatusOK)
	from("[2001:db8::3]:4000", "", sso).wantError(t, http.StatusTooManyRequests)
	// Health checks are never limited.
	from("203.0.113.7:4005", "", "/healthz").want(t, http.StatusOK)
}

// TestRateLimitsSharedBetweenServers: two servers over one database share
// a token's count once they have synced (each about once a second), so
// the limit holds for the token whichever server it calls.
func TestRateLimitsSharedBetweenServers(t *testing.T) {
	t.Parallel()
	a0, b0 := twoServers(t)
	c := &clock{now: time.Unix(1_800_000_000, 0)}
	rate := api.RateLimits{Token: ratelimit.Rate{Limit: 4, Per: time.Minute}}
	a, b := limitedServerOn(t, a0.db, c, rate), limitedServerOn(t, b0.db, c, rate)
	aLimiter, bLimiter := a.srv.Limiter(), b.srv.Limiter()
	token := a0.admin.token
	a.call(t, token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	a.call(t, token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	a.call(t, token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	if err := aLimiter.Sync(t.Context(), a.db); err != nil {
		t.Fatal(err)
	}
	b.call(t, token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	if err := bLimiter.Sync(t.Context(), b.db); err != nil {
		t.Fatal(err)
	}
	// b has heard of a's three: the token's fourth was its last.
	b.call(t, token, "GET", "/v1/user", nil).wantError(t, http.StatusTooManyRequests)
	if err := aLimiter.Sync(t.Context(), a.db); err != nil {
		t.Fatal(err)
	}
	r := a.call(t, token, "GET", "/v1/user", nil)
	r.wantError(t, http.StatusTooManyRequests)
	wantRateHeaders(t, r, 4, 0, time.Unix(1_800_000_060, 0))
}

// BenchmarkRateLimitedGet is GET /v1/user without rate limits and with a
// limit per token: the difference is what counting adds to a request.
func BenchmarkRateLimitedGet(b *testing.B) {
	for _, bc := range []struct {
		name  string
		rates api.RateLimits
	}{{"off", api.RateLimits{}}, {"per-token", api.RateLimits{Token: ratelimit.Rate{Limit: 1 << 40, Per: time.Minute}}}} {
		b.Run(bc.name, func(b *testing.B) {
			c := &clock{now: time.Now()}
			benchGet(b, limitedEnv(b, c, bc.rates), "/v1/user")
		})
	}
}
