package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/ratelimit"
)

// RateLimits bound how many requests a caller makes per window: each API
// token, each site that site tokens are for (one budget for all its
// visitors, whom a renderer serves from one address), and each client
// address for what comes without a valid token (the public routes: single
// sign-on, PDF links, integration assets, URL lookups without a token; and
// requests whose token is refused, so tokens cannot be guessed at speed).
// Answers to limited callers carry X-RateLimit-Limit, -Remaining and -Reset
// (Unix seconds, as GitBook's API documents them); over the limit, 429 with
// Retry-After. A zero Rate limits nothing.
type RateLimits struct {
	Token ratelimit.Rate
	IP    ratelimit.Rate
	// Limiter counts; the published sites share it, so that an address has
	// one budget for both. New makes one when nil.
	Limiter *ratelimit.Limiter
}

// limitToken counts a request made with token.
func (s *Server) limitToken(w http.ResponseWriter, token string) error {
	if !s.limits.Token.On() {
		return nil
	}
	// Token keys start with store.TokenPrefix or "site:", never with "ip:".
	return s.limited(w, s.limits.Limiter.Take(token, s.limits.Token))
}

// limitPublic counts a request of a public route: by its token when it
// comes with one that is accepted (a renderer looking URLs up with its API
// token or a site token), else by its client address.
func (s *Server) limitPublic(w http.ResponseWriter, r *http.Request) error {
	if s.limits.Token.On() && r.Header.Get("Authorization") != "" {
		if a, err := s.authenticate(r); err == nil {
			return s.limitToken(w, a.limitKey())
		}
	}
	return s.limitIP(w, r)
}

// limitIP counts a request of r's client address.
func (s *Server) limitIP(w http.ResponseWriter, r *http.Request) error {
	if !s.limits.IP.On() {
		return nil
	}
	return s.limited(w, s.limits.Limiter.Take(ratelimit.ClientKey(r), s.limits.IP))
}

// limited sets the rate limit headers of d and refuses with 429 what it
// did not allow.
func (s *Server) limited(w http.ResponseWriter, d ratelimit.Decision) error {
	if d.SetHeaders(w.Header(), s.limits.Limiter.Clock()) {
		return nil
	}
	return errorf(quire.CodeTooManyRequests, "rate limit of %d requests per window exceeded; try again in %s seconds",
		d.Limit, w.Header().Get("Retry-After"))
}
