package api

import "github.com/quiredocs/quire/internal/ratelimit"

// Limiter returns the limiter that counts the server's requests.
func (s *Server) Limiter() *ratelimit.Limiter { return s.limits.Limiter }
